#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_blueprint_info
short_description: Read machines' launch settings (blueprints) for a region, and prove them against what the region offers
version_added: 2.0.0
description:
  - Returns the blueprints of a project's machines for one target region.
  - With O(validate=true), compares every blueprint with what the region offers now - its subnets,
    security groups (in one network), instance types, IAM roles, static addresses, disk types, and
    custom private addresses inside their subnet's range - and names each problem per machine, with
    the offending value and what the region has instead. Only what the blueprint names and the
    region lists is judged; RV(unchecked) names what could not be.
  - The service checks a blueprint when it is written; it goes stale when the cloud changes under it
    (a subnet deleted in the cloud account), and a launch then fails only inside its job. The
    runbooks run this check in their preflight, before anything is launched.
  - Reads three or four lists, however many machines the project has.
options:
  machines:
    description: The machines, by name or ID. All machines of the project if not given.
    type: list
    elements: str
  region:
    description:
      - The target region, by name or ID. The region of the project's default replication configuration if not given.
    type: str
  validate:
    description: Also compare each blueprint with what the region offers, and return the problems.
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_blueprint
  - module: replication.recovery.service_cloud_credentials_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Prove every machine's launch settings before a DR test
  replication.recovery.service_blueprint_info:
    project: production
    validate: true
  register: settings

- name: Stop when a blueprint names what the region does not offer
  ansible.builtin.assert:
    that: settings.problems | length == 0
    fail_msg: "{{ settings.problems }}"
"""

RETURN = r"""
region:
  description: The region the blueprints are for.
  returned: always
  type: dict
  sample: {id: 8c94d736-9a3e-5ef5-88c4-c3f1daf9ae3c, name: us-east-1}
blueprints:
  description: The machines' blueprints for the region, as the service describes them; with O(validate=true), each with its C(problems).
  returned: always
  type: list
  elements: dict
  sample:
    - machineName: web-1
      instanceType: t3.medium
      subnetIDs: [subnet-0b09c00dbba0e596a]
      problems:
        - member: subnetIDs
          value: subnet-0b09c00dbba0e596a
          message: subnet subnet-0b09c00dbba0e596a is not in region us-east-1; it has private-a (subnet-4f1c0e2d9a8b7c6d5)
problems:
  description: The problems of each machine that has some, by machine name - one message each. Empty when every blueprint holds.
  returned: when O(validate=true)
  type: dict
  sample:
    web-1: ["subnet subnet-0b09c00dbba0e596a is not in region us-east-1; it has private-a (subnet-4f1c0e2d9a8b7c6d5)"]
unchecked:
  description:
    - What each machine's blueprint names that could not be judged, by machine name. The published interface gives no
      subnet's address range and no region's disk types, so a custom private address and a disk type are judged only
      against a service that sends them.
  returned: when O(validate=true)
  type: dict
  sample:
    db-1: ["disk type SSD (the service gives no region's disk types)"]
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import problems_by_machine, unchecked_by_machine
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._regions import blueprints_proven


class BlueprintInfoModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        wanted = None if params["machines"] is None else set(machine["id"] for machine in resolve_machines(self, project, params["machines"]))
        region, blueprints = blueprints_proven(self, project, params["region"], wanted)
        result = dict(region=dict(id=region["id"], name=region.get("name")), blueprints=blueprints)
        if params["validate"]:
            result.update(problems=problems_by_machine(blueprints), unchecked=unchecked_by_machine(blueprints))
        for blueprint in blueprints:
            blueprint.pop("switched", None)  # service_machine_info names the switched ones
            blueprint.pop("unchecked")  # by machine in the result
            if not params["validate"]:
                del blueprint["problems"]
        return result


def main():
    BlueprintInfoModule(argument_spec=dict(project=dict(type="str", required=True), machines=dict(type="list", elements="str"),
                                           region=dict(type="str"), validate=dict(type="bool", default=False))).run()


if __name__ == "__main__":
    main()
