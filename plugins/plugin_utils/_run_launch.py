# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's phase (plugin_utils._run): launch one wave of the run (or run its recovery plan) and follow the job to its end,
with a line of progress every progress interval; or, for a wave an earlier run launched, adopt its job. A wave after one
that failed is not launched."""

import time

from ansible_collections.replication.recovery.plugins.module_utils._domain import BEFORE, POINT, PRODUCTION_KINDS, active, moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, lever_said
from ansible_collections.replication.recovery.plugins.module_utils._marks import DRILL, MARK
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import thinned, thinned_said, wave_failure
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, collect_checked, note_stopped, trimmed_job
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._switching import SWITCHED_EARLIER, put_back_blueprints, switch_to_test_network
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now
from ansible_collections.replication.recovery.plugins.plugin_utils._following import follow
from ansible_collections.replication.recovery.plugins.plugin_utils._record import parts_of
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import look_at_stops, read_lever, stop_said

# Points in time read this long before a wave's launch are read again: the service may have thinned them out since.
POINTS_FRESH_SECONDS = 60
# The safety lever read as a run began is read again before its first launch after this long (engaged since, the first
# look at the job sees it); before every later launch it is read again.
LEVER_FRESH_SECONDS = 60
# The most times a launch is sent whose pinned points the service thinned out before it (each time with those replaced).
LAUNCH_ATTEMPTS = 5


def merged(diffs):
    """One diff of the switches to the test network of a wave's jobs (each the module's before and after); None if none."""
    if len(diffs) < 2:
        return diffs[0] if diffs else None
    whole = dict(before={}, after={})
    for diff in diffs:
        for side in whole:
            whole[side].update(diff.get(side) or {})
    return whole


class Launching(object):
    """A wave launched (or adopted) and followed to its end."""

    def launch_wave(self, number, stopped=None):
        """Launch wave ``number`` (1 for the first), unless the run stopped - outside the phases too (``stopped``: a task of
        the user's, {task, message}) - or a wave before it failed: answers what it launched and the next wave (None: none)."""
        self.phase = "launch"
        args = dict(wave=number, stopped=stopped)
        record = self.record
        index = args["wave"] - 1
        if not 0 <= index < len(record["waves"]):
            raise StepFailed("The run has %d waves, not a wave %d." % (len(record["waves"]), args["wave"]))
        wave = record["waves"][index]
        self.wave_number = args["wave"]
        result = dict(wave=args["wave"], next_wave=args["wave"] + 1 if index + 1 < len(record["waves"]) else None, launched=0, failed_machines=[])
        if self.not_launched(index, args["stopped"]):
            return dict(result, next_wave=None, stopped=wave["message"])
        if not wave["machines"]:
            wave.update(status="empty", message="no machine takes part")
            return result
        # A machine failed over already stands: reported as it is, never launched over (the read).
        names = [name for name in wave["machines"] if name not in record.get("stands", {})]
        if not names:
            wave.update(status="stands", message="every machine of the wave is failed over already: nothing to launch")
            return result
        jobs, would, diffs, cut_short = self.launch_the_parts(index, names)
        if self.check_mode and would:
            wave.update(status="would launch")
            record.setdefault("predicted", []).extend(would)
            # --check --diff shows the switch the test network would make (Ansible shows a diff of a change only).
            # Under --check a wave that would launch is a change, as it is in the real run.
            diff = merged([diff for diff in diffs if diff])
            return dict(result, would_launch=would, changed=True, **(dict(diff=diff) if diff else {}))
        if jobs:
            self.wave_outcome(wave, jobs, len(parts_of(wave)) > 1, cut_short or self.stopped_because is not None)
        self.obey_the_stop(index)
        if not jobs:  # a search's round whose every candidate was thinned out
            wave.update(status="not launched", message="every candidate point was thinned out by the service before the launch")
            return result
        result.update(job=dict(id=jobs[0]["id"], status=wave["job"]["status"]), jobs=[dict(id=job["id"], status=job["status"]) for job in jobs],
                      launched=sum(1 for name in names if name in record["launched"]), changed=not all(job.get("adopted") for job in jobs),
                      failed_machines=[name for name in names if name in record["failed_machines"]][:10])
        return result

    def not_launched(self, index, stopped):
        """Whether the wave is not launched, and each later one with it: the run stopped outside the steps (``stopped``), a wave
        before it failed and said so, or the checks of the wave before it failed."""
        record, wave = self.record, self.record["waves"][index]
        failure = note_stopped(record, stopped).get("failure")
        if failure:
            stopped_in = "not launched: the run stopped %s" % ("at %s" % failure["task"] if failure.get("task") else "in %s" % failure["phase"])
            for later in record["waves"][index:]:
                later.update(status="not launched", message=stopped_in)
            return True
        if wave.get("status") == "not launched":  # a wave before it failed, and said so
            return True
        failed = wave_failure(collect_checked(record), index - 1) if index > 0 and not self.check_mode else None
        if failed:
            for later in record["waves"][index:]:
                later.update(status="not launched", message="wave %d failed: %s" % (index, failed))
            self.say("Wave %d is not launched, nor any after it: wave %d failed (%s)." % (index + 1, index, failed))
        return bool(failed)

    def launch_the_parts(self, index, names):
        """Launch (or adopt) the wave's jobs one after another - a wave larger than a job may take goes out in several (the
        service's limits: the read) - and follow each to its end. Answers the jobs as the record keeps them, the machines
        that would launch (check mode), the diffs of the switches to a test network, and whether a failed job cut the wave short
        (the wave's other jobs are not sent: a job that failed as a whole is the wave's failure)."""
        wave = self.record["waves"][index]
        adopted = self.record["earlier"].get("adopted", {}).get(str(index)) or []
        jobs, would, diffs = [], [], []
        for number, part in enumerate(parts_of(wave)):
            wanted = set(names)  # read for each part: a round's candidates thinned out leave it between parts
            launching = [name for name in part if name in wanted]
            if not launching:
                continue
            if number < len(adopted):
                job = self.adopt(index, adopted[number], launching)
            elif self.must_stop(before_a_launch=True):
                break
            else:
                job, diff = self.launch_part(index, launching)
                diffs.append(diff)
                if job is None:  # check mode, or a search's round whose every candidate was thinned out: nothing was launched
                    would.extend(launching if self.check_mode else [])
                    continue
            jobs.append(self.follow_part(index, job, launching, adopted=number < len(adopted)))
            if jobs[-1]["status"] != "COMPLETED":
                return jobs, would, diffs, number + 1 < len(parts_of(wave))
        return jobs, would, diffs, False

    stopped_because = None
    wave_number = 1

    def must_stop(self, before_a_launch=False):
        """Whether the run stops launching: the project's safety lever engaged under a rehearsal (module_utils._lever; a
        failover or a failback is never held back by it), or a stop condition failed so many times in a row
        (plugin_utils._stops). Looked at before each launch (the lever, but for the run's first launch within
        LEVER_FRESH_SECONDS of its read as the run began) and at each look at a running job, until one is met."""
        record = self.record
        if self.stopped_because is None and not self.check_mode:
            watch, lever = record["stop_when"], dict(record.get("lever") or {}, state=None)
            # Read as the run began, it is not read again for the run's first launch within LEVER_FRESH_SECONDS; before any other
            # launch it is read again, however recently a look read it: a launch is what the lever holds back.
            first = not record["launched"] and not any(wave.get("job") for wave in record["waves"])
            fresh = before_a_launch and first and time.time() - (watch.get("lever_read") or 0) < LEVER_FRESH_SECONDS
            if lever.get("obeyed"):  # seen engaged when the run began: it takes up what an earlier run left, and no more
                lever["state"] = ENGAGED
            elif record.rehearses and not fresh:
                lever = read_lever(self)
            stop = None if lever["state"] == ENGAGED else look_at_stops(self, record["project_id"])
            if lever["state"] == ENGAGED:
                record["lever"] = dict(lever, obeyed=True, seen=lever.get("seen") or controller_now(),
                                       phase=lever.get("phase") or "the launch of wave %d" % self.wave_number)
                self.stopped_because = "%s (seen %s)" % (lever_said(lever, record["project"]), record["lever"]["seen"])
            elif stop:
                self.stopped_because = stop_said(stop)
            if self.stopped_because:
                self.say("Stopping: %s. Nothing more is launched; a job that runs ends first (the service cannot cancel it)." % (
                    self.stopped_because))
        return self.stopped_because is not None

    def obey_the_stop(self, index):
        """The run stops here when the lever or a stop condition was met: no later wave is launched, and its finish cleans up."""
        if self.stopped_because is None:
            return
        for later in self.record["waves"][index:]:
            if later.get("status") == "pending":
                later.update(status="not launched", message="stopped: " + self.stopped_because)
        raise StepFailed("Stopped: %s. Nothing was launched after it; what the run launched is cleaned up." % self.stopped_because)

    def adopt(self, index, job, names):
        """Take up the launch job of an earlier run that launched these machines of the wave (one of its jobs)."""
        record = self.record
        if record.test_network["network"]:  # the earlier run switched them for its launch; this run puts them back
            for name in set(names) & set(record.test_network["found"]):
                record.test_network["tested_in"].setdefault(name, (record.test_network.get("found_in") or {}).get(name) or SWITCHED_EARLIER)
            # A blueprint put back since by another run (a failover refused beside a killed rehearsal puts back what it
            # left switched) no longer says which network its machine was launched into: not known, not guessed.
            unseen = sorted(set(names) - set(record.test_network["found"]))
            if unseen:
                record.test_network["unseen"] = sorted(set(record.test_network.get("unseen") or []) | set(unseen))
        record["earlier"].setdefault("messages", []).append(
            "wave %d: adopted the launch job %s of an earlier run, created %s" % (index + 1, job["id"], job["creationDateTime"]))
        return job

    def launch_part(self, index, names):
        """Launch these machines of the wave in one job, from their pinned points; answers the job (None in check mode, or
        when every candidate of a search's round was thinned out) and the diff of the switch to a test network."""
        record = self.record
        launching = list(names)
        self.points_still_there(index, launching)
        # An isolated test: the blueprints take the test network just before the launch, and are put back once it ended.
        diff = switch_to_test_network(self, launching) if record.test_network["network"] and launching else None
        self.claim_the_drill(launching)
        job = self.start(index, launching) if launching else None
        if job is None and not launching and record.test_network["network"]:
            put_back_blueprints(self, names)
        return job, diff

    def follow_part(self, index, job, names, adopted=False):
        """Follow one of the wave's jobs to its end and record what it launched: answers the job as the record keeps it."""
        record = self.record
        wave = record["waves"][index]
        # The wave's job from its first request on: a run stopped while it runs cleans up (or adopts) all the wave's machines.
        wave.setdefault("job", trimmed_job(job))
        if active(job):
            self.say("Launch job %s of wave %d runs in the service. If this run is stopped, the job goes on there: run again to adopt it, "
                     "or with --check to see what the next run does." % (job["id"], index + 1))
            job = follow(self, job, "launch job", record.settings["launch_timeout"], watch=lambda unused: self.must_stop())
        if record.test_network["network"] or set(names) & set(record.test_network["found"]):
            put_back_blueprints(self, names)
        kept = self.record_outcome(index, job, [name for name in names if name not in (record.get("thinned_out") or [])], adopted)
        return dict(kept, adopted=adopted)

    def wave_outcome(self, wave, jobs, in_parts, cut_short):
        """The wave as its jobs ended: its ``job`` stands for them all (the first one's request, the last one's end, the
        first status that is not COMPLETED), ``jobs`` lists each when it was sent in several; ``cut_short``: a job failed
        before the last, and the later ones were not sent."""
        failed = next((job for job in jobs if job["status"] != "COMPLETED"), None)
        job = dict(jobs[0], endDateTime=jobs[-1].get("endDateTime"), status=(failed or jobs[-1])["status"],
                   machines=sum(job["machines"] for job in jobs), lines=dict((name, line) for job in jobs for name, line in (job.get("lines") or {}).items()))
        message = "" if failed is None else "%s %s %s%s" % (failed["type"], failed["id"], failed["status"],
                                                            "; the wave's later jobs were not sent" if cut_short else "")
        wave.update(job=job, adopted=all(job.get("adopted") for job in jobs), status="launched" if failed is None else "failed", message=message)
        if in_parts:
            wave["jobs"] = jobs

    def points_still_there(self, index, names, rejected=False):
        """The wave's pinned points, read again unless they were read just now (or the service ``rejected`` the launch):
        a point the service thinned out since is replaced by the newest point before it that remains, and the report says
        so with the extra data lost - or, when the run is strict (or nothing remains before it), the run stops before
        this wave. A search's candidate is never replaced here: its machine is left out of ``names`` (the search plans
        it again, from the points that remain). Answers whether any point was replaced or left out."""
        record = self.record
        pinned = record.get("pinned") or {}
        if record.get("plan") or not any(name in pinned for name in names):
            return False
        read_at = parse_time(record["pinned_at"]) if record.get("pinned_at") else 0
        if index == 0 and not rejected and time.time() - read_at < POINTS_FRESH_SECONDS:
            return False
        ids = dict((machine["name"], machine["id"]) for machine in record["machines"])
        read = self.points_in_time(record["project_id"], [ids[name] for name in names if name in pinned])
        gone = thinned(pinned, dict((entry["machine_id"], entry["points_in_time"]) for entry in read),
                       [(name, ids[name]) for name in names])
        if not gone:
            return False
        if record.get("round"):
            self.leave_out_of_the_round(gone, names)
            return True
        self.replace_the_points(index, gone)
        return True

    def leave_out_of_the_round(self, gone, names):
        """A search's candidates the service thinned out: each machine left out of the round (``names``), the search plans it again."""
        record = self.record
        for name, found in sorted(gone.items()):
            record["failed_machines"][name] = "its candidate point of %s was thinned out by the service before the launch" % (
                moment_said(parse_time(found["planned"]["date_time"]), whole=True))
            names.remove(name)
        record["thinned_out"] = sorted(set(record.get("thinned_out") or []) | set(gone))
        self.say("Thinned out by the service before the launch of round %s, left out of it (the search plans them again): %s." % (
            record["round"], shown(sorted(gone))))

    def replace_the_points(self, index, gone):
        """Pinned points the service thinned out, each replaced by the newest before it - or the run stopped before the wave,
        when it is strict or nothing remains before one."""
        record, pinned = self.record, self.record["pinned"]
        lines = [thinned_said(name, found) for name, found in sorted(gone.items())]
        if record.get("points_strict") or any(found["replacement"] is None for found in gone.values()):
            message = "points in time pinned when the run began were thinned out by the service before wave %d, which is not launched%s: %s" % (
                index + 1, " (points_strict)" if record.get("points_strict") else "", "; ".join(lines))
            for later in record["waves"][index:]:
                later.update(status="not launched", message=message)
            raise StepFailed(message[0].upper() + message[1:] + ".")
        for name, found in gone.items():
            pinned[name] = found["replacement"]
            record.setdefault("repinned", {})[name] = dict(found, wave=index + 1)
        self.say("Thinned out by the service before wave %d, replaced by the newest point before each: %s." % (
            index + 1, "; ".join(thinned_said(name, found, done=True) for name, found in sorted(gone.items()))))

    def claim_the_drill(self, names):
        """A DR test that launches recovery or cutover machines marks them as its drill first (module_utils._marks): the
        next DR test adopts or cleans them up as its own, and no failover takes them for production. Any other runbook
        removes a drill's mark that a DR test left behind on the machines it launches: what it launches is no drill."""
        record = self.record
        if self.check_mode or record["kind"] not in PRODUCTION_KINDS:
            return
        ids = dict((machine["name"], machine["id"]) for machine in record["machines"])
        if (record.get("on_failed_over") or "refuse") != "refuse":
            stale = [name for name in names if name in (record.get("drill_marks") or [])]
            if stale:
                self.service("service_machine_tags", project=record["project_id"], state="absent",
                             tags=dict((ids[name], ["%s%s=*" % (MARK, DRILL)]) for name in stale))
            return
        self.service("service_machine_tags", project=record["project_id"],
                     tags=dict((ids[name], ["%s%s=%s" % (MARK, DRILL, record["started"])]) for name in names))
        record["drill"] = sorted(set(record.get("drill") or []) | set(names))

    def start(self, index, names):
        """Start the wave's launch job from the points pinned when the run began (or run the recovery plan, from the
        point the service picks); in check mode, None. The service may thin a pinned point out between its last read
        and the launch: a launch it refuses (HTTP 400, nothing started) is tried again when a point was replaced - as
        often as points are read gone (a slow read may outlast another point), up to LAUNCH_ATTEMPTS."""
        started, attempts = self.launch(names), 1
        while started.get("failed"):
            refused = (started.get("error") or {}).get("status") == 400
            if not (refused and attempts < LAUNCH_ATTEMPTS and self.points_still_there(index, names, rejected=True)):
                # A refusal is not read for its words: a service that limits the machines of a job says so in its own.
                hint = " Nothing of it was launched. If the service takes fewer machines in a job, state its limits (replication_service_limits: " \
                    "servers_per_job) and the run sends the wave in several jobs." if refused and len(names) > 1 and not self.limits else ""
                raise StepFailed((started.get("msg") or "The launch of wave %d failed." % (index + 1)) + hint)
            if not names:  # a search's round whose every candidate was thinned out
                return None
            started, attempts = self.launch(names), attempts + 1
        return started.get("job")

    def launch(self, names):
        """The one request that starts the wave's launch job, as the module answers it (failed or not)."""
        record, settings = self.record, self.record.settings
        common = dict(project=record["project_id"], force=True, wait=False, wait_timeout=settings["launch_timeout"],
                      poll_interval=settings["poll_interval"], failed_ok=True)
        if record.get("plan"):
            policy = record["policy"]
            point = policy["id"] if policy["kind"] == POINT else policy["at"] if policy["kind"] == BEFORE else "latest"
            return self.service("service_recovery_plan_run", plan=record["plan"]["id"], mode=record["launch_type"], point_in_time=point,
                                replace_production=sorted(record.get("replaced") or {}) or None, **common)
        ids = dict((machine["name"], machine["id"]) for machine in record["machines"])
        pinned = record.get("pinned") or {}
        points = dict((ids[name], pinned[name]["id"]) for name in names if name in pinned)
        # Production is replaced only as confirmed - or by the failback, whose launch back takes the recovery machines' place.
        replace = names if record.get("on_failed_over") == "own" else [name for name in names if name in (record.get("replaced") or {})]
        return self.service("service_launch", machines=[ids[name] for name in names], launch_type=record["launch_type"],
                            points_in_time=points or None, check_points=False if points else None,
                            replace_production=[ids[name] for name in replace] or None, **common)

    def read_outcome(self, job, names, adopted):
        """What the service says one of the wave's jobs launched: its outcome as the module answers it, and an entry for each
        machine launched."""
        record = self.record
        if record.get("plan"):
            outcome = self.service("service_recovery_plan_run", failed_ok=True, project=record["project_id"], plan=record["plan"]["id"],
                                   job=job["id"])
            return outcome, [entry for step in outcome.get("steps") or [] for entry in step["machines"]]
        # A launch from pinned points has their times in the record: the outcome reads no point again.
        pinned = not adopted and any(name in (record.get("pinned") or {}) for name in names)
        outcome = self.service("service_launch", failed_ok=True, project=record["project_id"], job=job["id"],
                               check_points=False if pinned or not record.get("pin", True) else None)
        return outcome, outcome.get("launched") or []

    def record_outcome(self, index, job, names, adopted):
        """What one of the wave's jobs launched, and for each machine it did not, its last line in the job's log: answers
        the job as the record keeps it."""
        record = self.record
        outcome, entries = self.read_outcome(job, names, adopted)
        if outcome.get("failed") and "failed_machines" not in outcome:
            raise StepFailed(outcome.get("msg") or "The launch job %s could not be read." % job["id"])
        job = outcome.get("job") or job
        failed = outcome.get("failed_machines") or []
        kept = trimmed_job(job, failed)
        pinned = record.get("pinned") or {}
        for entry in entries:
            target = entry.get("target_machine") or {}
            # The point's time: the pinned one's, when the machine launched from it (no read of its own).
            point = pinned.get(entry["machine_name"]) or {}
            date_time = entry.get("point_in_time_date_time") or (point.get("date_time") if point.get("id") == target.get("pointInTime") else None)
            record["launched"][entry["machine_name"]] = dict(
                id=entry["machine_id"], wave=index + 1, target=target, point_in_time=dict(id=target.get("pointInTime"), date_time=date_time),
                requested=job.get("creationDateTime"))
        for name in failed:
            record["failed_machines"][name] = kept["lines"].get(name) or outcome.get("msg") or "nothing was launched"
        launched = sum(1 for name in names if name in record["launched"])
        self.say("Launch job %s %s: %d of %d machines launched%s." % (
            job["id"], job["status"], launched, len(names), ", failed: " + shown(failed) if failed else ""))
        return kept
