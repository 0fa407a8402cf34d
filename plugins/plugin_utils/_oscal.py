# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit programme (plugin_utils._programme) in OSCAL, NIST's Open Security Controls Assessment Language, for the
auditors' tools: the assessment plan (the controls judged, each an activity that says what must run and the rules it
answers to), the assessment results (per control a finding - satisfied or not - over an observation of each of its scopes,
and a finding for each of the programme's), and a plan of action and milestones (a POA&M item for each finding not closed,
with its due date).

Plain JSON, written by the collection itself: the tests validate it with a published OSCAL library (compliance-trestle),
which the collection does not need. Every UUID is derived from the ledger's head, the moment judged and what it names, so
the same programme gives the same documents."""

import uuid

OSCAL_VERSION = "1.1.2"
NS = "https://github.com/replication-recovery/replication.recovery/ns/oscal"  # the namespace of the collection's own properties
NOTHING_OPEN = "No open finding"
ROOT = uuid.UUID("0a6f8f48-6f0e-5c8a-9b8e-2d2f6c0c5a11")


def _uuid(programme, *names):
    return str(uuid.uuid5(ROOT, "/".join([programme["ledger"]["head"] or "", programme["as_of"]] + [str(name) for name in names])))


def _prop(name, value):
    return dict(name=name, ns=NS, value=str(value))


def _metadata(programme, title, now):
    return {"title": title, "last-modified": now, "version": programme["as_of"], "oscal-version": OSCAL_VERSION,
            "remarks": "Judged over the ledger of runs %s, %d entries, head %s." % (
                programme["ledger"]["directory"], programme["ledger"]["entries"], programme["ledger"]["head"] or "none")}


def _described(control):
    return "%s (over %s: runs of %s, each no older than %d days%s). Answers to: %s." % (
        control["title"], control["over"].replace("_", " "), control["runbook"], control["within_days"],
        ", and after each change by %s" % control["after_changes_by"] if control.get("after_changes_by") else "",
        "; ".join("%s, %s" % (rule["rule"], rule["clause"]) for rule in control["rules"]))


def assessment_plan(programme, now):
    """The assessment plan: the controls the programme judges, each an activity."""
    return {"assessment-plan": {
        "uuid": _uuid(programme, "plan"),
        "metadata": _metadata(programme, "Audit programme of the replication.recovery ledger: assessment plan", now),
        # The system's security plan is the user's own, not the collection's: named, not imported.
        "import-ssp": {"href": "#system-security-plan"},
        "local-definitions": {"activities": [
            {"uuid": _uuid(programme, "activity", control["id"]), "title": control["id"], "description": _described(control),
             "props": [_prop("severity", control["severity"]), _prop("runbook", control["runbook"])] + [
                 _prop("rule", "%s, %s" % (rule["rule"], rule["clause"])) for rule in control["rules"]]}
            for control in programme["controls"]]},
        "reviewed-controls": {"control-selections": [{"include-controls": [{"control-id": control["id"].lower()} for control in programme["controls"]]}]
                              if programme["controls"] else [{"include-all": {}}]},
    }}


def _finding_of(programme, finding):
    closed = finding["status"] == "closed"
    remarks = "Opened %s, due %s." % (finding["opened"], finding["due"])
    if finding["closed"]:
        remarks += " Closed %s by entry %d (%s)." % (finding["closed"]["at"], finding["closed"]["by"], finding["closed"]["runbook"])
    if finding.get("waiver"):
        waiver = finding["waiver"]
        remarks += " Waiver by %s until %s%s: %s" % (waiver["owner"], waiver["expires"], " (expired)" if waiver["expired"] else "", waiver["reason"])
    return {"uuid": _uuid(programme, "finding", finding["id"]), "title": finding["id"], "description": finding["title"],
            "props": [_prop("status", finding["status"]), _prop("severity", finding["severity"]), _prop("kind", finding["kind"].replace(" ", "-")),
                      _prop("due", finding["due"])],
            "target": {"type": "objective-id", "target-id": (finding["control"] or finding["kind"].replace(" ", "-")).lower(),
                       "status": {"state": "satisfied" if closed else "not-satisfied"}},
            "remarks": remarks}


def assessment_results(programme, plan_href, now):
    """The assessment results of the programme as of its moment, importing its plan (``plan_href``)."""
    observations, findings = [], []
    for control in programme["controls"]:
        seen = []
        for item in control["scopes"]:
            seen.append(_uuid(programme, "observation", control["id"], item["name"]))
            observations.append({
                "uuid": seen[-1], "title": "%s over %s" % (control["id"], item["name"]), "methods": ["TEST"], "collected": programme["as_of"],
                "description": "%s: %s%s." % (item["status"], "last counting run entry %d, recorded %s" % (
                    item["last_run"]["sequence"], item["last_run"]["recorded"]) if item["last_run"] else "no counting run in the ledger",
                    ", next due %s" % item["next_due"] if item["next_due"] else ""),
                "props": [_prop("status", item["status"])]})
        findings.append({"uuid": _uuid(programme, "control", control["id"]), "title": "%s: %s" % (control["id"], control["status"]),
                         "description": _described(control), "props": [_prop("status", control["status"])],
                         "target": {"type": "objective-id", "target-id": control["id"].lower(),
                                    "status": {"state": "satisfied" if control["status"] == "met" else "not-satisfied"}},
                         "related-observations": [{"observation-uuid": each} for each in seen]} if seen else
                        {"uuid": _uuid(programme, "control", control["id"]), "title": "%s: %s" % (control["id"], control["status"]),
                         "description": _described(control) + " Nothing is in its scope: no run met it.", "props": [_prop("status", control["status"])],
                         "target": {"type": "objective-id", "target-id": control["id"].lower(), "status": {"state": "not-satisfied"}}})
    findings += [_finding_of(programme, finding) for finding in programme["findings"]]
    result = {"uuid": _uuid(programme, "result"), "title": "Audit programme as of %s" % programme["as_of"],
              "description": "; ".join(programme["failures"]) or "No finding is overdue.", "start": programme["as_of"],
              "reviewed-controls": {"control-selections": [{"include-all": {}}]}, "findings": findings}
    if observations:
        result["observations"] = observations
    if programme["sign_offs"]:
        result["remarks"] = " ".join("Signed off by %s at %s over ledger entry %s: %s" % (
            said["signer"], said["signed"], (said["head"] or {}).get("sequence"), "holds" if said["holds"] else "BROKEN")
            for said in programme["sign_offs"])
    return {"assessment-results": {
        "uuid": _uuid(programme, "results"),
        "metadata": _metadata(programme, "Audit programme of the replication.recovery ledger: assessment results", now),
        "import-ap": {"href": plan_href},
        "results": [result]}}


def poam(programme, now):
    """The plan of action and milestones: an item for each finding not closed - open, overdue or waived - due by its date."""
    pending = [finding for finding in programme["findings"] if finding["status"] != "closed"]
    document = {
        "uuid": _uuid(programme, "poam"),
        "metadata": _metadata(programme, "Audit programme of the replication.recovery ledger: plan of action and milestones", now),
        "system-id": {"identifier-type": NS, "id": "replication-recovery-ledger"},
        "poam-items": [{"uuid": _uuid(programme, "item", finding["id"]), "title": finding["id"],
                        "description": "%s. Due %s (%s)." % (finding["title"], finding["due"], finding["status"]),
                        "props": [_prop("status", finding["status"]), _prop("due", finding["due"]), _prop("severity", finding["severity"])],
                        "related-findings": [{"finding-uuid": _uuid(programme, "finding", finding["id"])}]} for finding in pending]}
    if pending:
        document["findings"] = [_finding_of(programme, finding) for finding in pending]
    else:  # OSCAL asks for at least one item: the one that says there is nothing to plan
        document["poam-items"] = [{"uuid": _uuid(programme, "item"), "title": NOTHING_OPEN, "props": [_prop("status", "closed")],
                                   "description": "Every finding of the programme is closed as of %s: nothing to plan." % programme["as_of"]}]
    return {"plan-of-action-and-milestones": document}
