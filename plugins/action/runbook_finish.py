# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The end of a run in one task, whatever happened before it: clean up what the run launched (or keep it), write the
report (under --check, what the run would do, and the plan) and enter it in the ledger, publish the outcome for AWX
workflows (set_stats), show it, and sign out - the run's phases clean_up_the_run and write_report (plugin_utils._run).
Documented in plugins/modules/runbook_finish.py."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_flag
from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import STOPPED_OPTION, RunbookStep, StepFailed


def published(record, reported, check_mode):
    """What the run publishes for AWX workflows (set_stats, aggregated over the hosts of the play): ``<runbook>``, the outcome of
    a run of one project, and ``<runbook>_projects``, that of each project. Under --check, only the confirmation token of a plan
    that replaces production machines (``<runbook>_confirm``): a workflow's approval node stands between this check job and the
    real one, which takes the token as its extra variable."""
    runbook, outcome = record["runbook"], reported["outcome"]
    if check_mode:
        data = {runbook + "_confirm": outcome["confirm"]} if "confirm" in outcome else {}
    else:
        data = {runbook: outcome, runbook + "_projects": {record["project"]: outcome}}
    return dict(ansible_stats=dict(data=data, per_host=False, aggregate=True)) if data else {}


class ActionModule(RunbookStep):
    PHASE = "cleanup"
    OPTIONS = dict(
        cleans_up=dict(type="bool", default=True),
        keep=dict(type="raw", default=False),
        kept_because=dict(type="str", default="kept, as asked"),
        report_dir=dict(type="path"),
        ledger_dir=dict(type="path"),
        write_plan=dict(type="bool", default=False),
        stopped=STOPPED_OPTION,
    )

    def step(self, args):
        run = self.drive(Run(self, self.path, self.record))
        try:
            if args["cleans_up"]:
                with self.timed("cleanup"):
                    self.clean_up(run, parse_flag(args["keep"], "keep"), args["kept_because"])
            record = run.record
            with self.timed("report"):
                reported = run.write_report(args["report_dir"], args["write_plan"], args["ledger_dir"], args["stopped"])
        finally:
            with self.timed("sign out"):
                self.sign_out(self.connection.get("session"))
        for line in reported["lines"]:
            self.say(line)
        return dict(reported, **published(record, reported, self.check_mode))

    def clean_up(self, run, keep, kept_because):
        """The run's cleanup: one that fails - whatever failed in it - is recorded (its phase, unless the run had failed
        before) and said, and the report follows all the same: it says why."""
        try:
            run.clean_up_the_run(keep, kept_because)
        except Exception as failure:  # pylint: disable=broad-exception-caught  # the report is written whatever happened
            said = str(failure) if isinstance(failure, StepFailed) else "%s: %s" % (type(failure).__name__, failure)
            if not run.record.get("failure"):
                run.record["failure"] = dict(phase=run.phase, message=said)
            self.warn("The cleanup failed; the report says why: %s" % said)
