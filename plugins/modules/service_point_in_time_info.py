#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_point_in_time_info
short_description: Read the points in time of a machine, and pick one
version_added: 1.0.0
description:
  - Returns the points in time a machine can be launched from, newest first, and picks one - the
    latest, or the last at or before a given moment.
options:
  machine:
    description: The machine, by name or ID.
    type: str
    required: true
  at_or_before:
    description:
      - Pick the last point in time at or before this moment, an RFC 3339 date-time such as
        V(2026-11-22T08:00:00Z) (no offset means UTC). The latest if not given.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: The point in time of last midnight
  replication.recovery.service_point_in_time_info:
    project: production
    machine: db-1
    at_or_before: "{{ '%Y-%m-%dT00:00:00Z' | strftime }}"
  register: midnight

- name: Launch from it
  replication.recovery.service_launch:
    project: production
    machines: [db-1]
    point_in_time: "{{ midnight.point_in_time.id }}"
"""

RETURN = r"""
points_in_time:
  description: The machine's points in time, newest first, as the service describes them.
  returned: always
  type: list
  elements: dict
  sample: [{id: 3e43acd2-a41a-5904-af27-4eca8be2f9b5, dateTime: "2026-11-22T08:10:00.000000+00:00"}]
point_in_time:
  description: The picked point in time; absent when there is none (initial sync not done, or none old enough).
  returned: when there is one
  type: dict
  sample: {id: 3e43acd2-a41a-5904-af27-4eca8be2f9b5, dateTime: "2026-11-22T08:10:00.000000+00:00"}
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._machines import pick_point


class PointInTimeInfoModule(ServiceModule):
    def work(self):
        params = self.params
        moment = self.moment("at_or_before", params["at_or_before"])
        project = self.project(params["project"])
        machine = self.resolve_machines(project, [params["machine"]])[0]
        points = self.points_in_time(project, machine)
        picked = pick_point(points, moment)
        return dict(points_in_time=points, **(dict(point_in_time=picked) if picked else {}))


def main():
    PointInTimeInfoModule(
        argument_spec=dict(project=dict(type="str", required=True), machine=dict(type="str", required=True), at_or_before=dict(type="str")),
    ).run()


if __name__ == "__main__":
    main()
