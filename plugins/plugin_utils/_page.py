# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A runbook's report as one HTML page for people: the outcome first, RTO and RPO per machine against
their targets as charts, the failures with their reasons, a timeline of every machine, and the
ledger entry. One file with no outside resource and no script, so that it opens from a mail, an
artifact store or an air-gapped share. At a thousand machines the charts become histograms (with
the slowest machines named) and the timeline and tables are grouped in folded blocks of a hundred.

Each report of the collection has its page: a DR test, failover or failback (page), the fleet's
health (health_page) and a clean point search (clean_point_page); page_of chooses by the report's
schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import figure, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._application import forecast_said
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import FAILED as FAILED_WORD, PASSED as PASSED_WORD, of_report, outcome, said
from ansible_collections.replication.recovery.plugins.plugin_utils._render import (
    APPLICATION_HEADINGS, LEVEL_HEADINGS, MODES_SAID, application_rows, level_rows, points_moment_said, policy_rows, span_said)
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import APPLICATION, HEALTH, POLICY, SEARCH, runbook_of

BARS_AT_MOST = 50  # machines drawn one bar each; above, a histogram
BINS = 20
SLOWEST_NAMED = 20
FAILURES_SHOWN = 100  # on the page; the others are in the JSON report
FAILURES_OPEN = 10  # the first of them in the open, the rest folded
BLOCK = 100  # timeline rows in one folded block

# Colours a test can find in a screenshot: the outcome's banner (its outcome's colour) and the charts' bars.
PASSED_BANNER, FAILED_BANNER = outcome(PASSED_WORD).colour, outcome(FAILED_WORD).colour
WITHIN, OVER, TARGET = "#43a047", "#e53935", "#1565c0"
# The timeline's spans: waiting for the launch, the checks (WITHIN or OVER as they passed), the cleanup.
LAUNCHING, CLEANING = "#90caf9", "#9e9e9e"

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#222}
main{padding:1em 2em}
.outcome{color:#fff;padding:1.2em 2em}
.outcome h1{margin:0 0 .3em 0;font-size:1.8em}
.outcome p{margin:.2em 0}
.figures{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}
.figure{border:1px solid #ccc;border-radius:4px;padding:.6em 1em;min-width:9em}
.figure b{display:block;font-size:1.4em}
.over{color:%(over)s}
table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;font-size:.9em}
.row{display:grid;grid-template-columns:14em 7em 1fr 12em;gap:.5em;align-items:center;font-size:.85em;padding:1px 0}
.track{position:relative;height:10px;background:#eee}
.bar{position:absolute;top:0;height:10px}
.legend span{display:inline-block;width:1em;height:.8em;margin:0 .3em 0 1em}
.hash{font-family:monospace;word-break:break-all}
details{margin:.3em 0}
summary{cursor:pointer}
""" % dict(over=OVER)


def _figure(label, value, target=None):
    over = target is not None and value is not None and value > target
    said = spoken(value) + ("" if target is None else " (target %s)" % spoken(target))
    return '<div class="figure%s">%s<b>%s</b></div>' % (" over" if over else "", escape(label), escape(said))


def chart(title, values, target, width=900):
    """An SVG chart of (name, seconds) pairs: one bar a machine, or a histogram of many; bars over the target in
    another colour, and the target as a line where it falls within the bars' scale."""
    measured = [(name, value) for name, value in values if value is not None]
    if not measured:
        return "<h3>%s</h3><p>Nothing measured.</p>" % escape(title)
    slowest = max(value for unused, value in measured)
    over_target = sum(1 for unused, value in measured if target is not None and value > target)
    # A target far beyond every machine would squeeze the bars to nothing: it is said, not drawn.
    drawn_target = target is not None and target <= 1.5 * slowest
    parts = []
    if len(measured) <= BARS_AT_MOST:
        scale = (width - 240) / float(max(slowest, target if drawn_target else 0) or 1)
        height = 18 * len(measured) + 30
        for index, (name, value) in enumerate(sorted(measured, key=lambda item: -item[1])):
            y = 10 + 18 * index
            colour = OVER if target is not None and value > target else WITHIN
            parts.append('<text x="0" y="%d" font-size="12">%s</text><rect x="160" y="%d" width="%d" height="14" fill="%s"/>'
                         '<text x="%d" y="%d" font-size="11">%s</text>' % (
                             y + 11, escape(name[:24]), y, max(1, int(value * scale)), colour, 166 + int(value * scale), y + 11,
                             escape(spoken(value))))
        if drawn_target:
            x = 160 + int(target * scale)
            parts.append('<line x1="%d" y1="0" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                         '<text x="%d" y="%d" font-size="11" fill="%s">target</text>' % (x, x, height - 15, TARGET, x + 3, height - 3, TARGET))
        what = "per machine"
    else:
        # A histogram over the machines' own range; a bin holding a machine over the target is drawn as over.
        low = min(value for unused, value in measured)
        bins = min(BINS, len(set(value for unused, value in measured)))
        step = (slowest - low) / float(bins) or 1.0
        counts, over = [0] * bins, [0] * bins
        for unused, value in measured:
            index = min(int((value - low) / step), bins - 1)
            counts[index] += 1
            over[index] += 1 if target is not None and value > target else 0
        most = max(counts)
        height = 20 * bins + 10
        for index, count in enumerate(counts):
            y = 10 + 20 * index
            if bins == 1:
                span = spoken(low)
            elif step < 1:  # bins narrower than a second: their bounds to the hundredth
                span = "%.2f to %.2f s" % (low + index * step, low + (index + 1) * step)
            else:
                span = "%s to %s" % (spoken(low + index * step), spoken(low + (index + 1) * step))
            length = int(count * (width - 260) / float(most)) if count else 0
            colour = OVER if over[index] else WITHIN
            parts.append('<text x="0" y="%d" font-size="11">%s</text><rect x="160" y="%d" width="%d" height="16" fill="%s"/>'
                         '<text x="%d" y="%d" font-size="11">%d</text>' % (y + 12, escape(span), y, length, colour, 166 + length, y + 12, count))
        what = "machines by %s" % title
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" shape-rendering="crispEdges" role="img" aria-label="%s">%s</svg>' % (
        width, height, escape(title), "".join(parts))
    named = ""
    if len(measured) > BARS_AT_MOST:
        ranked = sorted(measured, key=lambda item: -item[1])[:SLOWEST_NAMED]
        named = "<p>Slowest: %s</p>" % escape(", ".join("%s %s" % (name, spoken(value)) for name, value in ranked))
    if target is None:
        said = "no target"
    else:
        said = "target %s; %d of %d machines over it%s" % (spoken(target), over_target, len(measured),
                                                           "" if drawn_target or len(measured) > BARS_AT_MOST else ", the target beyond the scale")
    return "<h3>%s (%s; %s)</h3>%s%s" % (escape(title), escape(what), escape(said), svg, named)


def _offset(moment, origin):
    return None if not moment or origin is None else parse_time(moment) - origin


def _span(start, end, span, colour, said):
    if start is None or end is None:
        return ""
    left = max(0.0, 100.0 * start / span)
    return '<div class="bar" style="left:%.2f%%;width:%.2f%%;background:%s" title="%s"></div>' % (
        left, max(0.3, min(100.0 - left, 100.0 * (end - start) / span)), colour, escape(said))


def _row(machine, origin, span, cleanup):
    requested, running = _offset(machine.get("launch_requested"), origin), _offset(machine.get("running"), origin)
    checked = _offset(machine.get("recovered"), origin)
    bars = _span(requested, running, span, LAUNCHING, "launch request to running: %s" % spoken(
        None if running is None or requested is None else round(running - requested, 3)))
    bars += _span(running, checked if checked is not None else running, span, WITHIN if machine.get("passed") else OVER,
                  "checks: %s" % ("passed" if machine.get("passed") else "FAILED"))
    if machine.get("cleanup") == "removed" and cleanup:
        bars += _span(cleanup[0], cleanup[1], span, CLEANING, "cleanup job")
    failed = [check["name"] for check in machine.get("checks") or [] if check.get("status") == "failed"]
    state = "passed" if machine.get("passed") else "FAILED" + (": " + ", ".join(failed) if failed else "")
    return '<div class="row"><span>%s</span><span>%s</span><div class="track">%s</div><span>%s; %s</span></div>' % (
        escape(machine.get("name") or "-"), escape(spoken(machine.get("rto_seconds"))), bars, escape(state), escape(machine.get("cleanup") or "-"))


def _folded(rows, what):
    """Rows in folded blocks of a hundred, the first open: a thousand machines stay readable, and the page light."""
    return "".join("<details%s><summary>%s %d to %d</summary>%s</details>" % (
        " open" if start == 0 else "", escape(what), start + 1, start + len(rows[start:start + BLOCK]), "".join(rows[start:start + BLOCK]))
        for start in range(0, len(rows), BLOCK))


def timeline(report):
    """Every machine on one time axis from the first launch request (the service's clock): waiting for its wave's
    launch until it ran, its checks until it was recovered, and the cleanup job. Grouped by wave, the slowest first,
    in folded blocks."""
    machines = report.get("machines") or []
    origin = parse_time(report["launch_requested"]) if report.get("launch_requested") else None
    job = report.get("cleanup_job") or {}
    cleanup = (_offset(job.get("created"), origin), _offset(job.get("ended"), origin))
    cleanup = cleanup if None not in cleanup else None
    ends = [_offset(m.get("recovered") or m.get("running"), origin) for m in machines] + [cleanup[1] if cleanup else None]
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
        parts.append(_folded([_row(machine, origin, span, cleanup) for machine in rows], "Machines"))
    return "".join(parts)


def headline(report):
    """A report's outcome as its page's heading says it, and the banner's colour: its ``outcome`` (plugin_utils._outcomes)
    - or, for a report written before runs kept one, passed or failed by its result."""
    word = of_report(report)
    return said(word), outcome(word).colour


def _document(title, banner, heading, lede, sections, ledger):
    """The page: a banner in the outcome's colour, then the sections, then the ledger entry."""
    ledger_said = ('<h2>Ledger</h2><p>Entry %d, SHA-256 <span class="hash">%s</span></p>' % (ledger["sequence"], escape(ledger["sha256"]))
                   if ledger else "<h2>Ledger</h2><p>Not entered in a ledger of runs.</p>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            '<title>%s</title><style>%s</style></head><body><header class="outcome" style="background:%s"><h1>%s</h1><p>%s</p></header>'
            "<main>%s%s</main></body></html>\n" % (
                escape(title), STYLE, banner, escape(heading), escape(lede), "".join(sections), ledger_said))


def _failures(failures):
    """The first failures in the open, the others folded: at a thousand machines the charts stay in the first screen."""
    if not failures:
        return ""
    said = ["<li>%s</li>" % escape(failure) for failure in failures[:FAILURES_SHOWN]]
    folded = "<details><summary>%d more</summary><ul>%s</ul></details>" % (len(said) - FAILURES_OPEN, "".join(said[FAILURES_OPEN:])) \
        if len(said) > FAILURES_OPEN else ""
    return "<h2>Failures (%d)</h2><ul>%s</ul>%s%s" % (
        len(failures), "".join(said[:FAILURES_OPEN]), folded,
        "<p>... %d more in the JSON report.</p>" % (len(failures) - FAILURES_SHOWN) if len(failures) > FAILURES_SHOWN else "")


def _table(headings, rows, what):
    """A table of many rows, folded in blocks of a hundred."""
    head = "<tr>%s</tr>" % "".join("<th>%s</th>" % escape(heading) for heading in headings)
    cells = ["<tr>%s</tr>" % "".join("<td>%s</td>" % escape("-" if cell is None else str(cell)) for cell in row) for row in rows]
    if len(cells) <= BLOCK:
        return "<table>%s%s</table>" % (head, "".join(cells))
    return "".join("<details%s><summary>%s %d to %d</summary><table>%s%s</table></details>" % (
        " open" if start == 0 else "", escape(what), start + 1, start + len(cells[start:start + BLOCK]), head, "".join(cells[start:start + BLOCK]))
        for start in range(0, len(cells), BLOCK))


# What the incident channel needs of each machine: where it runs now, and from which data.
MACHINE_COLUMNS = ("Machine", "Wave", "Result", "Instance ID", "Addresses", "Point in time", "RPO", "RTO", "Checks")


def machine_row(machine):
    target = machine.get("target") or {}
    point = machine.get("point_in_time") or {}
    checks = machine.get("checks") or []
    return (machine.get("name"), machine.get("wave") or "-",
            "stands (failed over already)" if machine.get("stands") else "passed" if machine.get("passed") else "FAILED",
            target.get("cloud_id") or "-", ", ".join(machine.get("addresses") or []) or "-",
            "%s (%s)" % (moment_said(parse_time(point["date_time"]), whole=True) if point.get("date_time") else "time not read",
                         point.get("id") or "-") if point else "-",
            spoken(machine.get("rpo_seconds")), spoken(machine.get("rto_seconds")),
            "%d of %d passed%s" % (sum(1 for check in checks if check.get("status") == "passed"), len(checks), "".join(
                "; %s: %s" % (check.get("name"), check.get("message")) for check in checks if check.get("status") == "failed")[:300]))


def plan_page(plan, title):
    """A plan written under --check as a page for the approver: what it does first (every destructive or surprising step),
    the confirmation token when it replaces production, then each machine's wave, point in time and data-loss window."""
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
    rows = [(m.get("name"), m.get("wave") or "-", "%s (%s)%s" % ((m.get("point_in_time") or {}).get("date_time") or "time unknown",
                                                                 (m.get("point_in_time") or {}).get("id") or "-",
                                                                 " - adopted, as the run it adopts pinned it" if m.get("adopted") else "")
             if m.get("point_in_time")
             else "as an earlier run launched it (adopted)" if m.get("adopted") else "the service's latest, when it launches",
             spoken(m.get("data_loss_seconds")),
             "stands: %s" % m.get("said") if m.get("stands") else "ready" if (m.get("gate") or {}).get("passed") else
             "%s: %s" % ("forced" if (m.get("gate") or {}).get("forced") else "NOT READY", "; ".join((m.get("gate") or {}).get("reasons") or [])))
            for m in plan.get("machines") or []]
    sections.append("<h2>Machines</h2>" + _table(("Machine", "Wave", "Point in time", "Data-loss window", "Gate"), rows, "Machines"))
    lede = "Written under --check at %s (service time): nothing was launched or changed.%s" % (
        plan.get("service_time") or "-", " " + span_said(plan.get("points_span")) if span_said(plan.get("points_span")) else "")
    return _document(heading, FAILED_BANNER if stops else PASSED_BANNER, heading, lede, sections, None).replace(
        "<h2>Ledger</h2><p>Not entered in a ledger of runs.</p>", "<p>A plan is not entered in the ledger of runs; the run that carries it out is.</p>")


def page(report, title, ledger=None):
    """The report of a DR test, failover or failback as one HTML page."""
    word, banner = headline(report)
    counts, measures, targets = report.get("counts") or {}, report.get("measures") or {}, report.get("targets") or {}
    machines = report.get("machines") or []
    heading = "%s of %s: %s" % (title, report.get("project") or "-", word)
    sections = [
        '<div class="figures">%s%s%s</div>' % (_figure("Worst RTO", measures.get("rto_seconds"), targets.get("rto_seconds")),
                                               _figure("Worst RPO", measures.get("rpo_seconds"), targets.get("rpo_seconds")),
                                               _figure("Launch job", measures.get("launch_job_seconds"))),
        _failures(report.get("failures")),
        "<h2>RTO and RPO</h2>",
        chart("RTO", [(m.get("name"), m.get("rto_seconds")) for m in machines], targets.get("rto_seconds")),
        chart("RPO", [(m.get("name"), m.get("rpo_seconds")) for m in machines], targets.get("rpo_seconds")),
        "<h2>Run</h2>" + _table(("Check", "Status", "Message"), [(c.get("name"), c.get("status"), c.get("message")) for c in report.get("checks") or []],
                                "Checks"),
        "<h2>Machines</h2>" + _table(MACHINE_COLUMNS, [machine_row(machine) for machine in machines], "Machines"),
        "<h2>Timeline</h2>" + timeline(report),
    ]
    lede = "%d of %d machines passed; %d launched. Launch requested %s (service time); report written %s (this machine's clock).%s" % (
        counts.get("passed", 0), counts.get("machines", 0), counts.get("launched", 0), report.get("launch_requested") or "-",
        report.get("generated") or "-", "".join(" " + said for said in (report.get("next"), span_said(report.get("points_span"))) if said))
    return _document(heading, banner, heading, lede, sections, ledger)


def _proof_said(machine):
    proof = machine.get("proof")
    if not proof:
        return None
    return proof["status"] + (", on %s" % proof["proven"]["time"] if proof.get("proven") else "")


def health_page(report, ledger=None):
    """The fleet's health as one HTML page: per project, each machine's lag against the threshold (what it would lose
    now) and its RTO forecast against the target (how long it would take), the machines changed since last proven."""
    word, banner = headline(report)
    counts, limits = report.get("counts") or {}, report.get("thresholds") or {}
    heading = "Fleet health: %s" % word
    sections = ['<div class="figures">%s</div>' % "".join(
        '<div class="figure">%s<b>%s</b></div>' % (escape(label), counts.get(key, 0)) for label, key in (
            ("Machines", "machines"), ("Failed", "failed"), ("Unproven", "unproven"), ("Excluded", "excluded"), ("Projects", "projects"))),
        _failures(report.get("failures"))]
    for project in report.get("projects") or []:
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
                _figure("RTO forecast, median", forecast.get("median_seconds"), forecast.get("target_seconds")),
                _figure("RTO forecast, 90th percentile", forecast.get("p90_seconds"), forecast.get("target_seconds"))))
            per_machine = forecast.get("machines") or {}
            sections.append(chart("RTO forecast", [(name, (per_machine.get(name) or {}).get("p90_seconds")) for name in sorted(per_machine)],
                                  forecast.get("target_seconds")))
        sections.append(chart("Replication lag", [(m.get("name"), m.get("lag_seconds")) for m in machines], limits.get("max_lag_seconds")))
        ranked = sorted(machines, key=lambda m: (m.get("passed"), m.get("name") or ""))  # the failed first
        sections.append(_table(("Machine", "Result", "Replication", "Lag (s)", "Backlog (bytes)", "Last DR-tested", "Proof"), [
            (m.get("name"), "passed" if m.get("passed") else "FAILED: " + "; ".join(
                "%s: %s" % (c["name"], c["message"]) for c in m.get("checks") or [] if c.get("status") == "failed"),
             m.get("replication_state"), m.get("lag_seconds"), m.get("backlog_bytes"), m.get("last_tested") or "never", _proof_said(m))
            for m in ranked], "Machines"))
        changes = [(m.get("name"), change) for m in machines for change in ((m.get("proof") or {}).get("changes") or [])]
        if changes:
            sections.append("<h3>Changed since last proven (%s)</h3>" % (
                "by the ledger of runs" if report.get("proofs_from") == "ledger" else "without a ledger: since their last test launch"))
            sections.append(_table(("Machine", "When", "Event", "By", "What"), [
                (name, change.get("time"), change.get("event"), change.get("username") or "?",
                 change.get("description") or ", ".join(change.get("fields") or [])) for name, change in changes], "Changes"))
    if report.get("excluded"):
        sections.append("<p>Excluded (replication stopped): %s.</p>" % escape(", ".join(report["excluded"])))
    lede = "%d of %d machines in %d projects passed; measured at %s (service time), report written %s (this machine's clock)." % (
        counts.get("passed", 0), counts.get("machines", 0), counts.get("projects", 0), report.get("service_time") or "-",
        report.get("generated") or "-")
    return _document(heading, banner, heading, lede, sections, ledger)


def clean_point_page(report, ledger=None):
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
        _figure("Most data given up", max([m["data_loss_seconds"] for m in machines if m.get("data_loss_seconds") is not None], default=None)))]
    if report.get("consistent"):
        sections.append("<p>Newest common clean moment: %s.</p>" % escape(report.get("common_moment") or "none"))
    sections.append(_failures(report.get("failures")))
    sections.append(chart("Data given up", [(m.get("name"), m.get("data_loss_seconds")) for m in machines], None))
    sections.append("<h2>Rounds</h2>" + _table(("Round", "Moment", "Launch job", "Status", "Machines"), [
        (r.get("number"), r.get("moment"), r.get("job"), r.get("status"), r.get("machines")) for r in report.get("rounds") or []], "Rounds"))
    sections.append("<h2>Machines</h2>" + _table(("Machine", "Result", "Clean point", "Newest failed", "Data given up", "Tested"), [
        (m.get("name"), m.get("status"), (m.get("clean_point") or {}).get("date_time"), (m.get("newest_failed") or {}).get("date_time"),
         spoken(m.get("data_loss_seconds")), ", ".join("%s %s" % (t["point_in_time"]["date_time"], {True: "passed", False: "FAILED"}.get(t["passed"], "?"))
                                                       for t in m.get("tested") or []))
        for m in sorted(machines, key=lambda m: (m.get("status") == "found", m.get("name") or ""))], "Machines"))
    lede = "Window: after %s, at or before %s; %s search. Report written %s (this machine's clock)." % (
        window.get("after") or "the oldest point", window.get("before") or "-", "consistent" if report.get("consistent") else "per-machine",
        report.get("generated") or "-")
    return _document(heading, banner, heading, lede, sections, ledger)


def policy_page(report, ledger=None):
    """A launch policy as one HTML page: the counts, the failures, and per machine each setting with the layer that set it."""
    word, banner = headline(report)
    counts = report.get("counts") or {}
    heading = "Launch policy of %s: %s" % (report.get("project") or "-", word)
    sections = ['<div class="figures">%s</div>' % "".join('<div class="figure">%s<b>%d</b></div>' % (escape(label), counts.get(key, 0)) for label, key in (
        ("Machines", "machines"), ("Changed", "machines_changed"), ("Left out", "excluded"),
        ("Refused", "refused"), ("Not re-addressed", "unaddressed")))]
    sections.append(_failures(report.get("failures")))
    if report.get("backup"):
        sections.append("<p>Backup, written before the first change: <code>%s</code>.</p>" % escape(report["backup"]))
    sections.append("<h2>Machines</h2>" + _table(("Machine", "Status", "Setting", "Value", "Set by"), policy_rows(report.get("machines") or []),
                                                 "Settings"))
    if report.get("unaddressed"):
        sections.append("<h2>Not re-addressed</h2>" + _table(("Machine", "Why"), sorted(report["unaddressed"].items()), "Machines"))
    if report.get("excluded"):
        sections.append("<p>Left out: %s.</p>" % escape(", ".join(report["excluded"])))
    lede = "%s in region %s. Report written %s (this machine's clock)." % (
        MODES_SAID.get(report.get("mode"), "-"),
        (report.get("region") or {}).get("name") or "-", report.get("generated") or "-")
    return _document(heading, banner, heading, lede, sections, ledger)


# A node's colour on the graph, by its outcome.
NODE_COLOURS = {"passed": WITHIN, "failed": OVER, "blocked": "#9e9e9e", "waiting for approval": "#fb8c00"}


def graph(report, column=190, row=70, box=(150, 44)):
    """The application's nodes as an SVG drawing (no script): a column a level, a box a node coloured by its outcome, an
    arrow from each node to each node after it, the slowest path drawn thick."""
    where, levels = {}, {}
    for node in report["nodes"]:
        place = levels.setdefault(node["level"], [])
        where[node["name"]] = (20 + (node["level"] - 1) * column, 20 + len(place) * row)
        place.append(node["name"])
    path = report.get("critical_path") or []
    on_path = set(zip(path, path[1:]))
    width = 40 + max(levels or [1]) * column
    height = 40 + max([len(names) for names in levels.values()] or [1]) * row
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="The nodes by level">' % (width, height),
             '<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="8" refY="4" orient="auto" markerUnits="userSpaceOnUse">'
             '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>']
    for node in report["nodes"]:
        for before in node["after"]:
            (x1, y1), (x2, y2) = where[before], where[node["name"]]
            thick = (before, node["name"]) in on_path
            parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#555" stroke-width="%d" marker-end="url(#arrow)"%s/>' % (
                x1 + box[0], y1 + box[1] // 2, x2, y2 + box[1] // 2, 4 if thick else 1, ' class="slowest"' if thick else ""))
    for node in report["nodes"]:
        x, y = where[node["name"]]
        slowest = node["name"] in path
        parts.append('<g><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#222" stroke-width="%d"/>'
                     '<text x="%d" y="%d" fill="#fff" font-size="13">%s</text><text x="%d" y="%d" fill="#fff" font-size="11">%s</text></g>' % (
                         escape("%s: %s" % (node["name"], node["state"])), x, y, box[0], box[1], NODE_COLOURS.get(node["state"], "#757575"),
                         3 if slowest else 1, x + 8, y + 18, escape(node["name"]), x + 8, y + 35,
                         escape("%s, %s s" % (node["state"], figure(node["seconds"])))))
    parts.append("</svg>")
    return "".join(parts)


def application_page(report, ledger=None):
    """An application as one HTML page: the graph of its nodes, its levels measured beside the forecast, each node."""
    word, banner = headline(report)
    heading = "Application %s: %s" % (report.get("name"), word)
    forecast = report["forecast"]
    sections = ["<h2>Nodes by level</h2>" + graph(report),
                "<p>Slowest path (drawn thick): %s.</p>" % escape(" -> ".join(report.get("critical_path") or ["-"])),
                _failures(report.get("failures")),
                "<h2>Levels</h2>" + _table(LEVEL_HEADINGS, level_rows(report), "Levels"),
                "<p>%s</p>" % escape(forecast_said(forecast)),
                "<h2>Nodes</h2>" + "".join("<p>%s</p>" % escape(line) for line in points_moment_said(report))
                + _table(APPLICATION_HEADINGS, application_rows(report), "Nodes")]
    lede = "%s of %d nodes, begun %s by %s. Report written %s (this machine's clock)." % (
        "A DR test" if report.get("runbook") == "dr_test" else "A failover", len(report.get("nodes") or []), report.get("began"),
        report.get("controller_user"), report.get("generated"))
    return _document(heading, banner, heading, lede, sections, ledger)


def page_of(report, ledger=None):
    """The page of any report of the collection, chosen by its schema (replication.recovery.<runbook>/v1)."""
    runbook = runbook_of(report)
    if runbook.shape == HEALTH:
        return health_page(report, ledger)
    if runbook.shape == POLICY:
        return policy_page(report, ledger)
    if runbook.shape == APPLICATION:
        return application_page(report, ledger)
    if runbook.shape == SEARCH:
        return clean_point_page(report, ledger)
    return page(report, runbook.title, ledger)


def evidence_page(summary_):
    """The summary as one page with no outside resources."""
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>" % (
        escape(group["project"]), escape(group["period"]), group["drills"]["run"], group["drills"]["passed"], group["drills"]["failed"],
        figure(group["worst_rto_seconds"]), figure(group["worst_rpo_seconds"])) for group in summary_["periods"])
    projects = "".join("<tr><td>%s</td><td>%d</td><td>%s</td><td>%s / %s</td><td>%s</td></tr>" % (
        escape(project["name"]), project["machines"], escape(", ".join(project["never_proven"]) or "-"),
        figure(project["rto_forecast"]["median_seconds"]), figure(project["rto_forecast"]["p90_seconds"]),
        figure(project["rto_forecast"]["target_seconds"])) for project in summary_["projects"])
    breaks = "".join("<li>%s</li>" % escape(said) for said in summary_["breaks"])
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Evidence</title><style>"
            "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em .6em}"
            ".broken{color:#b00}.whole{color:#070}</style></head><body>"
            "<h1 class=\"%s\">%s</h1><p>%d entries; head <code>%s</code>.</p>%s"
            "<h2>Per project and %s</h2><table><tr><th>Project</th><th>Period</th><th>DR tests</th><th>passed</th><th>failed</th>"
            "<th>worst RTO (s)</th><th>worst RPO (s)</th></tr>%s</table>"
            "<h2>Projects</h2><table><tr><th>Project</th><th>Machines</th><th>Never proven</th><th>RTO forecast, median / p90 (s)</th>"
            "<th>RTO target (s)</th></tr>%s</table></body></html>\n") % (
        "whole" if summary_["verified"] else "broken", "The ledger is whole" if summary_["verified"] else "The ledger is broken",
        summary_["entries"], escape(summary_["head"] or "-"), "<ul>%s</ul>" % breaks if breaks else "", escape(summary_["period"]), rows, projects)
