# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's last phase (plugin_utils._run): compute its report from the record, write it as JSON, JUnit XML, Markdown and
a page, enter it in the ledger, and answer the outcome for set_stats and for the playbook's last word. In check mode, say
what the run would do and write nothing (but the plan, when asked)."""

import os

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of
from ansible_collections.replication.recovery.plugins.plugin_utils import _outcomes
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import PLANNED, STOPPED, said as said_outcome
from ansible_collections.replication.recovery.plugins.plugin_utils._report import (
    BEFORE_ANY_WRITE, before_any_write, failure_message, plan_of, report_of, write, write_plan)
from ansible_collections.replication.recovery.plugins.plugin_utils._render import span_said
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import collect_checked, end_run, into_ledger, note_stopped
from ansible_collections.replication.recovery.plugins.module_utils._words import shown, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._files import report_path, write_also
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import lever_seen_said

FAILURES_PUBLISHED = 20
# Where a report that cannot be written in its directory at the end is kept: beside the runs' own directories.
KEPT_REPORTS = "replication-recovery-reports"


def measured(seconds):
    return spoken(seconds) if seconds is not None else "not measured"


class Reporting(object):
    """The run's report, written, entered in the ledger, and answered; the run's directory removed."""

    def write_report(self, report_dir=None, with_plan=False, ledger_dir=None, stopped=None):
        """Write the report in ``report_dir`` (under --check, ``with_plan``, the plan) and enter it in the ledger
        (``ledger_dir``, or the default one); ``stopped``: what stopped the run outside the phases ({task, message}). Answers the
        outcome, the lines to show and, when the run did not pass, the message to fail with."""
        self.phase = "report"
        args = dict(report_dir=report_dir, write_plan=with_plan, ledger_dir=ledger_dir, stopped=stopped)
        record = note_stopped(collect_checked(self.record), args["stopped"])
        title = record["title"][0].upper() + record["title"][1:]
        path = report_path(args["report_dir"], record["runbook"], record["project"])
        directory, name = os.path.dirname(path), os.path.basename(path)
        ledger_dir, by_default = directory_of(args["ledger_dir"])
        # A run that never reached the service (it could not sign in, its input was refused) writes its own files, and
        # leaves the plain names to the newest run that did.
        reached = bool(record.get("project_id"))
        if self.check_mode:
            end_run(self.path)
            result = self.predicted(record, title)
            if args["write_plan"]:
                plan = plan_of(record, BY_NAME[record["runbook"]].plan_schema)
                # A plan the real run would refuse is kept as a file of its own, never under the plain name an approved plan has.
                files = write_plan(plan, directory, name, newest=reached and not record.get("failure"))
                result.update(plan=files["own"])
                result["lines"] = result["lines"][:1] + plan["first"][:10] + [
                    "Plan: " + files["own"][".plan.json"], "Plan, to read: " + files["own"][".plan.md"], "Page: " + files["own"][".plan.html"]]
                if files["newest"]:
                    result["lines"].append("The newest plan is also at %s" % files["plain"][".plan.json"])
                if plan["replace"]:
                    result["outcome"]["confirm"] = plan["replace"]["token"]
                    result["lines"].append("To carry out this plan, which terminates production machines (%s): run it without --check, with "
                                           "confirm %s (-e %s_confirm=%s), or give it the plan (%s_plan)." % (
                                               ", ".join(plan["replace"]["machines"]), plan["replace"]["token"], record["runbook"],
                                               plan["replace"]["token"], record["runbook"]))
            result["lines"].append("Ledger: %s%s (nothing is entered under --check)" % (ledger_dir, " (the default)" if by_default else ""))
            return result
        report = report_of(record, BY_NAME[record["runbook"]].schema)
        files, kept_elsewhere = self.written(report, directory, name, reached)
        ledger = None
        try:
            # Into the ledger before the run ends: a run stopped in between reports again, and is not appended twice.
            ledger = into_ledger(ledger_dir, report, files["own"][".json"])
        finally:
            # The page names the ledger entry, so it comes after it (and without it, when the ledger refused the report).
            write_also(files, ".html", page_of(report, ledger))
        end_run(self.path)
        own = files["own"]
        outcome = dict(project=report["project"], result=report["result"], outcome=report["outcome"], next=report["next"],
                       failures=report["failures"][:FAILURES_PUBLISHED],
                       failure_count=len(report["failures"]), counts=report["counts"], measures=report["measures"], kept=report["kept"],
                       report=dict(json=own[".json"], junit=own[".junit.xml"], markdown=own[".md"], html=own[".html"]),
                       stands=[m["name"] for m in report["machines"] if m.get("stands")],
                       left_standing=[m["name"] for m in report["machines"] if m.get("left_standing")])
        result = dict(outcome=outcome, lines=self.lines(report, title, files, ledger, ledger_dir, by_default))
        if kept_elsewhere:
            result["lines"].insert(1, kept_elsewhere)
            self.warn(kept_elsewhere)
        if _outcomes.outcome(report["outcome"]).rc:
            result["message"] = failure_message(report, own[".json"], what=title)
        return result

    def written(self, report, directory, name, reached):
        """The report's files in the report directory - or, when it cannot be written at the end (proven writable when the
        run began: a disk filled since, a directory made immutable), beside the runs' state, which the outcome line names:
        a run's result is never lost. Answers the files and that sentence (None when they are where they were asked)."""
        try:
            return write(report, directory, name, newest=reached), None
        except OSError as error:
            kept = os.path.join(os.path.dirname(os.path.dirname(self.path)), KEPT_REPORTS)
            files = write(report, kept, name, newest=False)
            return files, "The report could not be written in %s (%s): it is kept in %s." % (directory, error, kept)

    def lines(self, report, title, files, ledger, ledger_dir, by_default):
        """The outcome as the operator reads it: every number a number, every file where it is."""
        counts, measures, targets = report["counts"], report["measures"], report["targets"]
        launched = counts["machines"] - counts.get("stands", 0)
        said = "%d of %d machines passed" % (counts["passed"] - counts.get("stands", 0), launched) if launched else "nothing was launched"
        if counts.get("left_standing"):
            # Launched by the stopped run this one takes up: they stand, whatever stopped this one.
            said = "%d of %d machines stand, launched by the stopped run this one takes up (%s); this run launched %s" % (
                counts["left_standing"], launched, shown(sorted(m["name"] for m in report["machines"] if m.get("left_standing"))),
                counts["launched"] or "nothing")
        if counts.get("stands"):
            said += "; %d stand%s, failed over already (%s)" % (counts["stands"], "s" if counts["stands"] == 1 else "",
                                                                shown(m["name"] for m in report["machines"] if m.get("stands")))
        lines = ["%s of %s: %s. %s." % (title, report["project"], said_outcome(report["outcome"]), said[0].upper() + said[1:])]
        lever = (report.get("stop_conditions") or {}).get("lever") or {}
        if lever.get("seen"):  # a lever engaged at any moment of the run is in its outcome line, with the phase that saw it
            lines[0] += " %s." % lever_seen_said(lever)
        if launched:
            lines.append("Worst RPO %s, worst RTO %s, launch job %s (targets: RPO %s, RTO %s)." % (
                measured(measures["rpo_seconds"]), measured(measures["rto_seconds"]), measured(measures["launch_job_seconds"]),
                spoken(targets["rpo_seconds"]) if targets["rpo_seconds"] is not None else "none",
                spoken(targets["rto_seconds"]) if targets["rto_seconds"] is not None else "none"))
        span = span_said(report.get("points_span"))
        if span and (report.get("repinned") or report.get("pins_from")):
            lines.append(span)
        # What failed, and what a run again does, the run's last word says (once): its failure message.
        lines += self.files_said(files, ledger, ledger_dir, by_default, reached=report["reached_service"])
        return lines

    def predicted(self, record, title):
        """Check mode: what the run would launch, or why it would be refused - in the words the real run would say it; never
        that it passed."""
        failure = record.get("failure")
        if failure:
            word = before_any_write(record) if failure.get("phase") in BEFORE_ANY_WRITE else STOPPED
            said = "As the real run would be: %s: %s." % (failure["phase"], failure["message"].rstrip("."))
        else:
            word = PLANNED
            would = record["predicted"] if "predicted" in record else record.get("to_launch") or []
            said = "Would launch %d machines (%s)." % (len(would), shown(would)) if would else "Would launch nothing."
        result = dict(outcome=dict(project=record["project"], result="check mode", outcome=word),
                      lines=["%s of %s under --check: %s. %s" % (title, record["project"], said_outcome(word), "Nothing was launched, and no "
                                                                 "report was written." if failure else said + " Nothing was launched, and no "
                                                                 "report was written.")])
        if failure:
            result["message"] = "%s of %s under --check: %s. %s" % (title, record["project"], said_outcome(word), said)
        return result
