# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report of a run from its record, its failure message, and the forms it is written in."""

import json
import os
from xml.etree import ElementTree

import jsonschema
import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import health_gate, service_view
from ansible_collections.replication.recovery.plugins.plugin_utils._report import (
    failure_message, plan_of, report_of, write, write_plan)
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import junit, markdown, plan_markdown

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "runbook", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)
SCHEMA_NAME = "replication.recovery.dr_test/v1"

REQUESTED = "2026-11-22T10:00:00+00:00"
T1 = "2026-11-22T10:04:00+00:00"
T2 = "2026-11-22T11:00:00+00:00"


def seen(name, state="continuous", lag=30):
    return {"id": name + "-id", "name": name, "replication_state": state, "lag_seconds": lag, "backlog_bytes": 0}


def target(name, created=T1, state="running", ips=("203.0.113.9",)):
    return {"id": name + "-target", "machineCloudId": "i-" + name, "machineCloudState": state, "publicIps": list(ips),
            "pointInTime": name + "-point", "cloudEndureCreationDateTime": created}


def launch_job(**changes):
    job = {"id": "job-1", "type": "TEST_LAUNCH", "status": "COMPLETED", "creationDateTime": REQUESTED, "endDateTime": T1,
           "lines": {}, "tail": []}
    job.update(changes)
    return job


def launched(names, wave=1, points=None):
    points = points or {}
    return dict((name, {"id": name + "-id", "wave": wave, "target": target(name),
                        "point_in_time": {"id": name + "-point", "date_time": points.get(name, "2026-11-22T09:50:00+00:00")}})
                for name in names)


def view_of(launched_machines, **kwargs):
    return service_view([{"machine_name": name, "machine_id": entry["id"], "target": entry["target"]}
                         for name, entry in launched_machines.items()], **kwargs)


def record(**changes):
    """A DR test of web-1 and db-1 that passed: launch requested 10:00, both up at 10:04 and the job ended then;
    the checks of web-1 took 2 minutes, those of db-1 3 minutes 30."""
    machines = launched(["web-1", "db-1"], points={"db-1": "2026-11-22T09:55:00+00:00"})
    base = {
        "runbook": "dr_test", "title": "DR test", "project": "production", "launch_type": "test", "point_in_time": "latest",
        "recovery_plan": None, "targets": {"rpo_seconds": 900, "rto_seconds": 600},
        "machines": [{"name": "web-1", "id": "web-1-id"}, {"name": "db-1", "id": "db-1-id"}], "excluded": ["old-1"],
        "settings": {"check_public_ip": True, "checks_tasks": "/checks/smoke.yml", "checks_name": "smoke", "boot_timeout": 900},
        "started": "2026-11-22T09:59:00+00:00",
        "health": dict((verdict["name"], verdict) for verdict in health_gate([seen("web-1"), seen("db-1")])),
        "waves": [{"machines": ["web-1", "db-1"], "status": "launched", "job": launch_job()}],
        "launched": machines, "failed_machines": {}, "view": view_of(machines, job_end=T1),
        "checked": {"web-1": {"began": "2026-11-22T11:00:00+00:00", "ended": "2026-11-22T11:02:00+00:00", "passed": True, "message": "ok"},
                    "db-1": {"began": "2026-11-22T11:00:10+00:00", "ended": "2026-11-22T11:03:40+00:00", "passed": True, "message": "ok"}},
        "earlier": {},
        "cleanup": {"status": "passed", "removed_machines": ["web-1", "db-1"], "message": "terminated 2 target machines"},
    }
    base.update(changes)
    return base


def report_from(data):
    report = report_of(data, SCHEMA_NAME, generated="2026-11-22T10:08:00Z")
    jsonschema.validate(report, SCHEMA)  # every report the tests make follows the documented schema
    return report


def by_name(report, machine):
    return dict((check["name"], check) for check in next(m for m in report["machines"] if m["name"] == machine)["checks"])


def test_a_run_that_passed():
    report = report_from(record())
    assert report["result"] == "passed" and report["failures"] == []
    assert report["schema"] == SCHEMA_NAME
    assert report["counts"] == {"machines": 2, "passed": 2, "failed": 0, "launched": 2, "stands": 0, "left_standing": 0}
    assert report["measures"] == {"rpo_seconds": 600.0, "rto_seconds": 450.0, "launch_job_seconds": 240.0}
    web, db = report["machines"]
    # RTO: up at 10:04 (4 min after the request) plus the machine's own checks, 2 min and 3 min 30.
    assert (web["rpo_seconds"], web["rto_seconds"]) == (600.0, 360.0)
    assert (db["rpo_seconds"], db["rto_seconds"]) == (300.0, 450.0)
    assert web["recovered"] == "2026-11-22T10:06:00.000000+00:00"
    assert [check["name"] for check in web["checks"]] == ["health gate", "launch", "running", "public address", "smoke", "RPO", "RTO"]
    assert all(check["status"] == "passed" for check in web["checks"])
    assert by_name(report, "web-1")["smoke"]["seconds"] == 120.0
    assert web["passed"] and web["cleanup"] == "removed" and web["target"]["cloud_id"] == "i-web-1" and web["wave"] == 1
    assert web["point_in_time"] == {"id": "web-1-point", "date_time": "2026-11-22T09:50:00+00:00"}
    assert report["excluded"] == ["old-1"] and report["kept"] == []
    assert [check["name"] for check in report["checks"]] == ["launch job", "cleanup"]
    assert report["checks"][0]["message"] == "TEST_LAUNCH job-1 COMPLETED after 240.0 s"
    assert report["waves"] == [{"number": 1, "machines": ["web-1", "db-1"], "status": "launched", "message": "", "adopted": False,
                                "job": "job-1", "jobs": ["job-1"]}]


def test_the_rto_does_not_depend_on_when_or_in_which_order_the_checks_ran():
    early = record()["checked"]
    late = {"web-1": dict(early["web-1"], began="2026-11-22T15:00:00+00:00", ended="2026-11-22T15:02:00+00:00"),
            "db-1": dict(early["db-1"], began="2026-11-22T09:00:00+00:00", ended="2026-11-22T09:03:30+00:00")}
    assert [m["rto_seconds"] for m in report_from(record(checked=late))["machines"]] == [360.0, 450.0]


def test_without_checks_of_the_users_the_rto_ends_when_the_machine_is_up():
    settings = dict(record()["settings"], checks_tasks=None)
    report = report_from(record(settings=settings, checked={}))
    assert [m["rto_seconds"] for m in report["machines"]] == [240.0, 240.0]
    assert [check["name"] for check in report["machines"][0]["checks"]] == ["health gate", "launch", "running", "public address", "RPO", "RTO"]


def test_in_waves_the_rto_runs_from_the_first_launch_request_and_the_rpo_from_the_machines_own():
    second = launched(["web-1"], wave=2, points={"web-1": "2026-11-22T10:20:00+00:00"})
    first = launched(["db-1"])
    for entry in second.values():
        entry["target"]["cloudEndureCreationDateTime"] = "2026-11-22T10:30:00+00:00"
    second_job = launch_job(id="job-2", creationDateTime="2026-11-22T10:25:00+00:00", endDateTime="2026-11-22T10:31:00+00:00")
    waves = [{"machines": ["db-1"], "status": "launched", "job": launch_job()}, {"machines": ["web-1"], "status": "launched", "job": second_job}]
    machines = dict(first, **second)
    report = report_from(record(waves=waves, launched=machines, view=view_of(machines, job_end=T1),
                                settings=dict(record()["settings"], checks_tasks=None), checked={}))
    web = next(m for m in report["machines"] if m["name"] == "web-1")
    assert web["wave"] == 2 and web["rpo_seconds"] == 300.0 and web["rto_seconds"] == 1800.0
    assert report["measures"]["launch_job_seconds"] == 1860.0  # from the first request to the last job's end
    assert [check["name"] for check in report["checks"]] == ["launch job, wave 1", "launch job, wave 2", "cleanup"]


def test_a_failed_wave_stops_the_later_ones_and_the_report_says_so():
    first = launched(["db-1"])
    waves = [{"machines": ["db-1"], "status": "launched", "job": launch_job()},
             {"machines": ["app-1"], "status": "failed", "job": launch_job(id="job-2", status="FAILED"), "message": "TEST_LAUNCH job-2 FAILED"},
             {"machines": ["web-1"], "status": "not launched", "message": "wave 2 failed: app-1 did not launch"}]
    machines = [{"name": name, "id": name + "-id"} for name in ("db-1", "app-1", "web-1")]
    report = report_from(record(waves=waves, machines=machines, launched=first, view=view_of(first, job_end=T1),
                                failed_machines={"app-1": "app-1: conversion failed (simulated failure)."},
                                health=dict((v["name"], v) for v in health_gate([seen("db-1"), seen("app-1"), seen("web-1")])),
                                checked={"db-1": record()["checked"]["db-1"]}))
    assert report["result"] == "failed"
    assert [wave["status"] for wave in report["waves"]] == ["launched", "failed", "not launched"]
    assert "wave 3: wave 2 failed: app-1 did not launch" in report["failures"]
    assert "app-1: launch: app-1: conversion failed (simulated failure)." in report["failures"]
    assert by_name(report, "web-1")["launch"] == {"name": "launch", "status": "skipped", "message": "wave 2 failed: app-1 did not launch"}
    assert [m["passed"] for m in report["machines"]] == [True, False, False]
    assert "| 3 | 1 | not launched: wave 2 failed: app-1 did not launch |" in markdown(report)


def test_an_adopted_wave_is_reported_as_the_earlier_runs():
    waves = [dict(record()["waves"][0], adopted=True)]
    report = report_from(record(waves=waves, earlier={"messages": ["wave 1: adopted the launch job job-1 of an earlier run, created ..."]}))
    assert report["checks"][0] == {"name": "earlier run", "status": "passed",
                                   "message": "wave 1: adopted the launch job job-1 of an earlier run, created ..."}
    assert report["checks"][1]["message"].endswith("(adopted from an earlier run)") and report["waves"][0]["adopted"] is True


def test_an_rpo_target_missed_fails_the_machine_and_the_run():
    report = report_from(record(targets={"rpo_seconds": 500, "rto_seconds": None}))
    assert report["result"] == "failed"
    assert report["failures"] == ["web-1: RPO: 600.0 s is over the target of 500 s"]
    assert by_name(report, "db-1")["RPO"]["status"] == "passed"
    assert by_name(report, "db-1")["RTO"]["message"] == "450.0 s (no target)"


def test_an_rto_target_missed():
    assert report_from(record(targets={"rpo_seconds": None, "rto_seconds": 400}))["failures"] == ["db-1: RTO: 450.0 s is over the target of 400 s"]


@pytest.mark.parametrize("empty", [None, "", "None", "null"])
def test_targets_given_as_text_that_says_none_mean_none(empty):
    assert report_from(record(targets={"rpo_seconds": empty, "rto_seconds": "600"}))["targets"] == {"rpo_seconds": None, "rto_seconds": 600}


def test_a_partial_launch_failure_is_partial():
    machines = launched(["web-1"])
    waves = [{"machines": ["web-1", "db-1"], "status": "failed", "job": launch_job(status="FAILED"), "message": "TEST_LAUNCH job-1 FAILED"}]
    report = report_from(record(waves=waves, launched=machines, view=view_of(machines, job_end=T1),
                                failed_machines={"db-1": "db-1: conversion failed (simulated failure)."},
                                checked={"web-1": record()["checked"]["web-1"]}))
    assert report["failures"] == ["launch job: TEST_LAUNCH job-1 FAILED after 240.0 s", "db-1: launch: db-1: conversion failed (simulated failure)."]
    web, db = report["machines"]
    assert web["passed"] and web["rto_seconds"] == 360.0  # launched, checked and measured as such
    assert not db["passed"] and db["target"] is None and db["rpo_seconds"] is None
    assert [check["name"] for check in db["checks"]] == ["health gate", "launch", "RPO", "RTO"]
    assert report["counts"] == {"machines": 2, "passed": 1, "failed": 1, "launched": 1, "stands": 0, "left_standing": 0}


def test_a_target_machine_that_does_not_run():
    machines = launched(["web-1", "db-1"])
    machines["web-1"]["target"]["machineCloudState"] = "stopped"
    report = report_from(record(launched=machines, view=view_of(machines, job_end=T1)))
    assert by_name(report, "web-1")["running"] == {"name": "running", "status": "failed", "message": "i-web-1 is stopped, not running, after 900 s"}
    assert "smoke" not in by_name(report, "web-1")  # nothing to check
    assert by_name(report, "web-1")["RTO"] == {"name": "RTO", "status": "skipped", "message": "not running"}


def test_a_target_machine_without_a_public_address():
    machines = launched(["web-1", "db-1"])
    machines["web-1"]["target"]["publicIps"] = []
    view = view_of(machines, job_end=T1)
    assert by_name(report_from(record(launched=machines, view=view)), "web-1")["public address"]["status"] == "failed"
    settings = dict(record()["settings"], check_public_ip=False)
    assert "public address" not in by_name(report_from(record(launched=machines, view=view, settings=settings)), "web-1")


def test_a_failed_user_check():
    checked = dict(record()["checked"], **{"web-1": {"began": T1, "ended": T2, "passed": False, "message": "port 443 closed"}})
    report = report_from(record(checked=checked))
    assert report["failures"] == ["web-1: smoke: port 443 closed"]
    assert [m["passed"] for m in report["machines"]] == [False, True]
    assert by_name(report, "web-1")["RTO"]["message"] == "its checks did not pass"


@pytest.mark.parametrize("result,message", [(None, "did not run"), ({"began": T1}, "started and did not finish (the host failed or was unreachable)")])
def test_user_checks_that_did_not_run_or_finish_fail(result, message):
    checked = {"db-1": record()["checked"]["db-1"]}
    if result is not None:
        checked["web-1"] = result
    assert by_name(report_from(record(checked=checked)), "web-1")["smoke"] == {"name": "smoke", "status": "failed", "message": message}


def test_a_health_gate_that_stopped_the_run_launched_nothing():
    health = dict((v["name"], v) for v in health_gate([seen("web-1"), seen("db-1", state="lagging", lag=4000)]))
    report = report_from(record(health=health, waves=[{"machines": ["web-1", "db-1"], "status": "pending"}], launched={}, view={},
                                checked={}, cleanup={"status": "skipped", "message": "nothing was launched"},
                                failure={"phase": "preflight", "message": "stopped"}))
    assert report["result"] == "failed" and report["job"] is None and report["launch_requested"] is None
    assert "db-1: health gate: replication is lagging, not continuous" in report["failures"]
    assert by_name(report, "web-1")["launch"] == {"name": "launch", "status": "skipped", "message": "not launched"}
    assert [m["cleanup"] for m in report["machines"]] == ["nothing to remove", "nothing to remove"]
    assert report["measures"] == {"rpo_seconds": None, "rto_seconds": None, "launch_job_seconds": None}


def test_a_run_that_could_not_sign_in_reports_why():
    report = report_from({"project": "production", "launch_type": "test", "point_in_time": "latest", "machines": [], "waves": [],
                          "failure": {"phase": "login", "message": "POST /login failed: HTTP 401"},
                          "cleanup": {"status": "skipped", "message": "nothing was launched"}})
    assert report["result"] == "failed"
    assert report["checks"][0] == {"name": "login", "status": "failed", "message": "POST /login failed: HTTP 401"}


def test_kept_machines_are_reported():
    report = report_from(record(cleanup={"status": "skipped", "kept": ["web-1", "db-1"], "message": "kept on failure: web-1, db-1"},
                                targets={"rpo_seconds": 1, "rto_seconds": None}))
    assert report["kept"] == ["web-1", "db-1"]
    assert [m["cleanup"] for m in report["machines"]] == ["kept", "kept"]
    assert report["checks"][-1] == {"name": "cleanup", "status": "skipped", "message": "kept on failure: web-1, db-1"}
    assert "Target machines kept: kept on failure: web-1, db-1." in markdown(report)


def test_a_failed_cleanup_fails_the_run():
    report = report_from(record(cleanup={"status": "failed", "message": "Cleanup job job-2 FAILED"}))
    assert report["failures"] == ["cleanup: Cleanup job job-2 FAILED"]
    assert [m["cleanup"] for m in report["machines"]] == ["not cleaned up", "not cleaned up"]


def test_no_machine_is_a_failure():
    report = report_from(record(machines=[], health={}, waves=[], launched={}, view={}, checked={}, cleanup={}))
    assert report["failures"] == ["no machine took part in the run"]


# -- the outcome: one word of the table, and whether running again is safe ------------------------------------


PRODUCTION = dict(kind="recovery", launch_type="recovery", runbook="failover", title="failover", on_failed_over="stand")


@pytest.mark.parametrize("changes, word, said_next", [
    ({}, "passed", None),
    (dict(failure={"phase": "preflight", "message": "Project 'prodction' was not found"}, waves=[], launched={}, view={}, checked={},
          cleanup={}), "refused", "Nothing was launched or changed: running the DR test again is safe"),
    (dict(failure={"phase": "launch", "message": "the launch of wave 2 failed"},
          waves=[{"machines": ["web-1", "db-1"], "status": "launched", "job": launch_job()}, {"machines": [], "status": "not launched"}]),
     "stopped", "What it launched was removed and proven gone: running the DR test again is safe - it begins anew."),
    (dict(checked={}), "failed", "running the DR test again is safe"),
    # Refused after a stopped run it takes up launched two machines: they stand, and a run again adopts them.
    (dict(PRODUCTION, failure={"phase": "preflight", "message": "The plan launches from points thinned out since"}, earlier={"launched": ["web-1", "db-1"]},
          waves=[{"machines": ["web-1", "db-1"], "status": "pending"}], launched={}, view={}, checked={}, cleanup={}), "refused",
     "This run launched and changed nothing, but 2 machines that the stopped run it takes up launched stand (db-1, web-1): running the "
     "failover again, once what it refused is mended, adopts them and launches only the rest."),
    (dict(waves=[{"machines": ["web-1", "db-1"], "status": "launched", "job": launch_job(), "adopted": True}]), "adopted", None),
    (dict(waves=[{"machines": ["web-1", "db-1"], "status": "stands"}], launched={}, view={}, checked={}, cleanup={}), "nothing done", None),
    (dict(PRODUCTION, cleanup={"status": "skipped", "kept": ["web-1", "db-1"], "message": "committed"}), "committed", None),
    (dict(PRODUCTION, roll_back=True), "rolled back", None),
    (dict(PRODUCTION, cleanup={"status": "skipped", "kept": ["web-1"], "message": "committed"},
          failure={"phase": "launch", "message": "the launch of wave 2 failed"},
          waves=[{"machines": ["web-1"], "status": "launched", "job": launch_job()}, {"machines": ["db-1"], "status": "not launched"}]),
     "stopped", "they stand, and it launches what was not launched (db-1), from the points in time this run pinned, once the cause"),
    (dict(PRODUCTION, runbook="failback", title="failback", on_failed_over="own", keeps_launched=True, gate={"name": "data-loss guard"},
          health={"web-1": dict(seen("web-1"), passed=False, forced=True, reasons=["lag 700 s is over 600 s"]),
                  "db-1": dict(seen("db-1"), passed=True, reasons=[])}, cleanup={"status": "skipped", "kept": ["web-1", "db-1"]}),
     "data loss accepted", None),
    (dict(PRODUCTION, runbook="failback", title="failback", on_failed_over="own", keeps_launched=True, gate={"name": "data-loss guard"},
          failback={"stage": "reversed"}, waves=[], launched={}, view={}, checked={}, cleanup={},
          failure={"phase": "preflight", "message": "The data-loss guard stopped the run; nothing was launched. Not ready (1 of 2)"}),
     "stopped", "wait until every machine named above has caught up, then run the failback again; or accept the data they have not sent "
                "yet with failback_accept_data_loss=true"),
    # A failback that refused to reverse (a machine not failed over) sent nothing: refused, not stopped...
    (dict(PRODUCTION, runbook="failback", title="failback", on_failed_over="own", keeps_launched=True, failback={"stage": None},
          waves=[], launched={}, view={}, checked={}, cleanup={},
          failure={"phase": "reverse", "message": "app-1 has no recovery machine: not failed over. Nothing was changed."}),
     "refused", "Nothing was launched or changed: running the failback again is safe"),
    # ... but one whose reverse was sent, and stopped without an answer, may have reversed the project.
    (dict(PRODUCTION, runbook="failback", title="failback", on_failed_over="own", keeps_launched=True, failback={"stage": None, "written": True},
          waves=[], launched={}, view={}, checked={}, cleanup={}, failure={"phase": "reverse", "message": "POST /reverseReplication: no answer"}),
     "stopped", "failback"),
])
def test_the_outcome_is_one_word_and_a_run_that_did_not_pass_says_what_running_it_again_does(changes, word, said_next):
    report = report_from(record(**changes))
    assert report["outcome"] == word
    if said_next is None:
        assert report["next"] is None
    else:
        assert said_next in report["next"]
        assert report["next"].count("..") == 0 and "None" not in report["next"]


def test_a_plan_that_would_stop_never_takes_the_plain_names_an_approved_plan_has(tmp_path):
    approved = plan_of(record(), "replication.recovery.dr_test.plan/v1", generated="2026-11-22T10:08:00Z")
    files = write_plan(dict(approved, began="2026-11-22T10:08:00Z"), str(tmp_path), "dr_test_production")
    assert files["newest"] and json.load(open(files["plain"][".plan.json"]))["would"] == "launch"
    refused = plan_of(record(failure={"phase": "preflight", "message": "Project 'prodction' was not found"}), "replication.recovery.dr_test.plan/v1")
    files = write_plan(dict(refused, began="2026-11-22T10:09:00Z"), str(tmp_path), "dr_test_production")
    assert not files["newest"] and json.load(open(files["own"][".plan.json"]))["would"] == "stop"
    assert json.load(open(files["plain"][".plan.json"]))["would"] == "launch"  # the approved plan's, still


# -- the failure message ------------------------------------------------------------------------


def test_a_failure_message_is_short_with_counts_and_the_worst_five():
    names = ["m-%03d" % number for number in range(200)]
    machines = launched(names)
    checked = dict((name, {"began": T1, "ended": T1, "passed": True}) for name in names)
    for number in (7, 8, 9, 10, 11, 12, 13):
        checked[names[number]] = {"began": T1, "ended": T2, "passed": False, "message": "port 443 closed " * 30}
    data = record(machines=[{"name": name, "id": name + "-id"} for name in names],
                  health=dict((v["name"], v) for v in health_gate([seen(name) for name in names])),
                  waves=[{"machines": names, "status": "launched", "job": launch_job()}], launched=machines,
                  view=view_of(machines, job_end=T1), checked=checked)
    report = report_from(data)
    message = failure_message(report, "/reports/dr_test_production.json")
    assert message.startswith("DR test of production: FAILED. 7 of 200 machines failed, the worst: m-007 (")
    assert " and 2 more. " in message and message.endswith(" Report: /reports/dr_test_production.json")
    assert "running the DR test again is safe" in message
    assert message.count("(smoke: port 443 closed") == 5
    assert len(message) < 1500
    assert len(report["failures"]) == 7 and len(report["failures"][0]) > 400  # the details stay in the report


def test_a_failure_message_names_what_failed_for_the_run():
    report = report_from(record(waves=[], launched={}, view={}, checked={}, health={}, machines=[],
                                failure={"phase": "login", "message": "POST /login failed: HTTP 401 unauthenticated"}))
    assert failure_message(report) == ("DR test of production: REFUSED. login: POST /login failed: HTTP 401 unauthenticated. Nothing was launched "
                                       "or changed: running the DR test again is safe, once what it refused is mended; it begins anew.")


def test_a_refusal_that_says_nothing_was_launched_says_it_once_and_keeps_the_runbooks_name_as_written():
    report = report_from(record(waves=[], launched={}, view={}, checked={}, health={}, machines=[],
                                failure={"phase": "preflight", "message": "Wave 2 names 'nope-*', which matches no machine. Nothing was launched."}))
    assert failure_message(report) == ("DR test of production: REFUSED. preflight: Wave 2 names 'nope-*', which matches no machine. Nothing was "
                                       "launched. Running the DR test again is safe, once what it refused is mended; it begins anew.")


# -- the forms --------------------------------------------------------------------------------------


def test_junit_has_a_suite_for_the_run_and_one_per_machine_with_a_case_per_check():
    checked = dict(record()["checked"], **{"web-1": {"began": T1, "ended": T2, "passed": False, "message": "<port> & \"443\""}})
    report = report_from(record(checked=checked))
    root = ElementTree.fromstring(junit(report))
    assert root.get("name") == "dr_test production"
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["dr_test.production", "dr_test.production.web-1", "dr_test.production.db-1"]
    assert int(root.get("tests")) == 2 + 7 + 7 and root.get("failures") == "1"
    failure = suites[1].find("testcase[@name='smoke']/failure")
    assert failure.get("message") == "<port> & \"443\"" and failure.text == "<port> & \"443\""


def test_each_run_writes_files_of_its_own_and_the_plain_names_are_the_newest_run_that_reached_the_service(tmp_path):
    directory = str(tmp_path / "reports")
    first = report_from(record(began="2026-11-25T03:12:00.000000+00:00"))
    files = write(first, directory, "dr_test_production")
    assert files["own"][".json"].endswith("dr_test_production.20261125T031200Z.json") and files["newest"]
    assert json.loads(open(files["own"][".json"]).read()) == first == json.loads(open(files["plain"][".json"]).read())
    assert first["run"] == {"began": "2026-11-25T03:12:00.000000+00:00", "files": "dr_test_production.20261125T031200Z", "reached": True}
    assert open(files["own"][".md"]).read().startswith("# DR test of production: PASSED")
    ElementTree.parse(files["own"][".junit.xml"])
    # Another run in the same second: files of its own, told apart.
    second = write(report_from(record(began="2026-11-25T03:12:00.500000+00:00")), directory, "dr_test_production")
    assert second["own"][".json"].endswith("dr_test_production.20261125T031200Z-2.json")
    # A later run that never reached the service writes its own files, and leaves the plain names to the newest that did.
    failed = dict(report_from(record(began="2026-11-25T04:00:00.000000+00:00", project_id=None)), result="failed")
    third = write(failed, directory, "dr_test_production", newest=False)
    assert not third["newest"] and json.loads(open(third["plain"][".json"]).read())["run"]["files"] == "dr_test_production.20261125T031200Z-2"
    # Into a directory without a report yet, a run that never reached the service writes the plain names (CI reads its JUnit).
    alone = write(dict(failed, run_began="2026-11-25T05:00:00.000000+00:00"), str(tmp_path / "alone"), "dr_test_production",
                  newest=False)
    assert alone["newest"] and json.loads(open(alone["plain"][".json"]).read())["run"]["reached"] is False
    # An older run that ends last does not take the plain names from a newer one.
    older = write(report_from(record(began="2026-11-25T02:00:00.000000+00:00")), directory, "dr_test_production")
    assert not older["newest"] and json.loads(open(files["plain"][".json"]).read())["run"]["began"] == "2026-11-25T03:12:00.500000+00:00"
    assert sorted(os.listdir(directory)) == sorted("dr_test_production%s%s" % (stem, suffix) for suffix in (".json", ".junit.xml", ".md")
                                                   for stem in ("", ".20261125T031200Z", ".20261125T031200Z-2", ".20261125T040000Z",
                                                                ".20261125T020000Z"))


def test_a_forced_gate_is_reported_and_fails_nobody():
    verdicts = health_gate([seen("web-1", state="stale", lag=7200), seen("db-1")])
    for verdict in verdicts:
        verdict["forced"] = not verdict["passed"]
    report = report_from(record(health=dict((verdict["name"], verdict) for verdict in verdicts), targets={}))
    assert report["result"] == "passed", report["failures"]
    assert by_name(report, "web-1")["health gate"] == {"name": "health gate", "status": "skipped",
                                                       "message": "launched anyway, as asked: replication is stale, not continuous"}


def test_a_committed_failover_keeps_its_machines_and_says_why():
    kept = {"status": "skipped", "kept": ["web-1", "db-1"], "message": "committed - fail back later: web-1, db-1"}
    report = report_from(record(runbook="failover", launch_type="recovery", cleanup=kept, targets={}))
    assert report["result"] == "passed" and report["kept"] == ["web-1", "db-1"] and report["cleanup"] == kept["message"]
    assert all(machine["cleanup"] == "kept" for machine in report["machines"])
    assert "Target machines kept: committed - fail back later: web-1, db-1." in markdown(report)


def test_the_plan_names_each_point_the_data_loss_it_implies_and_every_destructive_step_first():
    data = record(launch_type="recovery", point_in_time="before:2026-11-22T09:00:00Z", waves=[{"machines": ["db-1"]}, {"machines": ["web-1"]}],
                  pinned={"db-1": {"id": "p-db", "date_time": "2026-11-22T08:59:00+00:00"},
                          "web-1": {"id": "p-web", "date_time": "2026-11-22T08:29:00+00:00"}},
                  launched={}, view={}, checked={}, cleanup={}, earlier={"adopted": {}, "clean": [{"name": "old-1"}]},
                  blocking={"machines": [{"name": "web-1", "kind": "test"}], "clean": True})
    plan = plan_of(data, "replication.recovery.failover.plan/v1", generated="2026-11-22T10:08:00Z")
    machines = dict((machine["name"], machine) for machine in plan["machines"])
    assert plan["would"] == "launch" and plan["refused"] is None and [wave["machines"] for wave in plan["waves"]] == [["db-1"], ["web-1"]]
    assert machines["db-1"]["point_in_time"] == {"id": "p-db", "date_time": "2026-11-22T08:59:00+00:00"}
    assert machines["db-1"]["data_loss_seconds"] == 3600 and machines["db-1"]["wave"] == 1  # read at 09:59
    assert machines["web-1"]["data_loss_seconds"] == 5400
    assert plan["earlier"]["cleaned_first"] == ["old-1"] and plan["blocking"] == {"machines": [{"name": "web-1", "kind": "test"}], "cleaned_first": True}
    assert plan["first"] == ["Terminates first the DR test machines in the way: web-1",
                             "Terminates first the target machines an earlier run of this DR test left: old-1",
                             "The largest data-loss window is 1 h 30 min (web-1)"]
    text = plan_markdown(plan)
    assert "| db-1 | 1 | 2026-11-22T08:59:00Z (p-db) | 1 h 0 min | ready |" in text
    assert "## First, before anything else\n\n- Terminates first the DR test machines in the way: web-1." in text

    refused = plan_of(dict(data, failure={"phase": "preflight", "message": "The health gate stopped the run"}), "x")
    assert refused["would"] == "stop" and refused["refused"]["message"] == "The health gate stopped the run"
    assert "**It would stop before launching anything** (preflight): The health gate stopped the run" in plan_markdown(refused)


def test_a_plan_that_replaces_production_says_so_first_with_its_token_and_one_that_stands_launches_nothing():
    stands = {"web-1": {"name": "web-1", "kind": "recovery", "since": "2026-11-22T08:00:00+00:00", "replica": "r-web",
                        "point": {"id": "p-old", "date_time": "2026-11-22T07:50:00+00:00"}, "said": "failed over since 2026-11-22T08:00:00Z"}}
    replaced = {"db-1": {"name": "db-1", "kind": "recovery", "since": "2026-11-22T08:00:00+00:00", "replica": "r-db",
                         "target": {"machineCloudId": "i-db"}}}
    data = record(runbook="failover", launch_type="recovery", waves=[{"machines": ["web-1", "db-1"]}], launched={}, view={}, checked={}, cleanup={},
                  earlier={},
                  pinned={"db-1": {"id": "p-db", "date_time": "2026-11-22T09:50:00+00:00"}}, stands=stands, replaced=replaced,
                  replace={"machines": ["db-1"], "token": "ab12-cd34-ef56"})
    plan = plan_of(data, "replication.recovery.failover.plan/v1")
    assert plan["first"][0] == ("TERMINATES the recovery machine i-db of db-1, which runs production since 2026-11-22T08:00:00Z, and "
                                "launches a new one from the point in time of 2026-11-22T09:50:00Z (p-db): confirm with failover_confirm=ab12-cd34-ef56")
    assert plan["replace"] == {"machines": ["db-1"], "token": "ab12-cd34-ef56"} and plan["would"] == "launch"
    web = next(machine for machine in plan["machines"] if machine["name"] == "web-1")
    assert web["stands"] and web["data_loss_seconds"] == 600 and web["point_in_time"] == stands["web-1"]["point"]
    assert "**Confirmation token: `ab12-cd34-ef56`**" in plan_markdown(plan)
    nothing = plan_of(dict(data, replaced={}, replace={}, stands=dict(stands, **{"db-1": dict(replaced["db-1"], said="failed over")})), "x")
    assert nothing["would"] == "nothing" and nothing["replace"] is None


def test_a_refused_run_counts_and_names_what_the_stopped_run_it_takes_up_left_standing():
    report = report_from(record(**dict(PRODUCTION, failure={"phase": "preflight", "message": "refused"}, earlier={"launched": ["db-1"]},
                                waves=[{"machines": ["web-1", "db-1"], "status": "pending"}], launched={}, view={}, checked={}, cleanup={})))
    machines = dict((machine["name"], machine) for machine in report["machines"])
    assert report["counts"]["left_standing"] == 1 and report["counts"]["launched"] == 0
    assert machines["db-1"]["left_standing"] and not machines["web-1"]["left_standing"]
    launch = next(check for check in machines["db-1"]["checks"] if check["name"] == "launch")
    assert launch["message"].startswith("launched by the stopped run this one takes up")


def test_a_failbacks_plan_holds_what_binds_the_failback_given_it_and_no_other_plan_has_it():
    bound = dict(machines=["db-1", "web-1"], clean_recovery=False)
    assert plan_of(record(failback_plan=bound), "replication.recovery.failback.plan/v1")["failback"] == bound
    assert "failback" not in plan_of(record(), "replication.recovery.dr_test.plan/v1")
