#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_project_info
short_description: Read projects of the Replication and Recovery Service
version_added: 1.0.0
description:
  - Returns one project, by name or ID, some by name or pattern, or all projects the user may see.
  - With O(machines=true), also each project's machines and how their replication is - what
    M(replication.recovery.service_machine_info) says of them - for a view across the whole fleet. That costs one list
    of machines per project and one look at the service's clock, nothing per machine.
options:
  name:
    description: Name or ID of the project to return. All projects if not given; none when it matches no project.
    type: str
  names:
    description:
      - Names, IDs or glob patterns (for example V(prod-*)) of the projects to return. A value that matches no project
        fails the task, naming the known ones.
    type: list
    elements: str
  machines:
    description: Also return each project's machines (stopped ones included), with their replication state, lag and backlog.
    type: bool
    default: false
  lag_threshold:
    description: With O(machines=true), seconds of lag above which a replicating machine is V(lagging) rather than V(continuous).
    type: int
    default: 600
  stale_after:
    description: With O(machines=true), seconds without a word from a machine's agent after which it is V(stale).
    type: int
    default: 900
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_project
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Every project
  replication.recovery.service_project_info:
  register: all_projects

- name: One project
  replication.recovery.service_project_info:
    name: production
  register: production

- name: Its ID
  ansible.builtin.debug:
    msg: "{{ production.projects[0].id }}"

- name: The production projects with their machines' replication
  replication.recovery.service_project_info:
    names: ["prod-*"]
    machines: true
  register: fleet

- name: The machines that lag
  ansible.builtin.debug:
    msg: "{{ fleet.projects | map(attribute='machines') | flatten | selectattr('replication_state', 'eq', 'lagging') | map(attribute='name') }}"
"""

RETURN = r"""
projects:
  description:
    - The projects, as the service describes them; empty when O(name) matches none.
    - With O(machines=true), each has C(machines), as RV(replication.recovery.service_machine_info#module:machines) describes them,
      and C(service_time), the service's clock read just before its machines, which their lags are measured against (see
      RV(service_time)).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0f8d5a43-3d5b-4a4e-9d43-7a6c2c0c1e11
      name: production
      type: DR
      replicationConfiguration: 454ad2b0-5148-4a67-a4b2-d2b190c75c8b
      cloudCredentialsIDs: [d17e8db2-194a-4e5c-bdb1-e4dca17da47e]
service_time:
  description:
    - The service's clock read just before the first project's machines (not after them - a clock read retried after the
      machines would count the retries as the machines' silence).
    - A project whose machines had to be read again (the service did not answer at once) has them read again next to
      a new reading of the clock, so that the time the retries took is neither counted as silence nor hides any; that
      project's own C(service_time) says which.
  returned: with O(machines=true)
  type: str
  sample: "2026-11-22T08:15:04.000000+00:00"
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._reads import PROJECT_INFO, project_info


class ProjectInfoModule(ServiceModule):
    def work(self):
        return project_info(self, self.params)


def main():
    ProjectInfoModule(argument_spec=dict(PROJECT_INFO), mutually_exclusive=[("name", "names")]).run()


if __name__ == "__main__":
    main()
