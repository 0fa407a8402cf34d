#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_recovery_plan_info
short_description: Read the recovery plans of a project
version_added: 1.0.0
description:
  - Returns one recovery plan of a project, by name or ID, or all of them, with the names of the
    machines of each step beside their IDs.
options:
  name:
    description: Name or ID of the plan to return. All plans if not given.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_recovery_plan
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: The plans of the project
  replication.recovery.service_recovery_plan_info:
    project: production
  register: plans
"""

RETURN = r"""
recovery_plans:
  description: The plans as the service describes them; each step also has C(machine_names).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d
      name: full-site
      steps:
        items:
          - {name: databases, machineIDs: [ce77f9a4-0c1f-4c55-9a3e-2d4b5e6f7a81], waitBefore: PT0S, machine_names: [db-1]}
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._reads import RECOVERY_PLAN_INFO, recovery_plan_info


class RecoveryPlanInfoModule(ServiceModule):
    def work(self):
        return recovery_plan_info(self, self.params)


def main():
    RecoveryPlanInfoModule(argument_spec=dict(RECOVERY_PLAN_INFO)).run()


if __name__ == "__main__":
    main()
