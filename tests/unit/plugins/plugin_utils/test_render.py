# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One renderer of JUnit XML and Markdown for every report of the collection, chosen by the report's schema."""

from xml.etree import ElementTree

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._render import junit_document, table
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import forms_of
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, runbook_of


def machine(name, passed, **facts):
    checks = [dict(name="replication", status="passed", message="continuous"),
              dict(name="lag", status="passed" if passed else "failed", message="30 s" if passed else "2 h 0 min, over 15 min")]
    return dict(dict(name=name, passed=passed, replication_state="continuous", lag_seconds=30 if passed else 7200, backlog_bytes=0,
                     last_tested=None, tested_days_ago=None, proof=None, checks=checks), **facts)


HEALTH = dict(
    schema="replication.recovery.health/v1", result="failed", service_time="2026-11-25T03:00:00.000000+00:00", generated="2026-11-25T03:00:05Z",
    thresholds=dict(states=["continuous"], max_lag_seconds=900, max_backlog_bytes=None, tested_within_days=30), proofs_from="ledger",
    counts=dict(machines=3, passed=2, failed=1, projects=2), failures=["web: web-2: lag: 2 h 0 min, over 15 min"], excluded=["old-1"],
    projects=[
        dict(name="web", passed=False, rto_forecast=dict(median_seconds=300, p90_seconds=420, target_seconds=360, meets_target=False),
             machines=[machine("web-1", True, last_tested="2026-11-20", tested_days_ago=5,
                               proof=dict(status="changed since last proven", proven=dict(time="2026-11-20T01:00:00Z"), changes=[
                                   dict(time="2026-11-21T02:00:00Z", event="BLUEPRINT_UPDATED", username="ops@example.test",
                                        description="Blueprint updated.", fields=["instanceType"])])),
                       machine("web-2", False)]),
        dict(name="empty", passed=True, rto_forecast=None, machines=[]),
    ])


def test_the_fleets_health_as_junit_a_suite_per_project_a_case_per_machine_and_check():
    suites = ElementTree.fromstring(forms_of(HEALTH)[".junit.xml"].encode())
    assert (suites.get("name"), suites.get("tests"), suites.get("failures")) == ("health", "4", "1")
    web = suites.find("testsuite[@name='health.web']")
    cases = [(case.get("classname"), case.get("name"), case.find("failure") is not None) for case in web]
    assert cases == [("health.web.web-1", "replication", False), ("health.web.web-1", "lag", False),
                     ("health.web.web-2", "replication", False), ("health.web.web-2", "lag", True)]
    assert suites.find("testsuite[@name='health.empty']").get("tests") == "0"


def test_the_fleets_health_as_markdown():
    said = forms_of(HEALTH)[".md"]
    assert said.startswith("# Fleet health: FAILED\n\n2 of 3 machines in 2 projects passed; measured at 2026-11-25T03:00:00.000000+00:00")
    assert "Thresholds: replication continuous; lag at most 15 min 0 s; backlog at most any; DR-tested within 30 days." in said
    assert ("RTO forecast of a full recovery, from the ledger: 5 min 0 s (median), 7 min 0 s (90th percentile), against a target of "
            "6 min 0 s: MISSED.") in said
    assert "| web-1 | passed | continuous | 30 s | 0 | 2026-11-20 (5 days ago) | changed since last proven, on 2026-11-20T01:00:00Z |" in said
    assert "| web-2 | FAILED | continuous | 2 h 0 min | 0 | never | - |" in said
    assert "- web-1: 2026-11-21T02:00:00Z BLUEPRINT_UPDATED by ops@example.test: Blueprint updated." in said
    assert "## empty: passed\n\nNo machines." in said
    assert "## Failures\n\n- web: web-2: lag: 2 h 0 min, over 15 min" in said and said.endswith("Excluded (replication stopped): old-1.\n")


def test_the_writer_counts_failures_and_skips_and_escapes():
    checks = [("c", dict(name="a<b", status="failed", message="x & y")), ("c", dict(name="s", status="skipped", message="not run")),
              ("c", dict(name="p", status="passed"))]
    suites = ElementTree.fromstring(junit_document("run", [("suite", checks)], "2026-11-25T03:00:00Z").encode())
    assert (suites.get("tests"), suites.get("failures"), suites.get("skipped")) == ("3", "1", "1")
    assert suites.find("testsuite/testcase/failure").get("message") == "x & y"
    assert table(("A", "B"), [("1|2", 3)]) == ["| A | B |", "|---|---|", "| 1\\|2 | 3 |"]


def test_a_report_of_no_runbook_has_no_forms():
    with pytest.raises(ValueError, match="not a report of the collection's runbooks .its schema is replication.recovery.nothing/v1"):
        forms_of(dict(schema="replication.recovery.nothing/v1"))
    with pytest.raises(ValueError, match="schema is missing"):
        runbook_of({})
    assert runbook_of(dict(schema="replication.recovery.failback/v1")) is BY_NAME["failback"]
