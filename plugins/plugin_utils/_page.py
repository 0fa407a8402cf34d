# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A runbook's report as one HTML page for people: the outcome first, RTO and RPO per machine against
their targets as charts, the failures with their reasons, a timeline of every machine, and the
ledger entry. One file with no outside resource and no script, so that it opens from a mail, an
artifact store or an air-gapped share. At a thousand machines the charts become histograms (with
the slowest machines named) and the timeline is grouped by wave in folded blocks of a hundred."""

from html import escape

from ansible_collections.replication.recovery.plugins.plugin_utils._report import spoken

BARS_AT_MOST = 50  # machines drawn one bar each; above, a histogram
BINS = 20
SLOWEST_NAMED = 20
FAILURES_SHOWN = 100
BLOCK = 100  # timeline rows in one folded block

# Colours a test can find in a screenshot: the outcome's banner and the charts' bars.
PASSED_BANNER, FAILED_BANNER = "#1b5e20", "#b71c1c"
WITHIN, OVER, TARGET = "#43a047", "#e53935", "#1565c0"

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


def _row(machine, span):
    rto = machine.get("rto_seconds")
    left = "" if rto is None else '<div class="bar" style="left:0;width:%.2f%%;background:%s"></div>' % (
        min(100.0, 100.0 * rto / span), WITHIN if machine.get("passed") else OVER)
    failed = [check["name"] for check in machine.get("checks") or [] if check.get("status") == "failed"]
    state = "passed" if machine.get("passed") else "FAILED" + (": " + ", ".join(failed) if failed else "")
    return '<div class="row"><span>%s</span><span>%s</span><div class="track" title="%s">%s</div><span>%s; %s</span></div>' % (
        escape(machine.get("name") or "-"), escape(spoken(rto)), escape("launch request to running and checked: %s" % spoken(rto)), left,
        escape(state), escape(machine.get("cleanup") or "-"))


def timeline(report):
    """Every machine on one time axis from the launch request: its bar ends when it ran and was checked; then its
    checks' outcome and its cleanup. Grouped by wave, the slowest first, in folded blocks."""
    machines = report.get("machines") or []
    span = max([m.get("rto_seconds") or 0 for m in machines] + [1])
    waves = {}
    for machine in machines:
        waves.setdefault(machine.get("wave") or 1, []).append(machine)
    parts = ["<p>Launch requested %s; the axis runs to %s after it.</p>" % (escape(report.get("launch_requested") or "-"), escape(spoken(span)))]
    for wave in sorted(waves):
        rows = sorted(waves[wave], key=lambda m: -(m.get("rto_seconds") or 0))
        parts.append("<h3>Wave %d: %d machines</h3>" % (wave, len(rows)))
        for start in range(0, len(rows), BLOCK):
            block = rows[start:start + BLOCK]
            parts.append("<details%s><summary>Machines %d to %d</summary>%s</details>" % (
                " open" if start == 0 else "", start + 1, start + len(block), "".join(_row(machine, span) for machine in block)))
    return "".join(parts)


def page(report, title, ledger=None):
    """The report of a DR test, failover or failback as one HTML page."""
    passed = report.get("result") == "passed"
    counts, measures, targets = report.get("counts") or {}, report.get("measures") or {}, report.get("targets") or {}
    failures = report.get("failures") or []
    machines = report.get("machines") or []
    sections = [
        '<header class="outcome" style="background:%s"><h1>%s of %s: %s</h1><p>%d of %d machines passed; %d launched. Launch requested %s (service time); '
        'report written %s (this machine\'s clock).</p></header>' % (
            PASSED_BANNER if passed else FAILED_BANNER, escape(title), escape(report.get("project") or "-"), "PASSED" if passed else "FAILED",
            counts.get("passed", 0), counts.get("machines", 0), counts.get("launched", 0), escape(report.get("launch_requested") or "-"),
            escape(report.get("generated") or "-")),
        "<main>",
        '<div class="figures">%s%s%s</div>' % (_figure("Worst RTO", measures.get("rto_seconds"), targets.get("rto_seconds")),
                                               _figure("Worst RPO", measures.get("rpo_seconds"), targets.get("rpo_seconds")),
                                               _figure("Launch job", measures.get("launch_job_seconds"))),
    ]
    if failures:
        sections.append("<h2>Failures (%d)</h2><ul>%s</ul>%s" % (
            len(failures), "".join("<li>%s</li>" % escape(failure) for failure in failures[:FAILURES_SHOWN]),
            "<p>... %d more in the JSON report.</p>" % (len(failures) - FAILURES_SHOWN) if len(failures) > FAILURES_SHOWN else ""))
    sections.append("<h2>RTO and RPO</h2>")
    sections.append(chart("RTO", [(m.get("name"), m.get("rto_seconds")) for m in machines], targets.get("rto_seconds")))
    sections.append(chart("RPO", [(m.get("name"), m.get("rpo_seconds")) for m in machines], targets.get("rpo_seconds")))
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(escape(check.get(member) or "") for member in ("name", "status", "message"))
                   for check in report.get("checks") or [])
    sections.append("<h2>Run</h2><table><tr><th>Check</th><th>Status</th><th>Message</th></tr>%s</table>" % rows)
    sections.append("<h2>Timeline</h2>" + timeline(report))
    if ledger:
        sections.append('<h2>Ledger</h2><p>Entry %d, SHA-256 <span class="hash">%s</span></p>' % (ledger["sequence"], escape(ledger["sha256"])))
    else:
        sections.append("<h2>Ledger</h2><p>Not entered in a ledger of runs.</p>")
    sections.append("</main>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            "<title>%s of %s: %s</title><style>%s</style></head><body>%s</body></html>\n" % (
                escape(title), escape(report.get("project") or "-"), "passed" if passed else "FAILED", STYLE, "".join(sections)))
