# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The parts of the forms people and tools read of a report besides its JSON: JUnit XML (one writer - suites of test
cases, a check each) and Markdown (a title, tables, lists), in Python, so that a thousand machines take a fraction of a
second. Each report shape (plugin_utils._shapes) writes its own forms with them; the HTML pages' parts are _page's."""

from xml.sax.saxutils import escape, quoteattr

from ansible_collections.replication.recovery.plugins.module_utils._domain import moment_said, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, SKIPPED


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


def machines_junit(report, suite_prefix):
    """A runbook's report (checks of the run, machines with their checks) as JUnit XML: a suite for the run and one per
    machine."""
    base = "%s.%s" % (suite_prefix, report["project"])
    suites = ([(base, [(base, check) for check in report["checks"]])] if report["checks"] else []) + [
        ("%s.%s" % (base, machine["name"]), [("%s.%s" % (base, machine["name"]), check) for check in machine["checks"]])
        for machine in report["machines"]]
    return junit_document("%s %s" % (suite_prefix, report["project"]), suites, report["generated"])


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
