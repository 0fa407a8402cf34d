# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A failback's own phases of its run (plugin_utils._run): find where the failback stands from the service, reverse
replication so that the recovered machines replicate back, and at the end return it to its original direction and
remove the recovery machines when asked. The step runbook_reverse drives them (plugins/modules/runbook_reverse.py).

The service names only each machine's newest target machine: once a machine has been launched back
in the original site, its recovery machine is named nowhere. So each machine's recovery machine is
named in the service, in a mark of the machine (module_utils._marks, ``replication.recovery/recovered=<ID>``,
which the failover writes when it commits) before anything is launched back: a later run on any
controller reads it with the machine list, at no request of its own. Writing the marks a committed
failover did not write costs one request for all machines, and so does removing them with the
recovery machines."""

import json
import os

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value, parse_flag
from ansible_collections.replication.recovery.plugins.module_utils._limits import job_size, parts
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica
from ansible_collections.replication.recovery.plugins.module_utils._marks import MARK, RECOVERED, recovered_by_mark
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import wave_failure
from ansible_collections.replication.recovery.plugins.plugin_utils._report import read_plan
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, collect_checked, now_iso
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._files import report_path
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED

DIRECTIONS = ("reversed", "original")
# What a machine of the project has in the target cloud, as the failback sees it (and RECOVERED, its mark's word).
BACK = "launched back"
NOTHING = "nothing"


def where_is(machine, source_region, recovery=None):
    """What the failback finds of a machine: its recovery machine in the target site, the machine
    launched back in the original site, or nothing. A machine whose mark names its recovery machine
    (``recovery``) is judged without its target machine being read: its target machine is the
    recovery machine, or one launched back in its place. Otherwise, by the target machine's region;
    without the project's source region, a target machine newer than the recovery machine was
    launched back."""
    if not machine.get("replica"):
        return NOTHING
    if "target_machine" not in machine:
        return RECOVERED if machine["replica"] == recovery else BACK if recovery else NOTHING
    target = machine.get("target_machine") or {}
    if target.get("machineCloudState") == "terminated":
        return NOTHING
    if (target.get("regionId") == source_region) if source_region else (recovery and machine["replica"] != recovery):
        return BACK
    return RECOVERED if launch_type_of_replica(machine) in ("recovery", "cutover") else NOTHING


class Reversing(object):
    """The failback's phases: ``fail_back`` reverses replication before the launch, or returns it after."""

    def fail_back(self, args):
        """Replicate back before the launch (``direction`` reversed), or return to the original direction after it."""
        record = self.record
        state = record.setdefault("failback", dict(recovery={}, removed=[], stage=None))
        # The memo file of earlier versions, read when a machine has no mark yet; never written.
        self.memo_file = report_path(args["memo_dir"], "failback", record["project"], ".recovery.json") if args["memo_dir"] else None
        if args["direction"] == "reversed":
            self.removes_recovery = parse_flag(args["remove_recovery"], "remove_recovery")
            self.failback_plan = None if no_value(args["plan"]) else args["plan"]
            return self.reverse(state)
        self.phase = "return"
        return self.go_back(state, parse_flag(args["remove_recovery"], "remove_recovery"))

    # -- before the launch: replicate back ---------------------------------------------------------

    def reverse(self, state):
        record = self.record
        projects = self.service("service_project_info", name=record["project"])["projects"]
        if not projects:
            raise StepFailed("There is no project %s; nothing was changed." % record["project"])
        project = projects[0]
        record["project_id"] = project["id"]
        machines, memo = self.machines_and_memo(project)
        found = dict((machine["name"], where_is(machine, project.get("sourceRegion"), (memo.get(machine["name"]) or {}).get("replica")))
                     for machine in machines)
        self.failing_back = sorted(found)
        self.bound_by_the_plan(found)
        unmarked = self.recovery_machines(state, machines, found, memo)
        reversed_now = bool(project.get("replicationReversed"))
        back = sorted(name for name, where in found.items() if where == BACK)
        nothing = sorted(name for name, where in found.items() if where == NOTHING)
        if not reversed_now and back and len(back) == len(found):
            return self.ended(state, back)
        if reversed_now or not (back or nothing):
            # Before anything is launched back, when nothing but these marks will name the recovery machines.
            self.mark(project, unmarked)
        if reversed_now:
            stage = "launched back" if back else "reversed"
            return self.at(stage, "replication is reversed%s" % (": %d machines were launched back already" % len(back) if back else ""),
                           wait=not back)
        if back:
            raise StepFailed("Replication of project %s runs in its original direction, and only some machines were launched back (%s); "
                             "the failback cannot tell what happened. Nothing was changed." % (record["project"], shown(back)))
        if nothing:
            raise StepFailed("%s no recovery machine: not failed over. The project reverses as a whole, and a machine without one would "
                             "not replicate while it is reversed: fail it over first, or exclude it. Nothing was changed." % (
                                 shown(nothing) + (" has" if len(nothing) == 1 else " have")))
        return self.reverse_replication(state, project, len(found))

    def machines_and_memo(self, project):
        """The failback's machines (those not stopped nor excluded), each with its target machine where no mark names its
        recovery machine, and the memo of their recovery machines."""
        record = self.record
        view = self.machines(project=project["id"])
        excluded = set(record["asked"]["exclude"])
        machines = [machine for machine in view["machines"] if machine.get("replicationStatus") != "STOPPED"
                    and machine["name"] not in excluded and machine["id"] not in excluded]
        memo = self.read_memo(machines)
        # Only the target machines no mark names are read (the interface has no list of them): one request each.
        unknown = [machine["id"] for machine in machines if machine.get("replica") and machine["name"] not in memo]
        if unknown:
            targets = dict((machine["id"], machine.get("target_machine")) for machine in self.machines(
                project=project["id"], machines=unknown, include_target_machine=True)["machines"])
            machines = [dict(machine, target_machine=targets.get(machine["id"])) if machine["id"] in targets else machine for machine in machines]
        return machines, memo

    def recovery_machines(self, state, machines, found, memo):
        """The recovery machines, kept in the failback's state (and spared by the run: they are its own); answers the marks to
        write of those no mark names yet."""
        record = self.record
        unmarked = {}
        for machine in machines:
            if found[machine["name"]] == RECOVERED:
                target = machine.get("target_machine") or {}
                memo[machine["name"]] = dict(id=machine["id"], replica=machine["replica"], cloud_id=target.get("machineCloudId"),
                                             region=target.get("regionId"))
                if recovered_by_mark(machine) != machine["replica"]:
                    unmarked[machine["id"]] = ["%s%s=%s" % (MARK, RECOVERED, machine["replica"])]
        state["recovery"] = dict((name, memo[name]) for name in found if name in memo)
        record["spare"] = [entry["replica"] for entry in state["recovery"].values()]
        record["keeps_launched"] = True  # what a failback launches is production: adopted when run again, never cleaned up
        return unmarked

    def ended(self, state, back):
        """A failback that ended: its machines launched back run production. Nothing is launched, adopted or checked again.
        Recovery machines its marks still name are removed as asked: a run stopped in their cleanup left them (or the cleanup
        job it started ended in the service since) - removed, or proven gone, and their marks go."""
        self.record["asked"]["machines"] = []
        rest = "nothing to do"
        if self.removes_recovery and state["recovery"]:
            rest = "the recovery machines an earlier run was removing would be removed"
            if not self.check_mode:
                self.phase = "return"
                self.remove_recovery(state)
                rest = "nothing more to do"
        return self.at("returned", "the failback happened and replication runs in its original direction again, with every machine "
                                   "launched back (%s): %s" % (shown(back), rest))

    def reverse_replication(self, state, project, machines):
        """Reverse the project's replication: its machines replicate back from their recovery machines."""
        record = self.record
        self.writes()
        reversed_project = self.service("service_reverse_replication", project=project["id"], direction="reversed",
                                        wait_timeout=record.settings["cleanup_timeout"], poll_interval=record.settings["poll_interval"])
        if self.check_mode:
            # The guard judges the reversed replication, which does not exist yet: shown, not enforced.
            record["gate_deferred"] = "judged after the reverse, not before"
            return self.at("would reverse", "replication would be reversed: %d machines would replicate back, then launch back" % machines)
        state["reversed_at"] = now_iso()
        self.add_check("reverse", PASSED, "replication reversed: %d machines replicate back from their recovery machines" % machines)
        return self.at("reversed", "replication reversed", wait=True, changed=bool(reversed_project.get("changed")))

    def mark(self, project, unmarked):
        if unmarked and not self.check_mode:
            self.writes()
            self.service("service_machine_tags", project=project["id"], tags=unmarked)

    def writes(self):
        """Note, before the failback's first write to the service is sent, that one is: a write may take effect without an
        answer, and what a run stopped before it came to (refused, stopped) is judged by this (_report.outcome_of)."""
        if not self.check_mode:
            self.record["failback"]["written"] = True

    def at(self, stage, message, wait=False, changed=False):
        state = self.record["failback"]
        state.update(stage=stage, began=stage, message=message)
        self.say("Failback of %s: %s." % (self.record["project"], message))
        return dict(stage=stage, wait=wait and not self.check_mode, changed=changed, recovery=len(state["recovery"]),
                    machines=self.failing_back)

    # -- after the launch: the original direction again, and the recovery machines gone -----------

    def go_back(self, state, remove_recovery):
        record = collect_checked(self.record)
        failed = record.get("failure") or next((wave_failure(record, index) for index in range(len(record["waves"]))
                                                if wave_failure(record, index)), None)
        if failed:
            message = "replication stays reversed (the recovery machines stay the source): the failback did not pass"
            self.add_check("original direction", SKIPPED, message)
            return dict(returned=False, removed=[], stage=state.get("stage"), message=message)
        if self.check_mode or not any(wave.get("job") for wave in record["waves"]):
            # Under --check nothing was launched back, so nothing would be returned yet.
            return dict(returned=False, removed=[], stage=state.get("stage"))
        project = self.service("service_reverse_replication", project=record["project_id"], direction="original",
                               wait_timeout=record.settings["cleanup_timeout"], poll_interval=record.settings["poll_interval"])
        state.update(returned_at=now_iso(), stage="returned")
        self.add_check("original direction", PASSED, "replication runs from the source machines to the target cloud again%s" % (
            "" if project.get("changed") else " (it did already)"))
        self.say("Failback of %s: replication runs in its original direction again." % record["project"])
        removed = self.remove_recovery(state) if remove_recovery else self.keep_recovery(state)
        return dict(returned=True, removed=removed, stage="returned", changed=bool(project.get("changed") or removed))

    def keep_recovery(self, state):
        left = sorted(state["recovery"])
        if left:
            self.add_check("recovery machines", SKIPPED, "kept, as asked (remove them with failback_clean_recovery=true): " + shown(left))
        return []

    def remove_recovery(self, state):
        record, settings = self.record, self.record.settings
        ids = sorted(set(entry["replica"] for entry in state["recovery"].values()))  # read from the memo when the run began
        if not ids:
            self.add_check("recovery machines", PASSED, "none left to remove")
            return []
        # The recovery machines are production until the machines launched back took their place: named, they go - in
        # several jobs, one after another, when there are more than a job may take (the service's limits).
        size, sent, participants = job_size(self.limits), set(), set()
        for replicas in parts(ids, size):
            cleaned = self.service("service_replica_cleanup", project=record["project_id"], replicas=replicas, terminate_production=replicas,
                                   wait=True, wait_timeout=settings["cleanup_timeout"], poll_interval=settings["poll_interval"])
            job = cleaned.get("job") or {}
            if job and job.get("status") != "COMPLETED":
                raise StepFailed("The cleanup job %s of the recovery machines %s." % (job.get("id"), job.get("status")))
            sent |= set(cleaned.get("removed") or [])
            participants |= set(job.get("participatingMachines") or [])
        # Proof. Those not sent were read gone before the cleanup. Those sent are gone when their jobs completed with
        # their machines in them (a job with any machine failed ends FAILED); otherwise the service is asked again, and
        # has none of them left to terminate (one read each: the interface has no list of target machines).
        machines = set(entry.get("id") for entry in state["recovery"].values() if entry["replica"] in sent)
        if sent and not machines <= participants:
            for replicas in parts(ids, size):
                again = self.service("service_replica_cleanup", project=record["project_id"], replicas=replicas, terminate_production=replicas,
                                     wait=True, wait_timeout=settings["cleanup_timeout"], poll_interval=settings["poll_interval"])
                if again.get("removed"):
                    raise StepFailed("After their cleanup, recovery machines were still there: %s." % shown(again["removed_machines"]))
        # Every recovery machine of the memo is gone now; an earlier run stopped in its cleanup may have
        # terminated some of them.
        removed = sorted(state["recovery"])
        terminated = len(sent)
        state["removed"] = removed
        self.forget_memo(removed)
        message = "%d recovery machines terminated%s, proven gone" % (
            terminated, "" if terminated == len(ids) else " (%d by an earlier run)" % (len(ids) - terminated))
        self.add_check("recovery machines", PASSED, "%s: %s" % (message, shown(removed)))
        self.say("Failback of %s: %s." % (record["project"], message))
        return removed

    # -- the memo and the report -----------------------------------------------------------------

    def read_memo(self, machines):
        """Each machine's recovery machine, from its mark in the service (and, for a machine without one, from the memo
        file an earlier version wrote)."""
        memo = {}
        if self.memo_file:
            try:
                with open(self.memo_file, encoding="utf-8") as stream:
                    kept = json.load(stream)
                memo = kept.get("machines") or {} if kept.get("project") == self.record["project"] else {}
            except (IOError, OSError, ValueError):
                memo = {}
        for machine in machines:
            replica = recovered_by_mark(machine)
            if replica:
                memo[machine["name"]] = dict(id=machine["id"], replica=replica)
        return memo

    def forget_memo(self, names):
        """The recovery machines are gone: their marks go too (one request), and an earlier version's memo file."""
        record = self.record
        ids = dict((entry["id"], [MARK + RECOVERED + "=*"]) for name, entry in record["failback"]["recovery"].items() if name in names)
        if ids:
            self.service("service_machine_tags", project=record["project_id"], state="absent", tags=ids)
        if self.memo_file and os.path.exists(self.memo_file):
            os.unlink(self.memo_file)

    def bound_by_the_plan(self, found):
        """A failback given its plan carries it out as planned: the same machines, launch type and removal of the recovery
        machines (its points do not exist before the reverse). A difference is refused, before anything is changed."""
        record = self.record
        record["failback_plan"] = dict(machines=sorted(found), clean_recovery=self.removes_recovery)
        if not self.failback_plan:
            return
        try:
            plan = read_plan(self.failback_plan, "failback")
        except ValueError as error:
            raise StepFailed("%s. Nothing was changed." % error)
        planned = plan.get("failback") or {}
        differences = []
        if sorted(planned.get("machines") or []) != sorted(found):
            differences.append("the plan fails back %s, and the project now has %s" % (
                ", ".join(planned.get("machines") or []) or "none", ", ".join(sorted(found)) or "none"))
        if plan.get("launch_type") != record["launch_type"]:
            differences.append("the plan launches back %s machines, and this run %s ones" % (plan.get("launch_type"), record["launch_type"]))
        if bool(planned.get("clean_recovery")) != self.removes_recovery:
            differences.append("the plan %s the recovery machines, and this run %s" % (
                "removes" if planned.get("clean_recovery") else "keeps", "removes them" if self.removes_recovery else "keeps them"))
        if differences:
            raise StepFailed("This failback differs from its plan %s: %s. Nothing was changed. Plan again with --check." % (
                self.failback_plan, "; ".join(differences)))

    def add_check(self, name, status, message):
        checks = self.record.setdefault("run_checks", [])
        checks[:] = [check for check in checks if check["name"] != name] + [dict(name=name, status=status, message=message)]
        if status == FAILED and not self.record.get("failure"):
            self.record["failure"] = dict(phase=self.phase, message=message)
