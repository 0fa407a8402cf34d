#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_launch
short_description: Launch test, recovery or cutover machines from replicated data
version_added: 1.0.0
description:
  - Launches target machines for source machines of a project, from their latest point in time or
    one you choose, and waits for the launch job to end.
  - Idempotent - when every machine already has a live target machine of this launch type (from
    the point in time asked for, if one was), nothing is launched; when a launch job of this type
    for these machines is already running, the task follows it instead of starting another.
  - Relaunching (with O(force=true)) replaces a machine's previous target machine; the service
    terminates it first.
  - A launch is never sent twice by accident - when the connection drops after the request went
    out, the task looks for the job the request may have created before it sends again.
  - A job that fails for some machines fails the task, with the job's log lines for those machines.
  - With O(job), the task follows a launch job started earlier (for example with O(wait=false)) instead
    of starting one, and returns what it launched.
options:
  machines:
    description:
      - The machines to launch, by name or ID. Every machine whose replication is not stopped, if
        not given. Unknown names fail the task before anything is launched.
    type: list
    elements: str
  launch_type:
    description:
      - V(test) for a DR test, V(recovery) for a real failover, V(cutover) for the end of a
        migration, V(debug) for a test launch that runs O(debug_scripts).
      - V(restore) launches restore servers of a backup project (C(launchRestoreServers)) - beside each machine's target
        machine, which they leave alone. Its job is a C(RESTORE_LAUNCH); RV(launched) gives each machine's newest restore
        server. The interface does not say which C(launchType) a restore launch's body takes - the module sends C(TEST).
        Idempotent as the others - when every machine has a live restore server (from the point asked for), nothing is
        launched.
      - Recovery and cutover launches make reverse replication possible afterwards.
    type: str
    choices: [test, recovery, cutover, debug, restore]
    default: test
  point_in_time:
    description:
      - V(latest) (the default) launches each machine from its newest point in time.
      - The ID of a point in time launches its machine from it, and the other machines from their
        last point at or before its moment.
      - An RFC 3339 date-time (for example V(2026-11-22T08:00:00Z)) launches each machine from its
        last point at or before that moment; a machine that has none fails the task before anything
        is launched.
    type: str
    default: latest
  points_in_time:
    description:
      - A point in time for each of some machines - the machine's name or ID, and the ID of one of its
        points in time. Those machines launch from the point given; the others as O(point_in_time) says.
      - A point that is not one of its machine's fails the task before anything is launched.
    type: dict
    version_added: 2.0.0
  force:
    description:
      - Launch even when the machines already have live target machines of this type, replacing them.
      - Not for recovery and cutover machines, which run production - see O(replace_production).
    type: bool
    default: false
  replace_production:
    description:
      - Machines (names or IDs) whose live recovery or cutover machine this launch may replace. A launch terminates a
        machine's target machine before it launches the new one; recovery and cutover machines run production, so a
        machine that has one and is not named here fails the task before anything is launched, whatever the launch type
        and O(force) say.
    type: list
    elements: str
    version_added: 2.0.0
  check_points:
    description:
      - Read the machines' points in time to check the points given by ID (O(points_in_time)) and to return the time of
        each launched machine's point. V(false) trusts the IDs given, and returns no C(point_in_time_date_time) - for a
        caller that read the points just before (a runbook that pinned them), so that they are not read twice.
    type: bool
    default: true
    version_added: 2.0.0
  job:
    description:
      - The ID of a launch job of the project to follow instead of starting one - the task waits for it
        (within O(wait_timeout)) and returns RV(launched) as if it had started it. Nothing is sent.
      - Not with O(machines) or O(debug_scripts); O(launch_type), O(point_in_time) and O(force) are not used.
    type: str
  debug_scripts:
    description: Scripts a V(debug) launch runs in the target machine.
    type: dict
    suboptions:
      preboot:
        description: Scripts run before the machine boots.
        type: list
        elements: str
        default: []
      postboot:
        description: Scripts run after the machine booted.
        type: list
        elements: str
        default: []
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs
attributes:
  check_mode:
    support: full
    details: Nothing is launched; the task says whether it would launch, and for which machines.
  diff_mode:
    support: none
seealso:
  - module: replication.recovery.service_replica_cleanup
  - module: replication.recovery.service_point_in_time_info
  - module: replication.recovery.service_job_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Test machines for the whole project
  replication.recovery.service_launch:
    project: production
    launch_type: test
  register: launch

- name: Their addresses
  ansible.builtin.debug:
    msg: "{{ launch.launched | map(attribute='target_machine.publicIps') | flatten }}"

- name: Start a launch of many machines and follow it in slices, showing progress
  replication.recovery.service_launch:
    project: production
    wait: false
  register: started

- name: What the launch did, once it has ended
  replication.recovery.service_launch:
    project: production
    job: "{{ started.job.id }}"
  register: launch

- name: Recover the databases as they were at 06:00
  replication.recovery.service_launch:
    project: production
    machines: [db-1, db-2]
    launch_type: recovery
    point_in_time: "2026-11-22T06:00:00Z"
    wait_timeout: 3600
"""

RETURN = r"""
job:
  description: The launch job as the service describes it, with its log; absent when nothing was launched.
  returned: when a job was started or followed
  type: dict
  sample:
    id: 6a1f8c2e-0d4b-4e1a-9a55-2c7e3f0b9d11
    type: TEST_LAUNCH
    status: COMPLETED
    participatingMachines: [9db2cf6d-4b41-41b5-8f77-b40af8fa16ff]
    log: [{message: Job started., logDateTime: "2026-11-22T08:15:05.000000+00:00"}]
launched:
  description:
    - For each machine, its target machine after the task. Absent in check mode and with O(wait=false).
    - When the job failed, the machines that did launch (so that a playbook can report them and clean them up).
  returned: when the task waited, outside check mode
  type: list
  elements: dict
  contains:
    machine_id:
      description: ID of the source machine.
      type: str
    machine_name:
      description: Name of the source machine.
      type: str
    target_machine:
      description: The target machine as the service describes it (C(id), C(machineCloudId), C(machineCloudState), C(publicIps), C(pointInTime), ...).
      type: dict
    point_in_time_date_time:
      description: When the point in time the target machine was launched from was taken.
      type: str
failed_machines:
  description: Names of the machines the failed job launched nothing for.
  returned: when the launch job failed
  type: list
  elements: str
  sample: [db-1]
points_in_time:
  description:
    - The point in time each machine launches from, when a point or a moment was asked for (none for
      V(latest), which the service picks as it launches). In check mode too, for the plan of a launch.
  returned: when a point in time or a moment was asked for
  type: list
  elements: dict
  version_added: 2.0.0
  contains:
    machine_id:
      description: ID of the source machine.
      type: str
    machine_name:
      description: Name of the source machine.
      type: str
    point_in_time:
      description: The point in time, as the service describes it (C(id), C(dateTime)).
      type: dict
would_launch:
  description:
    - In check mode, the names of the machines the task would launch; empty when nothing would be launched.
    - Outside check mode always empty - the machines launched are in RV(launched), and those of the job in RV(job).
  returned: always
  type: list
  elements: str
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._jobs import WAIT_ARGUMENT_SPEC, Jobs, log_tail, same_job
from ansible_collections.replication.recovery.plugins.module_utils._launches import TargetMachines
from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    LAUNCH_JOBS, LAUNCH_PATH, LAUNCH_PATHS, LAUNCH_TYPES, RESTORE, launch_job_type)
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import project_machines, resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._points import points_asked


class LaunchModule(TargetMachines, ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        jobs = Jobs.of(self, project)
        if params["job"] is not None:
            job = jobs.get(params["job"])
            if job["type"] not in LAUNCH_JOBS.values():
                self.fail_json(msg="Job %s is a %s job, not a launch." % (job["id"], job["type"]))
            ids = job.get("participatingMachines", [])
            return self.outcome(project, jobs.follow(job, self.failed(project, ids)), ids)
        machines = resolve_machines(self, project, params["machines"]) if params["machines"] is not None else [
            m for m in project_machines(self, project) if m.get("replicationStatus") != "STOPPED"]
        if not machines:
            self.fail_json(msg="Project %r has no machine to launch." % project["name"])
        ids = [m["id"] for m in machines]
        matches = same_job(launch_job_type(params["launch_type"]), ids)
        self.within_limits(len(ids))
        ours, waited = jobs.settle(matches)
        if waited:
            self.forget_targets(project)
            machines = resolve_machines(self, project, ids)
        points = points_asked(self, project, machines, params["point_in_time"], params["points_in_time"], params["check_points"])
        chosen = dict(points_in_time=[dict(machine_id=m["id"], machine_name=name_of(m), point_in_time=points[m["id"]])
                                      for m in machines if m["id"] in points]) if points else {}
        restore = params["launch_type"] == RESTORE
        if ours is None and not params["force"] and self.all_launched(project, machines, params["launch_type"], points):
            return dict(chosen, launched=self.launched(project, machines, points=params["check_points"], launch_type=params["launch_type"]),
                        would_launch=[])
        if ours is None and not restore:  # a restore server is launched beside the machine's target machine, which it leaves alone
            self.refuse_to_replace_production(project, machines)
        body = dict(launchType="TEST" if restore else params["launch_type"].upper(),
                    items=[dict(machineId=m["id"], **({"pointInTimeId": points[m["id"]]["id"]} if m["id"] in points else {})) for m in machines])
        if params["launch_type"] == "debug" and params["debug_scripts"]:
            body["debugScripts"] = params["debug_scripts"]
        path = "/projects/%s/%s" % (project["id"], LAUNCH_PATHS.get(params["launch_type"], LAUNCH_PATH))
        job = jobs.run(lambda: self.client.post(path, body), matches, wait=params["wait"], ours=ours, failed=self.failed(project, ids))
        if job is None:
            return dict(chosen, would_launch=[name_of(m) for m in machines])
        return dict(chosen, **(self.outcome(project, job, ids) if params["wait"] else dict(job=job, would_launch=[])))

    def outcome(self, project, job, ids):
        """What the launch job that COMPLETED launched."""
        self.forget_targets(project)
        return dict(job=job, would_launch=[], launched=self.launched(project, resolve_machines(self, project, ids), points=self.params["check_points"],
                                                                     launch_type=self.launch_type_of(job)))

    def launch_type_of(self, job):
        """The launch type of a launch job: the one asked for, or a restore's, whose job says so."""
        return RESTORE if job.get("type") == LAUNCH_JOBS[RESTORE] else self.params["launch_type"]

    def failed(self, project, ids):
        """What fails the task when the launch job fails: the machines without a target machine from it, with their log lines."""
        def fail(job):
            self.forget_targets(project)
            machines = resolve_machines(self, project, ids)
            failed = [name_of(machine) for machine in self.failed_in(job, machines, project)]
            lines = " ".join(line["message"] for line in job.get("log", []) if any(name in line["message"] for name in failed))
            self.fail_json(msg="Launch job %s %s for %s: %s" % (job["id"], job["status"], ", ".join(failed) or "the project", lines or log_tail(job, 3)),
                           failed_machines=failed, job=job, would_launch=[],
                           launched=self.launched(project, [machine for machine in machines if name_of(machine) not in failed],
                                                  points=self.params["check_points"], launch_type=self.launch_type_of(job)))
        return fail


def main():
    spec = dict(
        WAIT_ARGUMENT_SPEC,
        project=dict(type="str", required=True),
        machines=dict(type="list", elements="str"),
        launch_type=dict(type="str", choices=list(LAUNCH_TYPES), default="test"),
        point_in_time=dict(type="str", default="latest"),
        points_in_time=dict(type="dict"),
        force=dict(type="bool", default=False),
        debug_scripts=dict(type="dict", options=dict(preboot=dict(type="list", elements="str", default=[]),
                                                     postboot=dict(type="list", elements="str", default=[]))),
        job=dict(type="str"),
        replace_production=dict(type="list", elements="str"),
        check_points=dict(type="bool", default=True),
    )
    LaunchModule(argument_spec=spec, mutually_exclusive=[("job", "machines"), ("job", "debug_scripts")]).run()


if __name__ == "__main__":
    main()
