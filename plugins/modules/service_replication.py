#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_replication
short_description: Start, stop or pause replication of source machines
version_added: 1.0.0
description:
  - Brings the replication of a project's machines to O(state), asking the service only for the
    machines that are not there yet.
  - Stopping replication tears down the replication servers and disks of those machines; starting
    them again begins a full initial sync. Pausing keeps everything, and replication goes on from
    where it was when started again.
  - The service refuses some changes for some machines (for example, pausing a stopped machine) and
    reports their IDs; the task fails with them unless O(allow_partial=true).
options:
  machines:
    description:
      - The machines, by name or ID. All machines of the project if not given. Unknown names fail
        the task before anything is changed.
    type: list
    elements: str
  state:
    description: The replication status the machines should have.
    type: str
    choices: [started, stopped, paused]
    default: started
  allow_partial:
    description: Succeed even when the service refuses the change for some of the machines; they are returned in RV(invalid_machine_ids).
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs.BLOCKED
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_machine_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Replicate every machine of the project
  replication.recovery.service_replication:
    project: production

- name: Pause the database servers during the month-end run
  replication.recovery.service_replication:
    project: production
    machines: [db-1, db-2]
    state: paused
"""

RETURN = r"""
machines:
  description: The machines named (all, by default) as the service describes them after the task; in check mode, as they would be.
  returned: always
  type: list
  elements: dict
changed_machines:
  description: IDs of the machines whose replication status changed (or, in check mode, would change).
  returned: always
  type: list
  elements: str
invalid_machine_ids:
  description: IDs of the machines for which the service refused the change.
  returned: always
  type: list
  elements: str
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import BLOCKED_ARGUMENT_SPEC, Jobs
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines

ACTIONS = {"started": ("STARTED", "startReplication"), "stopped": ("STOPPED", "stopReplication"), "paused": ("PAUSED", "pauseReplication")}


class ReplicationModule(ServiceModule):
    def work(self):
        params = self.params
        status, action = ACTIONS[params["state"]]
        project = self.lookup("project", params["project"])
        machines = resolve_machines(self, project, params["machines"])
        to_change = [m for m in machines if m.get("replicationStatus") != status]
        invalid = []
        if to_change:
            body = dict(machineIDs=[m["id"] for m in to_change])
            answer = self.change(lambda: Jobs.of(self, project).retry_when_busy(lambda: self.client.post("/projects/%s/%s" % (project["id"], action), body)),
                                 before=dict((name_of(m), m.get("replicationStatus")) for m in to_change),
                                 after=dict((name_of(m), status) for m in to_change),
                                 wrote=lambda answer: len(answer.get("invalidMachineIDs", [])) < len(to_change))
            if answer is None:  # check mode
                changed = dict((m["id"], dict(m, replicationStatus=status)) for m in to_change)
            else:
                changed = dict((m["id"], m) for m in answer["items"])
                invalid = answer.get("invalidMachineIDs", [])
            machines = [changed.get(m["id"], m) for m in machines]
        result = dict(machines=machines, invalid_machine_ids=invalid,
                      changed_machines=[m["id"] for m in to_change if m["id"] not in invalid])
        if invalid and not params["allow_partial"]:
            names = dict((m["id"], name_of(m)) for m in machines)
            others = "; the others changed" if result["changed_machines"] else ""
            self.fail_json(msg="The service refused to set replication %s for %s%s. Set allow_partial: true to accept that."
                           % (params["state"], ", ".join(names.get(i, i) for i in invalid), others), **result)
        return result


def main():
    ReplicationModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            machines=dict(type="list", elements="str"),
            state=dict(type="str", choices=["started", "stopped", "paused"], default="started"),
            allow_partial=dict(type="bool", default=False),
            **BLOCKED_ARGUMENT_SPEC
        ),
    ).run()


if __name__ == "__main__":
    main()
