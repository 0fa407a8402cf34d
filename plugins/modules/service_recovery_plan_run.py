#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_recovery_plan_run
short_description: Run a recovery plan - launch its steps in order, or clean them up
version_added: 1.0.0
description:
  - Runs a recovery plan of a project as one job, step after step with each step's wait, and waits
    for the job to end.
  - Idempotent by state - in V(test), V(recovery) and V(cutover) mode nothing runs when every machine
    of the plan already has a live target machine of that type (unless O(force=true)); in V(cleanup)
    mode nothing runs when none has one. A run of this plan that is already going is followed, not
    started again, and a run is never sent twice by accident (see M(replication.recovery.service_launch)).
  - With O(job), the task follows a run of the plan started earlier (for example with O(wait=false))
    instead of starting one, and returns what it did.
options:
  plan:
    description: The recovery plan, by name or ID.
    type: str
    required: true
  mode:
    description: Launch test, recovery or cutover machines step by step, or terminate the plan's target machines.
    type: str
    choices: [test, recovery, cutover, cleanup]
    default: test
  point_in_time:
    description:
      - V(latest) launches each machine from its newest point in time.
      - The ID of a point in time of one of the plan's machines, or an RFC 3339 date-time, launches every
        machine from its last point at or before that moment. (A date-time is turned into the newest
        point of the plan's machines at or before it, which the service takes.)
    type: str
    default: latest
  force:
    description:
      - Run even when every machine already has a live target machine of that type, replacing them.
      - Not for recovery and cutover machines, which run production - see O(replace_production).
    type: bool
    default: false
  replace_production:
    description:
      - The plan's machines (names or IDs) whose live recovery or cutover machine this run may replace - or, in V(cleanup)
        mode, terminate. Those run production - a run that would replace one not named here fails before anything runs,
        whatever the mode and O(force) say.
    type: list
    elements: str
    version_added: 2.0.0
  job:
    description:
      - The ID of a run of this plan (its job) to follow instead of starting one - the task waits for it
        (within O(wait_timeout)) and returns what it did, as if it had started it. Nothing is sent.
      - O(mode) comes from the job; O(point_in_time) and O(force) are not used.
    type: str
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs
attributes:
  check_mode:
    support: full
    details: Nothing runs; the task says whether the plan would run.
  diff_mode:
    support: none
seealso:
  - module: replication.recovery.service_recovery_plan
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: A DR test of the whole site, step by step
  replication.recovery.service_recovery_plan_run:
    project: production
    plan: full-site
    mode: test
    wait_timeout: 7200
  register: run

- name: And its cleanup
  replication.recovery.service_recovery_plan_run:
    project: production
    plan: full-site
    mode: cleanup
"""

RETURN = r"""
job:
  description: The plan's job as the service describes it, with its log; absent when nothing ran.
  returned: when a run was started or followed
  type: dict
steps:
  description:
    - For each step, its machines that have target machines from this run. When the run failed, the machines that did
      launch before it stopped (so that a playbook can report them and clean them up).
  returned: when the task waited, outside check mode, except in mode C(cleanup)
  type: list
  elements: dict
  sample:
    - name: databases
      machines:
        - machine_id: ce77f9a4-0c1f-4c55-9a3e-2d4b5e6f7a81
          machine_name: db-1
          target_machine: {id: 5e2c1d3a-7b8f-4a6e-9c0d-1e2f3a4b5c6d, machineCloudState: running, publicIps: [203.0.113.7]}
          point_in_time_date_time: "2026-11-22T08:10:00.000000+00:00"
failed_machines:
  description: Names of the machines the failed run launched nothing for, the skipped steps' machines included.
  returned: when the run failed in a launch mode
  type: list
  elements: str
  sample: [db-1]
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import WAIT_ARGUMENT_SPEC, Jobs, log_tail, same_job
from ansible_collections.replication.recovery.plugins.module_utils._launches import TargetMachines
from ansible_collections.replication.recovery.plugins.module_utils._domain import PLAN_JOBS, PLAN_MODES
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._points import one_point_asked


class PlanRunModule(TargetMachines, ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        plan = self.lookup("recovery_plan", params["plan"], project=project)
        ids = list(dict.fromkeys(mid for step in plan["steps"]["items"] for mid in step["machineIDs"]))
        jobs = Jobs.of(self, project)
        if params["job"] is not None:
            job = jobs.get(params["job"])
            mode = next((mode for mode, job_type in PLAN_JOBS.items() if job_type == job["type"]), None)
            if mode is None:
                self.fail_json(msg="Job %s is a %s job, not a run of a recovery plan." % (job["id"], job["type"]))
            return self.outcome(project, plan, jobs.wait(job), ids, mode)
        self.within_limits(len(ids))
        matches = same_job(PLAN_JOBS[params["mode"]], ids)
        ours, waited = jobs.settle(matches)
        if waited:
            self.forget_targets(project)
        machines = resolve_machines(self, project, ids)
        if ours is None and self.nothing_to_do(project, machines, params["mode"]):
            return dict()
        if ours is None:
            self.refuse_to_replace_production(project, machines)
        body = dict(recoveryPlanID=plan["id"], executionMode=params["mode"].upper())
        point = None if params["mode"] == "cleanup" else one_point_asked(self, project, machines, params["point_in_time"])
        if point is not None:
            body["pointInTimeID"] = point
        job = jobs.run(lambda: self.client.post("/projects/%s/runRecoveryPlan" % project["id"], body), matches, wait=False, ours=ours)
        if job is None or not params["wait"]:
            return dict(job=job) if job else dict()
        return self.outcome(project, plan, jobs.wait(job), ids, params["mode"])

    def outcome(self, project, plan, job, ids, mode):
        """The run that ended: its job and, in a launch mode, each step's target machines; fails unless it COMPLETED."""
        self.forget_targets(project)
        machines = resolve_machines(self, project, ids)
        result = dict(job=job)
        if mode != "cleanup":
            failed = [m["id"] for m in self.failed_in(job, machines)] if job["status"] != "COMPLETED" else []
            launched = dict((entry["machine_id"], entry) for entry in self.launched(project, [m for m in machines if m["id"] not in failed]))
            result["steps"] = [dict(name=step["name"], machines=[launched[mid] for mid in step["machineIDs"] if mid in launched])
                               for step in plan["steps"]["items"]]
            if failed:
                names = dict((m["id"], name_of(m)) for m in machines)
                result["failed_machines"] = [names[mid] for mid in ids if mid in failed]
        if job["status"] != "COMPLETED":
            self.fail_json(msg="Recovery plan %r %s: %s" % (plan["name"], job["status"], log_tail(job, 6)), **result)
        return result

    def nothing_to_do(self, project, machines, mode):
        if mode == "cleanup":
            return not any(self.live_target(project, machine) for machine in machines)
        return not self.params["force"] and self.all_launched(project, machines, mode)


def main():
    spec = dict(
        WAIT_ARGUMENT_SPEC,
        project=dict(type="str", required=True),
        plan=dict(type="str", required=True),
        mode=dict(type="str", choices=list(PLAN_MODES), default="test"),
        point_in_time=dict(type="str", default="latest"),
        force=dict(type="bool", default=False),
        job=dict(type="str"),
        replace_production=dict(type="list", elements="str"),
    )
    PlanRunModule(argument_spec=spec).run()


if __name__ == "__main__":
    main()
