# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of a clean point search: each machine's newest clean point in time, the newest that failed, the data
given up, and each round tested. Its JUnit XML, Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart, document, failures_list, figure_box, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import cell, machines_junit
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import stop_conditions_markdown, stop_conditions_section

SCHEMA = ("roles", "clean_point", "files", "report.schema.json")


def markdown(report):
    """A clean point search's report, to read."""
    lines = ["# Clean point search of %s: %s" % (report["project"], said(of_report(report))), "",
             "Window: after %s, at or before %s. %s search%s, %d rounds (at most %d), %d launches." % (
                 report["window"]["after"] or "the oldest point", report["window"]["before"],
                 "Consistent" if report["consistent"] else "Per-machine",
                 " by file search" if report["mode"] == "files" else "", len(report["rounds"]), report["rounds_at_most"], report["launches"]), ""]
    if report["consistent"]:
        lines.extend(["Newest common clean moment: %s." % (report["common_moment"] or "none"), ""])
    lines.extend(["| Machine | Result | Clean point | Newest failed | Data given up | Tested |", "|---|---|---|---|---|---|"])
    for machine in report["machines"]:
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            cell(machine["name"]), cell(machine["status"]), (machine["clean_point"] or {}).get("date_time") or "-",
            (machine["newest_failed"] or {}).get("date_time") or "-", spoken(machine["data_loss_seconds"], days=True),
            ", ".join("%s %s" % (test["point_in_time"]["date_time"], "passed" if test["passed"] else "FAILED" if test["passed"] is False else "?")
                      for test in machine["tested"]) or "-"))
    if report["failures"]:
        lines.extend(["", "## Not found", ""] + ["- %s" % failure for failure in report["failures"]])
    lines.extend(stop_conditions_markdown(report.get("stop_conditions")))
    return "\n".join(lines) + "\n"


def page(report, ledger=None):
    """A clean point search as one HTML page: each machine's clean point and the data it gives up, each round tested."""
    word, banner = headline(report)
    machines = report.get("machines") or []
    window = report.get("window") or {}
    heading = "Clean point search of %s: %s" % (report.get("project") or "-", word)
    found = sum(1 for m in machines if m.get("clean_point"))
    sections = ['<div class="figures">%s%s%s%s</div>' % (
        '<div class="figure">Clean point found<b>%d of %d</b></div>' % (found, len(machines)),
        '<div class="figure">Rounds<b>%d (at most %s)</b></div>' % (len(report.get("rounds") or []), escape(str(report.get("rounds_at_most")))),
        '<div class="figure">Launches<b>%d</b></div>' % (report.get("launches") or 0),
        figure_box("Most data given up", max([m["data_loss_seconds"] for m in machines if m.get("data_loss_seconds") is not None], default=None)))]
    if report.get("consistent"):
        sections.append("<p>Newest common clean moment: %s.</p>" % escape(report.get("common_moment") or "none"))
    sections.append(failures_list(report.get("failures")))
    sections.append(chart("Data given up", [(m.get("name"), m.get("data_loss_seconds")) for m in machines], None))
    sections.append("<h2>Rounds</h2>" + table_of(("Round", "Moment", "Launch job", "Status", "Machines"), [
        (r.get("number"), r.get("moment"), r.get("job"), r.get("status"), r.get("machines")) for r in report.get("rounds") or []], "Rounds"))
    sections.append("<h2>Machines</h2>" + table_of(("Machine", "Result", "Clean point", "Newest failed", "Data given up", "Tested"), [
        (m.get("name"), m.get("status"), (m.get("clean_point") or {}).get("date_time"), (m.get("newest_failed") or {}).get("date_time"),
         spoken(m.get("data_loss_seconds")), ", ".join("%s %s" % (t["point_in_time"]["date_time"], {True: "passed", False: "FAILED"}.get(t["passed"], "?"))
                                                       for t in m.get("tested") or []))
        for m in sorted(machines, key=lambda m: (m.get("status") == "found", m.get("name") or ""))], "Machines"))
    sections.append(stop_conditions_section(report.get("stop_conditions")))
    lede = "Window: after %s, at or before %s; %s search. Report written %s (this machine's clock)." % (
        window.get("after") or "the oldest point", window.get("before") or "-", "consistent" if report.get("consistent") else "per-machine",
        report.get("generated") or "-")
    return document(heading, banner, heading, lede, sections, ledger)


def junit(report):
    """The search as JUnit XML: a suite for the search, and one a machine with a test case a round that tested it."""
    return machines_junit(report, runbook_of(report).name)
