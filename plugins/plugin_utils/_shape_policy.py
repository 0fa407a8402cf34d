# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shape of launch settings set by policy: per machine each setting and the layer that set it, what changed,
what was refused, left out or not re-addressed, the backup. Its JUnit XML, Markdown, page, and schema."""

from html import escape

from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said
from ansible_collections.replication.recovery.plugins.plugin_utils._page import document, failures_list, headline, table_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, lines_of, listed, table

SCHEMA = ("roles", "launch_policy", "files", "report.schema.json")


# What a launch policy's run did, by its mode.
MODES_SAID = {"apply": "Applied", "restore": "A backup put back", "export": "Exported", "import": "A CSV imported"}


def policy_checks(report):
    """A launch policy's report as checks: one per machine it touched, failed when its blueprint was refused."""
    return [dict(name=machine["name"], status=FAILED if machine["status"] == "refused" else PASSED, message="%s%s" % (
        machine["status"], ": " + ", ".join(machine["options_changed"]) if machine["options_changed"] else "")) for machine in report["machines"]] + [
        dict(name=name, status=FAILED, message=why) for name, why in sorted(report["refused"].items())
        if name not in set(machine["name"] for machine in report["machines"])]


def junit(report):
    """A launch policy as JUnit XML: a test case per machine."""
    suite = "launch_policy.%s" % report["project"]
    checks = policy_checks(report) + [dict(name="policy", status=FAILED, message=failure) for failure in report["failures"][:1]]
    return junit_document("launch_policy %s" % report["project"], [(suite, [(suite, check) for check in checks])], report["generated"])


def markdown(report):
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


def page(report, ledger=None):
    """A launch policy as one HTML page: the counts, the failures, and per machine each setting with the layer that set it."""
    word, banner = headline(report)
    counts = report.get("counts") or {}
    heading = "Launch policy of %s: %s" % (report.get("project") or "-", word)
    sections = ['<div class="figures">%s</div>' % "".join('<div class="figure">%s<b>%d</b></div>' % (escape(label), counts.get(key, 0)) for label, key in (
        ("Machines", "machines"), ("Changed", "machines_changed"), ("Left out", "excluded"),
        ("Refused", "refused"), ("Not re-addressed", "unaddressed")))]
    sections.append(failures_list(report.get("failures")))
    if report.get("backup"):
        sections.append("<p>Backup, written before the first change: <code>%s</code>.</p>" % escape(report["backup"]))
    sections.append("<h2>Machines</h2>" + table_of(("Machine", "Status", "Setting", "Value", "Set by"), policy_rows(report.get("machines") or []),
                                                   "Settings"))
    if report.get("unaddressed"):
        sections.append("<h2>Not re-addressed</h2>" + table_of(("Machine", "Why"), sorted(report["unaddressed"].items()), "Machines"))
    if report.get("excluded"):
        sections.append("<p>Left out: %s.</p>" % escape(", ".join(report["excluded"])))
    lede = "%s in region %s. Report written %s (this machine's clock)." % (
        MODES_SAID.get(report.get("mode"), "-"),
        (report.get("region") or {}).get("name") or "-", report.get("generated") or "-")
    return document(heading, banner, heading, lede, sections, ledger)
