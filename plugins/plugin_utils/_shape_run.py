# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of a run of the runbook engine - a DR test, failover, failback or restore test: machines launched in
waves, checked, measured against RPO and RTO targets and cleaned up - and the plan such a run writes under --check. Its
JUnit XML (a suite for the run and one a machine), Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import PASSED
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import (
    CLEANING, FAILED_BANNER, LAUNCHING, OVER, PASSED_BANNER, WITHIN, chart, document, failures_list, figure_box, folded, headline, offset_of,
    span_bar, table_of)
from ansible_collections.replication.recovery.plugins.plugin_utils._render import cell, machines_junit, point_said, span_said
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, runbook_of

SCHEMA = ("roles", "runbook", "files", "report.schema.json")


def markdown(report):
    """The run as a summary a person reads at a glance."""
    lines = _markdown_head(report)
    if span_said(report.get("points_span")):
        lines.extend([span_said(report["points_span"]), ""])
    if len(report["waves"]) > 1:
        lines.extend(["| Wave | Machines | Status |", "|---|---|---|"])
        lines.extend("| %d | %d | %s |" % (wave["number"], len(wave["machines"]), cell(wave["status"] + (": " + wave["message"] if wave["message"] else "")))
                     for wave in report["waves"])
        lines.append("")
    lines.extend(["| Machine | Wave | Result | Instance | Addresses | Point in time | RPO | RTO | Checks | Cleanup |",
                  "|---|---|---|---|---|---|---|---|---|---|"])
    lines.extend(_markdown_row(machine) for machine in report["machines"])
    lines.extend(_markdown_sections(report))
    return "\n".join(lines) + "\n"


def _markdown_head(report):
    """The summary's title, its launch in a sentence, what runs next and its measures against their targets."""
    title = runbook_of(report).title
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
    return lines


def _markdown_row(machine):
    """A machine's row of the summary's table."""
    target = machine["target"]
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d | %s |" % (
        cell(machine["name"]), machine.get("wave") or "-",
        "stands" if machine.get("stands") or machine.get("left_standing") else "passed" if machine["passed"] else "FAILED",
        (target or {}).get("cloud_id") or "-", cell(", ".join(machine.get("addresses") or []) or "-"),
        point_said(machine["point_in_time"]) if machine.get("point_in_time") else "-", spoken(machine["rpo_seconds"]),
        spoken(machine["rto_seconds"]), sum(1 for check in machine["checks"] if check["status"] == PASSED), len(machine["checks"]),
        machine["cleanup"])


def _markdown_sections(report):
    """The summary's sections after its table: machines that stood, points thinned out, failures, stop conditions, what was left out or kept."""
    lines = []
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
    lines.extend(stop_conditions_markdown(report.get("stop_conditions")))
    if report["excluded"]:
        lines.extend(["", "Excluded from the run: %s." % ", ".join(report["excluded"])])
    if report["kept"]:
        lines.extend(["", "Target machines kept: %s." % (report.get("cleanup") or ", ".join(report["kept"]))])
    return lines


def stop_said(stops):
    """Who or what stopped the run, in a sentence; None when nothing did."""
    lever, stopped = stops.get("lever") or {}, stops.get("stopped_by")
    if stopped:
        return "Stopped by the stop condition %s: it failed %d times in a row (%s, at %s)." % (
            stopped["probe"], stopped["failures"], stopped["said"], stopped["at"])
    if lever.get("obeyed"):
        return "Stopped by the safety lever, engaged by %s at %s: %s." % (lever.get("by") or "-", lever.get("at") or "-", lever.get("reason") or "-")
    if lever:
        return "The safety lever was engaged (by %s: %s); this run is no rehearsal, and went on." % (lever.get("by") or "-", lever.get("reason") or "-")
    return None


def stop_conditions_markdown(stops):
    """The stop conditions' section: what stopped the run, each probe and its looks."""
    if not stops:
        return []
    lines = ["", "## Stop conditions", ""] + ([stop_said(stops), ""] if stop_said(stops) else [])
    if stops["probes"]:
        lines.extend(["| Probe | Kind | Stops after | Failures in a row at the end |", "|---|---|---|---|"])
        lines.extend("| %s | %s | %d | %d |" % (cell(probe["name"]), probe["kind"], probe["after_failures"], probe["failures_in_a_row"])
                     for probe in stops["probes"])
        failed = [look for look in stops["timeline"] if not look["passed"]]
        lines.extend(["", "%d looks; %d failed%s" % (stops["looks"], len(failed), ":" if failed else ".")])
        lines.extend("- %s %s: %s" % (look["at"], look["probe"], look["said"]) for look in failed[-10:])
    return lines


def stop_conditions_section(stops):
    """The stop conditions on the page: what stopped the run, and the timeline of the probes' looks."""
    if not stops:
        return ""
    rows = [(look["at"], look["probe"], "passed" if look["passed"] else "failed", look["said"]) for look in stops["timeline"]]
    said = "<p>%s</p>" % escape(stop_said(stops)) if stop_said(stops) else ""
    return "<h2>Stop conditions</h2>" + said + (table_of(("At", "Probe", "Look", "Said"), rows, "Looks of the probes") if rows else "")


def plan_markdown(plan):
    """A plan written under --check, to read before approving it."""
    title = BY_NAME[plan["runbook"]].title
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


def timeline_row(machine, origin, span, cleanup):
    requested, running = offset_of(machine.get("launch_requested"), origin), offset_of(machine.get("running"), origin)
    checked = offset_of(machine.get("recovered"), origin)
    bars = span_bar(requested, running, span, LAUNCHING, "launch request to running: %s" % spoken(
        None if running is None or requested is None else round(running - requested, 3)))
    bars += span_bar(running, checked if checked is not None else running, span, WITHIN if machine.get("passed") else OVER,
                     "checks: %s" % ("passed" if machine.get("passed") else "FAILED"))
    if machine.get("cleanup") == "removed" and cleanup:
        bars += span_bar(cleanup[0], cleanup[1], span, CLEANING, "cleanup job")
    failed = [check["name"] for check in machine.get("checks") or [] if check.get("status") == "failed"]
    state = "passed" if machine.get("passed") else "FAILED" + (": " + ", ".join(failed) if failed else "")
    return '<div class="row"><span>%s</span><span>%s</span><div class="track">%s</div><span>%s; %s</span></div>' % (
        escape(machine.get("name") or "-"), escape(spoken(machine.get("rto_seconds"))), bars, escape(state), escape(machine.get("cleanup") or "-"))


def timeline(report):
    """Every machine on one time axis from the first launch request (the service's clock): waiting for its wave's
    launch until it ran, its checks until it was recovered, and the cleanup job. Grouped by wave, the slowest first,
    in folded blocks."""
    machines = report.get("machines") or []
    origin = parse_time(report["launch_requested"]) if report.get("launch_requested") else None
    job = report.get("cleanup_job") or {}
    cleanup = (offset_of(job.get("created"), origin), offset_of(job.get("ended"), origin))
    cleanup = cleanup if None not in cleanup else None
    ends = [offset_of(m.get("recovered") or m.get("running"), origin) for m in machines] + [cleanup[1] if cleanup else None]
    span = max([end for end in ends if end is not None] + [1])
    waves = {}
    for machine in machines:
        waves.setdefault(machine.get("wave") or 1, []).append(machine)
    parts = ['<p>Launch requested %s; the axis runs to %s after it.</p><p class="legend">%s</p>' % (
        escape(report.get("launch_requested") or "-"), escape(spoken(round(span, 3))), "".join(
            '<span style="background:%s"></span>%s' % (colour, said) for colour, said in (
                (LAUNCHING, "launch request to running"), (WITHIN, "checks, passed"), (OVER, "failed"), (CLEANING, "cleanup job"))))]
    for wave in sorted(waves):
        rows = sorted(waves[wave], key=lambda m: -(m.get("rto_seconds") or 0))
        parts.append("<h3>Wave %d: %d machines</h3>" % (wave, len(rows)))
        parts.append(folded([timeline_row(machine, origin, span, cleanup) for machine in rows], "Machines"))
    return "".join(parts)


# What the incident channel needs of each machine: where it runs now, and from which data.
MACHINE_COLUMNS = ("Machine", "Wave", "Result", "Instance ID", "Addresses", "Point in time", "RPO", "RTO", "Checks")


def machine_row(machine):
    target = machine.get("target") or {}
    point = machine.get("point_in_time") or {}
    checks = machine.get("checks") or []
    return (machine.get("name"), machine.get("wave") or "-",
            "stands (failed over already)" if machine.get("stands") else "stands (launched by the stopped run)" if machine.get("left_standing") else
            "passed" if machine.get("passed") else "FAILED",
            target.get("cloud_id") or "-", ", ".join(machine.get("addresses") or []) or "-",
            "%s (%s)" % (moment_said(parse_time(point["date_time"]), whole=True) if point.get("date_time") else "time not read",
                         point.get("id") or "-") if point else "-",
            spoken(machine.get("rpo_seconds")), spoken(machine.get("rto_seconds")),
            "%d of %d passed%s" % (sum(1 for check in checks if check.get("status") == "passed"), len(checks), "".join(
                "; %s: %s" % (check.get("name"), check.get("message")) for check in checks if check.get("status") == "failed")[:300]))


def plan_page(plan):
    """A plan written under --check as a page for the approver: what it does first (every destructive or surprising step),
    the confirmation token when it replaces production, then each machine's wave, point in time and data-loss window."""
    title = BY_NAME[plan["runbook"]].title
    stops = plan.get("would") == "stop"
    would = "it would stop" if stops else "it would launch nothing" if plan.get("would") == "nothing" else "it would launch"
    heading = "Plan: %s of %s - %s" % (title, plan.get("project") or "-", would)
    sections = []
    if plan.get("refused"):
        sections.append("<h2>It would stop before launching anything</h2><p>%s</p>" % escape(plan["refused"].get("message") or ""))
    if plan.get("first"):
        sections.append("<h2>First, before anything else</h2><ul>%s</ul>" % "".join("<li>%s</li>" % escape(step) for step in plan["first"]))
    if plan.get("replace"):
        sections.append('<h2>Confirmation</h2><p>It terminates production machines (%s). The run that does it needs the token '
                        '<b class="hash">%s</b> as its confirm.</p>' % (escape(", ".join(plan["replace"]["machines"])), escape(plan["replace"]["token"])))
    rows = [_planned_row(m) for m in plan.get("machines") or []]
    sections.append("<h2>Machines</h2>" + table_of(("Machine", "Wave", "Point in time", "Data-loss window", "Gate"), rows, "Machines"))
    lede = "Written under --check at %s (service time): nothing was launched or changed.%s" % (
        plan.get("service_time") or "-", " " + span_said(plan.get("points_span")) if span_said(plan.get("points_span")) else "")
    return document(heading, FAILED_BANNER if stops else PASSED_BANNER, heading, lede, sections, None).replace(
        "<h2>Ledger</h2><p>Not entered in a ledger of runs.</p>", "<p>A plan is not entered in the ledger of runs; the run that carries it out is.</p>")


def _planned_row(m):
    """A machine's row of the plan's page: its wave, the point it would launch from, its data-loss window and its gate."""
    point = m.get("point_in_time") or {}
    gate = m.get("gate") or {}
    if m.get("point_in_time"):
        launched_from = "%s (%s)%s" % (point.get("date_time") or "time unknown", point.get("id") or "-",
                                       " - adopted, as the run it adopts pinned it" if m.get("adopted") else "")
    else:
        launched_from = "as an earlier run launched it (adopted)" if m.get("adopted") else "the service's latest, when it launches"
    if m.get("stands"):
        judged = "stands: %s" % m.get("said")
    elif gate.get("passed"):
        judged = "ready"
    else:
        judged = "%s: %s" % ("forced" if gate.get("forced") else "NOT READY", "; ".join(gate.get("reasons") or []))
    return (m.get("name"), m.get("wave") or "-", launched_from, spoken(m.get("data_loss_seconds")), judged)


def page(report, ledger=None):
    """The run as one HTML page."""
    title = runbook_of(report).title
    word, banner = headline(report)
    counts, measures, targets = report.get("counts") or {}, report.get("measures") or {}, report.get("targets") or {}
    machines = report.get("machines") or []
    heading = "%s of %s: %s" % (title, report.get("project") or "-", word)
    sections = [
        '<div class="figures">%s%s%s</div>' % (figure_box("Worst RTO", measures.get("rto_seconds"), targets.get("rto_seconds")),
                                               figure_box("Worst RPO", measures.get("rpo_seconds"), targets.get("rpo_seconds")),
                                               figure_box("Launch job", measures.get("launch_job_seconds"))),
        failures_list(report.get("failures")),
        "<h2>RTO and RPO</h2>",
        chart("RTO", [(m.get("name"), m.get("rto_seconds")) for m in machines], targets.get("rto_seconds")),
        chart("RPO", [(m.get("name"), m.get("rpo_seconds")) for m in machines], targets.get("rpo_seconds")),
        "<h2>Run</h2>" + table_of(("Check", "Status", "Message"), [(c.get("name"), c.get("status"), c.get("message")) for c in report.get("checks") or []],
                                  "Checks"),
        "<h2>Machines</h2>" + table_of(MACHINE_COLUMNS, [machine_row(machine) for machine in machines], "Machines"),
        "<h2>Timeline</h2>" + timeline(report),
        stop_conditions_section(report.get("stop_conditions")),
    ]
    lede = "%d of %d machines passed; %d launched. Launch requested %s (service time); report written %s (this machine's clock).%s" % (
        counts.get("passed", 0), counts.get("machines", 0), counts.get("launched", 0), report.get("launch_requested") or "-",
        report.get("generated") or "-", "".join(" " + said for said in (report.get("next"), span_said(report.get("points_span"))) if said))
    return document(heading, banner, heading, lede, sections, ledger)


def junit(report):
    """The run as JUnit XML: a suite for the run's checks, and one a machine."""
    return machines_junit(report, runbook_of(report).name)
