# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The fleet's health: each machine judged against the thresholds, and the report's schema."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import jsonschema
import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.health import fleet_health, last_tested
from ansible_collections.replication.recovery.plugins.plugin_utils import _proof

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "health", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)

NOW = "2026-11-22T10:00:00+00:00"


def machine(name, state="continuous", lag=60, backlog=0, status="STARTED", **life_cycle):
    return {"id": name + "-id", "name": name, "replicationStatus": status, "replication_state": state, "lag_seconds": lag,
            "backlog_bytes": backlog, "lifeCycle": life_cycle}


def fleet(*machines_by_project):
    return [{"id": "p%d" % index, "name": name, "machines": list(machines)} for index, (name, machines) in enumerate(machines_by_project)]


def judged(report, project, name):
    machines = next(p for p in report["projects"] if p["name"] == project)["machines"]
    found = next(m for m in machines if m["name"] == name)
    return dict((check["name"], check) for check in found["checks"]), found


def test_a_healthy_recently_tested_fleet_passes():
    report = fleet_health(fleet(("prod", [machine("web-1", lastTestLaunchDateTime="2026-11-20T10:00:00+00:00")])), NOW,
                          max_lag=900, max_backlog=0, tested_within_days=30)
    jsonschema.validate(dict(report, generated=NOW), SCHEMA)
    assert report["result"] == "passed" and report["failures"] == []
    checks, web_1 = judged(report, "prod", "web-1")
    assert sorted(checks) == ["DR tested", "backlog", "lag", "replication"]
    assert all(check["status"] == "passed" for check in checks.values())
    assert (web_1["last_tested"], web_1["tested_days_ago"]) == ("2026-11-20T10:00:00+00:00", 2.0)
    assert report["counts"] == {"projects": 1, "machines": 1, "passed": 1, "failed": 0, "excluded": 0, "unproven": 0}


def test_each_kind_of_unhealthy_machine_is_named_with_why():
    report = fleet_health(fleet(
        ("prod", [machine("lagging", state="lagging", lag=1800, lastTestLaunchDateTime="2026-11-21T10:00:00+00:00"),
                  machine("paused", state="paused", status="PAUSED", lastTestLaunchDateTime="2026-11-21T10:00:00+00:00"),
                  machine("busy", backlog=5000, lastTestLaunchDateTime="2026-11-21T10:00:00+00:00")]),
        ("new", [machine("never"), machine("syncing", state="initial_sync", lag=None)]),
    ), NOW, max_lag=900, max_backlog=1000, tested_within_days=30)
    jsonschema.validate(dict(report, generated=NOW), SCHEMA)
    assert report["result"] == "failed"
    assert "prod/lagging: lag: 1800 s (at most 900 s)" in report["failures"]
    assert "prod/lagging: replication: lagging, not continuous" in report["failures"]
    assert "prod/paused: replication: paused, not continuous" in report["failures"]
    assert "prod/busy: backlog: 5000 bytes (at most 1000)" in report["failures"]
    assert "new/never: DR tested: never" in report["failures"]
    assert "new/syncing: lag: no consistent point in time yet" in report["failures"]
    assert report["counts"] == {"projects": 2, "machines": 5, "passed": 0, "failed": 5, "excluded": 0, "unproven": 0}
    assert [p["passed"] for p in report["projects"]] == [False, False]


def test_a_test_or_a_recovery_counts_as_dr_tested_a_cutover_does_not():
    old_test, recent_recovery = "2026-09-01T00:00:00+00:00", "2026-11-15T00:00:00+00:00"
    assert last_tested(machine("a", lastTestLaunchDateTime=old_test, lastRecoveryLaunchDateTime=recent_recovery)) == recent_recovery
    assert last_tested(machine("b", lastCutoverDateTime=recent_recovery)) is None
    report = fleet_health(fleet(("prod", [machine("stale-test", lastTestLaunchDateTime=old_test)])), NOW, tested_within_days=30)
    checks, found = judged(report, "prod", "stale-test")
    assert checks["DR tested"]["status"] == "failed"
    assert checks["DR tested"]["message"] == "82.4 days ago, on 2026-09-01T00:00:00+00:00 (within 30 days)"


def test_checks_without_a_threshold_are_not_made():
    report = fleet_health(fleet(("prod", [machine("web-1", lag=99999, backlog=99999)])), NOW)
    checks, web_1 = judged(report, "prod", "web-1")
    assert list(checks) == ["replication"]
    assert report["result"] == "passed"
    assert report["thresholds"] == {"states": ["continuous"], "max_lag_seconds": None, "max_backlog_bytes": None, "tested_within_days": None,
                                    "require_proven": False, "restore_verified_within_days": None}


def test_stopped_machines_are_excluded_unless_asked_for():
    projects = fleet(("prod", [machine("web-1"), machine("old", state="stopped", status="STOPPED")]))
    report = fleet_health(projects, NOW)
    assert report["excluded"] == ["prod/old"] and report["counts"]["excluded"] == 1 and report["result"] == "passed"
    report = fleet_health(projects, NOW, exclude_stopped="false")
    assert report["excluded"] == [] and "prod/old: replication: stopped, not continuous" in report["failures"]


def test_thresholds_and_states_may_come_as_text():
    projects = fleet(("prod", [machine("web-1", state="lagging", lag=700)]))
    report = fleet_health(projects, NOW, states="continuous, lagging", max_lag="900", tested_within_days="", max_backlog="null")
    assert report["result"] == "passed"
    assert report["thresholds"]["states"] == ["continuous", "lagging"]
    assert report["thresholds"]["max_lag_seconds"] == 900 and report["thresholds"]["tested_within_days"] is None


def test_bad_input_is_refused_clearly():
    with pytest.raises(AnsibleFilterError, match="max_lag must be a number, not 'soon'"):
        fleet_health(fleet(("prod", [])), NOW, max_lag="soon")
    with pytest.raises(AnsibleFilterError, match="machines=true"):
        fleet_health({"projects": []}, NOW)


def test_a_project_whose_rto_forecast_misses_its_target_fails_and_is_named():
    healthy = [machine("web-1", lastTestLaunchDateTime="2026-11-20T10:00:00+00:00")]
    forecasts = [dict(name="prod", rto_forecast=dict(median_seconds=130, p90_seconds=300, target_seconds=240, meets_target=False, machines={})),
                 dict(name="dev", rto_forecast=dict(median_seconds=60, p90_seconds=90, target_seconds=240, meets_target=True, machines={}))]
    report = fleet_health(fleet(("prod", healthy), ("dev", healthy), ("new", healthy)), NOW, tested_within_days=30, rto_forecasts=forecasts)
    jsonschema.validate(dict(report, generated=NOW), SCHEMA)
    assert report["result"] == "failed"
    assert report["failures"] == ["prod: RTO forecast: a full recovery would take 300 s (the slowest machine's 90th percentile over its recent "
                                  "passing runs in the ledger), over the target of 240 s"]
    assert [(p["name"], p["passed"], (p["rto_forecast"] or {}).get("p90_seconds")) for p in report["projects"]] == [
        ("prod", False, 300), ("dev", True, 90), ("new", True, None)]


def test_machines_changed_since_last_proven_are_reported_and_fail_only_when_proof_is_required():
    machines = [machine("web-1"), machine("db-1"), machine("app-1")]
    ledger = [{"sequence": 3, "runbook": "dr_test", "report": {"project": "prod", "launch_requested": "2026-11-20T10:00:00+00:00", "machines": [
        {"id": "web-1-id", "name": "web-1", "passed": True}, {"id": "db-1-id", "name": "db-1", "passed": True}]}}]
    change = {"timestamp": "2026-11-21T10:00:00+00:00", "eventName": "BLUEPRINT_UPDATED", "description": "Blueprint of web-1 updated.",
              "username": "ops@example.com", "participatingMachines": [{"machineCloudEndureId": "web-1-id"}]}
    proofs = [dict(name="prod", id="p0", source="ledger",
                   machines=_proof.judge(machines, _proof.ledger_proofs(ledger, {"name": "prod", "id": "p0"}), [change]))]
    reported = fleet_health(fleet(("prod", machines)), NOW, proofs=proofs)
    jsonschema.validate(dict(reported, generated=NOW), SCHEMA)
    assert reported["result"] == "passed" and reported["counts"]["unproven"] == 2 and reported["proofs_from"] == "ledger"
    assert [judged(reported, "prod", name)[1]["proof"]["status"] for name in ("web-1", "db-1", "app-1")] == [
        "changed since last proven", "proven", "never proven"]
    assert judged(reported, "prod", "web-1")[1]["proof"]["changes"][0]["event"] == "BLUEPRINT_UPDATED"
    required = fleet_health(fleet(("prod", machines)), NOW, proofs=proofs, require_proven="yes")
    jsonschema.validate(dict(required, generated=NOW), SCHEMA)
    assert required["result"] == "failed" and required["failures"] == [
        "prod/web-1: proven: changed since last proven on 2026-11-20T10:00:00+00:00 (entry 3 of the ledger, dr_test): 2026-11-21T10:00:00+00:00 "
        "BLUEPRINT_UPDATED by ops@example.com: Blueprint of web-1 updated",
        "prod/app-1: proven: never proven"]
    assert fleet_health(fleet(("prod", machines)), NOW)["projects"][0]["machines"][0]["proof"] is None


def test_a_backup_project_has_its_last_backup_and_its_last_verified_restore_apart_and_fails_when_not_verified_within():
    backups = [{"id": "b1", "name": "files", "type": "BACKUP", "machines": [
        dict(machine("fs-1"), replicationInfo={"lastConsistencyDateTime": "2026-11-22T09:50:00+00:00"}),
        dict(machine("fs-2"), replicationInfo={"lastConsistencyDateTime": "2026-11-22T09:40:00+00:00"})]},
        {"id": "b2", "name": "mail", "type": "BACKUP", "machines": [machine("mx-1")]},
        {"id": "p1", "name": "prod", "type": "DR", "machines": [machine("web-1")]}]
    evidence = [{"name": "files", "last_verified": {"time": "2026-11-12T09:00:00+00:00", "sequence": 4, "runbook": "restore_test"}}]
    report = fleet_health(backups, NOW, rto_forecasts=evidence)
    jsonschema.validate(dict(report, generated=NOW), SCHEMA)
    projects = dict((project["name"], project) for project in report["projects"])
    assert projects["files"]["backup"] == {"last_backed_up": "2026-11-22T09:50:00.000000+00:00", "last_verified": "2026-11-12T09:00:00+00:00",
                                           "verified_days_ago": 10}
    assert projects["mail"]["backup"] == {"last_backed_up": None, "last_verified": None, "verified_days_ago": None}
    assert "backup" not in projects["prod"] and report["result"] == "passed"  # not checked unless asked
    report = fleet_health(backups, NOW, rto_forecasts=evidence, restore_verified_within_days=7)
    assert report["result"] == "failed" and report["failures"] == [
        "files: backups: restores last verified 10 days ago, not within 7 days (restore_test)",
        "mail: backups: a restore was never verified, not within 7 days (restore_test)"]
    assert [project["passed"] for project in report["projects"]] == [False, False, True]
    assert fleet_health(backups[:1], NOW, rto_forecasts=evidence, restore_verified_within_days=10)["result"] == "passed"
