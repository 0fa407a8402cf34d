# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's phase (plugin_utils._run): clean up what the run launched - or, without a run, the target machines of a launch
type of some machines - follow the cleanup job with progress, and prove it: read the machines again, and fail when one
still has a target machine."""

import time

from ansible_collections.replication.recovery.plugins.module_utils._domain import PRODUCTION_KINDS, active, kind_of, parse_list, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import has_targets_of, launch_type_of_replica
from ansible_collections.replication.recovery.plugins.module_utils._marks import DRILL, MARK, RECOVERED
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import production_machines, standing
from ansible_collections.replication.recovery.plugins.plugin_utils._report import report_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, collect_checked
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._switching import put_back_blueprints
from ansible_collections.replication.recovery.plugins.plugin_utils._following import cleaned_in_jobs, follow
from ansible_collections.replication.recovery.plugins.plugin_utils._record import as_record
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import CLEANUP_PHASE, lever_stop_said, look_at_lever


class CleaningUp(object):
    """What the run launched, cleaned up and proven gone - or kept, as asked - and, without a run, the target machines of
    a launch type."""

    def clean_up_alone(self, project, machines, launch_type, settings):
        """Without a run: the target machines of ``launch_type`` of ``machines`` (names or IDs; all the project's when None) of
        ``project``, cleaned up and proven gone. ``settings``: cleanup_timeout, poll_interval, progress_interval."""
        self.phase = "cleanup"
        # On its own: a record of nothing but where to clean up, for follow() and the proof.
        self.record = None
        machines, kind = parse_list(machines, "machines") or None, kind_of(launch_type)
        if kind not in PRODUCTION_KINDS:
            return self.clean_up(project, machines, kind, settings)
        return self.clean_up_drills(project, machines, kind, settings)

    def clean_up_drills(self, project, machines, kind, settings):
        """Recovery or cutover machines, without a run: only those a DR test launched as its drill (module_utils._marks).
        Any other runs production, and is refused - named, with nothing terminated."""
        listed = self.machines(project=project, machines=machines)
        production = production_machines([machine for machine in listed["machines"] if launch_type_of_replica(machine) == kind])
        others = dict((name, entry) for name, entry in production.items() if not entry["drill"])
        if others:
            raise StepFailed("%s %s %s machine%s that run%s production (%s): a cleanup on its own terminates only a DR test's own drill "
                             "machines. Nothing was terminated. Recovery machines go with the failback (failback_clean_recovery=true), or are "
                             "replaced by a failover (failover_replace, with the token its plan prints)." % (
                                 shown(sorted(others)), "has a" if len(others) == 1 else "have", kind, "" if len(others) == 1 else "s",
                                 "s" if len(others) == 1 else "", "; ".join("%s: %s" % (name, standing(entry)) for name, entry in sorted(others.items()))))
        drills = sorted(production)
        self.record = as_record(dict(project_id=listed["project"]["id"], settings=settings))
        try:
            removed = self.clean_up(listed["project"]["id"], None, kind, settings, chosen=[production[name]["replica"] for name in drills],
                                    production=[production[name]["replica"] for name in drills]) if drills else dict(removed=[], kept=[], job=None)
            self.unmark(drills, DRILL)
        finally:
            self.record = None
        return removed

    def unmark(self, names, mark):
        """Remove a mark of the runbooks (module_utils._marks) from the machines ``names`` of the run: one write for all."""
        if not names or self.check_mode:
            return
        ids = dict((machine["name"], machine["id"]) for machine in self.record.get("machines") or []) if self.record.get("machines") else {}
        self.service("service_machine_tags", project=self.record["project_id"], state="absent",
                     tags=dict((ids.get(name, name), ["%s%s=*" % (MARK, mark)]) for name in names))

    def clean_up_the_run(self, keep, kept_because):
        """Clean up what the run launched and prove it gone - or keep it (``keep``, ``kept_because``: a committed failover)."""
        self.phase = "cleanup"
        record = self.record
        collect_checked(record)
        self.put_back_the_blueprints()
        # A machine that stands (failed over already) is no machine of this run's: never cleaned up, whatever else happened.
        stands = record.get("stands") or {}
        started = [name for wave in record["waves"] if wave.get("job") for name in wave["machines"] if name not in stands]
        leftovers = record["earlier"].get("ours", [])
        # A failover that keeps its recovery machines commits them (the failback keeps its machines launched back, unmarked).
        committed = keep and record.get("on_failed_over") == "stand" and self.commit(started, stands)
        if not started and not leftovers:
            record["cleanup"] = dict(status=SKIPPED, message="nothing was launched" + (
                "; %d machines stand, failed over already" % len(stands) if stands else ""), kept=sorted(stands) if keep else [])
            return dict(removed=[], kept=[], changed=bool(committed))
        launched = [name for name in started if name in record["launched"]]
        if keep:
            record["cleanup"] = dict(status=SKIPPED, kept=launched + sorted(stands), message="%s: %s" % (kept_because, shown(launched + sorted(stands))))
            self.say("The target machines are kept (%s): %s." % (kept_because, shown(launched + sorted(stands))))
            return dict(removed=[], kept=launched, changed=bool(committed))
        if record.settings["keep_on_failure"] and launched and report_of(record, "")["result"] == FAILED:
            record["cleanup"] = dict(status=SKIPPED, kept=launched,
                                     message="kept after the failure, as asked (clean them up with the role's cleanup phase): " + ", ".join(launched))
            self.say("The run failed: its target machines are kept, as asked (%s)." % shown(launched))
            return dict(removed=[], kept=launched)
        return self.terminate_what_the_run_launched(started, leftovers)

    def put_back_the_blueprints(self):
        """Whatever stopped the run after a switch to a test network, the blueprints go back; one that cannot is left to the
        next run (it puts them back first) - the machines are cleaned up all the same."""
        network = self.record.get("test_network") or {}
        switched = sorted((set(network.get("tested_in") or {}) | set(network.get("found") or []))
                          - set(network.get("restored") or []) - set(network.get("refused") or {}))
        if switched and not self.check_mode:
            try:
                put_back_blueprints(self, switched)
            except StepFailed as failure:
                network["not_put_back"] = str(failure)

    def terminate_what_the_run_launched(self, started, leftovers):
        """The machines of every wave that was started, by name (a job that did not end may still launch some), and the target
        machines an earlier run of ours left, by ID: terminated and proven gone. What the run launched (and adopted) is its own
        to terminate, recovery machines of a roll-back included. The lever is looked at before the cleanup (unless read within
        the progress interval), at the cleanup job's looks at that pace, and once more after the cleanup began: engaged at any
        moment until then, the outcome says so."""
        record = self.record
        began = time.time()
        look_at_lever(self, CLEANUP_PHASE, stops=False, fresh=True)
        self.watching = True
        removed = self.clean_up(record["project_id"], None, record["kind"], record.settings, chosen=started + leftovers, proof=started,
                                production=started + leftovers if record["kind"] in PRODUCTION_KINDS else None)
        if ((record.get("stop_when") or {}).get("lever_read") or 0) < began:
            look_at_lever(self, CLEANUP_PHASE, stops=False)
        self.lever_in_the_checks()
        # A DR test's drill is over once its machines are gone: the marks of this run's (and an adopted run's) go too.
        if record["kind"] in PRODUCTION_KINDS and (record.get("on_failed_over") or "refuse") == "refuse":
            self.unmark(started, DRILL)
        # The cleanup job's request and end: the last span of every machine's timeline in the report.
        record["cleanup"] = dict(status=PASSED, removed_machines=removed["removed"], job=removed["job"],
                                 message="terminated %d target machines%s" % (len(removed["removed"]), ": " + shown(removed["removed"])
                                                                              if removed["removed"] else ""))
        return removed

    watching = False  # the lever looked at at the run's cleanup job's looks

    def lever_in_the_checks(self):
        """The lever first seen after the checks: pulled before the last of them ended, the run stopped in them (no check
        came after it); pulled after them, their verdict stands. Either way the cleanup went on."""
        record = self.record
        lever = record.get("lever")
        if not lever or lever.get("phase") != CLEANUP_PHASE or record.get("failure"):
            return
        ended = [(parse_time(check["ended"]), name) for name, check in (record.get("checked") or {}).items() if check.get("ended")]
        if not ended or not lever.get("at") or parse_time(lever["at"]) >= max(ended)[0]:
            return
        wave = next((number for number, wave in enumerate(record["waves"], 1) if max(ended)[1] in wave["machines"]), 1)
        record["lever"] = dict(lever, obeyed=True, phase="the checks of wave %d" % wave)
        record["failure"] = dict(phase="checks", message="Stopped: %s. No check came after it; what the run launched is cleaned up." % (
            lever_stop_said(record["lever"], record["project"])))

    def commit(self, started, stands):
        """The recovery machines a failover keeps run production from now on: each machine's mark names its recovery
        machine (module_utils._marks), so that no later run adopts or removes it, and the failback finds it."""
        record = self.record
        names = [name for name in started if name in record["launched"]] + sorted(stands)
        ids = dict((machine["name"], machine["id"]) for machine in record["machines"])
        targets = dict((name, (record["launched"][name].get("target") or {}).get("id")) for name in started if name in record["launched"])
        targets.update((name, entry["replica"]) for name, entry in stands.items() if not entry.get("committed"))
        marks = dict((ids[name], ["%s%s=%s" % (MARK, RECOVERED, targets[name])]) for name in names if targets.get(name))
        if marks and not self.check_mode:
            return self.service("service_machine_tags", project=record["project_id"], tags=marks).get("changed")
        return False

    def clean_up(self, project, machines, kind, settings, chosen=None, proof=None, production=None):
        # More machines than a job may take (the service's limits) are cleaned up in several jobs, one after another.
        removed, jobs = cleaned_in_jobs(
            self, chosen if chosen is not None else machines,
            lambda group: self.service("service_replica_cleanup", project=project, machines=machines if chosen is not None else group,
                                       replicas=group if chosen is not None else None, launch_types=[kind],
                                       terminate_production=production or None, wait=False, wait_timeout=settings["cleanup_timeout"],
                                       poll_interval=settings["poll_interval"]),
            lambda job: self.follow_cleanup(project, job, settings), lambda job: "Cleanup job %s %s" % (job["id"], job["status"]))
        if not self.check_mode and (removed or jobs):
            # What was cleaned up, and what the run started, is gone: proven by the jobs, or by reading those machines again.
            expected = list(dict.fromkeys((proof or machines or []) + removed))
            if not self.taken_by(expected, jobs):
                self.prove_gone(project, expected, kind)
        self.say("%s %d target machines%s." % ("Would terminate" if self.check_mode else "Terminated", len(removed),
                                               ": " + shown(removed) if removed else ""))
        # The cleanup's request and end: its first job's request, its last job's end.
        job = dict(id=jobs[0]["id"], status=jobs[-1]["status"], created=jobs[0].get("creationDateTime"), ended=jobs[-1].get("endDateTime"),
                   **(dict(jobs=[job["id"] for job in jobs]) if len(jobs) > 1 else {})) if jobs else None
        return dict(removed=removed, kept=[], changed=bool(removed), job=job)

    def follow_cleanup(self, project, job, settings):
        if self.record is not None:
            # At the progress interval's pace, and at the look that sees the job end.
            watch = (lambda looked: look_at_lever(self, CLEANUP_PHASE, stops=False, fresh=active(looked))) if self.watching else None
            return follow(self, job, "cleanup job", settings["cleanup_timeout"], watch=watch)
        # Without a run there is no record to take the project's ID and intervals from.
        self.record = as_record(dict(project_id=project, settings=settings))
        try:
            return follow(self, job, "cleanup job", settings["cleanup_timeout"])
        finally:
            self.record = None

    def taken_by(self, names, jobs):
        """Whether cleanup jobs that completed took every one of the run's machines ``names``: a cleanup job terminates the
        target machines of the machines it names, and ends FAILED when one of them fails - so their target machines are
        gone without a read. A name the run's record has no ID of (none without a run) is proven by the read."""
        ids = dict((machine["name"], machine["id"]) for machine in (self.record or {}).get("machines") or [])
        taken = set(machine for job in jobs if job.get("status") == "COMPLETED" for machine in job.get("participatingMachines") or [])
        return bool(names) and all(ids.get(name) in taken for name in names)

    def prove_gone(self, project, machines, kind):
        """Nothing of the kind is left on the machines: read them again."""
        now = self.machines(project=project, machines=machines)
        left = [machine["name"] for machine in now["machines"] if has_targets_of(machine, kind)]
        if left:
            raise StepFailed("After the cleanup, %d machines still have a %s machine: %s." % (len(left), kind, shown(left)))
