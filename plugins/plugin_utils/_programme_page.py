# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit programme (plugin_utils._programme) to read and to look at: what is met, what is open and due, what is
waived and until when, who signed what. Markdown, and a page with no outside resource."""

from html import escape

from ansible_collections.replication.recovery.plugins.plugin_utils._page import FAILED_BANNER, PASSED_BANNER, document, table_of

STATUS_ORDER = ("overdue", "open", "waived", "closed")


def _findings_rows(programme):
    order = dict((status, position) for position, status in enumerate(STATUS_ORDER))
    return [(f["status"].upper() if f["status"] == "overdue" else f["status"], f["id"], f["title"], f["severity"], f["opened"], f["due"],
             _closed_or_waived(f)) for f in sorted(programme["findings"], key=lambda f: (order[f["status"]], f["due"]))]


def _closed_or_waived(finding):
    if finding["closed"]:
        return "closed %s by entry %d (%s)" % (finding["closed"]["at"], finding["closed"]["by"], finding["closed"]["runbook"])
    waiver = finding.get("waiver")
    if waiver:
        return "%s by %s until %s: %s" % ("waiver expired" if waiver["expired"] else "waived", waiver["owner"], waiver["expires"], waiver["reason"])
    return ""


def _headline(programme):
    counts, broken = programme["counts"], programme.get("broken") or []
    overdue = "%d overdue finding%s" % (counts["overdue"], "s"[counts["overdue"] == 1:])
    if broken:  # what breaks the ledger first: every figure below it is over entries that cannot be trusted
        return "FAILED: ledger broken (%d problem%s); %s" % (len(broken), "s"[len(broken) == 1:], overdue), FAILED_BANNER
    if programme["result"] == "failed":
        return "FAILED: " + overdue, FAILED_BANNER
    return "%d of %d controls met%s; %d findings open, %d waived" % (
        counts["controls_met"], counts["controls"], "".join(", %d %s" % (counts[key], said) for key, said in (
            ("controls_not_yet_due", "not yet due"), ("controls_not_met", "not met"), ("controls_nothing_to_judge", "with nothing to judge"))
            if counts[key]), counts["open"], counts["waived"]), PASSED_BANNER


def _unmet(control):
    """The scopes of a control that no run met: not met, waived, or not yet due (and when)."""
    return ", ".join(item["name"] + (" (not yet due, due %s)" % item["next_due"] if item["status"] == "not yet due" else
                                     " (%s)" % item["status"] if item["status"] != "not met" else "")
                     for item in control["scopes"] if item["status"] != "met") or "-"


def _met_by(control):
    return ", ".join("%s (entry %d)" % (item["name"], item["last_run"]["sequence"]) for item in control["scopes"] if item["status"] == "met") or "-"


def markdown(programme):
    heading, unused = _headline(programme)
    lines = ["# Audit programme as of %s: %s" % (programme["as_of"], heading), ""]
    lines += ["%s" % failure for failure in programme["failures"]] + ([""] if programme["failures"] else [])
    lines += ["## Controls", "", "| Control | Status | Over | Met by | Not met | Rules |", "|---|---|---|---|---|---|"]
    for control in programme["controls"]:
        lines.append("| %s: %s | %s | %d %s | %s | %s | %s |" % (
            control["id"], control["title"], control["status"], len(control["scopes"]), control["over"].replace("_", " "),
            _met_by(control), _unmet(control), "; ".join("%s %s" % (rule["rule"], rule["clause"]) for rule in control["rules"])))
    lines += ["", "## Findings", "", "| Status | Finding | What | Severity | Opened | Due | Closed or waived |", "|---|---|---|---|---|---|---|"]
    lines += ["| %s |" % " | ".join(row) for row in _findings_rows(programme)]
    lines += ["", "## Sign-offs", ""]
    lines += ["- Entry %d: %s signed %s over entry %s (%s): %s" % (
        s["sequence"], s["signer"], s["signed"], (s["head"] or {}).get("sequence"), "holds" if s["holds"] else "BROKEN", s["statement"])
        for s in programme["sign_offs"]] or ["None yet."]
    return "\n".join(lines) + "\n"


def page(programme, ledger=None):
    heading, banner = _headline(programme)
    controls = table_of(("Control", "Status", "Over", "Met by", "Not met", "Next due", "Rules"), [
        ("%s: %s" % (control["id"], control["title"]), control["status"], "%d %s" % (len(control["scopes"]), control["over"].replace("_", " ")),
         _met_by(control), _unmet(control),
         min((item["next_due"] for item in control["scopes"] if item["next_due"]), default="-"),
         "; ".join("%s %s" % (rule["rule"], rule["clause"]) for rule in control["rules"])) for control in programme["controls"]], "controls")
    findings = table_of(("Status", "Finding", "What", "Severity", "Opened", "Due", "Closed or waived"), _findings_rows(programme), "findings")
    waivers = table_of(("Entry", "Covers", "Owner", "Reason", "Expires"), [
        (w["sequence"], w["finding"] or "%s over %s" % (w["control"], w["scope"]), w["owner"], w["reason"],
         w["expires"] + (" (expired)" if w["expired"] else "")) for w in programme["waivers"]], "waivers")
    signed = table_of(("Entry", "Signer", "Signed", "Over entry", "Signature", "Holds", "Statement"), [
        (s["sequence"], s["signer"], s["signed"], (s["head"] or {}).get("sequence"), s["signature"], "yes" if s["holds"] else "NO: " + " ".join(s["problems"]),
         s["statement"]) for s in programme["sign_offs"]], "sign-offs")
    broken = programme.get("broken") or []
    failures = "".join("<li>%s</li>" % escape(failure) for failure in programme["failures"] if failure not in broken)
    sections = ["<h2>Ledger broken</h2><ul>%s</ul>" % "".join("<li>%s</li>" % escape(problem) for problem in broken) if broken else "",
                "<h2>Overdue</h2><ul>%s</ul>" % failures if failures else "", "<h2>Controls</h2>", controls, "<h2>Findings</h2>", findings,
                "<h2>Waivers</h2>", waivers if programme["waivers"] else "<p>None.</p>", "<h2>Sign-offs</h2>",
                signed if programme["sign_offs"] else "<p>None yet.</p>"]
    left_out = programme.get("projects_left_out") or []
    lede = "Judged over %d ledger entries (head %s); the projects read from the %s%s." % (
        programme["ledger"]["entries"], programme["ledger"]["head"] or "-", programme["projects_from"],
        "; left out, as the service does not have them: %s" % ", ".join(left_out) if left_out else "")
    # The ledger's head it was judged over (the programme itself is no entry).
    head = programme["ledger"]
    ledger = ledger or (dict(sequence=head["sequence"], sha256=head["head"]) if head["head"] else None)
    return document("Audit programme", banner, "Audit programme as of %s: %s" % (programme["as_of"], heading), lede, sections, ledger)
