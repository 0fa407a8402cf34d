#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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
from ansible_collections.replication.recovery.plugins.module_utils._plans import canonical_steps, duration_seconds, iso_duration


class RecoveryPlanModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.project(params["project"])
        path = "/projects/%s/recoveryPlans" % project["id"]
        # Recovery plans are not paged: the list is one object with all of them.
        current = self.find(self.client.get(path)["items"], "Recovery plan", params["name"])
        names = dict((m["id"], name_of(m)) for m in self.machines(project))
        if params["state"] == "absent":
            if current is not None:
                self.change(lambda: self.client.delete("%s/%s" % (path, current["id"])), before=self.readable(current, names))
            return dict()
        if params["steps"] is None:
            if current is None:
                self.fail_json(msg="Recovery plan %r does not exist; give its steps to create it." % params["name"])
            return dict(recovery_plan=current)
        steps = self.desired_steps(project)
        if current is not None and canonical_steps(current["steps"]["items"]) == canonical_steps(steps):
            return dict(recovery_plan=current)
        after = dict(current or {}, name=params["name"], steps=dict(items=steps))
        written = self.change(lambda: self.client.post(path, dict(name=params["name"], steps=dict(items=steps))) if current is None
                              else self.client.patch("%s/%s" % (path, current["id"]), dict(steps=dict(items=steps))),
                              before=self.readable(current, names), after=self.readable(after, names))
        after = written or after
        return dict(recovery_plan=after)

    def desired_steps(self, project):
        steps = []
        for step in self.params["steps"]:
            try:
                wait = iso_duration(duration_seconds(step["wait_before"]))
            except ValueError as error:
                self.fail_json(msg="Step %r: wait_before: %s." % (step["name"], error))
            machines = self.resolve_machines(project, step["machines"])
            steps.append(dict(name=step["name"], machineIDs=[m["id"] for m in machines], waitBefore=wait))
        return steps

    @staticmethod
    def readable(plan, names):
        """The plan for --diff: its steps with machine names, in order."""
        if plan is None:
            return {}
        return dict(name=plan["name"], steps=[
            dict(name=step["name"], machines=sorted(names.get(mid, mid) for mid in step.get("machineIDs", [])),
                 wait_before=iso_duration(duration_seconds(step.get("waitBefore"))))
            for step in plan["steps"]["items"]])


def main():
    RecoveryPlanModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            name=dict(type="str", required=True),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            steps=dict(type="list", elements="dict", options=dict(
                name=dict(type="str", required=True),
                machines=dict(type="list", elements="str", required=True),
                wait_before=dict(type="str", default="0"),
            )),
        ),
    ).run()


if __name__ == "__main__":
    main()
