#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_recovery_plan
short_description: Manage recovery plans - machines launched step by step, with waits between steps
version_added: 1.0.0
description:
  - Creates, updates or deletes a recovery plan of a project, found by O(name).
  - The order of the steps matters; the order of the machines inside a step does not. Waits compare
    by their length, however they are written.
  - Run a plan with M(replication.recovery.service_recovery_plan_run).
options:
  name:
    description: Name of the plan; unique in the project.
    type: str
    required: true
  state:
    description: V(present) creates the plan or brings it to O(steps); V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  steps:
    description: The steps, in the order they run. Required to create a plan.
    type: list
    elements: dict
    suboptions:
      name:
        description: Name of the step.
        type: str
        required: true
      machines:
        description: The machines the step launches, by name or ID. Unknown names fail the task before anything is written.
        type: list
        elements: str
        required: true
      wait_before:
        description: How long the step waits after the previous one ended - seconds (V(90)) or an ISO 8601 duration (V(PT1M30S)).
        type: str
        default: "0"
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_recovery_plan_run
  - module: replication.recovery.service_recovery_plan_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Databases first, then the application, then the web tier
  replication.recovery.service_recovery_plan:
    project: production
    name: full-site
    steps:
      - name: databases
        machines: [db-1, db-2]
      - name: application
        machines: [app-1]
        wait_before: PT2M
      - name: web
        machines: [web-1, web-2]
        wait_before: 300
"""

RETURN = r"""
recovery_plan:
  description: The plan as the service describes it after the task; in check mode, as it would be. Absent with O(state=absent).
  returned: when O(state=present)
  type: dict
  sample:
    id: 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d
    name: full-site
    steps:
      items:
        - {name: databases, machineIDs: [ce77f9a4-0c1f-4c55-9a3e-2d4b5e6f7a81], waitBefore: PT0S}
        - {name: web, machineIDs: [67f6f566-a9a0-4222-8b8e-5944261765f0], waitBefore: PT5M}
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_duration, parse_duration
from ansible_collections.replication.recovery.plugins.module_utils._plans import canonical_steps
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import project_machines, resolve_machines

OPTIONS = dict(
    project=dict(type="str", required=True),
    name=dict(type="str", required=True, member="name"),
    state=dict(type="str", choices=["present", "absent"], default="present"),
    steps=dict(type="list", elements="dict", member="steps", lookup="step", convert=lambda steps: dict(items=steps), options=dict(
        name=dict(type="str", required=True),
        machines=dict(type="list", elements="str", required=True),
        wait_before=dict(type="str", default="0"),
    )),
)


class RecoveryPlanModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        path = "/projects/%s/recoveryPlans" % project["id"]
        current = self.lookup("recovery_plan", self.params["name"], required=False, project=project)
        names = dict((m["id"], name_of(m)) for m in project_machines(self, project))
        if self.params["state"] == "absent":
            self.ensure_absent(current, lambda plan: self.client.delete("%s/%s" % (path, plan["id"])), shown=lambda plan: readable(plan, names))
            return dict()
        if self.params["steps"] is None:
            if current is None:
                self.fail_json(msg="Recovery plan %r does not exist; give its steps to create it." % self.params["name"])
            return dict(recovery_plan=current)
        plan = self.ensure(current, self.desired(current, project=project), create=lambda body: self.client.post(path, body),
                           update=lambda changes: self.client.patch("%s/%s" % (path, current["id"]), changes),
                           compare=lambda current, desired: {} if same_steps(current, desired) else dict(steps=desired["steps"]),
                           shown=lambda plan: readable(plan, names))
        return dict(recovery_plan=plan)

    def step(self, step, project, **scope):
        try:
            wait = iso_duration(parse_duration(step["wait_before"], "wait_before"))
        except ValueError as error:
            self.fail_json(msg="Step %r: wait_before: %s." % (step["name"], error))
        return dict(name=step["name"], machineIDs=[m["id"] for m in resolve_machines(self, project, step["machines"])], waitBefore=wait)


def same_steps(current, desired):
    return canonical_steps(current["steps"]["items"]) == canonical_steps(desired["steps"]["items"])


def readable(plan, names):
    """The plan for --diff: its steps with machine names, in order."""
    return dict(name=plan["name"], steps=[
        dict(name=step["name"], machines=sorted(names.get(mid, mid) for mid in step.get("machineIDs", [])),
             wait_before=iso_duration(parse_duration(step.get("waitBefore"))))
        for step in plan["steps"]["items"]])


def main():
    RecoveryPlanModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
