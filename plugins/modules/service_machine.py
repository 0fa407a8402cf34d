#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_machine
short_description: Manage one source machine - its launch-time tags, its bandwidth, its agent
version_added: 1.0.0
description:
  - Sets the launch-time settings and the bandwidth limit of one source machine, or uninstalls its agent.
  - O(move_to) moves the machine to another project of the same type, with its replication, its
    target machines and its blueprints. Which project a machine belongs to is a property of the
    machine, so moving is an option of this module rather than a module of its own; rerunning the
    task finds the machine in O(move_to) and does nothing.
  - Uninstalling (O(state=absent)) stops replication, removes the agent and deletes the machine's
    replication disks and points in time, B(but not the machines already launched from it), which
    stay in the target cloud, as the service states it does. Clean them up first if they should go.
options:
  machine:
    description: The machine, by name or ID.
    type: str
    required: true
  state:
    description: V(present) sets what the options say; V(absent) uninstalls the agent. A machine that is already gone is not an error.
    type: str
    choices: [present, absent]
    default: present
  tags:
    description:
      - Launch-time tags of the machine (the service's C(tags)), given to the machines launched from it. The order does not matter.
      - The runbooks' marks, tags that begin with C(replication.recovery/) (which recovery machine a failover committed), are kept
        as they are; M(replication.recovery.service_machine_tags) removes them when you must.
    type: list
    elements: str
  bandwidth_throttling:
    description: Bandwidth limit of this machine's replication in Mbps; V(0) means the replication configuration's limit applies.
    type: int
  move_to:
    description: Move the machine to this project, by name or ID. The other options then apply there.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs.BLOCKED
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_machine_info
  - module: replication.recovery.service_blueprint
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Tag a machine and limit its bandwidth
  replication.recovery.service_machine:
    project: production
    machine: db-1
    tags: [tier-1, database]
    bandwidth_throttling: 200

- name: Move a machine to the project of its new owners
  replication.recovery.service_machine:
    project: production
    machine: app-7
    move_to: production-payments

- name: Stop protecting a decommissioned machine (its launched machines stay)
  replication.recovery.service_machine:
    project: production
    machine: old-app-3
    state: absent
"""

RETURN = r"""
machine:
  description: The machine as the service describes it after the task; in check mode, as it would be. Absent with O(state=absent).
  returned: when O(state=present)
  type: dict
bandwidth_throttling:
  description: The machine's bandwidth limit in Mbps after the task.
  returned: when O(bandwidth_throttling) is given
  type: int
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import BLOCKED_ARGUMENT_SPEC, Jobs
from ansible_collections.replication.recovery.plugins.module_utils._marks import is_mark
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines


class MachineModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        path = "/projects/%s/machines" % project["id"]
        if params["state"] == "absent":
            current = self.lookup("machine", params["machine"], required=False, project=project)
            self.ensure_absent(current, lambda machine: Jobs.of(self, project).retry_when_busy(
                lambda: self.client.delete("%s/%s" % (path, machine["id"]))), members=["id", "replicationStatus"])
            return dict()
        if params["move_to"] is not None:
            project = self.move(project, params["move_to"])
            path = "/projects/%s/machines" % project["id"]
        machine = resolve_machines(self, project, [params["machine"]])[0]
        result = dict()
        if params["tags"] is not None:
            # The runbooks' marks are no tag of the user's: kept as they are (module_utils._marks).
            tags = params["tags"] + [tag for tag in machine.get("tags") or [] if is_mark(tag) and tag not in params["tags"]]
            machine = self.ensure(machine, dict(tags=tags), create=None, unordered=("tags",),
                                  update=lambda changes: self.client.patch("%s/%s" % (path, machine["id"]), changes))
        if params["bandwidth_throttling"] is not None:
            throttle_path = "%s/%s/bandwidthThrottling" % (path, machine["id"])
            after = self.ensure(self.client.get(throttle_path), dict(bandwidthThrottling=params["bandwidth_throttling"]), create=None,
                                update=lambda changes: self.client.patch(throttle_path, changes))
            result["bandwidth_throttling"] = after["bandwidthThrottling"]
        result["machine"] = machine
        return result

    def move(self, project, destination_name):
        """Move the machine to ``destination_name`` unless it is there already; answers the project it is in."""
        destination = self.lookup("project", destination_name)
        if destination["id"] == project["id"]:
            return project
        value = self.params["machine"]
        if self.lookup("machine", value, required=False, project=destination) is not None:
            return destination
        machine = resolve_machines(self, project, [value])[0]
        body = dict(machineIDs=[machine["id"]], destinationProjectId=destination["id"])

        def move():
            Jobs.of(self, project).retry_when_busy(lambda: self.client.post("/projects/%s/moveMachines" % project["id"], body))
            self.forget("/projects/%s/machines" % destination["id"])  # read before the move
            return destination

        # In check mode the machine stays where it is: what follows is predicted there.
        return self.change(move, before=dict(project=project["name"]), after=dict(project=destination["name"])) or project


def main():
    MachineModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            machine=dict(type="str", required=True),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            tags=dict(type="list", elements="str"),
            bandwidth_throttling=dict(type="int"),
            move_to=dict(type="str"),
            **BLOCKED_ARGUMENT_SPEC
        ),
    ).run()


if __name__ == "__main__":
    main()
