# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""End the run: compute its report from the record, write it as JSON, JUnit XML and Markdown, and
answer the outcome for set_stats and for the playbook's last word. In check mode, say what the run
would do and write nothing. Documented in plugins/modules/runbook_report.py."""

import os

from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._page import page
from ansible_collections.replication.recovery.plugins.plugin_utils._report import (
    FAILED, failure_message, plan_of, report_of, report_path, write, write_atomically, write_plan)
from ansible_collections.replication.recovery.plugins.plugin_utils._step import (
    STOPPED_OPTION, RunbookStep, collect_checked, end_run, into_ledger, note_stopped)

FAILURES_PUBLISHED = 20
FAILURES_SHOWN = 5


class ActionModule(RunbookStep):
    PHASE = "report"
    OPTIONS = dict(
        report_dir=dict(type="path"),
        write_plan=dict(type="bool", default=False),
        ledger_dir=dict(type="path"),
        stopped=STOPPED_OPTION,
    )

    def step(self, args):
        record = note_stopped(collect_checked(self.record), args["stopped"])
        title = record["title"]
        path = report_path(args["report_dir"], record["runbook"], record["project"])
        directory, name = os.path.dirname(path), os.path.basename(path)
        if self.check_mode:
            end_run(self.path)
            result = self.predicted(record, title)
            if args["write_plan"]:
                files = write_plan(plan_of(record, "replication.recovery.%s.plan/v1" % record["runbook"]), directory, name, title)
                result.update(plan=files)
                result["lines"] = result["lines"][:1] + ["Plan: " + files["json"], "Plan, to read: " + files["markdown"]]
            return result
        report = report_of(record, "replication.recovery.%s/v1" % record["runbook"])
        files = write(report, directory, name, suite_prefix=record["runbook"], title=title[0].upper() + title[1:])
        ledger = None
        try:
            # Into the ledger before the run ends: a run stopped in between reports again, and is not appended twice.
            ledger = into_ledger(args["ledger_dir"], record["runbook"], report, files["json"])
        finally:
            # The page names the ledger entry, so it comes after it (and without it, when the ledger refused the report).
            files["html"] = os.path.join(directory, name + ".html")
            write_atomically(files["html"], page(report, title[0].upper() + title[1:], ledger))
        end_run(self.path)
        outcome = dict(project=report["project"], result=report["result"], failures=report["failures"][:FAILURES_PUBLISHED],
                       failure_count=len(report["failures"]), counts=report["counts"], measures=report["measures"], kept=report["kept"],
                       report=files)
        measures, targets = report["measures"], report["targets"]
        lines = ["%s of %s: %s. %d of %d machines passed." % (title[0].upper() + title[1:], report["project"], report["result"].upper(),
                                                              report["counts"]["passed"], report["counts"]["machines"]),
                 "Worst RPO %s s, worst RTO %s s, launch job %s s (targets: RPO %s, RTO %s)." % (
                     measures["rpo_seconds"], measures["rto_seconds"], measures["launch_job_seconds"], targets["rpo_seconds"],
                     targets["rto_seconds"])]
        lines += report["failures"][:FAILURES_SHOWN]
        if len(report["failures"]) > FAILURES_SHOWN:
            lines.append("... %d more failures in the report" % (len(report["failures"]) - FAILURES_SHOWN))
        lines += ["Report: " + files["json"], "JUnit: " + files["junit"], "Summary: " + files["markdown"], "Page: " + files["html"]]
        if ledger:
            outcome["ledger"] = ledger
            lines.append("Ledger: entry %d, SHA-256 %s" % (ledger["sequence"], ledger["sha256"]))
        result = dict(outcome=outcome, lines=lines)
        if report["result"] == FAILED:
            result["message"] = failure_message(report, files["json"], what="The " + title)
        return result

    def predicted(self, record, title):
        """Check mode: what the run would launch, or why it would stop; never that it passed."""
        failure = record.get("failure")
        if failure:
            said = "stops in %s: %s" % (failure["phase"], failure["message"])
        else:
            would = record.get("predicted") or [machine["name"] for machine in record["machines"]]
            said = "would launch %d machines (%s)" % (len(would), shown(would))
        result = dict(outcome=dict(project=record["project"], result="check mode"),
                      lines=["Check mode: the %s of %s %s. Nothing was launched, and no report was written." % (title, record["project"], said)])
        if failure:
            result["message"] = "The %s of %s would stop in %s: %s" % (title, record["project"], failure["phase"], failure["message"])
        return result
