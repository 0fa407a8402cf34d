# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A game day's report: its hypothesis borne out or not, and its regression against the same scenario's earlier runs in
the ledger - a target an earlier run met and this one missed, a measure over their 90th percentile - in every form."""

import json
import os
from xml.etree import ElementTree

import jsonschema
import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import append, newest_entries, newest_reports
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_game_day import alike, junit, markdown, page, report

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
with open(os.path.join(COLLECTION, "roles", "game_day", "files", "report.schema.json"), encoding="utf-8") as handle:
    SCHEMA = json.load(handle)
with open(os.path.join(COLLECTION, "tests", "unit", "golden", "dr_test.json"), encoding="utf-8") as handle:
    DR_TEST = json.load(handle)
SCENARIO = dict(name="nightly", hypothesis="storefront recovers within ten minutes", runbook="dr_test", project="storefront",
                projects=["storefront"], machines=["web-*"], targets=dict(rpo_seconds=None, rto_seconds=600), probes=[], **{"with": {}})
GENERATED = "2026-11-27T13:20:00Z"


def rehearsal(day, outcome="passed", rto=300.0, rpo=400.0, seconds=120, rto_target=600):
    """A DR test's report as it wrote it, of a run on ``day`` that took ``seconds`` on the controller."""
    began = "2026-11-%02dT02:00:00+00:00" % day
    return dict(DR_TEST, outcome=outcome, result="passed" if outcome == "passed" else "failed", started="2026-11-%02dT02:00:01+00:00" % day,
                launch_requested="2026-11-%02dT02:00:05+00:00" % day, run_began=began,
                generated="2026-11-%02dT02:%02d:%02dZ" % (day, seconds // 60, seconds % 60),
                measures=dict(rpo_seconds=rpo, rto_seconds=rto, launch_job_seconds=250.0), targets=dict(rpo_seconds=None, rto_seconds=rto_target),
                next=None if outcome == "passed" else "Run it again.", failures=[] if outcome == "passed" else ["web-1: RTO: over"])


def game_day(ran, earlier=(), scenario=None):
    made = report(dict(scenario=scenario or SCENARIO, rehearsal=ran, earlier=list(earlier)), GENERATED)
    jsonschema.validate(made, SCHEMA)
    return made


def history(*rtos, **given):
    """Earlier game days, one a day from the 1st, each of the worst RTO given."""
    return [game_day(rehearsal(day, rto=rto, **given)) for day, rto in enumerate(rtos, 1)]


def test_a_first_run_passes_its_hypothesis_is_borne_out_and_nothing_is_judged_against():
    made = game_day(rehearsal(20))
    assert made["outcome"] == "passed" and made["borne_out"] is True and made["earlier_runs"] == 0
    assert made["regression"] == dict(regressed=False, findings=[], earlier_runs=0, p90=dict(rto_seconds=None, duration_seconds=None),
                                      said="No regression: no earlier run of this scenario in the ledger to judge it against.")
    assert made["rehearsal"]["measures"]["duration_seconds"] == 120 and made["rehearsal"]["met"] == dict(rpo_seconds=None, rto_seconds=True)


def test_a_target_an_earlier_run_met_and_this_one_missed_is_a_regression():
    made = game_day(rehearsal(20, outcome="failed", rto=700.0), history(300.0, 320.0))
    assert made["borne_out"] is False and made["regression"]["regressed"]
    target = [finding for finding in made["regression"]["findings"] if finding["kind"] == "target"]
    assert target == [dict(kind="target", measure="rto_seconds", value=700.0, against=600, said=(
        "it missed its RTO target: 11 min 40 s against 10 min 0 s, which 2 of its 2 earlier runs met (the newest on "
        "2026-11-02T02:00:01+00:00)"))]
    assert made["regression"]["said"].startswith("REGRESSED against the ledger: it missed its RTO target")
    assert "Find what changed since its earlier runs" in made["next"]


def test_a_target_no_earlier_run_met_is_a_failure_not_a_regression():
    made = game_day(rehearsal(20, outcome="failed", rto=700.0), history(650.0, 680.0, outcome="failed"))
    assert made["regression"]["regressed"] is False and made["regression"]["earlier_runs"] == 2


def test_over_the_90th_percentile_of_three_earlier_runs_is_slower_and_two_runs_alone_judge_no_speed():
    slower = game_day(rehearsal(20, rto=330.0), history(300.0, 310.0, 320.0))
    assert slower["result"] == "passed" and slower["regression"]["regressed"]
    assert [(f["kind"], f["measure"], f["value"], f["against"]) for f in slower["regression"]["findings"]] == [("slower", "rto_seconds", 330.0, 318.0)]
    assert slower["regression"]["p90"] == dict(rto_seconds=318.0, duration_seconds=120.0)
    assert game_day(rehearsal(20, rto=318.0), history(300.0, 310.0, 320.0))["regression"]["regressed"] is False
    two = game_day(rehearsal(20, rto=590.0), history(300.0, 310.0))
    assert two["regression"]["regressed"] is False and two["regression"]["p90"]["rto_seconds"] is None
    assert "(its speed is judged from 3 of them on)" in two["regression"]["said"]
    longer = game_day(rehearsal(20, seconds=500), history(300.0, 300.0, 300.0))
    assert [(f["measure"], f["value"]) for f in longer["regression"]["findings"]] == [("duration_seconds", 500)]


def test_only_earlier_runs_that_ran_to_their_end_count_and_the_same_run_reported_again_is_not_its_own_earlier_run():
    stopped = [game_day(rehearsal(day, outcome="stopped", rto=10.0)) for day in (1, 2, 3)]
    made = game_day(rehearsal(20, rto=300.0), stopped)
    assert made["earlier_runs"] == 3 and made["regression"]["earlier_runs"] == 0 and not made["regression"]["regressed"]
    again = game_day(rehearsal(20, rto=300.0), history(100.0, 100.0, 100.0) + [game_day(rehearsal(20, rto=300.0))])
    assert again["earlier_runs"] == 3


def test_a_rehearsal_that_adopted_what_a_stopped_run_left_and_passed_bears_the_hypothesis_out_and_is_judged():
    made = game_day(dict(rehearsal(20, rto=900.0, rto_target=1000), outcome="adopted", result="passed"), history(300.0, 300.0, 300.0))
    assert made["outcome"] == "adopted" and made["borne_out"] is True
    assert made["regression"]["regressed"] and made["regression"]["earlier_runs"] == 3
    assert "Hypothesis: storefront recovers within ten minutes - borne out." in markdown(made)


def test_a_failover_rehearsal_that_rolled_back_passed_and_is_judged_against_the_earlier_ones():
    failover, schema = dict(SCENARIO, runbook="failover"), "replication.recovery.failover/v1"
    earlier = [game_day(dict(rehearsal(day, rto=300.0), schema=schema, outcome="rolled back"), scenario=failover) for day in (1, 2, 3)]
    made = game_day(dict(rehearsal(20, rto=900.0, rto_target=1000), schema=schema, outcome="rolled back"), earlier, scenario=failover)
    assert made["outcome"] == "passed" and made["borne_out"] is True and made["rehearsal"]["outcome"] == "rolled back"
    assert made["regression"]["regressed"] and made["regression"]["earlier_runs"] == 3  # slower than all three before it
    failed = game_day(dict(rehearsal(21, outcome="failed"), schema=schema), scenario=failover)
    assert failed["outcome"] == "failed" and failed["borne_out"] is False


@pytest.mark.parametrize("outcome, borne_out", [("stopped", False), ("cancelled", None), ("refused", None)])
def test_a_rehearsal_that_did_not_run_to_its_end_is_not_judged(outcome, borne_out):
    made = game_day(rehearsal(20, outcome=outcome), history(100.0, 100.0, 100.0))
    assert made["regression"] is None and made["borne_out"] is borne_out
    cases = dict((case.get("name"), case) for case in ElementTree.fromstring(junit(made)).iter("testcase"))
    assert cases["regression"].find("skipped") is not None
    assert (cases["hypothesis"].find("failure") is not None) == (borne_out is False)


def test_its_forms_say_the_hypothesis_the_regression_and_what_stopped_it():
    stops = dict(lever=None, probes=[dict(name="storefront", kind="url", after_failures=2, failures_in_a_row=2)], looks=3,
                 stopped_by=dict(probe="storefront", at="2026-11-20T02:01:00+00:00", failures=2, said="answered 503"),
                 timeline=[dict(at="2026-11-20T02:00:30+00:00", probe="storefront", passed=False, said="answered 503")])
    made = game_day(dict(rehearsal(20, outcome="stopped"), stop_conditions=stops))
    cases = dict((case.get("name"), case) for case in ElementTree.fromstring(junit(made)).iter("testcase"))
    assert sorted(cases) == ["hypothesis", "regression", "stop condition storefront"]
    assert "Stopped by the stop condition storefront" in cases["stop condition storefront"].find("failure").get("message")
    text = markdown(made)
    assert text.startswith("# Game day nightly: STOPPED\n") and "not borne out (stopped)" in text and "## Stop conditions" in text
    regressed = game_day(rehearsal(20, outcome="failed", rto=700.0), history(300.0))
    assert "## Regression\n\nREGRESSED against the ledger" in markdown(regressed)
    assert ElementTree.fromstring(junit(regressed)).find(".//testcase[@name='regression']/failure") is not None
    html = page(regressed, dict(sequence=4, sha256="ab" * 32))
    assert "Game day nightly: FAILED" in html and "REGRESSED against the ledger" in html and "Entry 4" in html


def test_the_ledger_answers_the_scenarios_newest_runs_oldest_first_and_passes_over_others(tmp_path):
    ledger = str(tmp_path)
    for day in range(1, 5):
        append(ledger, "game_day", game_day(rehearsal(day)))
        append(ledger, "dr_test", rehearsal(day))
    append(ledger, "game_day", game_day(rehearsal(5), scenario=dict(SCENARIO, name="monthly")))
    (tmp_path / "00000099.json").write_text("{broken")
    facts = dict(scenario=SCENARIO)
    found = newest_reports(ledger, "game_day", lambda made: alike(made, facts), 3)
    assert [made["started"][:10] for made in found] == ["2026-11-02", "2026-11-03", "2026-11-04"]
    assert newest_reports(None, "game_day", lambda made: True, 3) == []


def test_the_newest_entries_of_a_runbook_of_a_project_after_an_entry(tmp_path):
    """What a game day reads to find its rehearsal that ended before it was reported (ledger_report_info)."""
    ledger = str(tmp_path)
    for day in range(1, 4):
        append(ledger, "dr_test", rehearsal(day))
        append(ledger, "game_day", game_day(rehearsal(day)))
    append(ledger, "dr_test", dict(rehearsal(4), project="other"))
    newest = newest_entries(ledger, "dr_test", "storefront")
    assert [(entry["sequence"], entry["report"]["started"][:10]) for entry in newest] == [(5, "2026-11-03")]
    assert [entry["sequence"] for entry in newest_entries(ledger, "dr_test", count=2)] == [5, 7]
    assert [entry["sequence"] for entry in newest_entries(ledger, "game_day", "storefront", after=5)] == [6]
    assert newest_entries(ledger, "game_day", "storefront", after=6) == [] and newest_entries(None, "dr_test") == []
    assert set(newest[0]) == {"sequence", "sha256", "path", "recorded", "report"}


def test_game_days_of_one_search_continued_are_each_entered_and_the_same_one_reported_again_is_not(tmp_path):
    """A clean point search stopped by one game day and ended by the next keeps its start: each game day's report is its
    own entry; the same rehearsal reported again (a game day stopped between its entry and its end) is not."""
    ledger = str(tmp_path)
    stopped = dict(rehearsal(3, outcome="stopped"), generated="2026-11-03T02:05:00Z")
    ended = dict(rehearsal(3), generated="2026-11-03T03:00:00Z")
    assert append(ledger, "game_day", game_day(stopped))["appended"] and append(ledger, "game_day", game_day(ended))["appended"]
    assert not append(ledger, "game_day", game_day(ended))["appended"]
    assert game_day(ended, [game_day(stopped), game_day(ended)])["earlier_runs"] == 1


def test_an_applications_game_day_names_its_projects_and_judges_its_worst_machine(tmp_path):
    """Its rehearsal is the application's report (as application_step writes it): the worst RPO and RTO of any machine, the
    strictest targets, the projects of its nodes."""
    scenario = dict(SCENARIO, runbook="application", project=None, projects=["sf-db", "sf-web"], machines=["db-*", "web-*"])
    ran = dict(schema="replication.recovery.application/v1", name="storefront", runbook="dr_test", result="passed", outcome="passed",
               began="2026-11-20T02:00:00Z", started="2026-11-20T02:00:00Z", run_began="2026-11-20T02:00:00Z", generated="2026-11-20T02:04:00Z",
               projects=[dict(name="sf-db", node="db"), dict(name="sf-web", node="web")], failures=[], next=None,
               measures=dict(rpo_seconds=600.0, rto_seconds=250.0), targets=dict(rpo_seconds=None, rto_seconds=600), counts=dict(machines=4),
               stop_conditions=None, run=dict(began="2026-11-20T02:00:00Z", files="application_storefront.20261120T020000Z", reached=True))
    made = game_day(ran, scenario=scenario)
    assert made["project"] is None and made["projects"] == [dict(name="sf-db"), dict(name="sf-web")]
    assert made["outcome"] == "passed" and made["rehearsal"]["runbook"] == "application" and made["rehearsal"]["name"] == "storefront"
    assert made["rehearsal"]["met"] == dict(rpo_seconds=None, rto_seconds=True) and made["rehearsal"]["machines"] == 4
    assert made["rehearsal"]["measures"]["duration_seconds"] == 240
    assert "Its application storefront (projects sf-db, sf-web): PASSED. Worst RPO" in markdown(made)
    assert "Game day nightly: PASSED" in page(made)
    append(str(tmp_path), "game_day", made)  # entered under the projects it ran in
    assert [len(newest_entries(str(tmp_path), "game_day", project)) for project in ("sf-db", "sf-web", "storefront")] == [1, 1, 0]
