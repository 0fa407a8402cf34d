# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import jsonschema
import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.dr_test import (
    dr_test_checked, dr_test_earlier_run, dr_test_failure_message, dr_test_hosts, dr_test_recorded, dr_test_report, dr_test_selection,
    dr_test_service_view, health_gate)

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "dr_test", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)

REQUESTED = "2026-11-22T10:00:00+00:00"


def seen(name, state="continuous", lag=30, backlog=0):
    return {"id": name + "-id", "name": name, "replication_state": state, "lag_seconds": lag, "backlog_bytes": backlog}


def launched(name, point="2026-11-22T09:50:00+00:00", created="2026-11-22T10:04:00+00:00", state="running", ips=("203.0.113.9",)):
    return {"machine_id": name + "-id", "machine_name": name, "point_in_time_date_time": point,
            "target_machine": {"id": name + "-target", "machineCloudId": "i-" + name, "machineCloudState": state,
                               "publicIps": list(ips), "pointInTime": name + "-point", "cloudEndureCreationDateTime": created}}


def record(**changes):
    """A DR test of web-1 and db-1 that passed: launch requested 10:00, both up at 10:04 and the job ended then;
    the checks of web-1 took 2 minutes, those of db-1 3 minutes 30."""
    job = {"id": "job-1", "type": "TEST_LAUNCH", "status": "COMPLETED", "creationDateTime": REQUESTED,
           "endDateTime": "2026-11-22T10:04:00+00:00", "log": [{"message": "db-1: conversion finished; starting the target machine."}]}
    entries = [launched("web-1"), launched("db-1", "2026-11-22T09:55:00+00:00")]
    base = {
        "project": "production", "launch_type": "test", "point_in_time": "latest", "recovery_plan": None,
        "targets": {"rpo_seconds": 900, "rto_seconds": 600}, "machines": ["web-1", "db-1"], "excluded": ["old-1"],
        "settings": {"check_public_ip": True, "checks_tasks": "/checks/smoke.yml", "checks_name": "smoke", "boot_timeout": 900},
        "started": "2026-11-22T09:59:00+00:00",
        "health": health_gate([seen("web-1"), seen("db-1")]),
        "launch": {"attempted": ["web-1", "db-1"], "launched": entries, "failed_machines": [], "message": "", "job": job},
        "service_view": dr_test_service_view(entries, job=job),
        "checked": {"web-1": {"began": "2026-11-22T11:00:00+00:00", "ended": "2026-11-22T11:02:00+00:00", "passed": True, "message": "ok"},
                    "db-1": {"began": "2026-11-22T11:00:10+00:00", "ended": "2026-11-22T11:03:40+00:00", "passed": True, "message": "ok"}},
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


# -- the health gate ------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,machine,reasons", [
    (dict(), seen("a"), []),
    (dict(), seen("a", state="lagging", lag=900), ["replication is lagging, not continuous"]),
    (dict(states=["continuous", "lagging"], max_lag=600), seen("a", state="lagging", lag=900), ["lag 900 s is over 600 s"]),
    (dict(states="continuous,lagging", max_lag="600"), seen("a", state="lagging", lag=900), ["lag 900 s is over 600 s"]),  # text
    (dict(max_lag=600, states=[]), seen("a", state="initial_sync", lag=None), ["no consistent point in time yet"]),
    (dict(max_lag="600", states=[]), seen("a", lag=601), ["lag 601 s is over 600 s"]),  # an extra variable is text
    (dict(no_backlog=True), seen("a", backlog=4096), ["backlog of 4096 bytes"]),
    (dict(no_backlog="true"), seen("a", backlog=4096), ["backlog of 4096 bytes"]),
    (dict(no_backlog="false"), seen("a", backlog=4096), []),
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


# -- which machines take part ---------------------------------------------------------------------


def machine(name, status="STARTED", replica=None, launched_at=None, kind="lastTestLaunchDateTime"):
    found = {"id": name + "-id", "name": name, "sourceProperties": {"name": name}, "replicationStatus": status, "lifeCycle": {}}
    if replica:
        found["replica"] = replica
        found["lifeCycle"][kind] = launched_at
    return found


def test_the_excluded_and_the_stopped_are_left_out():
    machines = [machine("web-1"), machine("web-2"), machine("db-1", status="STOPPED"), machine("app-1")]
    chosen = dr_test_selection(machines, exclude=["web-2", "app-1-id"])
    assert [m["name"] for m in chosen["machines"]] == ["web-1"]
    assert chosen["excluded"] == ["web-2", "db-1", "app-1"] and chosen["unknown"] == []


@pytest.mark.parametrize("exclude", ["web-2", " web-2 , ", "web-2\n", '["web-2"]'])
def test_exclusions_given_as_text(exclude):
    chosen = dr_test_selection([machine("web-1"), machine("web-2")], exclude=exclude)
    assert [m["name"] for m in chosen["machines"]] == ["web-1"] and chosen["excluded"] == ["web-2"]


def test_stopped_machines_named_take_part():
    chosen = dr_test_selection([machine("db-1", status="STOPPED")], named=True)
    assert [m["name"] for m in chosen["machines"]] == ["db-1"] and chosen["excluded"] == []


def test_an_exclusion_that_matches_nothing_is_unknown():
    assert dr_test_selection([machine("web-1")], exclude="web-9")["unknown"] == ["web-9"]


# -- what an earlier run left ---------------------------------------------------------------------


def job(job_id, created, machines, job_type="TEST_LAUNCH", status="COMPLETED", by="dr@example.com"):
    return {"id": job_id, "type": job_type, "status": status, "creationDateTime": created, "initiatedBy": by,
            "participatingMachines": [name + "-id" for name in machines]}


T0 = "2026-11-22T10:00:00+00:00"
T1 = "2026-11-22T10:04:00+00:00"
T2 = "2026-11-22T11:00:00+00:00"


def test_a_launch_of_ours_that_still_runs_is_the_earlier_run():
    machines = [machine("web-1"), machine("web-2")]
    found = dr_test_earlier_run(machines, [job("j1", T0, ["web-1", "web-2"], status="STARTED")], "dr@example.com")
    assert found["running"]["id"] == "j1" and found["running"]["earlier_run"] is True
    assert found["leftovers"] == []


@pytest.mark.parametrize("other", [
    job("j1", T0, ["web-1"], status="STARTED", by="someone@example.com"),           # somebody else's
    job("j1", T0, ["web-1"], status="STARTED", job_type="RECOVERY_LAUNCH"),         # another kind of launch
    job("j1", T0, ["web-1", "db-9"], status="STARTED"),                             # machines beyond the test's
    job("j1", T0, ["web-1"], status="PENDING", job_type="RECOVERY_PLAN_TEST"),      # a plan run, where the test launches
])
def test_a_running_job_that_is_not_the_earlier_runs(other):
    found = dr_test_earlier_run([machine("web-1"), machine("web-2")], [other], "dr@example.com")
    assert found["running"]["earlier_run"] is False


def test_the_earlier_runs_cleanup_that_still_runs_is_followed():
    found = dr_test_earlier_run([machine("web-1")], [job("j2", T2, ["web-1"], job_type="CLEANUP", status="STARTED")], "dr@example.com")
    assert found["running"]["earlier_run"] is True


def test_target_machines_are_traced_to_the_job_that_launched_them():
    machines = [machine("web-1", replica="r1", launched_at=T1), machine("web-2", replica="r2", launched_at=T2), machine("db-1")]
    jobs = [job("j-theirs", "2026-11-22T10:58:00+00:00", ["web-2"], by="someone@example.com"), job("j-ours", T0, ["web-1", "web-2"])]
    found = dr_test_earlier_run(machines, jobs, "dr@example.com")
    assert found["running"] is None
    assert found["leftovers"] == [
        {"name": "web-1", "id": "web-1-id", "replica": "r1", "job": "j-ours", "earlier_run": True},
        {"name": "web-2", "id": "web-2-id", "replica": "r2", "job": "j-theirs", "earlier_run": False},
    ]


def test_a_target_machine_older_than_the_jobs_read_is_nobodys():
    found = dr_test_earlier_run([machine("web-1", replica="r1", launched_at=T0)], [job("j1", T2, ["web-1"])], "dr@example.com")
    assert found["leftovers"][0]["job"] is None and found["leftovers"][0]["earlier_run"] is False


def test_target_machines_of_another_kind_are_not_leftovers():
    machines = [machine("web-1", replica="r1", launched_at=T1, kind="lastRecoveryLaunchDateTime")]
    assert dr_test_earlier_run(machines, [job("j1", T0, ["web-1"], job_type="RECOVERY_LAUNCH")], "dr@example.com")["leftovers"] == []


def test_a_plan_run_is_the_earlier_run_of_a_test_by_plan():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    jobs = [job("j1", T0, ["web-1"], job_type="RECOVERY_PLAN_TEST")]
    assert dr_test_earlier_run(machines, jobs, "dr@example.com", plan=True)["leftovers"][0]["earlier_run"] is True
    assert dr_test_earlier_run(machines, jobs, "dr@example.com", plan=False)["leftovers"][0]["earlier_run"] is False


def test_without_a_user_nothing_is_the_earlier_runs():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    assert dr_test_earlier_run(machines, [job("j1", T0, ["web-1"])], None)["leftovers"][0]["earlier_run"] is False


# -- the launched machines as the service sees them -------------------------------------------------


def test_a_running_target_machine_is_up_since_the_service_created_it():
    view = dr_test_service_view([launched("web-1", created="2026-11-22T10:03:10+00:00")], job={"endDateTime": T1})
    assert view["web-1"] == {"id": "web-1-id", "running": True, "up": "2026-11-22T10:03:10+00:00", "state": "running",
                             "cloud_id": "i-web-1", "target_id": "web-1-target", "public_ips": ["203.0.113.9"]}


def test_without_a_creation_time_a_machine_is_up_since_the_job_ended():
    entry = launched("web-1")
    del entry["target_machine"]["cloudEndureCreationDateTime"]
    assert dr_test_service_view([entry], job={"endDateTime": T1})["web-1"]["up"] == T1


def test_a_machine_that_runs_at_a_later_look_is_up_since_that_look():
    view = dr_test_service_view([launched("web-1"), launched("db-1", state="pending")], job={"endDateTime": T1})
    assert view["db-1"]["running"] is False and view["db-1"]["up"] is None
    later = [{"id": "db-1-id", "name": "db-1", "target_machine": {"machineCloudState": "running", "machineCloudId": "i-db-1", "publicIps": []}},
             {"id": "web-1-id", "name": "web-1", "target_machine": {"machineCloudState": "stopped"}}]
    view = dr_test_service_view(later, view=view, seen_at="2026-11-22T10:09:00+00:00")
    assert view["db-1"]["running"] is True and view["db-1"]["up"] == "2026-11-22T10:09:00+00:00"
    assert view["web-1"]["up"] == "2026-11-22T10:04:00+00:00"  # up already: a later look does not move it


# -- hosts ------------------------------------------------------------------------------------------


def test_launched_machines_become_hosts_named_after_project_and_machine():
    data = record(service_view=dr_test_service_view([launched("web-1"), launched("db-1", state="pending", ips=())], job={}))
    web, db = dr_test_hosts(data, checks="/checks/smoke.yml", checks_name="smoke", run_host="proj-a")
    assert web["name"] == "dr-test-production/web-1" and db["name"] == "dr-test-production/db-1"
    assert web["groups"] == ["dr_test_machines", "dr_test_machines_to_check"]
    assert db["groups"] == ["dr_test_machines"]  # it does not run: nothing to check
    assert web["ansible_host"] == "203.0.113.9" and "ansible_host" not in db
    assert web["dr_test_checks_tasks"] == "/checks/smoke.yml" and "dr_test_checks_tasks" not in db
    assert web["dr_test_run_host"] == "proj-a" and web["dr_test_source_id"] == "web-1-id"
    assert web["dr_test_target"]["machineCloudId"] == "i-web-1"


def test_without_checks_of_the_users_no_host_is_to_check():
    assert all(host["groups"] == ["g"] for host in dr_test_hosts(record(), group="g", checks=None))


def test_hosts_of_two_projects_do_not_collide():
    names = set()
    for project, machine_name in (("a-b", "c"), ("a", "b-c")):
        data = record(project=project, service_view=dr_test_service_view([launched(machine_name)], job={}))
        names.update(host["name"] for host in dr_test_hosts(data))
    assert len(names) == 2


def test_checks_are_collected_from_the_launched_hosts():
    hostvars = {"dr-test-p/web-1": {"dr_test_checked": {"web-1": {"passed": True}}}, "dr-test-p/db-1": {}}
    own = {"app-1": {"passed": False}}
    assert dr_test_checked(hostvars, [{"name": "dr-test-p/web-1"}, {"name": "dr-test-p/db-1"}, {"name": "gone"}], own=own) == {
        "app-1": {"passed": False}, "web-1": {"passed": True}}


# -- the report -------------------------------------------------------------------------------------


def test_a_run_that_passed():
    report = report_of(record())
    assert report["result"] == "passed" and report["failures"] == []
    assert report["schema"] == "replication.recovery.dr_test/v1"
    assert report["counts"] == {"machines": 2, "passed": 2, "failed": 0, "launched": 2}
    assert report["measures"] == {"rpo_seconds": 600.0, "rto_seconds": 450.0, "launch_job_seconds": 240.0}
    web, db = report["machines"]
    # RTO: up at 10:04 (4 min after the request) plus the machine's own checks, 2 min and 3 min 30.
    assert (web["rpo_seconds"], web["rto_seconds"]) == (600.0, 360.0)
    assert (db["rpo_seconds"], db["rto_seconds"]) == (300.0, 450.0)
    assert web["recovered"] == "2026-11-22T10:06:00+00:00"
    assert [check["name"] for check in web["checks"]] == ["health gate", "launch", "running", "public address", "smoke", "RPO", "RTO"]
    assert all(check["status"] == "passed" for check in web["checks"])
    assert by_name(report, "web-1")["smoke"]["seconds"] == 120.0
    assert web["passed"] and web["cleanup"] == "removed" and web["target"]["cloud_id"] == "i-web-1"
    assert web["point_in_time"] == {"id": "web-1-point", "date_time": "2026-11-22T09:50:00+00:00"}
    assert report["excluded"] == ["old-1"] and report["kept"] == []
    assert [check["name"] for check in report["checks"]] == ["launch job", "cleanup"]
    assert report["checks"][0]["message"] == "TEST_LAUNCH job-1 COMPLETED after 240.0 s"


def test_the_rto_does_not_depend_on_when_or_in_which_order_the_checks_ran():
    early = record()["checked"]
    late = {"web-1": dict(early["web-1"], began="2026-11-22T15:00:00+00:00", ended="2026-11-22T15:02:00+00:00"),
            "db-1": dict(early["db-1"], began="2026-11-22T09:00:00+00:00", ended="2026-11-22T09:03:30+00:00")}
    assert [m["rto_seconds"] for m in report_of(record(checked=late))["machines"]] == [360.0, 450.0]


def test_without_checks_of_the_users_the_rto_ends_when_the_machine_is_up():
    settings = dict(record()["settings"], checks_tasks=None)
    report = report_of(record(settings=settings, checked={}))
    assert [m["rto_seconds"] for m in report["machines"]] == [240.0, 240.0]
    assert [check["name"] for check in report["machines"][0]["checks"]] == ["health gate", "launch", "running", "public address", "RPO", "RTO"]


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


def test_a_partial_launch_failure_is_partial():
    launch = record()["launch"]
    entries = [launched("web-1")]
    launch.update(launched=entries, failed_machines=["db-1"], message="Launch job job-1 FAILED for db-1")
    log = [{"message": "web-1: target machine i-web-1 is running."}, {"message": "db-1: conversion failed (simulated failure)."}]
    launch["job"] = dict(launch["job"], status="FAILED", log=log)
    report = report_of(record(launch=launch, service_view=dr_test_service_view(entries, job=launch["job"]),
                              checked={"web-1": record()["checked"]["web-1"]}))
    assert report["result"] == "failed"
    assert report["failures"] == ["launch job: TEST_LAUNCH job-1 FAILED after 240.0 s", "db-1: launch: db-1: conversion failed (simulated failure)."]
    web, db = report["machines"]
    assert web["passed"] and web["rto_seconds"] == 360.0  # launched, checked and measured as such
    assert not db["passed"] and db["target"] is None and db["rpo_seconds"] is None
    assert [check["name"] for check in db["checks"]] == ["health gate", "launch", "RPO", "RTO"]
    assert by_name(report, "db-1")["RPO"]["status"] == "skipped"
    assert report["counts"] == {"machines": 2, "passed": 1, "failed": 1, "launched": 1}


def test_a_target_machine_that_does_not_run():
    view = dr_test_service_view([launched("web-1", state="stopped"), launched("db-1")], job={"endDateTime": T1})
    report = report_of(record(service_view=view))
    assert by_name(report, "web-1")["running"] == {"name": "running", "status": "failed",
                                                   "message": "i-web-1 is stopped, not running, after 900 s"}
    assert "smoke" not in by_name(report, "web-1")  # nothing to check
    assert by_name(report, "web-1")["RTO"] == {"name": "RTO", "status": "skipped", "message": "not running"}


def test_a_target_machine_without_a_public_address():
    view = dr_test_service_view([launched("web-1", ips=()), launched("db-1")], job={"endDateTime": T1})
    assert by_name(report_of(record(service_view=view)), "web-1")["public address"]["status"] == "failed"
    settings = dict(record()["settings"], check_public_ip=False)
    assert "public address" not in by_name(report_of(record(service_view=view, settings=settings)), "web-1")


def test_a_failed_user_check():
    checked = dict(record()["checked"], **{"web-1": {"began": T1, "ended": T2, "passed": False, "message": "port 443 closed"}})
    report = report_of(record(checked=checked))
    assert report["failures"] == ["web-1: smoke: port 443 closed"]
    assert [m["passed"] for m in report["machines"]] == [False, True]
    assert by_name(report, "web-1")["RTO"]["message"] == "its checks did not pass"


@pytest.mark.parametrize("result,message", [
    (None, "did not run"),
    ({"began": T1}, "started and did not finish (the host failed or was unreachable)"),
])
def test_user_checks_that_did_not_run_or_finish_fail(result, message):
    checked = {"db-1": record()["checked"]["db-1"]}
    if result is not None:
        checked["web-1"] = result
    report = report_of(record(checked=checked))
    assert by_name(report, "web-1")["smoke"] == {"name": "smoke", "status": "failed", "message": message}


def test_a_health_gate_that_stopped_the_run_launched_nothing():
    health = health_gate([seen("web-1"), seen("db-1", state="lagging", lag=4000)])
    report = report_of(record(health=health, launch={}, service_view={}, checked={},
                              cleanup={"status": "skipped", "message": "nothing was launched"},
                              failure={"phase": "preflight", "task": "Fail when the health gate stops the test", "message": "stopped"}))
    assert report["result"] == "failed" and report["job"] is None
    assert "db-1: health gate: replication is lagging, not continuous" in report["failures"]
    assert by_name(report, "web-1")["launch"] == {"name": "launch", "status": "skipped", "message": "not launched"}
    assert [m["cleanup"] for m in report["machines"]] == ["nothing to remove", "nothing to remove"]
    assert report["measures"] == {"rpo_seconds": None, "rto_seconds": None, "launch_job_seconds": None}


def test_a_run_that_could_not_log_in_reports_why():
    report = report_of({"project": "production", "launch_type": "test", "point_in_time": "latest", "machines": [],
                        "failure": {"phase": "login", "task": "Log in", "message": "POST /login failed: HTTP 401"},
                        "cleanup": {"status": "skipped", "message": "nothing was launched"}})
    assert report["result"] == "failed"
    assert report["checks"][0] == {"name": "login", "status": "failed", "message": "POST /login failed: HTTP 401"}


def test_an_earlier_run_cleaned_up_is_reported():
    report = report_of(record(resumed={"job": "job-0", "removed_machines": ["web-1"], "message": "cleaned up ... of web-1"}))
    assert report["checks"][0] == {"name": "earlier run", "status": "passed", "message": "cleaned up ... of web-1"}


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
    report = report_of(record(machines=[], health=[], launch={}, service_view={}, checked={}, cleanup={}))
    assert report["failures"] == ["no machine took part in the test"]


def test_the_record_must_name_its_project():
    with pytest.raises(AnsibleFilterError, match="record of a DR test"):
        dr_test_report({"machines": []})


# -- the failure message ------------------------------------------------------------------------


def test_a_failure_message_is_short_with_counts_and_the_worst_five():
    names = ["m-%03d" % number for number in range(200)]
    entries = [launched(name) for name in names]
    view = dr_test_service_view(entries, job=record()["launch"]["job"])
    checked = dict((name, {"began": T1, "ended": T1, "passed": True}) for name in names)
    for number in (7, 8, 9, 10, 11, 12, 13):
        checked[names[number]] = {"began": T1, "ended": T2, "passed": False, "message": "port 443 closed " * 30}
    data = record(machines=names, health=health_gate([seen(name) for name in names]),
                  launch=dict(record()["launch"], attempted=names, launched=entries), service_view=view, checked=checked)
    report = report_of(data)
    message = dr_test_failure_message(report, "/reports/dr_test_production.json")
    assert message.startswith("The DR test of production failed. 7 of 200 machines failed, the worst: m-007 (")
    assert message.endswith(" and 2 more. Report: /reports/dr_test_production.json")
    assert message.count("(smoke: port 443 closed") == 5
    assert len(message) < 1500
    assert len(report["failures"]) == 7 and len(report["failures"][0]) > 400  # the details stay in the report


def test_a_failure_message_names_what_failed_for_the_run():
    report = report_of(record(launch={}, service_view={}, checked={}, health=[], machines=[],
                              failure={"phase": "login", "task": "Log in", "message": "POST /login failed: HTTP 401 unauthenticated"}))
    assert dr_test_failure_message(report) == "The DR test of production failed. login: POST /login failed: HTTP 401 unauthenticated."


# -- the run record, built in one place ------------------------------------------------------

def test_the_record_follows_a_run_step_by_step():
    view = {"project": {"id": "p-id"}, "service_time": T0, "machines": [machine("web-1"), machine("db-1")]}
    record = dr_test_recorded({"machines": []}, "read", view=view)
    selected = dr_test_selection(view["machines"], exclude="db-1")
    record = dr_test_recorded(record, "preflight", view=view, selected=selected, gate={"max_lag": None})
    assert record["project_id"] == "p-id" and record["started"] == T0
    assert record["machines"] == ["web-1"] and record["excluded"] == ["db-1"] and record["health"][0]["name"] == "web-1"
    record = dr_test_recorded(record, "launch")
    record = dr_test_recorded(record, "started", started={"job": {"id": "j1"}, "would_launch": []})
    assert record["launch"] == {"attempted": ["web-1"], "job": {"id": "j1"}}
    record = dr_test_recorded(record, "launched", outcome={"job": {"id": "j1", "endDateTime": T1}, "launched": [launched("web-1")]},
                              followed=None)
    assert record["launch"]["launched"][0]["machine_name"] == "web-1" and record["launch"]["failed_machines"] == []
    record = dr_test_recorded(record, "looked")
    assert record["service_view"]["web-1"]["running"] is True
    record = dr_test_recorded(record, "cleanup", status="passed", removed=["web-1"])
    assert record["cleanup"] == {"status": "passed", "removed_machines": ["web-1"], "message": "terminated 1 target machines: web-1"}


def test_a_recovery_plan_records_the_machines_of_its_steps_and_check_mode_what_it_would_launch():
    record = dr_test_recorded({"machines": ["web-1", "db-1"], "launch": {"attempted": ["web-1", "db-1"]}}, "launched",
                              outcome={"steps": [{"name": "db", "machines": [launched("db-1")]}, {"name": "web", "machines": []}],
                                       "msg": "Recovery plan 'tiers' FAILED", "failed_machines": ["web-1"]},
                              followed={"id": "j2"}, plan=True)
    assert [entry["machine_name"] for entry in record["launch"]["launched"]] == ["db-1"]
    assert record["launch"]["job"] == {"id": "j2"} and record["launch"]["failed_machines"] == ["web-1"]
    predicted = dr_test_recorded({"machines": ["web-1"]}, "started", started={"would_launch": ["web-1"], "changed": True})
    assert predicted["predicted"] == {"would_launch": ["web-1"]} and "launch" not in predicted


def test_what_a_resumed_run_cleaned_up_kept_machines_and_failures_are_recorded():
    record = dr_test_recorded({}, "resumed", cleaned={"job": {"id": "j0"}, "removed_machines": ["web-1"]}, check_mode=True)
    message = "would clean up the target machines an earlier run left, of web-1"
    assert record["resumed"] == {"job": "j0", "removed_machines": ["web-1"], "message": message}
    assert dr_test_recorded({}, "cleanup", status="skipped", kept=["web-1"])["cleanup"]["message"] == "kept on failure: web-1"
    failure = dr_test_recorded({}, "failure", phase="launch", task="Launch the machines", message="HTTP 503")["failure"]
    assert failure == {"phase": "launch", "task": "Launch the machines", "message": "HTTP 503"}
    with pytest.raises(AnsibleFilterError, match="step must be one of"):
        dr_test_recorded({}, "landed")
    with pytest.raises(AnsibleFilterError, match="dr_test_recorded\\('read'\\)"):
        dr_test_recorded({}, "read")
