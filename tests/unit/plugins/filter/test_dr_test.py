# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import jsonschema
import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.dr_test import dr_test_report, health_gate

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "dr_test", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)


def seen(name, state="continuous", lag=30, backlog=0):
    return {"id": name + "-id", "name": name, "replication_state": state, "lag_seconds": lag, "backlog_bytes": backlog}


def launched(name, point="2026-11-22T09:50:00+00:00"):
    return {"machine_id": name + "-id", "machine_name": name, "point_in_time_date_time": point,
            "replica": {"id": name + "-target", "machineCloudId": "i-" + name, "machineCloudState": "running",
                        "publicIps": ["203.0.113.9"], "pointInTime": name + "-point"}}


def record(**changes):
    """A DR test of web-1 and db-1 that passed: launch requested 10:00, job ended 10:04, checks at 10:06 and 10:07."""
    base = {
        "project": "production", "launch_type": "test", "point_in_time": "latest", "recovery_plan": None,
        "targets": {"rpo_seconds": 900, "rto_seconds": 600}, "machines": ["web-1", "db-1"], "excluded": ["old-1"],
        "started": "2026-11-22T09:59:00+00:00",
        "health": health_gate([seen("web-1"), seen("db-1")]),
        "launch": {"attempted": ["web-1", "db-1"], "launched": [launched("web-1"), launched("db-1", "2026-11-22T09:55:00+00:00")],
                   "failed_machines": [], "message": "",
                   "job": {"id": "job-1", "type": "TEST_LAUNCH", "status": "COMPLETED", "creationDateTime": "2026-11-22T10:00:00+00:00",
                           "endDateTime": "2026-11-22T10:04:00+00:00",
                           "log": [{"message": "db-1: conversion finished; starting the target machine."}]}},
        "checks": [{"machine": name, "name": check, "passed": True, "message": "ok"} for name in ("web-1", "db-1")
                   for check in ("running", "public address", "smoke")],
        "recovered": {"web-1": "2026-11-22T10:06:00+00:00", "db-1": "2026-11-22T10:07:30+00:00"},
        "cleanup": {"status": "passed", "removed_machines": ["web-1", "db-1"], "message": "terminated 2 target machines"},
    }
    base.update(changes)
    return base


def report_of(data):
    report = dict(dr_test_report(data), generated="2026-11-22T10:08:00Z")
    jsonschema.validate(report, SCHEMA)  # every report the tests make follows the documented schema
    return report


def by_name(report, machine):
    return dict((check["name"], check) for check in next(m for m in report["machines"] if m["name"] == machine)["checks"])


@pytest.mark.parametrize("kwargs,machine,reasons", [
    (dict(), seen("a"), []),
    (dict(), seen("a", state="lagging", lag=900), ["replication is lagging, not continuous"]),
    (dict(states=["continuous", "lagging"], max_lag=600), seen("a", state="lagging", lag=900), ["lag 900 s is over 600 s"]),
    (dict(max_lag=600, states=[]), seen("a", state="initial_sync", lag=None), ["no consistent point in time yet"]),
    (dict(max_lag="600", states=[]), seen("a", lag=601), ["lag 601 s is over 600 s"]),  # an extra variable is text
    (dict(no_backlog=True), seen("a", backlog=4096), ["backlog of 4096 bytes"]),
    (dict(no_backlog=False), seen("a", backlog=4096), []),
    (dict(max_lag=10, no_backlog=True), seen("a", state="stale", lag=60, backlog=1),
     ["replication is stale, not continuous", "lag 60 s is over 10 s", "backlog of 1 bytes"]),
])
def test_health_gate_gives_every_reason(kwargs, machine, reasons):
    verdict, = health_gate([machine], **kwargs)
    assert verdict["reasons"] == reasons
    assert verdict["passed"] is (not reasons)
    assert verdict["name"] == "a" and verdict["id"] == "a-id"


def test_health_gate_wants_the_list_of_machines():
    with pytest.raises(AnsibleFilterError, match="list of machines"):
        health_gate({"machines": []})


def test_a_run_that_passed():
    report = report_of(record())
    assert report["result"] == "passed" and report["failures"] == []
    assert report["schema"] == "replication.recovery.dr_test/v1"
    assert report["measures"] == {"rpo_seconds": 600.0, "rto_seconds": 450.0, "launch_job_seconds": 240.0}
    web, db = report["machines"]
    assert (web["rpo_seconds"], web["rto_seconds"]) == (600.0, 360.0)
    assert (db["rpo_seconds"], db["rto_seconds"]) == (300.0, 450.0)
    assert [check["name"] for check in web["checks"]] == ["health gate", "launch", "running", "public address", "smoke", "RPO", "RTO"]
    assert all(check["status"] == "passed" for check in web["checks"])
    assert web["passed"] and web["cleanup"] == "removed" and web["target"]["cloud_id"] == "i-web-1"
    assert web["point_in_time"] == {"id": "web-1-point", "date_time": "2026-11-22T09:50:00+00:00"}
    assert report["excluded"] == ["old-1"] and report["kept"] == []
    assert [check["name"] for check in report["checks"]] == ["launch job", "cleanup"]
    assert report["checks"][0]["message"] == "TEST_LAUNCH job-1 COMPLETED after 240.0 s"


def test_an_rpo_target_missed_fails_the_machine_and_the_run():
    report = report_of(record(targets={"rpo_seconds": 500, "rto_seconds": None}))
    assert report["result"] == "failed"
    assert report["failures"] == ["web-1: RPO: 600.0 s is over the target of 500 s"]
    assert by_name(report, "web-1")["RPO"]["status"] == "failed"
    assert by_name(report, "db-1")["RPO"]["status"] == "passed"
    assert by_name(report, "db-1")["RTO"]["message"] == "450.0 s (no target)"


def test_an_rto_target_missed():
    report = report_of(record(targets={"rpo_seconds": None, "rto_seconds": 400}))
    assert report["failures"] == ["db-1: RTO: 450.0 s is over the target of 400 s"]


@pytest.mark.parametrize("empty", [None, "", "None"])
def test_targets_older_ansible_templated_as_text_mean_none(empty):
    report = report_of(record(targets={"rpo_seconds": empty, "rto_seconds": "600"}))
    assert report["targets"] == {"rpo_seconds": None, "rto_seconds": 600}


def test_a_target_that_is_not_a_number():
    with pytest.raises(AnsibleFilterError, match="number of seconds"):
        dr_test_report(record(targets={"rpo_seconds": "soon"}))


def test_a_machine_that_failed_to_launch_is_named_with_its_log_lines():
    launch = record()["launch"]
    launch.update(launched=[launched("web-1")], failed_machines=["db-1"], message="Launch job job-1 FAILED for db-1")
    launch["job"].update(status="FAILED", log=[{"message": "web-1: target machine i-web-1 is running."},
                                               {"message": "db-1: conversion failed (simulated failure)."}])
    report = report_of(record(launch=launch, checks=[], recovered={},
                              failure={"phase": "launch", "task": "Fail when the launch failed", "message": "Launch job job-1 FAILED for db-1"}))
    assert report["result"] == "failed"
    assert report["failures"][0] == "launch: Launch job job-1 FAILED for db-1"
    assert "launch job: TEST_LAUNCH job-1 FAILED after 240.0 s" in report["failures"]
    assert "db-1: launch: db-1: conversion failed (simulated failure)." in report["failures"]
    web, db = report["machines"]
    unchecked = {"name": "RTO", "status": "skipped", "message": "its checks did not pass or did not run"}
    assert not web["passed"] and by_name(report, "web-1")["RTO"] == unchecked
    assert not db["passed"] and db["target"] is None and db["rpo_seconds"] is None
    assert by_name(report, "db-1")["RPO"]["status"] == "skipped"


def test_a_failed_user_check():
    checks = record()["checks"]
    checks[2] = dict(checks[2], passed=False, message="port 443 closed")
    recovered = {"db-1": "2026-11-22T10:07:30+00:00"}
    report = report_of(record(checks=checks, recovered=recovered))
    assert report["failures"] == ["web-1: smoke: port 443 closed"]
    assert [m["passed"] for m in report["machines"]] == [False, True]


def test_a_health_gate_that_stopped_the_run_launched_nothing():
    health = health_gate([seen("web-1"), seen("db-1", state="lagging", lag=4000)])
    report = report_of(record(health=health, launch={}, checks=[], recovered={}, cleanup={"status": "skipped", "message": "nothing was launched"},
                              failure={"phase": "preflight", "task": "Fail when the health gate stops the test", "message": "stopped"}))
    assert report["result"] == "failed" and report["job"] is None
    assert "db-1: health gate: replication is lagging, not continuous" in report["failures"]
    assert by_name(report, "web-1")["launch"] == {"name": "launch", "status": "skipped", "message": "not launched"}
    assert [m["cleanup"] for m in report["machines"]] == ["nothing to remove", "nothing to remove"]
    assert report["measures"] == {"rpo_seconds": None, "rto_seconds": None, "launch_job_seconds": None}


def test_kept_machines_are_reported():
    report = report_of(record(cleanup={"status": "skipped", "kept": ["web-1", "db-1"], "message": "kept on failure: web-1, db-1"},
                              targets={"rpo_seconds": 1, "rto_seconds": None}))
    assert report["kept"] == ["web-1", "db-1"]
    assert [m["cleanup"] for m in report["machines"]] == ["kept", "kept"]
    assert report["checks"][-1] == {"name": "cleanup", "status": "skipped", "message": "kept on failure: web-1, db-1"}


def test_a_failed_cleanup_fails_the_run():
    report = report_of(record(cleanup={"status": "failed", "message": "Cleanup job job-2 FAILED"}))
    assert report["failures"] == ["cleanup: Cleanup job job-2 FAILED"]
    assert [m["cleanup"] for m in report["machines"]] == ["not cleaned up", "not cleaned up"]


def test_no_machine_is_a_failure():
    report = report_of(record(machines=[], health=[], launch={}, checks=[], recovered={}, cleanup={}))
    assert report["failures"] == ["no machine took part in the test"]


def test_the_record_must_name_its_project():
    with pytest.raises(AnsibleFilterError, match="record of a DR test"):
        dr_test_report({"machines": []})
