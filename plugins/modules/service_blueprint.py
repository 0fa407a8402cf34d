#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_blueprint
short_description: Manage how a machine is launched in a region (its blueprint)
version_added: 1.0.0
description:
  - Sets the launch settings of one source machine for one target region - instance type,
    network, addresses, IAM role, tags, disks. The service keeps one blueprint per machine and region.
  - Reads the blueprint, changes what the options say and writes back only what differs; members
    you do not name are never dropped. O(disks) change only the disks they name.
options:
  machine:
    description: The source machine, by name or ID.
    type: str
    required: true
  region:
    description: The target region, by name or ID. The region of the project's default replication configuration if not given.
    type: str
  instance_type:
    description: Instance type of the launched machine; one the region offers.
    type: str
  subnets:
    description: Subnets of the launched machine, by ID or name. The order does not matter.
    type: list
    elements: str
  security_groups:
    description: Security groups of the launched machine, by ID or name. The order does not matter.
    type: list
    elements: str
  private_ip_action:
    description: How the launched machine gets its private IP address.
    type: str
    choices: [CREATE_NEW, COPY_ORIGIN, CUSTOM_IP, USE_NETWORK_INTERFACE]
  private_ips:
    description: Private IP addresses, with O(private_ip_action=CUSTOM_IP).
    type: list
    elements: str
  public_ip_action:
    description: Whether the launched machine gets a public IP address.
    type: str
    choices: [ALLOCATE, DONT_ALLOCATE, AS_SUBNET]
  static_ip:
    description: A static (elastic) IP address for the launched machine.
    type: str
  static_ip_action:
    description: How the static IP address is used, as the service names it.
    type: str
  iam_role:
    description: IAM role of the launched machine; one the region offers.
    type: str
  tenancy:
    description: Tenancy of the launched machine.
    type: str
    choices: [SHARED, DEDICATED, HOST]
  placement_group:
    description: Placement group of the launched machine.
    type: str
  run_after_launch:
    description: Whether the launched machine runs after launch.
    type: bool
  tags:
    description: Tags of the launched machine, as a dictionary of key and value.
    type: dict
  disks:
    description: Settings of the launched machine's disks, by disk name; disks not named keep theirs.
    type: list
    elements: dict
    suboptions:
      name:
        description: Name of the source disk.
        type: str
        required: true
      type:
        description: Volume type of the launched disk.
        type: str
      iops:
        description: Provisioned IOPS of the launched disk.
        type: int
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Launch the database server big, private, on fast disks
  replication.recovery.service_blueprint:
    project: production
    machine: db-1
    instance_type: r5.large
    subnets: [private-a]
    security_groups: [default]
    public_ip_action: DONT_ALLOCATE
    private_ip_action: CUSTOM_IP
    private_ips: [10.20.0.15]
    tags: {role: database, dr: "true"}
    disks:
      - name: /dev/sdb
        type: io2
        iops: 6000
"""

RETURN = r"""
blueprint:
  description: The blueprint as the service describes it after the task; in check mode, as it would be.
  returned: always
  type: dict
  sample:
    id: 2b7e9c1a-55d3-4c2e-8f0a-3f6d2e1b9a44
    machineId: 9db2cf6d-4b41-41b5-8f77-b40af8fa16ff
    machineName: db-1
    region: 8c94d736-9a3e-5ef5-88c4-c3f1daf9ae3c
    instanceType: r5.large
    publicIPAction: DONT_ALLOCATE
    tags: [{key: role, value: database}]
    disks: [{name: /dev/sda, type: SSD}, {name: /dev/sdb, type: io2, iops: 6000}]
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._compare import key_values
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._regions import target_region

OPTIONS = dict(
    project=dict(type="str", required=True),
    machine=dict(type="str", required=True),
    region=dict(type="str"),
    instance_type=dict(type="str", member="instanceType"),
    subnets=dict(type="list", elements="str", member="subnetIDs", lookup="subnet", unordered=True),
    security_groups=dict(type="list", elements="str", member="securityGroupIDs", lookup="security_group", unordered=True),
    private_ip_action=dict(type="str", choices=["CREATE_NEW", "COPY_ORIGIN", "CUSTOM_IP", "USE_NETWORK_INTERFACE"], member="privateIPAction"),
    private_ips=dict(type="list", elements="str", member="privateIPs", unordered=True),
    public_ip_action=dict(type="str", choices=["ALLOCATE", "DONT_ALLOCATE", "AS_SUBNET"], member="publicIPAction"),
    static_ip=dict(type="str", member="staticIp"),
    static_ip_action=dict(type="str", member="staticIpAction"),
    iam_role=dict(type="str", member="iamRole"),
    tenancy=dict(type="str", choices=["SHARED", "DEDICATED", "HOST"], member="tenancy"),
    placement_group=dict(type="str", member="placementGroup"),
    run_after_launch=dict(type="bool", member="runAfterLaunch"),
    tags=dict(type="dict", member="tags", convert=key_values, unordered=True),
    disks=dict(type="list", elements="dict", member="disks",
               options=dict(name=dict(type="str", required=True), type=dict(type="str"), iops=dict(type="int"))),
)


class BlueprintModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        machine = resolve_machines(self, project, [self.params["machine"]])[0]
        region = target_region(self, project, self.params["region"])
        path = "/projects/%s/blueprints" % project["id"]
        current = next((b for b in self.list(path) if b["machineId"] == machine["id"] and b["region"] == region["id"]), None)
        desired = self.desired(current, region=region)
        if "disks" in desired:
            desired["disks"] = merged_disks((current or {}).get("disks", []), desired["disks"])
        blueprint = self.ensure(current, desired,
                                create=lambda body: self.client.post(path, dict(body, machineId=machine["id"], region=region["id"])),
                                update=lambda changes: self.client.patch("%s/%s" % (path, current["id"]), changes))
        return dict(blueprint=blueprint)


def merged_disks(current, changes):
    """The current disks with the named ones changed; disks not named keep their settings."""
    disks = [dict(disk) for disk in current]
    for change in changes:
        settings = dict((key, value) for key, value in change.items() if value is not None)
        disk = next((d for d in disks if d["name"] == change["name"]), None)
        if disk is None:
            disks.append(settings)
        else:
            disk.update(settings)
    return disks


def main():
    BlueprintModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
