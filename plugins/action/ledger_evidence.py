# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Verify the ledger of runs and summarise it, on the controller where the ledger is. Documented in
plugins/modules/ledger_evidence.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils import _ledger
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed
from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, where_started, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of, page_of

BREAKS_SHOWN = 10


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        ledger_dir=dict(type="path"),
        report_dir=dict(type="path"),
        period=dict(type="str", default="quarter", choices=["month", "quarter", "year"]),
        after=dict(type="str"),
        before=dict(type="str"),
        expected_head=dict(type="str"),
        fail_on_break=dict(type="bool", default=True),
    )

    def step(self, args):
        directory, by_default = _ledger.directory_of(args["ledger_dir"])
        args["ledger_dir"] = directory
        try:
            entries, breaks = _ledger.verified(directory, by_default, expected_head=args["expected_head"])
        except _ledger.LedgerError as error:
            raise StepFailed(str(error))
        summary = _ledger.summary(entries, breaks, period=args["period"], after=args["after"], before=args["before"])
        lines = ["The ledger %s: %d entries, head %s." % ("is whole" if not breaks else "is BROKEN in %d place%s" % (len(breaks), "s"[len(breaks) == 1:]),
                                                          summary["entries"], summary["head"] or "none yet"),
                 "The ledger is %s%s." % (directory, " (the default; no run entered a report in it yet)" if by_default and not entries else "")]
        lines += breaks[:BREAKS_SHOWN]
        for project in summary["projects"]:
            forecast = project["rto_forecast"]
            never = len(project["never_proven"])
            lines.append("%s: %d machines, %s%s; RTO forecast p90 %s against %s." % (
                project["name"], project["machines"],
                "%d never proven by a passing DR test or failover" % never if never else "each proven by a passing DR test or failover",
                " (a restore test verified its backups, entry %s: it proves no recovery)" % project["last_verified"]["sequence"]
                if project.get("last_verified") and never else "",
                spoken(forecast["p90_seconds"]) if forecast["p90_seconds"] is not None else "not measured yet",
                "a target of %s" % spoken(forecast["target_seconds"]) if forecast["target_seconds"] is not None else "no target"))
        files = None
        if args["report_dir"] and not self.check_mode:
            written = write_run(where_started(args["report_dir"], "the report directory"), "evidence", controller_now(),
                                files_of(summary) + [(".html", page_of)])
            files = dict(json=written["own"][".json"], junit=written["own"][".junit.xml"], markdown=written["own"][".md"], html=written["own"][".html"])
            lines += ["Summary: " + files["json"], "JUnit: " + files["junit"], "To read: " + files["markdown"], "To look at: " + files["html"]]
            if written["newest"]:
                lines.append("The newest summary is also at %s (and .junit.xml, .md, .html beside it)." % written["plain"][".json"])
        result = dict(report=files) if files else {}
        result.update(changed=False, verified=not breaks, breaks=breaks, entries=summary["entries"], head=summary["head"],
                      projects=summary["projects"], lines=lines)
        if breaks:
            result["message"] = "The ledger at %s is broken: %s" % (args["ledger_dir"], " ".join(breaks[:BREAKS_SHOWN]))
            if args["fail_on_break"]:
                result.update(failed=True, msg=result["message"])
        return result
