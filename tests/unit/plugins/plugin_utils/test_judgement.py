# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What the runbook steps decide: the machines and waves of a run, the health gate, what an earlier
run left (and what this run adopts), what the service shows of launched machines, their hosts, and
whether a wave failed."""

import re

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import (
    Refused, blocking_machines, earlier_run, health_gate, resumed_waves, service_view, take_part, wave_failure)
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_groups
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import Counted

T0 = "2026-11-22T10:00:00+00:00"
T1 = "2026-11-22T10:04:00+00:00"
T2 = "2026-11-22T11:00:00+00:00"
T3 = "2026-11-22T11:30:00+00:00"
USER = "dr@example.com"


def seen(name, state="continuous", lag=30, backlog=0):
    return {"id": name + "-id", "name": name, "replication_state": state, "lag_seconds": lag, "backlog_bytes": backlog}


def machine(name, status="STARTED", replica=None, launched_at=None, kind="lastTestLaunchDateTime"):
    found = {"id": name + "-id", "name": name, "sourceProperties": {"name": name}, "replicationStatus": status, "lifeCycle": {}}
    if replica:
        found["replica"] = replica
        found["lifeCycle"][kind] = launched_at
    return found


def job(job_id, created, machines, job_type="TEST_LAUNCH", status="COMPLETED", by=USER, ended=None):
    found = {"id": job_id, "type": job_type, "status": status, "creationDateTime": created, "initiatedBy": by,
             "participatingMachines": [name + "-id" for name in machines]}
    if ended:
        found["endDateTime"] = ended
    return found


def target(name, state="running", created=T1, ips=("203.0.113.9",)):
    return {"id": name + "-target", "machineCloudId": "i-" + name, "machineCloudState": state, "publicIps": list(ips),
            "pointInTime": name + "-point", "cloudEndureCreationDateTime": created}


def launched(name, **kwargs):
    return {"machine_id": name + "-id", "machine_name": name, "target_machine": target(name, **kwargs)}


# -- the health gate ------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,machine_seen,reasons", [
    (dict(), seen("a"), []),
    (dict(), seen("a", state="lagging", lag=900), ["replication is lagging, not continuous"]),
    (dict(states=["continuous", "lagging"], max_lag=600), seen("a", state="lagging", lag=900), ["lag 900 s is over 600 s"]),
    (dict(states="continuous,lagging", max_lag="600"), seen("a", state="lagging", lag=900), ["lag 900 s is over 600 s"]),  # text
    (dict(max_lag=600, states=[]), seen("a", state="initial_sync", lag=None), ["no consistent point in time yet"]),
    (dict(max_lag="null", states=[]), seen("a", lag=6001), []),  # a survey's empty answer: no limit
    (dict(no_backlog=True), seen("a", backlog=4096), ["backlog of 4096 bytes"]),
    (dict(no_backlog="yes"), seen("a", backlog=4096), ["backlog of 4096 bytes"]),
    (dict(no_backlog="false"), seen("a", backlog=4096), []),
    (dict(max_lag=10, no_backlog=True), seen("a", state="stale", lag=60, backlog=1),
     ["replication is stale, not continuous", "lag 60 s is over 10 s", "backlog of 1 bytes"]),
])
def test_health_gate_gives_every_reason(kwargs, machine_seen, reasons):
    verdict, = health_gate([machine_seen], **kwargs)
    assert verdict["reasons"] == reasons
    assert verdict["passed"] is (not reasons)
    assert verdict["name"] == "a" and verdict["id"] == "a-id"


@pytest.mark.parametrize("kwargs,message", [(dict(max_lag="soon"), "must be a number, not 'soon'"),
                                            (dict(no_backlog="maybe"), "must be true or false, not 'maybe'")])
def test_health_gate_refuses_what_is_no_number_or_flag(kwargs, message):
    with pytest.raises(ValueError, match=message):
        health_gate([seen("a")], **kwargs)


# -- which machines take part, in which waves -------------------------------------------------------


def names(chosen):
    return [m["name"] for m in chosen["machines"]]


def test_all_machines_but_the_stopped_and_the_excluded():
    machines = [machine("web-1"), machine("web-2"), machine("db-1", status="STOPPED"), machine("app-1")]
    chosen = take_part(machines, exclude=["web-2", "app-1-id"])
    assert names(chosen) == ["web-1"] and chosen["waves"] == [["web-1"]]
    assert chosen["excluded"] == ["web-2", "app-1", "db-1"]


def test_a_thousand_machines_named_in_waves_and_excluded_cost_a_few_passes_over_them_not_one_each():
    machines = [Counted(machine("m-%04d" % number)) for number in range(1000)]
    Counted.reads = 0
    chosen = take_part(machines, waves=[["m-%04d" % number for number in range(0, 1000, 2)], ["m-%04d-id" % number for number in range(1, 1000, 2)]],
                       exclude=["m-%04d" % number for number in range(0, 1000, 10)])
    assert [len(wave) for wave in chosen["waves"]] == [400, 500] and len(chosen["excluded"]) == 100
    assert Counted.reads <= 10 * len(machines)


@pytest.mark.parametrize("exclude", ["web-2", " web-2 , ", "web-2\n", '["web-2"]', "web-2*"])
def test_exclusions_given_as_text_or_patterns(exclude):
    chosen = take_part([machine("web-1"), machine("web-2")], exclude=exclude)
    assert names(chosen) == ["web-1"] and chosen["excluded"] == ["web-2"]


def test_stopped_machines_named_take_part():
    chosen = take_part([machine("db-1", status="STOPPED"), machine("web-1")], named="db-1")
    assert names(chosen) == ["db-1"] and chosen["excluded"] == []


@pytest.mark.parametrize("kwargs,message", [
    (dict(exclude="web-9"), "The machines to exclude name web-9, which is not among the machines of the run"),
    (dict(named=["web-9"]), "The run names 'web-9', which matches no machine of the project. Known: web-1, web-2"),
    (dict(waves=[["web-1"], ["db-*"]]), "Wave 2 names 'db-*', which matches no machine"),
    (dict(waves=[["web-*"], ["web-2"]]), "web-2 is in wave 1 and in wave 2"),
    (dict(waves="web-1", named=["web-1"]), "Waves name their own machines"),
])
def test_what_cannot_be_a_run_is_refused(kwargs, message):
    with pytest.raises(Refused, match=re.escape(message)):
        take_part([machine("web-1"), machine("web-2")], **kwargs)


def test_a_name_two_machines_share_is_refused_with_their_ids():
    twins = [machine("web-1"), dict(machine("web-1"), id="web-1-other")]
    with pytest.raises(Refused, match="ambiguous: 2 machines have it; give the ID"):
        take_part(twins, named=["web-1"])
    assert names(take_part(twins, named=["web-1-other"])) == ["web-1"]


def test_waves_by_names_and_patterns_in_order_and_the_stopped_left_out_of_patterns():
    machines = [machine("web-1"), machine("web-2"), machine("app-1"), machine("db-1"), machine("db-2", status="STOPPED"),
                machine("db-3", status="STOPPED")]
    chosen = take_part(machines, waves=[["db-*", "db-3"], ["app-1"], ["web-*"]])
    assert chosen["waves"] == [["db-1", "db-3"], ["app-1"], ["web-1", "web-2"]]
    assert names(chosen) == ["db-1", "db-3", "app-1", "web-1", "web-2"]
    assert chosen["excluded"] == ["db-2"]  # a pattern does not name a stopped machine; db-3, named, takes part
    assert chosen["in_no_wave"] == []


def test_the_machines_no_wave_names_are_said_but_the_stopped_and_a_run_without_waves_have_none():
    machines = [machine("web-1"), machine("app-1"), machine("app-2", status="STOPPED"), machine("db-1")]
    assert take_part(machines, waves=[["db-*"], ["web-1"]])["in_no_wave"] == ["app-1"]
    assert take_part(machines, named=["web-1"])["in_no_wave"] == []  # machines named one by one: asked for exactly
    assert take_part(machines)["in_no_wave"] == []


def test_an_excluded_machine_leaves_its_wave():
    chosen = take_part([machine("web-1"), machine("db-1")], waves=[["db-1"], ["web-1"]], exclude="db-1")
    assert chosen["waves"] == [[], ["web-1"]]


@pytest.mark.parametrize("text,waves", [
    ("db-*; app-1, app-2; web-*", [["db-*"], ["app-1", "app-2"], ["web-*"]]),
    ("db-*\napp-*\n", [["db-*"], ["app-*"]]),
    ('[["db-1"], ["web-1", "web-2"]]', [["db-1"], ["web-1", "web-2"]]),
    (["db-1,db-2", ["web-1"]], [["db-1", "db-2"], ["web-1"]]),
    ("", []), (None, []), ([], []),
])
def test_waves_given_as_text(text, waves):
    assert parse_groups(text) == waves


def test_a_recovery_plans_machines_are_named():
    chosen = take_part([machine("web-1"), machine("db-1", status="STOPPED"), machine("app-1")], plan=["db-1", "web-1"])
    assert names(chosen) == ["db-1", "web-1"] and chosen["excluded"] == []


# -- what an earlier run left ---------------------------------------------------------------------


def earlier(machines, jobs, **kwargs):
    waves = kwargs.pop("waves", [[m["id"] for m in machines]])
    return earlier_run(machines, jobs, USER, waves=waves, **kwargs)


def test_nothing_left_nothing_to_do():
    found = earlier([machine("web-1")], [job("j0", T0, ["web-1"], job_type="CLEANUP")])
    assert found == {"running": None, "running_is": None, "adopted": {}, "launches": [], "clean": [], "foreign": [], "ours": []}


def test_a_launch_of_ours_that_still_runs_is_adopted():
    machines = [machine("web-1"), machine("web-2")]
    found = earlier(machines, [job("j1", T0, ["web-1", "web-2"], status="STARTED")])
    assert found["running_is"] == "launch" and found["adopted"][0][0]["id"] == "j1"


def test_machines_an_earlier_run_launched_and_did_not_clean_up_are_adopted():
    machines = [machine("web-1", replica="r1", launched_at=T1), machine("web-2", replica="r2", launched_at=T1)]
    found = earlier(machines, [job("j1", T0, ["web-1", "web-2"])])
    assert found["adopted"][0][0]["id"] == "j1" and found["clean"] == [] and [left["replica"] for left in found["ours"]] == ["r1", "r2"]


def test_a_machine_launched_after_a_launch_of_ours_ended_is_not_traced_to_it():
    # Launched at T2 by a job the run did not read: someone else's, not the one of ours that ended at T1.
    machines = [machine("web-1", replica="r1", launched_at=T2)]
    found = earlier(machines, [job("j1", T0, ["web-1"], ended=T1)])
    assert found["adopted"] == {} and found["ours"] == [] and [left["name"] for left in found["foreign"]] == ["web-1"]
    found = earlier([machine("web-1", replica="r1", launched_at=T1)], [job("j1", T0, ["web-1"], ended=T1)])
    assert found["adopted"][0][0]["id"] == "j1"


def test_adopting_can_be_turned_off():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    found = earlier(machines, [job("j1", T0, ["web-1"])], adopt="false")
    assert found["adopted"] == {} and [left["replica"] for left in found["clean"]] == ["r1"]


def test_once_its_cleanup_began_an_earlier_runs_machines_are_cleaned_up_not_adopted():
    machines = [machine("web-1", replica="r1", launched_at=T1), machine("web-2")]
    jobs = [job("j2", T2, ["web-1", "web-2"], job_type="CLEANUP", status="STARTED"), job("j1", T0, ["web-1", "web-2"])]
    found = earlier(machines, jobs)
    assert found["running_is"] == "cleanup" and found["adopted"] == {}
    assert found["clean"] == [{"name": "web-1", "id": "web-1-id", "replica": "r1", "job": jobs[1], "ours": True}]


def test_waves_are_adopted_in_order_up_to_the_first_that_was_not_launched():
    machines = [machine("db-1", replica="r1", launched_at=T1), machine("app-1", replica="r2", launched_at=T2), machine("web-1")]
    jobs = [job("j2", "2026-11-22T10:59:00+00:00", ["app-1"], status="STARTED"), job("j1", T0, ["db-1"])]
    waves = [["db-1-id"], ["app-1-id"], ["web-1-id"]]
    found = earlier(machines, jobs, waves=waves)
    assert sorted(found["adopted"]) == [0, 1] and found["adopted"][1][0]["id"] == "j2"
    # A later wave's launch without the first's is not adopted: its machines are cleaned up.
    found = earlier(machines, [job("j2", "2026-11-22T10:59:00+00:00", ["app-1"])], waves=waves)
    assert found["adopted"] == {} and [left["name"] for left in found["clean"]] == ["app-1"]


def test_a_launch_for_other_machines_than_a_waves_is_not_adopted():
    machines = [machine("web-1", replica="r1", launched_at=T1), machine("web-2")]
    found = earlier(machines, [job("j1", T0, ["web-1"])])  # the run is web-1 and web-2
    assert found["adopted"] == {} and [left["name"] for left in found["clean"]] == ["web-1"]


@pytest.mark.parametrize("other", [
    job("j1", T0, ["web-1"], status="STARTED", by="someone@example.com"),           # somebody else's
    job("j1", T0, ["web-1"], status="STARTED", job_type="RECOVERY_LAUNCH"),         # another kind of launch
    job("j1", T0, ["web-1", "db-9"], status="STARTED"),                             # machines beyond the run's
    job("j1", T0, ["web-1"], status="PENDING", job_type="RECOVERY_PLAN_TEST"),      # a plan run, where the run launches
])
def test_a_running_job_that_is_not_an_earlier_runs(other):
    found = earlier([machine("web-1"), machine("web-2")], [other])
    assert found["running_is"] == "other" and found["adopted"] == {}


def test_target_machines_are_traced_to_the_job_that_launched_them():
    machines = [machine("web-1", replica="r1", launched_at=T1), machine("web-2", replica="r2", launched_at=T2), machine("db-1")]
    jobs = [job("j-theirs", "2026-11-22T10:58:00+00:00", ["web-2"], by="someone@example.com"), job("j-ours", T0, ["web-1", "web-2"])]
    found = earlier(machines, jobs)
    assert [left["name"] for left in found["ours"]] == ["web-1"] and [left["name"] for left in found["foreign"]] == ["web-2"]


def test_a_target_machine_older_than_the_jobs_read_is_nobodys():
    found = earlier([machine("web-1", replica="r1", launched_at=T0)], [job("j1", T2, ["web-1"])])
    assert found["foreign"][0]["job"] is None and found["ours"] == []


def test_target_machines_of_another_kind_are_not_leftovers():
    machines = [machine("web-1", replica="r1", launched_at=T1, kind="lastRecoveryLaunchDateTime")]
    found = earlier(machines, [job("j1", T0, ["web-1"], job_type="RECOVERY_LAUNCH")])
    assert found["ours"] == found["foreign"] == []


def test_a_plan_run_is_the_earlier_run_of_a_run_by_plan():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    jobs = [job("j1", T0, ["web-1"], job_type="RECOVERY_PLAN_TEST")]
    assert earlier(machines, jobs, plan=True)["adopted"][0][0]["id"] == "j1"
    assert earlier(machines, jobs, plan=False)["foreign"][0]["name"] == "web-1"


def test_a_debug_launch_is_a_test_launch():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    assert earlier(machines, [job("j1", T0, ["web-1"])], launch_type="debug")["adopted"][0][0]["id"] == "j1"


def test_without_a_user_nothing_is_an_earlier_runs():
    machines = [machine("web-1", replica="r1", launched_at=T1)]
    assert earlier_run(machines, [job("j1", T0, ["web-1"])], None, waves=[["web-1-id"]])["foreign"][0]["name"] == "web-1"


def test_a_runbook_that_keeps_what_it_launches_adopts_it_after_any_cleanup_and_never_cleans_it_up():
    # A failback: its cutover machines, then a cleanup of the same machines (their recovery machines).
    machines = [machine("web-1", replica="r1", launched_at=T1, kind="lastCutoverDateTime")]
    jobs = [job("j2", T2, ["web-1"], job_type="CLEANUP"), job("j1", T0, ["web-1"], job_type="CUTOVER_LAUNCH")]
    assert earlier(machines, jobs, launch_type="cutover")["clean"][0]["replica"] == "r1"  # a DR test's rule
    found = earlier(machines, jobs, launch_type="cutover", keeps=True)
    assert found["adopted"][0][0]["id"] == "j1" and found["clean"] == [] and found["foreign"] == []
    # Not adopted (the run is web-1 and web-2): never cleaned up, refused as someone else's would be.
    found = earlier(machines + [machine("web-2")], jobs, launch_type="cutover", keeps=True)
    assert found["adopted"] == {} and found["clean"] == [] and [left["name"] for left in found["foreign"]] == ["web-1"]


def test_a_failbacks_cutover_launch_still_running_is_adopted_though_its_machines_still_have_their_recovery_machines():
    # A failback killed while its cutover launch runs, run again before the job ends: the machines' target machines are
    # still the recovery machines it replaces (spare, the failback's own) - the running launch is adopted, never sent
    # again (it was, when the job had not ended by the rerun's read: a second cutover launch of production).
    machines = [machine(name, replica=name + "-recovery", launched_at=T0, kind="lastRecoveryLaunchDateTime") for name in ("web-1", "db-1")]
    jobs = [job("j1", T1, ["web-1", "db-1"], job_type="CUTOVER_LAUNCH", status="STARTED")]
    spare = ["web-1-recovery", "db-1-recovery"]
    found = earlier(machines, jobs, launch_type="cutover", keeps=True, spare=spare)
    assert found["running_is"] == "launch" and found["adopted"][0][0]["id"] == "j1" and [job["id"] for job in found["launches"]] == ["j1"]
    assert found["clean"] == [] and found["foreign"] == []
    # A runbook that cleans up what it launches does not follow a launch over machines it spares.
    assert earlier(machines, jobs, launch_type="cutover", spare=spare)["adopted"] == {}


def test_spare_target_machines_are_none_of_the_runs_business():
    machines = [machine("web-1", replica="r1", launched_at=T1, kind="lastRecoveryLaunchDateTime")]
    jobs = [job("j1", T0, ["web-1"], job_type="RECOVERY_LAUNCH")]
    assert earlier(machines, jobs, launch_type="recovery", waves=[[]])["clean"][0]["replica"] == "r1"
    assert earlier(machines, jobs, launch_type="recovery", waves=[[]], spare=["r1"]) == {
        "running": None, "running_is": None, "adopted": {}, "launches": [], "clean": [], "foreign": [], "ours": []}


# -- the launched machines as the service sees them -------------------------------------------------


def test_a_running_target_machine_is_up_since_the_service_created_it():
    view = service_view([launched("web-1", created="2026-11-22T10:03:10+00:00")], job_end=T1)
    assert view["web-1"] == {"id": "web-1-id", "running": True, "up": "2026-11-22T10:03:10+00:00", "state": "running",
                             "cloud_id": "i-web-1", "target_id": "web-1-target", "public_ips": ["203.0.113.9"]}


def test_without_a_creation_time_a_machine_is_up_since_the_job_ended():
    entry = launched("web-1")
    del entry["target_machine"]["cloudEndureCreationDateTime"]
    assert service_view([entry], job_end=T1)["web-1"]["up"] == T1


def test_the_runs_record_of_a_machine_is_read_as_the_service_describes_it():
    record_entry = {"machine_name": "web-1", "machine_id": "web-1-id", "target": target("web-1")}
    assert service_view([record_entry], job_end=T2)["web-1"]["up"] == T1


def test_a_machine_that_runs_at_a_later_look_is_up_since_that_look():
    view = service_view([launched("web-1"), launched("db-1", state="pending")], job_end=T1)
    assert view["db-1"]["running"] is False and view["db-1"]["up"] is None
    later = [{"id": "db-1-id", "name": "db-1", "target_machine": {"machineCloudState": "running", "machineCloudId": "i-db-1", "publicIps": []}},
             {"id": "web-1-id", "name": "web-1", "target_machine": {"machineCloudState": "stopped"}}]
    view = service_view(later, view=view, seen_at="2026-11-22T10:09:00+00:00")
    assert view["db-1"]["running"] is True and view["db-1"]["up"] == "2026-11-22T10:09:00+00:00"
    assert view["web-1"]["up"] == T1  # up already: a later look does not move it


# -- hosts, and waves that failed -------------------------------------------------------------------


def run_record(project="production", checks="/checks/smoke.yml", **changes):
    entries = [launched("web-1"), launched("db-1", state="pending", ips=())]
    record = {
        "runbook": "dr_test", "project": project, "launch_type": "test", "checked_dir": "/tmp/run/checked",
        "settings": {"checks_tasks": checks, "checks_name": "smoke", "group": "dr_test_machines", "host_prefix": "dr-test-"},
        "waves": [{"machines": ["web-1", "db-1"], "status": "launched"}],
        "launched": dict((e["machine_name"], {"id": e["machine_id"], "wave": 1, "target": e["target_machine"]}) for e in entries),
        "view": service_view(entries, job_end=T1), "failed_machines": {}, "checked": {},
    }
    record.update(changes)
    return record


def test_launched_machines_become_hosts_named_after_project_and_machine():
    web, db = hosts_of(run_record(), ["web-1", "db-1"], run_host="proj-a")
    assert web["name"] == "dr-test-production/web-1" and db["name"] == "dr-test-production/db-1"
    assert web["groups"] == ["dr_test_machines", "dr_test_machines_wave_1", "dr_test_machines_to_check", "dr_test_machines_wave_1_to_check",
                             "dr_test_wave_1_to_check"]
    assert db["groups"] == ["dr_test_machines", "dr_test_machines_wave_1"]  # it does not run: nothing to check
    assert web["ansible_host"] == "203.0.113.9" and "ansible_host" not in db
    assert web["runbook_checks_tasks"] == "/checks/smoke.yml" and web["runbook_checked_dir"] == "/tmp/run/checked"
    assert "runbook_checks_tasks" not in db and web["runbook"] == "dr_test"
    assert web["runbook_run_host"] == "proj-a" and web["runbook_source_id"] == "web-1-id" and web["runbook_wave"] == 1
    assert web["runbook_target"]["machineCloudId"] == "i-web-1"
    # The DR test's documented older names, the same values; no older name of what was never documented.
    older = ("project", "wave", "source_name", "source_id", "public_ips", "target", "target_id", "cloud_id", "launch_type")
    assert all(web["dr_test_" + key] == web["runbook_" + key] for key in older)
    assert "dr_test_checks_tasks" not in web and "dr_test_run_host" not in web
    # The failover's, the failback's and the search's never had older names in a release: the neutral names only.
    for runbook in ("failover", "failback", "clean_point"):
        later = hosts_of(run_record(runbook=runbook), ["web-1"])[0]
        assert later["runbook_source_name"] == "web-1" and not [key for key in later if key.startswith(runbook + "_")]
    restored = hosts_of(run_record(runbook="restore_test"), ["web-1"])[0]  # newer than the older names: none
    assert restored["runbook_source_name"] == "web-1" and not [key for key in restored if key.startswith("restore_test_")]


def test_without_checks_of_the_users_no_host_is_to_check():
    assert all(len(host["groups"]) == 2 for host in hosts_of(run_record(checks=None), ["web-1", "db-1"]))


def test_hosts_of_two_projects_do_not_collide():
    found = set()
    for project, machine_name in (("a-b", "c"), ("a", "b-c")):
        record = run_record(project=project, launched={machine_name: {"id": "x", "wave": 1, "target": target(machine_name)}},
                            view=service_view([launched(machine_name)], job_end=T1))
        found.update(host["name"] for host in hosts_of(record, [machine_name]))
    assert len(found) == 2


def test_a_wave_fails_on_a_machine_that_did_not_launch_run_or_pass_its_checks():
    record = run_record(checked={"web-1": {"passed": True}})
    assert wave_failure(record, 0) == "db-1 does not run"
    record["failed_machines"] = {"db-1": "db-1: conversion failed"}
    assert wave_failure(record, 0) == "db-1 did not launch"
    record = run_record(view=service_view([launched("web-1"), launched("db-1")], job_end=T1), checked={"web-1": {"passed": False}})
    assert wave_failure(record, 0) == "web-1 failed its checks; db-1 was not checked"
    record["checked"] = {"web-1": {"passed": True}, "db-1": {"passed": True}}
    assert wave_failure(record, 0) is None
    record["settings"]["checks_tasks"] = None
    assert wave_failure(dict(record, checked={}), 0) is None


def test_machines_of_a_dr_test_that_is_up_block_a_failover_and_nothing_else_does():
    machines = [machine("web-1", replica="r-web", launched_at=T1), machine("db-1", replica="r-db", launched_at=T1, kind="lastRecoveryLaunchDateTime"),
                machine("app-1")]
    assert blocking_machines(machines, ["test"]) == [dict(name="web-1", id="web-1-id", replica="r-web", kind="test")]
    both = [dict(name="web-1", id="web-1-id", replica="r-web", kind="test"), dict(name="db-1", id="db-1-id", replica="r-db", kind="recovery")]
    assert blocking_machines(machines, "test, recovery") == both
    assert blocking_machines(machines, []) == []


# -- production: what is failed over -----------------------------------------------------------------

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_point_policy  # noqa: E402
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import (  # noqa: E402
    later_than_now, pin_points, production_machines, replace_token, standing, thinned)
from ansible_collections.replication.recovery.plugins.plugin_utils._hosts import hosts_of


def marked(found, *tags):
    return dict(found, tags=list(tags))


def test_a_machine_is_failed_over_while_its_recovery_or_cutover_machine_is_its_target_machine():
    machines = [machine("web-1", replica="r-web", launched_at=T1, kind="lastRecoveryLaunchDateTime"),
                machine("db-1", replica="r-db", launched_at=T1, kind="lastCutoverDateTime"),
                machine("app-1", replica="r-app", launched_at=T1),  # a test machine: not production
                machine("mail-1")]
    found = production_machines(machines)
    assert sorted(found) == ["db-1", "web-1"]
    assert found["web-1"] == {"name": "web-1", "id": "web-1-id", "replica": "r-web", "kind": "recovery", "since": T1, "committed": False,
                              "drill": False}
    assert found["db-1"]["kind"] == "cutover"


def test_marks_say_what_a_failover_committed_and_what_a_drill_launched():
    committed = marked(machine("web-1", replica="r-web", launched_at=T1, kind="lastRecoveryLaunchDateTime"),
                       "tier-1", "replication.recovery/recovered=r-web")
    replaced_since = marked(machine("db-1", replica="r-new", launched_at=T1, kind="lastRecoveryLaunchDateTime"),
                            "replication.recovery/recovered=r-old")
    drill = marked(machine("app-1", replica="r-app", launched_at=T1, kind="lastRecoveryLaunchDateTime"), "replication.recovery/drill=" + T0)
    stale_drill = marked(machine("mail-1", replica="r-mail", launched_at=T0, kind="lastRecoveryLaunchDateTime"),
                         "replication.recovery/drill=" + T1)  # launched before the drill's mark: not the drill's
    found = production_machines([committed, replaced_since, drill, stale_drill])
    assert [(name, entry["committed"], entry["drill"]) for name, entry in sorted(found.items())] == [
        ("app-1", False, True), ("db-1", False, False), ("mail-1", False, False), ("web-1", True, False)]


def test_what_stands_is_said_with_its_point_and_its_machine():
    entry = production_machines([machine("web-1", replica="r-web", launched_at=T1, kind="lastRecoveryLaunchDateTime")])["web-1"]
    target = {"machineCloudId": "i-0abc", "pointInTime": "p-1"}
    assert standing(entry, target, {"id": "p-1", "dateTime": "2026-11-22T09:50:00.250000+00:00"}) == (
        "failed over since 2026-11-22T10:04:00Z, from the point in time of 2026-11-22T09:50:00Z (p-1), recovery machine i-0abc")
    assert standing(entry, target, listed=True) == ("failed over since 2026-11-22T10:04:00Z, from the point in time p-1 (no longer listed: thinned "
                                                    "out since), recovery machine i-0abc")
    assert standing(entry, target) == "failed over since 2026-11-22T10:04:00Z, from the point in time p-1, recovery machine i-0abc"


def test_the_replace_token_is_the_plans_and_changes_with_the_world():
    token = replace_token("p-id", {"web-1": "r-web"})
    assert re.match(r"^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$", token) and token == replace_token("p-id", {"web-1": "r-web"})
    assert len(set([token, replace_token("p-id", {"web-1": "r-other"}), replace_token("p-id", {"web-1": "r-web", "db-1": "r-db"}),
                    replace_token("q-id", {"web-1": "r-web"})])) == 4


# -- points in time, pinned when the run begins --------------------------------------------------------

W2 = "0b6c1e9a-2f3d-4c5b-8a7e-1d2c3b4a5f60"
POINTS = {"web-1-id": [{"id": "w3", "dateTime": "2026-11-22T09:50:00+00:00"}, {"id": W2, "dateTime": "2026-11-22T09:00:00+00:00"},
                       {"id": "w1", "dateTime": "2026-11-22T08:00:00+00:00"}],
          "db-1-id": [{"id": "d2", "dateTime": "2026-11-22T09:40:00+00:00"}, {"id": "d1", "dateTime": "2026-11-22T08:30:00+00:00"}]}
RUN = [{"name": "web-1", "id": "web-1-id"}, {"name": "db-1", "id": "db-1-id"}]


@pytest.mark.parametrize("policy, points, pinned", [
    ("latest", None, {"web-1": "w3", "db-1": "d2"}),
    ("before:2026-11-22T09:10:00Z", None, {"web-1": W2, "db-1": "d1"}),
    (W2, None, {"web-1": W2, "db-1": "d1"}),  # the point's machine takes it, the others their newest at or before its time
    ("db-1=d1", {"db-1": "d1"}, {"web-1": "w3", "db-1": "d1"}),
    ("db-1-id=d1", {"db-1-id": "d1"}, {"web-1": "w3", "db-1": "d1"}),
])
def test_each_machines_point_is_pinned_once_by_the_one_grammar(policy, points, pinned):
    found, problems = pin_points(parse_point_policy(policy), RUN, POINTS, points)
    assert problems == [] and dict((name, point["id"]) for name, point in found.items()) == pinned
    assert found["web-1"]["date_time"] == next(p["dateTime"] for p in POINTS["web-1-id"] if p["id"] == pinned["web-1"])


def test_a_machine_without_such_a_point_is_named_with_the_points_it_has():
    unused, problems = pin_points(parse_point_policy("before:2026-11-22T08:10:00Z"), RUN, POINTS)
    assert problems == ["db-1 has no point in time at or before 2026-11-22T08:10:00Z; its points run from 2026-11-22T08:30:00Z to "
                        "2026-11-22T09:40:00Z"]
    unused, problems = pin_points(parse_point_policy("db-1=gone"), RUN, POINTS, {"db-1": "gone"})
    assert problems == ["gone is not a point in time of db-1 (any more: the service thins old points out); its points run from "
                        "2026-11-22T08:30:00Z to 2026-11-22T09:40:00Z"]
    unused, problems = pin_points(parse_point_policy("latest"), RUN, dict(POINTS, **{"db-1-id": []}))
    assert problems == ["db-1 has no point in time yet (initial sync not done)"]
    other = "1c7d2f0b-3e4a-4d6c-9b8f-2e3d4c5b6a70"
    assert pin_points(parse_point_policy(other), RUN, POINTS)[1] == ["%s is not a point in time of any machine of the run" % other]


def test_a_moment_later_than_the_services_now_is_refused_with_that_now():
    assert later_than_now(parse_point_policy("before:2026-11-22T11:00:00Z"), 1795345200.0) is None  # at now: fine
    assert later_than_now(parse_point_policy("before:2026-11-22T11:00:01Z"), 1795345200.0).startswith(
        "before:2026-11-22T11:00:01Z is later than the service's now, 2026-11-22T11:00:00Z")
    assert later_than_now(parse_point_policy("latest"), 0) is None


def test_a_pinned_point_thinned_out_is_replaced_by_the_newest_point_before_it():
    pinned = {"web-1": {"id": W2, "date_time": "2026-11-22T09:00:00+00:00"}, "db-1": {"id": "d1", "date_time": "2026-11-22T08:30:00+00:00"}}
    now = {"web-1-id": [POINTS["web-1-id"][0], POINTS["web-1-id"][2]], "db-1-id": POINTS["db-1-id"][:1]}
    found = thinned(pinned, now, [("web-1", "web-1-id"), ("db-1", "db-1-id")])
    assert found["web-1"] == {"planned": pinned["web-1"], "replacement": {"id": "w1", "date_time": "2026-11-22T08:00:00+00:00"},
                              "extra_seconds": 3600.0}
    assert found["db-1"] == {"planned": pinned["db-1"], "replacement": None, "extra_seconds": None}  # none older remains
    assert thinned(pinned, POINTS, [("web-1", "web-1-id"), ("db-1", "db-1-id")]) == {}


# -- a run again with other waves adopts each launch of the stopped run as a wave -------------------------------------


def test_a_run_again_with_other_waves_adopts_each_launch_as_it_was_launched_and_the_waves_asked_follow():
    names = {"db-1-id": "db-1", "db-2-id": "db-2", "app-1-id": "app-1", "web-1-id": "web-1"}
    first, second = job("j1", T0, ["db-1", "db-2"], job_type="RECOVERY_LAUNCH"), job("j2", T1, ["app-1"], job_type="RECOVERY_LAUNCH")
    assert resumed_waves([["db-1", "db-2"], ["app-1"], ["web-1"]], [first, second], names) is None  # the same waves: adopted as they are
    assert resumed_waves([["db-1", "db-2", "app-1"], ["web-1"]], [first, second], names) == [["db-1", "db-2"], ["app-1"], ["web-1"]]
    assert resumed_waves([["web-1", "app-1"], ["db-1", "db-2"]], [first], names) == [["db-1", "db-2"], ["web-1", "app-1"]]
    assert resumed_waves([["db-1"], ["db-2"]], [], names) is None  # nothing to adopt
    twice = job("j3", T1, ["db-2", "app-1"], job_type="RECOVERY_LAUNCH")
    assert resumed_waves([["db-1", "db-2", "app-1"]], [first, twice], names) is None  # a machine in two launches: as given


# -- a wave sent in several jobs (the service's limits) is adopted job by job ---------------------------------------


def test_a_wave_sent_in_several_jobs_adopts_the_jobs_it_finds_and_launches_the_others():
    machines = [machine(name, replica="r-" + name, launched_at=T1) for name in ("m-1", "m-2", "m-3", "m-4", "m-5")]
    wave = [m["id"] for m in machines]
    parts = [["m-1-id", "m-2-id"], ["m-3-id", "m-4-id"], ["m-5-id"]]
    first, second = job("j1", T0, ["m-1", "m-2"], ended=T2), job("j2", T0, ["m-3", "m-4"], status="RUNNING")
    # Stopped while its second job ran: both adopted, the third launched by the run again.
    found = earlier(machines[:4] + [machine("m-5")], [second, first], waves=[wave], parts=[parts])
    assert [job["id"] for job in found["adopted"][0]] == ["j1", "j2"] and found["clean"] == []
    # Every job found: the whole wave is adopted, in the order of its jobs.
    third = job("j3", T1, ["m-5"], ended=T2)
    found = earlier(machines, [third, second, first], waves=[wave, []], parts=[parts, []])
    assert [job["id"] for job in found["adopted"][0]] == ["j1", "j2", "j3"]
    # The first job not found: nothing is adopted, and what a later job launched is cleaned up, never launched over.
    found = earlier([machine(name) for name in ("m-1", "m-2")] + machines[2:4] + [machine("m-5")], [second], waves=[wave], parts=[parts])
    assert found["adopted"] == {} and sorted(left["name"] for left in found["clean"]) == ["m-3", "m-4"]


def test_a_run_again_whose_jobs_are_those_of_its_waves_keeps_its_waves():
    names = dict(("m-%d-id" % number, "m-%d" % number) for number in range(1, 6))
    first, second = job("j1", T0, ["m-1", "m-2"]), job("j2", T1, ["m-3", "m-4"])
    waves = [["m-1", "m-2", "m-3", "m-4", "m-5"]]
    assert resumed_waves(waves, [first, second], names, parts=[[["m-1", "m-2"], ["m-3", "m-4"], ["m-5"]]]) is None
    # Without its jobs (no limits now): each launch a wave, as it was launched, and the rest follows.
    assert resumed_waves(waves, [first, second], names) == [["m-1", "m-2"], ["m-3", "m-4"], ["m-5"]]
