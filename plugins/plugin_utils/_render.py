# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Rendering: every report of the collection in the forms tools and people read besides its JSON - JUnit XML (one
writer: suites of test cases, a check each) and Markdown (one set of parts: a title, tables, lists) - written in
Python, so that a thousand machines take a fraction of a second. The HTML pages are plugin_utils._page's."""

from xml.sax.saxutils import escape, quoteattr

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import figure, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._application import forecast_said, furthest_behind
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import APPLICATION, HEALTH, POLICY, SEARCH, runbook_of


# -- JUnit XML ---------------------------------------------------------------------------------------------------------

def junit_document(name, suites, timestamp):
    """JUnit XML of ``suites``: (suite name, [(class name, check)]) each, a test case per check - ``<failure>`` for a failed
    check, ``<skipped>`` for one that could not run. Measures are in the messages, not in ``time``: CI tools add times up,
    and an RPO is an age."""
    every = [check for unused, cases in suites for unused_class, check in cases]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<testsuites name=%s tests="%d" failures="%d" errors="0" skipped="%d">' % (
                 quoteattr(name), len(every), sum(1 for c in every if c["status"] == FAILED), sum(1 for c in every if c["status"] == SKIPPED))]
    for suite, cases in suites:
        checks = [check for unused, check in cases]
        lines.append('  <testsuite name=%s tests="%d" failures="%d" errors="0" skipped="%d" timestamp=%s>' % (
            quoteattr(suite), len(checks), sum(1 for c in checks if c["status"] == FAILED), sum(1 for c in checks if c["status"] == SKIPPED),
            quoteattr(timestamp or "")))
        for classname, check in cases:
            message = check.get("message") or ""
            lines.append("    <testcase classname=%s name=%s>" % (quoteattr(classname), quoteattr(check["name"])))
            if check["status"] == FAILED:
                lines.append("      <failure message=%s type=%s>%s</failure>" % (quoteattr(message), quoteattr(check["name"]), escape(message)))
            elif check["status"] == SKIPPED:
                lines.append("      <skipped message=%s/>" % quoteattr(message))
            else:
                lines.append("      <system-out>%s</system-out>" % escape(message))
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def junit(report, suite_prefix):
    """A runbook's report (checks of the run, machines with their checks) as JUnit XML: a suite for the run and one per
    machine."""
    base = "%s.%s" % (suite_prefix, report["project"])
    suites = ([(base, [(base, check) for check in report["checks"]])] if report["checks"] else []) + [
        ("%s.%s" % (base, machine["name"]), [("%s.%s" % (base, machine["name"]), check) for check in machine["checks"]])
        for machine in report["machines"]]
    return junit_document("%s %s" % (suite_prefix, report["project"]), suites, report["generated"])


def health_junit(report):
    """The fleet's health as JUnit XML: a suite per project, a test case per machine and check, the machine as the class."""
    suites = [("health.%s" % project["name"], [("health.%s.%s" % (project["name"], machine["name"]), check)
                                               for machine in project["machines"] for check in machine["checks"]])
              for project in report["projects"]]
    return junit_document("health", suites, report.get("generated"))


# -- Markdown ----------------------------------------------------------------------------------------------------------

def cell(text):
    """A table cell's text: a | would end the cell."""
    return str(text).replace("|", "\\|")


def table(headings, rows):
    """A Markdown table: its lines."""
    return ["| %s |" % " | ".join(headings), "|%s|" % "|".join("---" for unused in headings)] + [
        "| %s |" % " | ".join(cell(value) for value in row) for row in rows]


def listed(title, items):
    """A section that lists ``items``: its lines, none when there are none."""
    return ["", "## %s" % title, ""] + ["- %s" % item for item in items] if items else []


def lines_of(lines):
    return "\n".join(lines) + "\n"


def point_said(point):
    """A point in time as the plan and the report say it: its time and ID."""
    return "%s (%s)" % (moment_said(parse_time(point["date_time"]), whole=True) if point.get("date_time") else "time unknown",
                        point.get("id") or "-")


def span_said(span):
    """How far apart the machines' points in time are (the report's or plan's ``points_span``) in words; None for none."""
    if not span or not span["seconds"]:
        return None
    return "The machines' points in time span %s: the oldest %s's (%s), the newest %s's (%s)." % (
        spoken(span["seconds"]), span["oldest"]["name"], point_said(span["oldest"]), span["newest"]["name"], point_said(span["newest"]))


def markdown(report, title="DR test"):
    """A summary a person reads at a glance."""
    def cell(text):
        return str(text).replace("|", "\\|")

    lines = ["# %s of %s: %s" % (title, report["project"], said(of_report(report))), "",
             "%s launch%s from %s, requested %s (service time); report written %s (this machine's clock)." % (
                 (report["launch_type"] or "").capitalize(), " by recovery plan " + report["recovery_plan"] if report["recovery_plan"] else "",
                 report.get("points_said") or report["point_in_time"], report["launch_requested"] or "not at all (nothing was launched)",
                 report["generated"]), "",
             "| Measure | Worst | Target |", "|---|---|---|",
             "| RPO | %s | %s |" % (spoken(report["measures"]["rpo_seconds"]), spoken(report["targets"]["rpo_seconds"])),
             "| RTO | %s | %s |" % (spoken(report["measures"]["rto_seconds"]), spoken(report["targets"]["rto_seconds"])),
             "| Launch job | %s | - |" % spoken(report["measures"]["launch_job_seconds"]), ""]
    if report.get("next"):
        lines[2:2] = [report["next"], ""]
    if span_said(report.get("points_span")):
        lines.extend([span_said(report["points_span"]), ""])
    if len(report["waves"]) > 1:
        lines.extend(["| Wave | Machines | Status |", "|---|---|---|"])
        lines.extend("| %d | %d | %s |" % (wave["number"], len(wave["machines"]), cell(wave["status"] + (": " + wave["message"] if wave["message"] else "")))
                     for wave in report["waves"])
        lines.append("")
    lines.extend(["| Machine | Wave | Result | Instance | Addresses | Point in time | RPO | RTO | Checks | Cleanup |",
                  "|---|---|---|---|---|---|---|---|---|---|"])
    for machine in report["machines"]:
        target = machine["target"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d | %s |" % (
            cell(machine["name"]), machine.get("wave") or "-", "stands" if machine.get("stands") else "passed" if machine["passed"] else "FAILED",
            (target or {}).get("cloud_id") or "-", cell(", ".join(machine.get("addresses") or []) or "-"),
            point_said(machine["point_in_time"]) if machine.get("point_in_time") else "-", spoken(machine["rpo_seconds"]),
            spoken(machine["rto_seconds"]), sum(1 for check in machine["checks"] if check["status"] == PASSED), len(machine["checks"]),
            machine["cleanup"]))
    stands = [machine for machine in report["machines"] if machine.get("stands")]
    if stands:
        lines.extend(["", "## Failed over already (not launched by this run)", ""] + ["- %s: %s" % (m["name"], m["stands"]) for m in stands])
    if report.get("repinned"):
        lines.extend(["", "## Points in time thinned out during the run", ""] + [
            "- %s: %s pinned, launched from %s before wave %d: %s more data lost" % (
                name, point_said(entry["planned"]), point_said(entry["launched"]), entry["wave"], spoken(entry["extra_seconds"]))
            for name, entry in sorted(report["repinned"].items())])
    if report["failures"]:
        lines.extend(["", "## Failures", ""] + ["- %s" % failure for failure in report["failures"]])
    if report["excluded"]:
        lines.extend(["", "Excluded from the run: %s." % ", ".join(report["excluded"])])
    if report["kept"]:
        lines.extend(["", "Target machines kept: %s." % (report.get("cleanup") or ", ".join(report["kept"]))])
    return "\n".join(lines) + "\n"


def plan_markdown(plan, title):
    lines = ["# Plan: %s of %s" % (title, plan["project"]), "",
             "Written under --check at %s (service time): nothing was launched or changed. To carry out exactly this plan, give this "
             "file to the run as its plan." % (plan["service_time"] or "-"), ""]
    if plan["refused"]:
        lines.extend(["**It would stop before launching anything** (%s): %s" % (plan["refused"]["phase"], plan["refused"]["message"]), ""])
    elif plan["would"] == "nothing":
        lines.extend(["It would launch nothing.", ""])
    else:
        launching = [m for m in plan["machines"] if not m.get("stands") and not m.get("adopted")]
        lines.extend(["It would launch %d machines (%s) in %d wave(s), each from the point in time below, pinned now." % (
            len(launching), plan["launch_type"], len(plan["waves"])), ""])
    if plan["first"]:
        lines.extend(["## First, before anything else", ""] + ["- %s." % step for step in plan["first"]] + [""])
    if plan.get("replace"):
        lines.extend(["**Confirmation token: `%s`** - the run that replaces these production machines needs it as its confirm." % (
            plan["replace"]["token"]), ""])
    lines.extend(["| Machine | Wave | Point in time | Data-loss window | Gate |", "|---|---|---|---|---|"])
    for machine in plan["machines"]:
        point, gate = machine["point_in_time"], machine["gate"]
        lines.append("| %s | %s | %s | %s | %s |" % (
            machine["name"], machine["wave"] or "-", point_said(point) + (" (adopted: as the run it adopts pinned it)" if machine.get("adopted") else "")
            if point else "as an earlier run launched it (adopted)" if machine.get("adopted") else "the service's latest, when it launches",
            spoken(machine["data_loss_seconds"]),
            "stands: %s" % machine["said"] if machine.get("stands") else "ready" if gate["passed"] else (
                "%s: %s" % ("forced" if gate["forced"] else "NOT READY", "; ".join(gate["reasons"])))))
    if plan["excluded"]:
        lines.extend(["", "Excluded: %s." % ", ".join(plan["excluded"])])
    if span_said(plan.get("points_span")):
        lines.extend(["", span_said(plan["points_span"])])
    return "\n".join(lines) + "\n"


def evidence_markdown(summary_):
    """The ledger's evidence summary (plugin_utils._ledger.summary), to read."""
    lines = ["# Evidence: %s" % ("the ledger is whole" if summary_["verified"] else "THE LEDGER IS BROKEN"), "",
             "%d entries; head `%s`." % (summary_["entries"], summary_["head"] or "-"), ""]
    if summary_["breaks"]:
        lines += ["## Breaks", ""] + ["- %s" % said for said in summary_["breaks"]] + [""]
    lines += ["## Per project and %s" % summary_["period"], "",
              "| Project | Period | DR tests | passed | failed | other runs | worst RTO (s) | worst RPO (s) |", "|---|---|---|---|---|---|---|---|"]
    for group in summary_["periods"]:
        other = ", ".join("%s %d/%d" % (runbook, runs["passed"], runs["run"]) for runbook, runs in sorted(group["runs"].items()) if runbook != "dr_test")
        lines.append("| %s | %s | %d | %d | %d | %s | %s | %s |" % (
            group["project"], group["period"], group["drills"]["run"], group["drills"]["passed"], group["drills"]["failed"], other or "-",
            figure(group["worst_rto_seconds"]), figure(group["worst_rpo_seconds"])))
    lines += ["", "## Projects", "",
              "| Project | Machines | Never proven | RTO forecast, median / p90 (s) | RTO target (s) | |", "|---|---|---|---|---|---|"]
    for project in summary_["projects"]:
        forecast = project["rto_forecast"]
        lines.append("| %s | %d | %s | %s / %s | %s | %s |" % (
            project["name"], project["machines"], ", ".join(project["never_proven"][:20]) + (" …" if len(project["never_proven"]) > 20 else "")
            or "-", figure(forecast["median_seconds"]), figure(forecast["p90_seconds"]), figure(forecast["target_seconds"]),
            {True: "meets", False: "MISSES", None: "-"}[forecast["meets_target"]]))
    return "\n".join(lines) + "\n"


def clean_point_markdown(report):
    """A clean point search's report, to read."""
    def cell(text):
        return str(text).replace("|", "\\|")

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
    return "\n".join(lines) + "\n"


def health_markdown(report):
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
            lines.extend(["No machines.", ""])
            continue
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
    lines.extend(listed("Failures", report["failures"])[1:])
    if report["excluded"]:
        lines.extend(["", "Excluded (replication stopped): %s." % ", ".join(report["excluded"])])
    return lines_of(lines)


# What a launch policy's run did, by its mode.
MODES_SAID = {"apply": "Applied", "restore": "A backup put back", "export": "Exported", "import": "A CSV imported"}


def policy_checks(report):
    """A launch policy's report as checks: one per machine it touched, failed when its blueprint was refused."""
    return [dict(name=machine["name"], status=FAILED if machine["status"] == "refused" else PASSED, message="%s%s" % (
        machine["status"], ": " + ", ".join(machine["options_changed"]) if machine["options_changed"] else "")) for machine in report["machines"]] + [
        dict(name=name, status=FAILED, message=why) for name, why in sorted(report["refused"].items())
        if name not in set(machine["name"] for machine in report["machines"])]


def policy_junit(report):
    """A launch policy as JUnit XML: a test case per machine."""
    suite = "launch_policy.%s" % report["project"]
    checks = policy_checks(report) + [dict(name="policy", status=FAILED, message=failure) for failure in report["failures"][:1]]
    return junit_document("launch_policy %s" % report["project"], [(suite, [(suite, check) for check in checks])], report["generated"])


def policy_markdown(report):
    """A launch policy, to read: per machine, each setting and the layer that set it."""
    counts = report["counts"]
    lines = ["# Launch policy of %s: %s" % (report["project"], said(of_report(report))), "",
             "%s in region %s: %d machines, %d changed, %d left out, %d refused. Report written %s (this machine's clock)." % (
                 MODES_SAID[report["mode"]], report["region"].get("name") or report["region"].get("id"), counts["machines"],
                 counts["machines_changed"], counts["excluded"], counts["refused"], report.get("generated")), ""]
    if report.get("backup"):
        lines.extend(["Backup, written before the first change: %s." % report["backup"], ""])
    lines.extend(table(("Machine", "Status", "Setting", "Value", "Set by"), policy_rows(report["machines"])))
    lines.extend(listed("Failures", report["failures"]))
    lines.extend(listed("Not re-addressed", ["%s: %s" % item for item in sorted(report["unaddressed"].items())]))
    if report["excluded"]:
        lines.extend(["", "Left out: %s." % ", ".join(report["excluded"])])
    if report.get("not_restorable"):
        lines.extend(listed("Not put back (the interface cannot take a setting away)",
                            ["%s: %s" % (name, ", ".join(options)) for name, options in sorted(report["not_restorable"].items())]))
    return lines_of(lines)


def policy_rows(machines):
    """A row per machine and setting: the machine named on its first row only; a changed setting marked."""
    rows = []
    for machine in machines:
        options = sorted(machine["settings"]) or [None]
        for index, option in enumerate(options):
            rows.append((machine["name"] if index == 0 else "", machine["status"] if index == 0 else "",
                         "-" if option is None else option + (" (changed)" if option in machine["options_changed"] else ""),
                         "-" if option is None else value_said(machine["settings"][option]),
                         "-" if option is None else machine["origin"].get(option, "-")))
    return rows


def value_said(value):
    if isinstance(value, dict):
        return ", ".join("%s=%s" % (key, value[key]) for key in sorted(value))
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def application_rows(report):
    """A row per node, in the order of its levels."""
    return [(node["level"], node["name"], node["project"], node["impact"], node["state"], ", ".join(node["after"]) or "-",
             figure(node["seconds"]), figure(node["rto_seconds"]), node["machines"], ", ".join(node["failed_machines"]) or "-",
             (node.get("points") or {}).get("newest") or "-", spoken(node.get("behind_seconds")),
             "%s%s" % (node["approval"]["by"], ": " + node["approval"]["comment"] if node["approval"]["comment"] else "")
             if node.get("approval") else ("needed" if node["needs_approval"] else "-")) for node in report["nodes"]]


APPLICATION_HEADINGS = ("Level", "Node", "Project", "Impact", "Outcome", "After", "Took (s)", "RTO (s)", "Machines", "Failed", "Newest point",
                        "Behind the moment", "Approval")


LEVEL_HEADINGS = ("Level", "Nodes", "Took (s)", "RTO (s)", "Forecast p50 (s)", "Forecast p90 (s)")


def level_rows(report):
    """A row per level: its nodes, the time it took, its RTO (its slowest node's) beside the forecast."""
    return [(level["level"], ", ".join(level["nodes"]), figure(level["seconds"]), figure(level.get("rto_seconds")),
             figure(level["forecast_p50_seconds"]), figure(level["forecast_p90_seconds"])) for level in report["levels"]]


def application_junit(report):
    """An application as JUnit XML: a test case per node; a node failed or blocked fails when it is critical."""
    suite = "application.%s" % report["name"]
    checks = []
    for node in report["nodes"]:
        if node["state"] == PASSED:
            status = PASSED
        elif node["state"] in (FAILED, "blocked") and node["impact"] == "critical":
            status = FAILED
        else:
            status = SKIPPED
        message = node["reason"] or "; ".join(node["failures"][:3]) or node["state"]
        checks.append(dict(name=node["name"], status=status, message=message, seconds=node["seconds"]))
    return junit_document("application %s" % report["name"], [(suite, [(suite, check) for check in checks])], report["generated"])


def points_moment_said(report):
    """An application's moment of its points in time, and the node furthest behind it, in sentences (none without one)."""
    moments = sorted(set((report.get("points_as_of") or {}).values()))
    if not moments:
        return []
    said = ["Points in time as of %s (the service's clock, when the run began%s): each machine launched from its newest point at or before "
            "it, unless its node named its own." % (" and ".join(moments), ", or its plan was made" if report.get("plan") else "")]
    behind = furthest_behind(report["nodes"])
    if behind:
        said.append("Furthest behind it: %s, whose oldest point is %s before its moment (%s)." % (
            behind["name"], spoken(behind["behind_seconds"]), behind["points"]["oldest"]))
    return said


def application_markdown(report):
    """An application, to read: its levels measured beside the forecast, each node, the slowest path."""
    lines = ["# Application %s (%s): %s" % (report["name"], report["runbook"], said(of_report(report))), "",
             "Begun %s by %s; report written %s (this machine's clock)." % (report["began"], report["controller_user"], report["generated"]), "",
             "Slowest path: %s." % " -> ".join(report["critical_path"] or ["-"]), ""]
    lines.extend(table(LEVEL_HEADINGS, level_rows(report)))
    lines.extend(["", forecast_said(report["forecast"]), ""])
    for line in points_moment_said(report):
        lines.extend([line, ""])
    lines.extend(table(APPLICATION_HEADINGS, application_rows(report)))
    lines.extend(listed("Failures", report["failures"]))
    return lines_of(lines)


def forms_of(report):
    """The JUnit XML and Markdown of any report of the collection, chosen by its schema: {".junit.xml": ..., ".md": ...}."""
    runbook = runbook_of(report)
    if runbook.shape == HEALTH:
        return {".junit.xml": health_junit(report), ".md": health_markdown(report)}
    if runbook.shape == POLICY:
        return {".junit.xml": policy_junit(report), ".md": policy_markdown(report)}
    if runbook.shape == APPLICATION:
        return {".junit.xml": application_junit(report), ".md": application_markdown(report)}
    if runbook.shape == SEARCH:
        return {".junit.xml": junit(report, runbook.name), ".md": clean_point_markdown(report)}
    return {".junit.xml": junit(report, runbook.name), ".md": markdown(report, runbook.title)}
