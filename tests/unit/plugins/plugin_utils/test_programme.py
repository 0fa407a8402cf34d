# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The audit programme over ledgers made by hand: every shipped control met by one ledger and not met by another, a
failed run's finding closed only by a pass of the same machines, due dates, waivers and their expiry, as_of, and the
controls files a user gives."""

import json
import os

import jsonschema
import pytest
import yaml

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils import _programme, _sign_off
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION_ROLES
from ansible_collections.replication.recovery.plugins.plugin_utils._programme_page import markdown, page

SHIPPED = os.path.join(COLLECTION_ROLES, "evidence", "files", "controls.yml")
with open(os.path.join(COLLECTION_ROLES, "evidence", "files", "programme.schema.json"), encoding="utf-8") as schema_file:
    SCHEMA = json.load(schema_file)
AS_OF = "2027-06-01T00:00:00Z"


def shipped():
    with open(SHIPPED, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def programme_of(entries, as_of=AS_OF, projects=None, documents=None):
    controls = _programme.controls_of(documents or [("shipped", shipped())])
    return _programme.judge(entries, *controls, as_of=parse_time(as_of), projects=projects)


class Ledger(object):
    """Entries as the ledger keeps them: numbered, recorded at the moments given, each a report of a runbook."""

    def __init__(self):
        self.entries = []

    def add(self, runbook, recorded, projects, outcome="passed", machines=(), **report):
        result = "passed" if outcome in ("passed", "rolled back", "committed", "data loss accepted") else "failed"
        report.update(outcome=outcome, result=result, machines=[dict(name=name, passed=result == "passed") for name in machines])
        if len(projects) == 1:
            report["project"] = projects[0]
        self.entries.append(dict(sequence=len(self.entries) + 1, runbook=runbook, projects=list(projects), recorded=recorded,
                                 result=result, report=report, sha256="%064d" % (len(self.entries) + 1)))
        return self

    def waiver(self, recorded, expires, **covers):
        report = dict(schema=_programme.WAIVER_SCHEMA, owner="cio@example.com", reason="CHG-1: migrating", expires=expires, generated=recorded,
                      finding=covers.get("finding"), control=covers.get("control"), scope=covers.get("scope"))
        self.entries.append(dict(sequence=len(self.entries) + 1, runbook=_programme.WAIVER, projects=[], recorded=recorded, report=report,
                                 sha256="%064d" % (len(self.entries) + 1)))
        return self


def control(programme, control_id):
    return next(judged for judged in programme["controls"] if judged["id"] == control_id)


def scope(programme, control_id, name):
    return next(item for item in control(programme, control_id)["scopes"] if item["name"] == name)


# Each shipped control: a ledger that meets it, and one that does not (with the service's projects, or None).
DR = [dict(name="prod", type="DR"), dict(name="archive", type="BACKUP")]
PROD = DR[:1]
CASES = {
    "DR-TEST-YEARLY": dict(
        met=lambda: Ledger().add("dr_test", "2026-09-01T00:00:00Z", ["prod"], machines=["db-1"]),
        not_met=lambda: Ledger().add("dr_test", "2026-05-01T00:00:00Z", ["prod"], machines=["db-1"]),
        scope="prod", projects=DR),
    "FAILOVER-ROLLBACK-YEARLY": dict(
        met=lambda: Ledger().add("application", "2026-08-01T00:00:00Z", ["shop-db", "shop-web"], name="shop")
        .add("failover", "2026-09-01T00:00:00Z", ["shop-db"], "rolled back").add("failover", "2026-10-01T00:00:00Z", ["shop-web"], "rolled back"),
        # One project of the two rolled back; the other's failover committed: no rehearsal.
        not_met=lambda: Ledger().add("application", "2026-01-01T00:00:00Z", ["shop-db", "shop-web"], name="shop")
        .add("failover", "2026-09-01T00:00:00Z", ["shop-db"], "rolled back").add("failover", "2026-10-01T00:00:00Z", ["shop-web"], "committed"),
        scope="shop", projects=None),
    "RESTORE-TEST-90-DAYS": dict(
        met=lambda: Ledger().add("restore_test", "2027-04-01T00:00:00Z", ["archive"]),
        not_met=lambda: Ledger().add("restore_test", "2027-02-01T00:00:00Z", ["archive"]),
        scope="archive", projects=DR),
    "CLEAN-POINT-DRILL-YEARLY": dict(
        met=lambda: Ledger().add("clean_point", "2026-12-01T00:00:00Z", ["prod"]),
        not_met=lambda: Ledger().add("clean_point", "2026-03-01T00:00:00Z", ["prod"], "failed").add("clean_point", "2026-05-01T00:00:00Z", ["prod"]),
        scope="prod", projects=DR),
}


def test_every_shipped_control_has_its_cases():
    assert sorted(control["id"] for control in shipped()["controls"]) == sorted(CASES)


@pytest.mark.parametrize("control_id", sorted(CASES))
def test_a_shipped_control_met(control_id):
    case = CASES[control_id]
    judged = programme_of(case["met"]().entries, projects=case["projects"])
    assert scope(judged, control_id, case["scope"])["status"] == "met"
    assert not [f for f in judged["findings"] if f["control"] == control_id and f["kind"] == "control not met" and f["status"] != "closed"]


@pytest.mark.parametrize("control_id", sorted(CASES))
def test_a_shipped_control_not_met(control_id):
    case = CASES[control_id]
    judged = programme_of(case["not_met"]().entries, projects=case["projects"])
    item = scope(judged, control_id, case["scope"])
    assert item["status"] == "not met" and control(judged, control_id)["status"] == "not met"
    opened = [f for f in judged["findings"] if f["id"] in item["findings"] and f["status"] != "closed"]
    assert len(opened) == 1 and opened[0]["control"] == control_id and opened[0]["scope"]["name"] == case["scope"]


def test_a_launch_settings_change_after_the_last_dr_test_is_a_lapse_until_the_next():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], machines=["db-1"]).add("launch_policy", "2027-03-01T00:00:00Z", ["prod"], "committed")
    judged = programme_of(ledger.entries, projects=DR)
    item = scope(judged, "DR-TEST-YEARLY", "prod")
    assert item["status"] == "not met" and item["changed_since"] == [2]
    finding = next(f for f in judged["findings"] if f["id"] in item["findings"])
    assert finding["opened"] == "2027-03-01T00:00:00Z" and finding["due"] == "2027-03-31T00:00:00Z" and finding["status"] == "overdue"
    assert "launch_policy entered as entry 2" in finding["title"]
    # A launch policy run that changed nothing (nothing done) is no change.
    unchanged = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], machines=["db-1"])
    unchanged.add("launch_policy", "2027-03-01T00:00:00Z", ["prod"], "nothing done")
    assert scope(programme_of(unchanged.entries, projects=DR), "DR-TEST-YEARLY", "prod")["status"] == "met"
    # The next DR test closes the lapse, naming itself.
    ledger.add("dr_test", "2027-04-01T00:00:00Z", ["prod"], machines=["db-1"])
    judged = programme_of(ledger.entries, projects=DR)
    assert scope(judged, "DR-TEST-YEARLY", "prod")["status"] == "met"
    closed = next(f for f in judged["findings"] if f["kind"] == "control not met")
    assert closed["status"] == "closed" and closed["closed"]["by"] == 3


def test_a_project_first_seen_has_a_period_for_its_first_run_and_a_lapse_closes_when_it_runs():
    ledger = Ledger().add("health", "2026-01-10T00:00:00Z", ["prod"])
    first = scope(programme_of(ledger.entries, as_of="2026-12-01T00:00:00Z", projects=DR), "DR-TEST-YEARLY", "prod")
    # No DR test ran: not met by a run, but not due before its first year ends.
    assert (first["status"], first["met"], first["last_run"], first["next_due"]) == ("not yet due", False, None, "2027-01-10T00:00:00Z")
    judged = programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=DR)
    lapse = next(f for f in judged["findings"] if f["control"] == "DR-TEST-YEARLY")
    assert lapse["opened"] == "2027-01-10T00:00:00Z" and lapse["due"] == "2027-02-09T00:00:00Z" and lapse["status"] == "open"
    ledger.add("dr_test", "2027-01-20T00:00:00Z", ["prod"], machines=["db-1"])
    judged = programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=DR)
    lapse = next(f for f in judged["findings"] if f["control"] == "DR-TEST-YEARLY")
    assert lapse["status"] == "closed" and lapse["closed"] == dict(at="2027-01-20T00:00:00Z", by=2, runbook="dr_test")


def test_a_failed_dr_test_is_closed_only_by_a_pass_of_the_same_machines():
    ledger = Ledger().add("dr_test", "2027-05-01T00:00:00Z", ["prod"], "failed", machines=["db-1", "web-1"])
    failed = "FAILED-RUN:prod:1"

    def finding():
        return next(f for f in programme_of(ledger.entries, as_of="2027-05-10T00:00:00Z", projects=DR)["findings"] if f["id"] == failed)

    assert finding()["status"] == "open" and finding()["scope"]["machines"] == ["db-1", "web-1"] and finding()["control"] == "DR-TEST-YEARLY"
    ledger.add("dr_test", "2027-05-02T00:00:00Z", ["prod"], machines=["app-1"])  # other machines
    ledger.add("dr_test", "2027-05-03T00:00:00Z", ["prod"], machines=["db-1"])  # one of them only
    assert finding()["status"] == "open"
    ledger.add("dr_test", "2027-05-04T00:00:00Z", ["prod"], machines=["db-1", "web-1", "app-1"])
    assert finding()["status"] == "closed" and finding()["closed"]["by"] == 4


def test_a_refused_cancelled_or_stopped_run_tested_nothing_to_the_end_and_opens_no_finding():
    ledger = Ledger().add("dr_test", "2027-05-01T00:00:00Z", ["prod"], "refused").add("dr_test", "2027-05-02T00:00:00Z", ["prod"], "cancelled")
    ledger.add("dr_test", "2027-05-03T00:00:00Z", ["prod"], "stopped", machines=["db-1"])
    assert not [f for f in programme_of(ledger.entries, projects=DR)["findings"] if f["kind"] == "failed run"]


def test_an_overdue_finding_fails_the_programme_naming_it_and_a_waiver_until_a_date_waives_it():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], "failed", machines=["db-1"])
    judged = programme_of(ledger.entries, projects=PROD)
    assert judged["result"] == "failed" and judged["failures"][0] == (
        "Finding FAILED-RUN:prod:1 (the DR test of prod failed (entry 1): db-1) was due by 2027-01-31T00:00:00Z and is still open: overdue.")
    # Before its due date it is open, and the programme passes.
    assert programme_of(ledger.entries, as_of="2027-01-15T00:00:00Z", projects=PROD)["result"] == "passed"
    ledger.waiver("2027-05-01T00:00:00Z", "2027-07-01T00:00:00Z", control="DR-TEST-YEARLY", scope="prod")
    ledger.waiver("2027-05-01T00:00:00Z", "2027-07-01T00:00:00Z", finding="NEVER-PROVEN:prod:*")
    judged = programme_of(ledger.entries, projects=PROD)
    finding = next(f for f in judged["findings"] if f["id"] == "FAILED-RUN:prod:1")
    assert judged["result"] == "passed" and finding["status"] == "waived" and finding["waiver"]["expires"] == "2027-07-01T00:00:00Z"
    # Past the waiver's expiry the finding is open again - overdue, its waiver said expired.
    judged = programme_of(ledger.entries, as_of="2027-07-02T00:00:00Z", projects=PROD)
    finding = next(f for f in judged["findings"] if f["id"] == "FAILED-RUN:prod:1")
    assert judged["result"] == "failed" and finding["status"] == "overdue" and finding["waiver"]["expired"]


def test_a_waiver_by_a_finding_pattern_and_a_control_waived_whole():
    ledger = Ledger().add("health", "2025-01-01T00:00:00Z", ["prod"])
    judged = programme_of(ledger.entries, projects=DR)
    assert control(judged, "DR-TEST-YEARLY")["status"] == "not met"
    ledger.waiver("2027-05-01T00:00:00Z", "2027-12-31", finding="DR-TEST-YEARLY:prod:*")
    judged = programme_of(ledger.entries, projects=DR)
    assert control(judged, "DR-TEST-YEARLY")["status"] == "waived" and scope(judged, "DR-TEST-YEARLY", "prod")["status"] == "waived"
    assert judged["counts"]["controls_waived"] >= 1


def test_as_of_reads_the_ledger_as_it_was():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], "failed", machines=["db-1"])
    ledger.add("dr_test", "2027-03-01T00:00:00Z", ["prod"], machines=["db-1"])
    assert next(f for f in programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=DR)["findings"])["status"] == "overdue"
    assert next(f for f in programme_of(ledger.entries, projects=DR)["findings"])["status"] == "closed"


def test_a_machine_never_proven_until_a_dr_test_proves_it_or_fleet_health_no_longer_names_it():
    def health(recorded, machines):
        return dict(schema="replication.recovery.health/v1", projects=[dict(name="prod", machines=[dict(name=m) for m in machines])])

    ledger = Ledger()
    ledger.entries.append(dict(sequence=1, runbook="health", projects=["prod"], recorded="2027-01-01T00:00:00Z", report=health(0, ["db-1", "old-1"])))
    ledger.add("dr_test", "2027-02-01T00:00:00Z", ["prod"], machines=["db-1"])
    ledger.entries.append(dict(sequence=3, runbook="health", projects=["prod"], recorded="2027-03-01T00:00:00Z", report=health(0, ["db-1"])))
    findings = dict((f["id"], f) for f in programme_of(ledger.entries, projects=DR)["findings"] if f["kind"] == "never proven")
    assert findings["NEVER-PROVEN:prod:db-1"]["closed"]["by"] == 2
    assert findings["NEVER-PROVEN:prod:old-1"]["closed"]["by"] == 3 and findings["NEVER-PROVEN:prod:old-1"]["closed"]["runbook"] == "health"


def test_projects_from_the_ledger_without_the_service():
    ledger = Ledger().add("dr_test", "2027-05-01T00:00:00Z", ["prod"], machines=["db-1"]).add("restore_test", "2027-05-01T00:00:00Z", ["archive"])
    judged = programme_of(ledger.entries)
    assert judged["projects_from"] == "ledger"
    assert [item["name"] for item in control(judged, "DR-TEST-YEARLY")["scopes"]] == ["prod"]
    assert [item["name"] for item in control(judged, "RESTORE-TEST-90-DAYS")["scopes"]] == ["archive"]


def test_a_users_file_adds_replaces_or_replaces_all():
    own = dict(controls=[dict(id="DR-TEST-YEARLY", title="Quarterly", rules=[dict(rule="Board policy", clause="4.1")], over="dr_projects",
                              runbook="dr_test", within_days=92, severity="high")])
    controls = _programme.controls_of([("shipped", shipped()), ("own", own)])[0]
    assert len(controls) == len(CASES) and next(c for c in controls if c["id"] == "DR-TEST-YEARLY")["within_days"] == 92
    controls = _programme.controls_of([("shipped", shipped()), ("own", dict(own, replace=True))])[0]
    assert [c["id"] for c in controls] == ["DR-TEST-YEARLY"]


@pytest.mark.parametrize("control, said", [
    (dict(over="every_project"), "is over every_project"),
    (dict(runbook="dr-test"), "runbook is dr-test"),
    (dict(severity="urgent"), "has the severity urgent"),
    (dict(within_days="365"), "within_days must be a whole number"),
    (dict(every="year"), "has members no control has: every"),
    (dict(rules=[dict(rule="DORA")]), "needs a rule and a clause"),
])
def test_a_wrong_control_is_refused_naming_it(control, said):
    wrong = dict(dict(id="X-1", title="x", rules=[dict(rule="r", clause="c")], over="dr_projects", runbook="dr_test", within_days=30,
                      severity="high"), **control)
    with pytest.raises(_programme.ProgrammeError, match="X-1") as refused:
        _programme.controls_of([("shipped", shipped()), ("own.yml", dict(controls=[wrong]))])
    assert said in str(refused.value)


@pytest.mark.parametrize("waiver, said", [
    (dict(owner="a", reason="b", expires="2027-12-31"), "either a finding, or a control and a scope"),
    (dict(finding="F", control="C", scope="s", owner="a", reason="b", expires="2027-12-31"), "either a finding"),
    (dict(finding="F", reason="b", expires="2027-12-31"), "has no owner"),
    (dict(finding="F", owner="a", reason="b"), "has no expires"),
    (dict(finding="F", owner="a", reason="b", expires="31/12/2027"), "not a date or an RFC 3339 moment"),
    (dict(finding="F", owner="a", reason="b", expires="2027-01-01"), "is not after now"),
    (dict(finding="F", owner="a", reason="b", expires="2027-12-31", until="x"), "has members a waiver has not: until"),
])
def test_a_wrong_waiver_is_refused(waiver, said):
    with pytest.raises(_programme.ProgrammeError) as refused:
        _programme.waivers_given([waiver], parse_time("2027-05-01T00:00:00Z"))
    assert said in str(refused.value)


def test_its_page_and_markdown_say_what_is_overdue_and_waived():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], "failed", machines=["db-1"])
    judged = programme_of(ledger.entries, projects=PROD)
    judged.update(sign_offs=[], ledger=dict(entries=1, sequence=1, head="ab" * 32))
    said = page(judged)
    assert "FAILED: 2 overdue findings" in said and "FAILED-RUN:prod:1" in said and "Art. 11(6)(a)" in said
    assert "| OVERDUE | FAILED-RUN:prod:1 |" in markdown(judged)
    ledger.waiver("2027-05-01T00:00:00Z", "2027-12-31", finding="*")
    judged = programme_of(ledger.entries, projects=PROD)
    judged.update(sign_offs=[], ledger=dict(entries=2, sequence=2, head="ab" * 32))
    # Only a failed DR test ran: no control is met, two are not yet due, two have no scope (no backup project, no application).
    assert "0 of 4 controls met, 2 not yet due, 2 with nothing to judge; 0 findings open, 2 waived" in page(judged)
    assert "| not yet due | 1 dr projects | - | prod (not yet due, due 2028-01-01T00:00:00Z) |" in markdown(judged)


def test_a_control_is_met_only_by_a_run_and_says_so_in_one_sentence():
    """The programme's sentence - its outcome line and what a sign-off signs - names the entry that met each control, the date
    a control not yet due is due, the scopes not met, and the controls with nothing to judge."""
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], machines=["db-1"])
    judged = programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=PROD)
    assert control(judged, "DR-TEST-YEARLY")["status"] == "met" and scope(judged, "DR-TEST-YEARLY", "prod")["met"]
    assert _programme.said(judged) == (
        "Audit programme as of 2027-02-01T00:00:00Z: 1 of 4 controls met (DR-TEST-YEARLY over prod by entry 1); 1 not yet due "
        "(CLEAN-POINT-DRILL-YEARLY over prod, due 2028-01-01T00:00:00Z); 2 with nothing to judge (FAILOVER-ROLLBACK-YEARLY: no "
        "applications; RESTORE-TEST-90-DAYS: no backup projects); findings: 0 open, 0 overdue, 0 waived, 0 closed.")
    assert _sign_off.statement_of(judged) == _programme.said(judged)
    later = programme_of(ledger.entries, as_of="2028-02-01T00:00:00Z", projects=PROD)
    assert control(later, "CLEAN-POINT-DRILL-YEARLY")["status"] == "not met" and later["counts"]["controls_not_yet_due"] == 0
    assert "0 of 4 controls met; 2 not met (CLEAN-POINT-DRILL-YEARLY over prod; DR-TEST-YEARLY over prod);" in _programme.said(later)


def test_the_programme_names_a_few_scopes_of_a_control_and_counts_the_rest():
    projects = [dict(name="p%d" % number, type="DR") for number in range(5)]
    judged = programme_of(Ledger().add("health", "2027-01-01T00:00:00Z", ["p0"]).entries, as_of="2027-02-01T00:00:00Z", projects=projects)
    assert "DR-TEST-YEARLY over p0, due 2028-01-01T00:00:00Z; p1, due 2028-01-01T00:00:00Z; p2, due 2028-01-01T00:00:00Z and 2 more" in \
        _programme.said(judged)


def test_the_page_of_a_broken_ledger_says_so_first():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], machines=["db-1"])
    judged = programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=PROD)
    broken = "Entry 1 (dr_test of prod) was changed after sign-off entry 2 signed it."
    judged.update(sign_offs=[], ledger=dict(entries=1, sequence=1, head="ab" * 32), broken=[broken], result="failed")
    judged["failures"].append(broken)
    said = page(judged)
    assert "FAILED: ledger broken (1 problem); 0 overdue findings" in said
    assert "<h2>Ledger broken</h2><ul><li>%s</li></ul>" % broken in said and "<h2>Overdue</h2>" not in said


@pytest.mark.parametrize("control_id", sorted(CASES))
def test_the_programme_keeps_its_schema(control_id):
    ledger = CASES[control_id]["not_met"]().add("dr_test", "2027-05-01T00:00:00Z", ["prod"], "failed", machines=["db-1"])
    ledger.waiver("2027-05-02T00:00:00Z", "2027-05-20T00:00:00Z", finding="NEVER-PROVEN:*")
    for judged in (programme_of(ledger.entries, projects=CASES[control_id]["projects"]), programme_of(ledger.entries)):
        judged.update(sign_offs=[], ledger=dict(directory="/mnt/dr-ledger", entries=3, head="ab" * 32, sequence=3, verified=True))
        jsonschema.validate(json.loads(json.dumps(judged)), SCHEMA)


def test_a_waiver_that_expires_on_a_date_holds_through_that_day():
    """"expires 2027-06-01" once meant that day's first second: a waiver given that morning was refused as expired, and one
    in the ledger stopped covering its finding at midnight."""
    made = _programme.waivers_given([dict(finding="NEVER-PROVEN:prod:*", owner="cio", reason="CHG-1", expires="2027-06-01")],
                                    parse_time("2027-06-01T09:00:00Z"))
    assert made[0]["expires"] == "2027-06-01T23:59:59Z"
    ledger = Ledger().add("health", "2025-01-01T00:00:00Z", ["prod"])
    ledger.waiver("2027-05-01T00:00:00Z", "2027-06-01", finding="DR-TEST-YEARLY:prod:*")
    assert control(programme_of(ledger.entries, as_of="2027-06-01T18:00:00Z", projects=DR), "DR-TEST-YEARLY")["status"] == "waived"
    assert control(programme_of(ledger.entries, as_of="2027-06-02T00:00:00Z", projects=DR), "DR-TEST-YEARLY")["status"] == "not met"
    assert _programme.expiry_of("2027-06-01T10:00:00Z") == parse_time("2027-06-01T10:00:00Z")  # a moment is as given


def test_judged_over_the_services_projects_the_ledgers_others_are_named_as_left_out():
    ledger = Ledger().add("dr_test", "2027-01-01T00:00:00Z", ["prod"], machines=["db-1"])
    ledger.add("dr_test", "2027-01-02T00:00:00Z", ["elsewhere"], machines=["db-9"])
    judged = programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z", projects=PROD)
    assert judged["projects_left_out"] == ["elsewhere"]
    assert programme_of(ledger.entries, as_of="2027-02-01T00:00:00Z")["projects_left_out"] == []
