# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of an application recovered or rehearsed across projects: its nodes by level (each a run of the DR
test or the failover), drawn as a graph, its levels measured beside the RTO forecast, the moment of its points in time.
Its JUnit XML, Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.module_utils._words import figure, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._application import BLOCKED, WAITING, forecast_said, furthest_behind
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import OVER, WITHIN, document, failures_list, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, lines_of, listed, table
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import stop_conditions_markdown, stop_conditions_section

SCHEMA = ("roles", "application", "files", "report.schema.json")


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


def junit(report):
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


def markdown(report):
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
    lines.extend(stop_conditions_markdown(report.get("stop_conditions")))
    return lines_of(lines)


# A node's colour on the graph, by its outcome.
NODE_COLOURS = {PASSED: WITHIN, FAILED: OVER, BLOCKED: "#9e9e9e", WAITING: "#fb8c00"}


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


def page(report, ledger=None):
    """An application as one HTML page: the graph of its nodes, its levels measured beside the forecast, each node."""
    word, banner = headline(report)
    heading = "Application %s: %s" % (report.get("name"), word)
    forecast = report["forecast"]
    sections = ["<h2>Nodes by level</h2>" + graph(report),
                "<p>Slowest path (drawn thick): %s.</p>" % escape(" -> ".join(report.get("critical_path") or ["-"])),
                failures_list(report.get("failures")),
                "<h2>Levels</h2>" + table_of(LEVEL_HEADINGS, level_rows(report), "Levels"),
                "<p>%s</p>" % escape(forecast_said(forecast)),
                "<h2>Nodes</h2>" + "".join("<p>%s</p>" % escape(line) for line in points_moment_said(report))
                + table_of(APPLICATION_HEADINGS, application_rows(report), "Nodes"),
                stop_conditions_section(report.get("stop_conditions"))]
    lede = "%s of %d nodes, begun %s by %s. Report written %s (this machine's clock)." % (
        "A DR test" if report.get("runbook") == "dr_test" else "A failover", len(report.get("nodes") or []), report.get("began"),
        report.get("controller_user"), report.get("generated"))
    return document(heading, banner, heading, lede, sections, ledger)
