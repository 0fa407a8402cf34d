# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of the ledger's evidence: the ledger verified (each break named) and summarised per project and
period, the machines never proven, each project's RTO forecast. Its JUnit XML, Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._words import figure, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document

SCHEMA = ("roles", "evidence", "files", "report.schema.json")


def junit(report):
    """The evidence as JUnit XML, for an auditor's tools: a case for the ledger (failed where it is broken), and a suite per
    project - its RTO forecast against its target, and whether every machine was proven."""
    ledger = dict(name="ledger whole", status=PASSED if report["verified"] else FAILED,
                  message="%d entries, head %s" % (report["entries"], report["head"] or "none yet") if report["verified"] else " ".join(report["breaks"]))
    suites = [("evidence", [("evidence", ledger)])]
    for project in report["projects"]:
        forecast, never = project["rto_forecast"], project["never_proven"]
        checks = [
            dict(name="RTO forecast within target", status={True: PASSED, False: FAILED, None: SKIPPED}[forecast["meets_target"]],
                 message="no run measured its RTO yet" if forecast["p90_seconds"] is None else "it has no RTO target"
                 if forecast["target_seconds"] is None else "p90 %s against a target of %s" % (
                     spoken(forecast["p90_seconds"]), spoken(forecast["target_seconds"]))),
            dict(name="every machine proven", status=FAILED if never else PASSED,
                 message="never proven: %s" % ", ".join(never) if never else "all %d machines proven" % project["machines"])]
        suites.append(("evidence.%s" % project["name"], [("evidence.%s" % project["name"], check) for check in checks]))
    return junit_document("evidence", suites, report.get("generated"))


def markdown(report):
    """The ledger's evidence (plugin_utils._ledger.summary), to read."""
    lines = ["# Evidence: %s" % ("the ledger is whole" if report["verified"] else "THE LEDGER IS BROKEN"), "",
             "%d entries; head `%s`." % (report["entries"], report["head"] or "-"), ""]
    if report["breaks"]:
        lines += ["## Breaks", ""] + ["- %s" % said for said in report["breaks"]] + [""]
    lines += ["## Per project and %s" % report["period"], "",
              "| Project | Period | DR tests | passed | failed | other runs | worst RTO (s) | worst RPO (s) |", "|---|---|---|---|---|---|---|---|"]
    for group in report["periods"]:
        other = ", ".join("%s %d/%d" % (runbook, runs["passed"], runs["run"]) for runbook, runs in sorted(group["runs"].items()) if runbook != "dr_test")
        lines.append("| %s | %s | %d | %d | %d | %s | %s | %s |" % (
            group["project"], group["period"], group["drills"]["run"], group["drills"]["passed"], group["drills"]["failed"], other or "-",
            figure(group["worst_rto_seconds"]), figure(group["worst_rpo_seconds"])))
    lines += ["", "## Projects", "",
              "| Project | Machines | Never proven | RTO forecast, median / p90 (s) | RTO target (s) | |", "|---|---|---|---|---|---|"]
    for project in report["projects"]:
        forecast = project["rto_forecast"]
        lines.append("| %s | %d | %s | %s / %s | %s | %s |" % (
            project["name"], project["machines"], ", ".join(project["never_proven"][:20]) + (" …" if len(project["never_proven"]) > 20 else "")
            or "-", figure(forecast["median_seconds"]), figure(forecast["p90_seconds"]), figure(forecast["target_seconds"]),
            {True: "meets", False: "MISSES", None: "-"}[forecast["meets_target"]]))
    return "\n".join(lines) + "\n"


def page(report, ledger=None):
    """The evidence as one page with no outside resources."""
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>" % (
        escape(group["project"]), escape(group["period"]), group["drills"]["run"], group["drills"]["passed"], group["drills"]["failed"],
        figure(group["worst_rto_seconds"]), figure(group["worst_rpo_seconds"])) for group in report["periods"])
    projects = "".join("<tr><td>%s</td><td>%d</td><td>%s</td><td>%s / %s</td><td>%s</td></tr>" % (
        escape(project["name"]), project["machines"], escape(", ".join(project["never_proven"]) or "-"),
        figure(project["rto_forecast"]["median_seconds"]), figure(project["rto_forecast"]["p90_seconds"]),
        figure(project["rto_forecast"]["target_seconds"])) for project in report["projects"])
    breaks = "".join("<li>%s</li>" % escape(said) for said in report["breaks"])
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Evidence</title><style>"
            "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em .6em}"
            ".broken{color:#b00}.whole{color:#070}</style></head><body>"
            "<h1 class=\"%s\">%s</h1><p>%d entries; head <code>%s</code>.</p>%s"
            "<h2>Per project and %s</h2><table><tr><th>Project</th><th>Period</th><th>DR tests</th><th>passed</th><th>failed</th>"
            "<th>worst RTO (s)</th><th>worst RPO (s)</th></tr>%s</table>"
            "<h2>Projects</h2><table><tr><th>Project</th><th>Machines</th><th>Never proven</th><th>RTO forecast, median / p90 (s)</th>"
            "<th>RTO target (s)</th></tr>%s</table></body></html>\n") % (
        "whole" if report["verified"] else "broken", "The ledger is whole" if report["verified"] else "The ledger is broken",
        report["entries"], escape(report["head"] or "-"), "<ul>%s</ul>" % breaks if breaks else "", escape(report["period"]), rows, projects)
