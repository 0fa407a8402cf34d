#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_point_in_time_info
short_description: Read the points in time of a machine (or of several), and pick one
version_added: 1.0.0
description:
  - Returns the points in time a machine can be launched from, newest first, and picks one - the
    latest, or the last at or before a given moment.
  - With O(machines), the same for several machines at once (their lists are read a few at a time).
options:
  machine:
    description: The machine, by name or ID. Give O(machine) or O(machines).
    type: str
  machines:
    description: Several machines, by name or ID; the result is RV(machines).
    type: list
    elements: str
    version_added: 2.0.0
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
- name: The points in time of three machines, with one read of each list a few at a time
  replication.recovery.service_point_in_time_info:
    project: production
    machines: [db-1, app-1, web-1]
  register: points

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
  returned: with O(machine)
  type: list
  elements: dict
  sample: [{id: 3e43acd2-a41a-5904-af27-4eca8be2f9b5, dateTime: "2026-11-22T08:10:00.000000+00:00"}]
point_in_time:
  description: The picked point in time; absent when there is none (initial sync not done, or none old enough).
  returned: with O(machine), when there is one
  type: dict
  sample: {id: 3e43acd2-a41a-5904-af27-4eca8be2f9b5, dateTime: "2026-11-22T08:10:00.000000+00:00"}
machines:
  description: With O(machines), each machine in the order given, with its points in time and the picked one.
  returned: with O(machines)
  type: list
  elements: dict
  version_added: 2.0.0
  contains:
    machine_id:
      description: The machine's ID.
      type: str
    machine_name:
      description: The machine's name.
      type: str
    points_in_time:
      description: Its points in time, newest first.
      type: list
      elements: dict
    point_in_time:
      description: The picked point in time; absent when there is none.
      type: dict
  sample: [{machine_id: 0b6c1d2e-5f4a-4c3b-9a8d-7e6f5a4b3c2d, machine_name: db-1, points_in_time: []}]
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._reads import POINT_IN_TIME_INFO, point_in_time_info


class PointInTimeInfoModule(ServiceModule):
    def work(self):
        return point_in_time_info(self, self.params)


def main():
    PointInTimeInfoModule(argument_spec=dict(POINT_IN_TIME_INFO), mutually_exclusive=[("machine", "machines")],
                          required_one_of=[("machine", "machines")]).run()


if __name__ == "__main__":
    main()
