# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of the fleet's health: per project each machine against the thresholds, the RTO forecast from the
ledger, a backup project's last verified restore, and the machines changed since last proven. Its JUnit XML, Markdown,
page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart, document, failures_list, figure_box, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, lines_of, listed, table

SCHEMA = ("roles", "health", "files", "report.schema.json")


def junit(report):
    """The fleet's health as JUnit XML: a suite per project, a test case per machine and check, the machine as the class."""
    suites = [("health.%s" % project["name"], [("health.%s.%s" % (project["name"], machine["name"]), check)
                                               for machine in project["machines"] for check in machine["checks"]])
              for project in report["projects"]]
    return junit_document("health", suites, report.get("generated"))


def markdown(report):
    """The fleet's health, to read: per project its machines against the thresholds, the RTO forecast from the ledger,
    and the machines changed since they were last proven."""
    limits = report["thresholds"]
    lines = ["# Fleet health: %s" % said(of_report(report)), "",
             "%d of %d machines in %d projects passed; measured at %s (service time), report written %s (this machine's clock)." % (
                 report["counts"]["passed"], report["counts"]["machines"], report["counts"]["projects"], report["service_time"],
                 report.get("generated")), "",
             "Thresholds: replication %s; lag at most %s; backlog at most %s; DR-tested within %s." % (
                 " or ".join(limits["states"]), "any" if limits["max_lag_seconds"] is None else spoken(limits["max_lag_seconds"]),
                 "any" if limits["max_backlog_bytes"] is None else "%s bytes" % limits["max_backlog_bytes"],
                 "any time" if limits["tested_within_days"] is None else "%s days" % limits["tested_within_days"]), ""]
    for project in report["projects"]:
        lines.extend(_project_lines(report, project))
    lines.extend(listed("Failures", report["failures"])[1:])
    if report["excluded"]:
        lines.extend(["", "Excluded (replication stopped): %s." % ", ".join(report["excluded"])])
    return lines_of(lines)


def _project_lines(report, project):
    """A project's part of the Markdown: its RTO forecast, its backups, its machines and what changed since last proven."""
    lines = []
    lines.extend(["## %s: %s" % (project["name"], "passed" if project["passed"] else "FAILED"), ""])
    forecast = project.get("rto_forecast")
    if forecast and forecast.get("p90_seconds") is not None:
        lines.extend(["RTO forecast of a full recovery, from the ledger: %s (median), %s (90th percentile), against a target of %s%s." % (
            spoken(forecast["median_seconds"]), spoken(forecast["p90_seconds"]), spoken(forecast.get("target_seconds")),
            ": MISSED" if forecast.get("meets_target") is False else ""), ""])
    backup = project.get("backup")
    if backup:
        lines.extend(["Backups: last backed up %s; restores last verified %s." % (
            backup["last_backed_up"] or "never", "%s (%s days ago)" % (backup["last_verified"], backup["verified_days_ago"])
            if backup["last_verified"] else "never (no passing restore test in the ledger)"), ""])
    if not project["machines"]:
        return lines + ["No machines.", ""]
    lines.extend(table(("Machine", "Result", "Replication", "Lag", "Backlog (bytes)", "Last DR-tested", "Proof"), [(
        machine["name"], "passed" if machine["passed"] else "FAILED", machine["replication_state"], spoken(machine["lag_seconds"]),
        machine["backlog_bytes"], "%s (%s days ago)" % (machine["last_tested"], machine["tested_days_ago"]) if machine.get("last_tested")
        else "never", (machine["proof"]["status"] + (", on %s" % machine["proof"]["proven"]["time"] if machine["proof"].get("proven") else ""))
        if machine.get("proof") else "-") for machine in project["machines"]]))
    changes = ["%s: %s %s by %s: %s" % (machine["name"], change["time"], change["event"], change.get("username") or "?",
                                        change.get("description") or ", ".join(change.get("fields") or []))
               for machine in project["machines"] if machine.get("proof") for change in machine["proof"].get("changes") or []]
    if changes:
        lines.extend(["", "Changed since last proven (%s):" % (
            "by the ledger of runs" if report.get("proofs_from") == "ledger" else "without a ledger: since their last test launch"), ""])
        lines.extend("- %s" % change for change in changes)
    lines.append("")
    return lines


def proof_said(machine):
    proof = machine.get("proof")
    if not proof:
        return None
    return proof["status"] + (", on %s" % proof["proven"]["time"] if proof.get("proven") else "")


def _project_sections(report, project, limits):
    """A project's part of the page: its backups, its RTO forecast, the lag chart, its machines and what changed."""
    sections = []
    machines = project.get("machines") or []
    forecast = project.get("rto_forecast") or {}
    sections.append("<h2>%s: %s</h2>" % (escape(project.get("name") or "-"), "passed" if project.get("passed") else "FAILED"))
    backup = project.get("backup")
    if backup:
        verified = ("%s (%s days ago)" % (backup["last_verified"], backup["verified_days_ago"]) if backup.get("last_verified")
                    else "never (no passing restore test in the ledger)")
        sections.append("<p>Backups: last backed up %s; restores last verified %s.</p>" % (
            escape(backup.get("last_backed_up") or "never"), escape(verified)))
    if forecast.get("p90_seconds") is not None:
        sections.append('<div class="figures">%s%s</div>' % (
            figure_box("RTO forecast, median", forecast.get("median_seconds"), forecast.get("target_seconds")),
            figure_box("RTO forecast, 90th percentile", forecast.get("p90_seconds"), forecast.get("target_seconds"))))
        per_machine = forecast.get("machines") or {}
        sections.append(chart("RTO forecast", [(name, (per_machine.get(name) or {}).get("p90_seconds")) for name in sorted(per_machine)],
                              forecast.get("target_seconds")))
    sections.append(chart("Replication lag", [(m.get("name"), m.get("lag_seconds")) for m in machines], limits.get("max_lag_seconds")))
    sections.extend(_machines_sections(report, machines))
    return sections


def _machines_sections(report, machines):
    """A project's machines, the failed first, and the changes since they were last proven."""
    sections = []
    ranked = sorted(machines, key=lambda m: (m.get("passed"), m.get("name") or ""))  # the failed first
    sections.append(table_of(("Machine", "Result", "Replication", "Lag (s)", "Backlog (bytes)", "Last DR-tested", "Proof"), [
        (m.get("name"), "passed" if m.get("passed") else "FAILED: " + "; ".join(
            "%s: %s" % (c["name"], c["message"]) for c in m.get("checks") or [] if c.get("status") == "failed"),
         m.get("replication_state"), m.get("lag_seconds"), m.get("backlog_bytes"), m.get("last_tested") or "never", proof_said(m))
        for m in ranked], "Machines"))
    changes = [(m.get("name"), change) for m in machines for change in ((m.get("proof") or {}).get("changes") or [])]
    if changes:
        sections.append("<h3>Changed since last proven (%s)</h3>" % (
            "by the ledger of runs" if report.get("proofs_from") == "ledger" else "without a ledger: since their last test launch"))
        sections.append(table_of(("Machine", "When", "Event", "By", "What"), [
            (name, change.get("time"), change.get("event"), change.get("username") or "?",
             change.get("description") or ", ".join(change.get("fields") or [])) for name, change in changes], "Changes"))
    return sections


def page(report, ledger=None):
    """The fleet's health as one HTML page: per project, each machine's lag against the threshold (what it would lose
    now) and its RTO forecast against the target (how long it would take), the machines changed since last proven."""
    word, banner = headline(report)
    counts, limits = report.get("counts") or {}, report.get("thresholds") or {}
    heading = "Fleet health: %s" % word
    sections = ['<div class="figures">%s</div>' % "".join(
        '<div class="figure">%s<b>%s</b></div>' % (escape(label), counts.get(key, 0)) for label, key in (
            ("Machines", "machines"), ("Failed", "failed"), ("Unproven", "unproven"), ("Excluded", "excluded"), ("Projects", "projects"))),
        failures_list(report.get("failures"))]
    for project in report.get("projects") or []:
        sections.extend(_project_sections(report, project, limits))
    if report.get("excluded"):
        sections.append("<p>Excluded (replication stopped): %s.</p>" % escape(", ".join(report["excluded"])))
    lede = "%d of %d machines in %d projects passed; measured at %s (service time), report written %s (this machine's clock)." % (
        counts.get("passed", 0), counts.get("machines", 0), counts.get("projects", 0), report.get("service_time") or "-",
        report.get("generated") or "-")
    return document(heading, banner, heading, lede, sections, ledger)
