# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Launch one wave of the run (or run its recovery plan) and follow the job to its end, with a line
of progress every progress interval; or, for a wave an earlier run launched, adopt its job. A wave
after one that failed is not launched. Documented in plugins/modules/runbook_launch.py."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import active
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import shown, wave_failure
from ansible_collections.replication.recovery.plugins.plugin_utils._step import (
    STOPPED_OPTION, SWITCHED_EARLIER, RunbookStep, StepFailed, collect_checked, note_stopped, trimmed_job)


class ActionModule(RunbookStep):
    PHASE = "launch"
    OPTIONS = dict(wave=dict(type="int", default=1), stopped=STOPPED_OPTION)

    def step(self, args):
        record = self.record
        index = args["wave"] - 1
        if not 0 <= index < len(record["waves"]):
            raise StepFailed("The run has %d waves, not a wave %d." % (len(record["waves"]), args["wave"]))
        wave = record["waves"][index]
        result = dict(wave=args["wave"], next_wave=args["wave"] + 1 if index + 1 < len(record["waves"]) else None, launched=0, failed_machines=[])
        failure = note_stopped(record, args["stopped"]).get("failure")
        if failure:
            stopped_in = "the run stopped at %s" % failure["task"] if failure.get("task") else "the run stopped in %s" % failure["phase"]
            for later in record["waves"][index:]:
                later.update(status="not launched", message=stopped_in)
            return dict(result, next_wave=None, stopped=wave["message"])
        if wave.get("status") == "not launched":  # a wave before it failed, and said so
            return dict(result, next_wave=None, stopped=wave["message"])
        if index > 0 and not self.check_mode:
            stopped = wave_failure(collect_checked(record), index - 1)
            if stopped:
                for later in record["waves"][index:]:
                    later.update(status="not launched", message="wave %d failed: %s" % (index, stopped))
                self.say("Wave %d is not launched, nor any after it: wave %d failed (%s)." % (index + 1, index, stopped))
                return dict(result, next_wave=None, stopped=wave["message"])
        names = wave["machines"]
        if not names:
            wave.update(status="empty", message="no machine takes part")
            return result
        adopted = record["earlier"].get("adopted", {}).get(str(index))
        if adopted:
            job = adopted
            wave["adopted"] = True
            if record["test_network"]["network"]:  # the earlier run switched them for its launch; this run puts them back
                for name in set(names) & set(record["test_network"]["found"]):
                    record["test_network"]["tested_in"].setdefault(name, SWITCHED_EARLIER)
            record["earlier"].setdefault("messages", []).append(
                "wave %d: adopted the launch job %s of an earlier run, created %s" % (index + 1, job["id"], job["creationDateTime"]))
        else:
            # An isolated test: the blueprints take the test network just before the launch, and are put back once it ended.
            diff = self.switch_to_test_network(names) if record["test_network"]["network"] else None
            job = self.start(names)
            if job is None:  # check mode: nothing was launched
                wave.update(status="would launch")
                record.setdefault("predicted", []).extend(names)
                # --check --diff shows the switch the test network would make (Ansible shows a diff of a change only).
                return dict(result, would_launch=names, **(dict(diff=diff, changed=True) if diff else {}))
        wave["job"] = trimmed_job(job)
        if active(job):
            job = self.follow(job, "launch job", record["settings"]["launch_timeout"])
        if record["test_network"]["network"] or set(names) & set(record["test_network"]["found"]):
            self.put_back_blueprints(names)
        self.record_outcome(wave, job, names)
        result.update(job=dict(id=job["id"], status=job["status"]), launched=sum(1 for name in names if name in record["launched"]),
                      failed_machines=[name for name in names if name in record["failed_machines"]][:10])
        return result

    def start(self, names):
        """Start the wave's launch job (or the recovery plan's run); in check mode, None. The points in
        time chosen for a moment or given per machine are recorded (in check mode too: the plan shows them)."""
        record, settings = self.record, self.record["settings"]
        common = dict(project=record["project_id"], point_in_time=record["point_in_time"], force=True, wait=False,
                      wait_timeout=settings["launch_timeout"], poll_interval=settings["poll_interval"])
        if record.get("plan"):
            started = self.service("service_recovery_plan_run", plan=record["plan"]["id"], mode=record["launch_type"], **common)
        else:
            ids = dict((machine["name"], machine["id"]) for machine in record["machines"])
            wave = set(names) | set(ids[name] for name in names)
            given = dict((name, point) for name, point in (record.get("points_in_time") or {}).items() if name in wave)
            started = self.service("service_launch", machines=[ids[name] for name in names], launch_type=record["launch_type"],
                                   points_in_time=given or None, **common)
        for chosen in started.get("points_in_time") or []:
            record.setdefault("chosen_points", {})[chosen["machine_name"]] = dict(id=chosen["point_in_time"]["id"],
                                                                                  date_time=chosen["point_in_time"]["dateTime"])
        return started.get("job")

    def record_outcome(self, wave, job, names):
        """What the job launched, and for each machine it did not, its last line in the job's log."""
        record = self.record
        if record.get("plan"):
            outcome = self.service("service_recovery_plan_run", failed_ok=True, project=record["project_id"], plan=record["plan"]["id"],
                                   job=job["id"])
            entries = [entry for step in outcome.get("steps") or [] for entry in step["machines"]]
        else:
            outcome = self.service("service_launch", failed_ok=True, project=record["project_id"], job=job["id"])
            entries = outcome.get("launched") or []
        if outcome.get("failed") and "failed_machines" not in outcome:
            raise StepFailed(outcome.get("msg") or "The launch job %s could not be read." % job["id"])
        job = outcome.get("job") or job
        failed = outcome.get("failed_machines") or []
        wave.update(job=trimmed_job(job, failed), status="launched" if job["status"] == "COMPLETED" else "failed",
                    message="" if job["status"] == "COMPLETED" else "%s %s %s" % (job["type"], job["id"], job["status"]))
        number = record["waves"].index(wave) + 1
        for entry in entries:
            target = entry.get("target_machine") or {}
            record["launched"][entry["machine_name"]] = dict(
                id=entry["machine_id"], wave=number, target=target,
                point_in_time=dict(id=target.get("pointInTime"), date_time=entry.get("point_in_time_date_time")))
        for name in failed:
            record["failed_machines"][name] = wave["job"]["lines"].get(name) or outcome.get("msg") or "nothing was launched"
        launched = sum(1 for name in names if name in record["launched"])
        self.say("Launch job %s %s: %d of %d machines launched%s." % (
            job["id"], job["status"], launched, len(names), ", failed: " + shown(failed) if failed else ""))
