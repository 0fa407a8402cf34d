# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Clean up what the run launched - or, without a run, the target machines of a launch type of some
machines - follow the cleanup job with progress, and prove it: read the machines again, and fail
when one still has a target machine. Documented in plugins/modules/runbook_clean_up.py."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import LAUNCH_TYPES, kind_of, parse_flag, parse_list
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._report import FAILED, PASSED, SKIPPED, report_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, collect_checked, load


class ActionModule(RunbookStep):
    PHASE = "cleanup"
    WITH_RUN = False
    OPTIONS = dict(
        run=dict(type="str"),
        project=dict(type="str"),
        machines=dict(type="raw"),
        launch_type=dict(type="str", choices=list(LAUNCH_TYPES), default="test"),
        cleanup_timeout=dict(type="int", default=1800),
        poll_interval=dict(type="float", default=10),
        progress_interval=dict(type="float", default=60),
        keep=dict(type="raw", default=False),
        kept_because=dict(type="str", default="kept, as asked"),
    )

    def step(self, args):
        if args["run"]:
            self.record = load(args["run"])
            return self.clean_up_the_run(parse_flag(args["keep"], "keep"), args["kept_because"])
        if not args["project"]:
            raise StepFailed("Give the run (the run of replication.recovery.runbook_begin), or the project whose target machines to clean up.")
        # On its own: a record of nothing but where to clean up, for follow() and the proof.
        self.record = None
        return self.clean_up(args["project"], parse_list(args["machines"], "machines") or None, kind_of(args["launch_type"]),
                             dict(cleanup_timeout=args["cleanup_timeout"], poll_interval=args["poll_interval"],
                                  progress_interval=args["progress_interval"]))

    def clean_up_the_run(self, keep, kept_because):
        record = self.record
        collect_checked(record)
        network = record.get("test_network") or {}
        switched = sorted((set(network.get("tested_in") or {}) | set(network.get("found") or []))
                          - set(network.get("restored") or []) - set(network.get("refused") or {}))
        if switched and not self.check_mode:  # whatever stopped the run after a switch, the blueprints go back
            try:
                self.put_back_blueprints(switched)
            except StepFailed as failure:  # the next run puts them back first; the machines are cleaned up all the same
                network["not_put_back"] = str(failure)
        started = [name for wave in record["waves"] if wave.get("job") for name in wave["machines"]]
        leftovers = record["earlier"].get("ours", [])
        if not started and not leftovers:
            record["cleanup"] = dict(status=SKIPPED, message="nothing was launched")
            return dict(removed=[], kept=[])
        launched = [name for name in started if name in record["launched"]]
        if keep:
            record["cleanup"] = dict(status=SKIPPED, kept=launched, message="%s: %s" % (kept_because, shown(launched)))
            self.say("The target machines are kept (%s): %s." % (kept_because, shown(launched)))
            return dict(removed=[], kept=launched)
        if record["settings"]["keep_on_failure"] and launched and report_of(record, "")["result"] == FAILED:
            record["cleanup"] = dict(status=SKIPPED, kept=launched,
                                     message="kept after the failure, as asked (clean them up with the role's cleanup phase): " + ", ".join(launched))
            self.say("The run failed: its target machines are kept, as asked (%s)." % shown(launched))
            return dict(removed=[], kept=launched)
        # The machines of every wave that was started, by name (a job that did not end may still launch some),
        # and the target machines an earlier run of ours left, by ID.
        removed = self.clean_up(record["project_id"], None, record["kind"], record["settings"], chosen=started + leftovers, proof=started)
        # The cleanup job's request and end: the last span of every machine's timeline in the report.
        record["cleanup"] = dict(status=PASSED, removed_machines=removed["removed"], job=removed["job"],
                                 message="terminated %d target machines%s" % (len(removed["removed"]), ": " + shown(removed["removed"])
                                                                              if removed["removed"] else ""))
        return removed

    def clean_up(self, project, machines, kind, settings, chosen=None, proof=None):
        cleaned = self.service("service_replica_cleanup", project=project, machines=machines, replicas=chosen, launch_types=[kind],
                               wait=False, wait_timeout=settings["cleanup_timeout"], poll_interval=settings["poll_interval"])
        removed = cleaned.get("removed_machines") or []
        job = cleaned.get("job")
        if job:
            job = self.follow_cleanup(project, job, settings)
            if job["status"] != "COMPLETED":
                raise StepFailed("Cleanup job %s %s: %s" % (job["id"], job["status"], " ".join(line["message"] for line in (job.get("log") or [])[-3:])))
        if not self.check_mode and (removed or job):
            # What was cleaned up, and what the run started, is gone: proven by reading those machines again.
            self.prove_gone(project, list(dict.fromkeys((proof or machines or []) + removed)), kind)
        self.say("%s %d target machines%s." % ("Would terminate" if self.check_mode else "Terminated", len(removed),
                                               ": " + shown(removed) if removed else ""))
        return dict(removed=removed, kept=[], job=dict(id=job["id"], status=job["status"], created=job.get("creationDateTime"),
                                                       ended=job.get("endDateTime")) if job else None)

    def follow_cleanup(self, project, job, settings):
        if self.record is not None:
            return self.follow(job, "cleanup job", settings["cleanup_timeout"])
        # Without a run there is no record to take the project's ID and intervals from.
        self.record = dict(project_id=project, settings=settings)
        try:
            return self.follow(job, "cleanup job", settings["cleanup_timeout"])
        finally:
            self.record = None

    def prove_gone(self, project, machines, kind):
        """Nothing of the kind is left on the machines: read them again."""
        now = self.service("service_machine_info", project=project, machines=machines)
        left = [machine["name"] for machine in now["machines"] if machine.get("replica") and launch_type_of_replica(machine) == kind]
        if left:
            raise StepFailed("After the cleanup, %d machines still have a %s machine: %s." % (len(left), kind, shown(left)))
