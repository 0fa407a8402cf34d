# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The parts of a report's HTML page for people: the outcome first on a banner in its colour, charts (a bar a machine,
or a histogram with the slowest named at a thousand), tables and lists folded in blocks of a hundred, and the ledger
entry. One file with no outside resource and no script, so that it opens from a mail, an artifact store or an air-gapped
share. Each report shape (plugin_utils._shapes) writes its own page with them."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import FAILED as FAILED_WORD, PASSED as PASSED_WORD, of_report, outcome, said

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


def figure_box(label, value, target=None):
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
    if len(measured) <= BARS_AT_MOST:
        height, parts = _bars(measured, target if drawn_target else None, target, width)
        what, named = "per machine", ""
    else:
        height, parts = _histogram(measured, target, width)
        what = "machines by %s" % title
        ranked = sorted(measured, key=lambda item: -item[1])[:SLOWEST_NAMED]
        named = "<p>Slowest: %s</p>" % escape(", ".join("%s %s" % (name, spoken(value)) for name, value in ranked))
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" shape-rendering="crispEdges" role="img" aria-label="%s">%s</svg>' % (
        width, height, escape(title), "".join(parts))
    if target is None:
        said = "no target"
    else:
        said = "target %s; %d of %d machines over it%s" % (spoken(target), over_target, len(measured),
                                                           "" if drawn_target or len(measured) > BARS_AT_MOST else ", the target beyond the scale")
    return "<h3>%s (%s; %s)</h3>%s%s" % (escape(title), escape(what), escape(said), svg, named)


def _bars(measured, drawn_target, target, width):
    """One bar a machine, slowest first, and the target's line when it is drawn: the chart's height and its parts."""
    slowest = max(value for unused, value in measured)
    scale = (width - 240) / float(max(slowest, drawn_target or 0) or 1)
    height = 18 * len(measured) + 30
    parts = []
    for index, (name, value) in enumerate(sorted(measured, key=lambda item: -item[1])):
        y = 10 + 18 * index
        colour = OVER if target is not None and value > target else WITHIN
        parts.append('<text x="0" y="%d" font-size="12">%s</text><rect x="160" y="%d" width="%d" height="14" fill="%s"/>'
                     '<text x="%d" y="%d" font-size="11">%s</text>' % (
                         y + 11, escape(name[:24]), y, max(1, int(value * scale)), colour, 166 + int(value * scale), y + 11,
                         escape(spoken(value))))
    if drawn_target is not None:
        x = 160 + int(drawn_target * scale)
        parts.append('<line x1="%d" y1="0" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                     '<text x="%d" y="%d" font-size="11" fill="%s">target</text>' % (x, x, height - 15, TARGET, x + 3, height - 3, TARGET))
    return height, parts


def _histogram(measured, target, width):
    """A histogram over the machines' own range; a bin holding a machine over the target is drawn as over."""
    slowest = max(value for unused, value in measured)
    low = min(value for unused, value in measured)
    bins = min(BINS, len(set(value for unused, value in measured)))
    step = (slowest - low) / float(bins) or 1.0
    counts, over = [0] * bins, [0] * bins
    for unused, value in measured:
        index = min(int((value - low) / step), bins - 1)
        counts[index] += 1
        over[index] += 1 if target is not None and value > target else 0
    most = max(counts)
    parts = []
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
    return 20 * bins + 10, parts


def offset_of(moment, origin):
    return None if not moment or origin is None else parse_time(moment) - origin


def span_bar(start, end, span, colour, said):
    if start is None or end is None:
        return ""
    left = max(0.0, 100.0 * start / span)
    return '<div class="bar" style="left:%.2f%%;width:%.2f%%;background:%s" title="%s"></div>' % (
        left, max(0.3, min(100.0 - left, 100.0 * (end - start) / span)), colour, escape(said))


def folded(rows, what):
    """Rows in folded blocks of a hundred, the first open: a thousand machines stay readable, and the page light."""
    return "".join("<details%s><summary>%s %d to %d</summary>%s</details>" % (
        " open" if start == 0 else "", escape(what), start + 1, start + len(rows[start:start + BLOCK]), "".join(rows[start:start + BLOCK]))
        for start in range(0, len(rows), BLOCK))


def headline(report):
    """A report's outcome as its page's heading says it, and the banner's colour: its ``outcome`` (plugin_utils._outcomes)
    - or, for a report written before runs kept one, passed or failed by its result."""
    word = of_report(report)
    return said(word), outcome(word).colour


def document(title, banner, heading, lede, sections, ledger):
    """The page: a banner in the outcome's colour, then the sections, then the ledger entry."""
    ledger_said = ('<h2>Ledger</h2><p>Entry %d, SHA-256 <span class="hash">%s</span></p>' % (ledger["sequence"], escape(ledger["sha256"]))
                   if ledger else "<h2>Ledger</h2><p>Not entered in a ledger of runs.</p>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            '<title>%s</title><style>%s</style></head><body><header class="outcome" style="background:%s"><h1>%s</h1><p>%s</p></header>'
            "<main>%s%s</main></body></html>\n" % (
                escape(title), STYLE, banner, escape(heading), escape(lede), "".join(sections), ledger_said))


def failures_list(failures):
    """The first failures in the open, the others folded: at a thousand machines the charts stay in the first screen."""
    if not failures:
        return ""
    said = ["<li>%s</li>" % escape(failure) for failure in failures[:FAILURES_SHOWN]]
    folded = "<details><summary>%d more</summary><ul>%s</ul></details>" % (len(said) - FAILURES_OPEN, "".join(said[FAILURES_OPEN:])) \
        if len(said) > FAILURES_OPEN else ""
    return "<h2>Failures (%d)</h2><ul>%s</ul>%s%s" % (
        len(failures), "".join(said[:FAILURES_OPEN]), folded,
        "<p>... %d more in the JSON report.</p>" % (len(failures) - FAILURES_SHOWN) if len(failures) > FAILURES_SHOWN else "")


def table_of(headings, rows, what):
    """A table of many rows, folded in blocks of a hundred."""
    head = "<tr>%s</tr>" % "".join("<th>%s</th>" % escape(heading) for heading in headings)
    cells = ["<tr>%s</tr>" % "".join("<td>%s</td>" % escape("-" if cell is None else str(cell)) for cell in row) for row in rows]
    if len(cells) <= BLOCK:
        return "<table>%s%s</table>" % (head, "".join(cells))
    return "".join("<details%s><summary>%s %d to %d</summary><table>%s%s</table></details>" % (
        " open" if start == 0 else "", escape(what), start + 1, start + len(cells[start:start + BLOCK]), head, "".join(cells[start:start + BLOCK]))
        for start in range(0, len(cells), BLOCK))
