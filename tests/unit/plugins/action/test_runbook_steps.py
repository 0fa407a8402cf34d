# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The runbook steps as action plugins, with the modules they run scripted: what each asks of the
modules, what it records, and what it answers."""

import json
import os
import shutil
import socket
import subprocess
from unittest.mock import MagicMock

import pytest
import yaml

from ansible_collections.replication.recovery.plugins.module_utils._domain import compact_moment
from ansible.errors import AnsibleActionFail

from ansible_collections.replication.recovery.plugins.action import (
    ledger_proof_info, ledger_report_info, runbook_checked, runbook_clean_up, runbook_reverse, runbook_wait_replication)
from ansible_collections.replication.recovery.plugins.module_utils import _wait
from ansible_collections.replication.recovery.plugins.plugin_utils import _ledger, _options, _run_launch, _run_read, _run_report, _step, _stops
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION
from ansible_collections.replication.recovery.plugins.plugin_utils._options import argument_specs, options_of, role_options
from ansible_collections.replication.recovery.plugins.plugin_utils._report import next_run, outcome_of, report_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import load, save
from ansible_collections.replication.recovery.tests.unit.plugins.action import phases

USER = "dr@example.com"
RELEASED_LEVER = {"lever": {"state": "released", "by": None, "at": None, "reason": None}}
ENGAGED_LEVER = {"lever": {"state": "engaged", "by": "on-call", "at": "2026-11-22T10:02:00Z", "reason": "INC-7: payments"}}
T0 = "2026-11-22T10:00:00.000000+00:00"
T1 = "2026-11-22T10:04:00.000000+00:00"
T2 = "2026-11-22T11:00:00.000000+00:00"


@pytest.fixture(autouse=True)
def waits(monkeypatch):
    """The steps wait on a clock that moves only when they sleep: no test sleeps. Answers the sleeps."""
    now, sleeps = [1000.0], []

    def pause(seconds):
        sleeps.append(seconds)
        now[0] += seconds
    monkeypatch.setattr(_wait, "pause", pause)
    monkeypatch.setattr(_wait, "monotonic", lambda: now[0])
    return sleeps


# service_login's answer to a step that signs in for its modules (and to its sign-out).
SIGNED_IN = {"session": "s-cleanup", "user": {"username": "dr@example.com"}}


class Modules:
    """The collection's modules as a step runs them: answers scripted per module, calls noted."""

    def __init__(self, **answers):
        # The project's safety lever, read by the read and each launch of a rehearsal: released unless a test engages it.
        answers.setdefault("service_safety_lever", RELEASED_LEVER)
        self.answers = dict((name, list(value) if isinstance(value, list) else [value]) for name, value in answers.items())
        self.calls = []

    def __call__(self, module_name, module_args, task_vars):
        name = module_name.split(".")[-1]
        self.calls.append((name, dict(module_args)))
        answers = self.answers.get(name)
        if not answers:
            raise AssertionError("unexpected module %s %s" % (name, module_args))
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        return answer(module_args) if callable(answer) else dict(answer)

    def called(self, name):
        return [args for called, args in self.calls if called == name]


def step(plugin, modules, check_mode=False, **args):
    task = MagicMock()
    task.args = args
    task.check_mode = check_mode
    task.async_val = 0
    action = plugin.ActionModule(task, MagicMock(), MagicMock(), loader=None, templar=None, shared_loader_obj=None)
    action._execute_module = modules
    action._load_name = "replication.recovery." + plugin.__name__.rsplit(".", 1)[-1]  # as the plugin loader names it
    if hasattr(action, "add_group") and "add_group" not in vars(plugin.ActionModule):
        # ansible-core 2.22's own adds to the inventory of a running task, which a unit test has none of (a test that
        # looks at the groups a step adds gives the step its own add_group).
        action.add_group = lambda name, parent_group_names=None: True
    return action.run(task_vars={"inventory_hostname": "localhost"})


def machine(name, replica=None, launched_at=None, state="continuous"):
    found = {"id": name + "-id", "name": name, "sourceProperties": {"name": name}, "replicationStatus": "STARTED", "lifeCycle": {},
             "replication_state": state, "lag_seconds": 30, "backlog_bytes": 0}
    if replica:
        found.update(replica=replica, lifeCycle={"lastTestLaunchDateTime": launched_at})
    return found


def job(job_id, machines, job_type="TEST_LAUNCH", status="COMPLETED", created=T0, ended=T1, by=USER):
    return {"id": job_id, "type": job_type, "status": status, "creationDateTime": created, "endDateTime": ended, "initiatedBy": by,
            "participatingMachines": [name + "-id" for name in machines], "log": []}


def target(name, state="running"):
    return {"id": name + "-target", "machineCloudId": "i-" + name, "machineCloudState": state, "publicIps": ["203.0.113.9"],
            "pointInTime": name + "-point", "cloudEndureCreationDateTime": T1}


def launched(*names):
    return [{"machine_id": name + "-id", "machine_name": name, "target_machine": target(name), "point_in_time_date_time": T0} for name in names]


def begin(tmp_path, **inputs):
    """A run begun, signed in; answers its record's path."""
    args = dict(runbook="dr_test", title="DR test", project="production", poll_interval=1, progress_interval=1)
    args.update(inputs)
    result = step(phases.begin, Modules(service_login={"session": "s3ss10n", "user": {"username": USER}}), **args)
    assert not result.get("failed"), result
    return result["run"]


SETTINGS_HOLD = {"region": {"id": "r-id", "name": "us-east-1"}, "problems": {}}


def point(name, date_time=T0, suffix=""):
    return {"id": name + "-point" + suffix, "dateTime": date_time}


def points_info(points=None):
    """service_point_in_time_info as it answers the machines asked for: ``points`` {name: [points, newest first]}, else one
    point each, the one target() launched from."""
    def answer(args):
        names = [machine_id[:-len("-id")] for machine_id in args["machines"]]
        return {"machines": [{"machine_id": name + "-id", "machine_name": name, "points_in_time": (points or {}).get(name, [point(name)])}
                             for name in names]}
    return answer


def read(run, machines, jobs=(), launch_settings=None, points=None, modules=None, **answers):
    modules = modules or Modules(**read_answers(machines, jobs, launch_settings, points, **answers))
    return dict(step(phases.read, modules, run=run, session="s3ss10n"), calls=modules.calls)


def read_answers(machines, jobs=(), launch_settings=None, points=None, **answers):
    """What the modules a read runs answer: the project's ``machines`` (each with its points, when asked), its ``jobs``."""
    def machine_info(args):
        listed = [m for m in machines if not args.get("machines") or m["id"] in args["machines"]]
        if args.get("include_target_machine"):
            listed = [dict(m, target_machine=dict(target(m["name"]), id=m["replica"])) if m.get("replica") else m for m in listed]
        if args.get("include_points_in_time"):
            listed = [dict(m, points_in_time=(points or {}).get(m["name"], [point(m["name"])])[:args.get("points_in_time_limit")]) for m in listed]
        found = {"project": {"id": "p-id", "name": "production"}, "service_time": T0, "machines": listed}
        if args.get("prove_launch_settings"):
            found["launch_settings"] = launch_settings or SETTINGS_HOLD
        return found

    # A run of several waves keeps the points it pinned in the service (pin marks): one write, answered.
    return dict(dict(service_machine_info=machine_info, service_job_info={"jobs": list(jobs)},
                     service_point_in_time_info=points_info(points), service_machine_tags={"changed_machines": []}), **answers)


@pytest.fixture(autouse=True)
def no_leftover_runs(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default ledger of runs, of this test alone
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


# -- begin ----------------------------------------------------------------------------------------


def test_begin_reads_the_inputs_from_text_and_keeps_the_session_out_of_the_record(tmp_path):
    modules = Modules(service_login={"session": "s3ss10n", "user": {"username": USER}})
    result = step(phases.begin, modules, runbook="dr_test", project="production", machines="web-1, db-1", exclude="", waves="",
                  gate={"states": "continuous,lagging", "max_lag": "900", "no_backlog": "yes"}, targets={"rpo_seconds": "600"},
                  keep_on_failure="no", launch_timeout="120", checks_tasks="None", api_url="https://dr.example.com/api/latest")
    record = load(result["run"])
    assert result["session"] == "s3ss10n" and result["_ansible_no_log"] is True
    assert record["asked"] == {"machines": ["web-1", "db-1"], "exclude": [], "waves": [], "unproven": False}
    assert record["gate"] == {"states": ["continuous", "lagging"], "max_lag": 900, "no_backlog": True, "lag_threshold": 900, "enforce": True,
                              "name": "health gate"}
    assert record["targets"] == {"rpo_seconds": 600, "rto_seconds": None} and record["username"] == USER
    assert record["settings"]["launch_timeout"] == 120 and record["settings"]["checks_tasks"] is None
    assert "s3ss10n" not in open(result["run"]).read()
    assert modules.called("service_login") == [{"api_url": "https://dr.example.com/api/latest"}]


def test_begin_removes_what_stopped_runs_left_and_never_the_directory_of_a_run_going_on(tmp_path):
    ended = subprocess.Popen(["true"])
    ended.wait()
    here = socket.gethostname()
    owners = {"stopped": "%d %s" % (ended.pid, here), "going-on": "%d %s" % (os.getpid(), here), "no-owner": None,
              "of-another-host": "%d another-%s" % (ended.pid, here)}  # a temporary directory shared by containers
    for name, owner in owners.items():
        os.makedirs(str(tmp_path / ("replication-recovery-dr_test-" + name) / "checked"))
        if owner:
            (tmp_path / ("replication-recovery-dr_test-" + name) / "owner").write_text(owner)
    (tmp_path / "someone-elses").mkdir()

    result = step(phases.begin, Modules(service_login={"session": "s3ss10n", "user": {"username": USER}}),
                  runbook="dr_test", project="production")

    left = sorted(os.listdir(str(tmp_path)))
    assert "replication-recovery-dr_test-stopped" not in left
    assert {"replication-recovery-dr_test-going-on", "replication-recovery-dr_test-no-owner", "replication-recovery-dr_test-of-another-host",
            "someone-elses"} <= set(left)
    assert open(os.path.join(os.path.dirname(result["run"]), "owner")).read() == "%d %s" % (os.getppid(), here)


@pytest.mark.parametrize("inputs,message", [
    (dict(recovery_plan="tiers", machines=["web-1"]), "a recovery plan names its own machines"),
    (dict(recovery_plan="tiers", launch_type="debug"), "not debug"),
    (dict(waves="db-*; web-*", machines="web-1"), "waves name their own machines"),
    (dict(waves="a;b;c", max_waves=2), "there are 3 waves, and this way of running the DR test runs at most 2"),
    (dict(launch_timeout="soon"), "launch_timeout must be a number, not 'soon'"),
])
def test_begin_refuses_input_that_does_not_go_together_and_still_leaves_a_run_to_report(inputs, message):
    modules = Modules()
    result = step(phases.begin, modules, runbook="dr_test", title="DR test", project="production", **inputs)
    assert result["failed"] and message in result["msg"] and "Nothing was launched" in result["msg"]
    assert load(result["run"])["failure"]["phase"] == "preflight"
    assert modules.calls == []  # refused before signing in


def test_begin_takes_its_options_gathered_as_inputs_and_refuses_one_it_does_not_have(tmp_path):
    modules = Modules(service_login={"session": "s3ss10n", "user": {"username": USER}})
    result = step(phases.begin, modules, runbook="dr_test", project="production", launch_timeout="60",
                  inputs={"machines": "web-1", "launch_timeout": "120", "gate": {"max_lag": "300"}})
    record = load(result["run"])
    assert record["asked"]["machines"] == ["web-1"] and record["gate"]["max_lag"] == 300
    assert record["settings"]["launch_timeout"] == 60  # given on its own as well: that one wins
    with pytest.raises(AnsibleActionFail, match="Unsupported parameters for .* lunch_timeout"):
        step(phases.begin, Modules(), runbook="dr_test", project="production", inputs={"lunch_timeout": "120"})


def test_begin_takes_a_roles_options_by_their_names_grouped_alike_for_every_runbook_under_what_the_runbook_sets(tmp_path):
    modules = Modules(service_login={"session": "s3ss10n", "user": {"username": USER}})
    answer = dict(project="production", machines=["web-1", "db-1"], gate_states=["continuous", "lagging"], gate_max_lag=300,
                  rpo_target=600, network={"subnets": ["isolated-a"]}, clean_leftovers=False, launch_timeout=60,
                  after_wave_tasks=None, changed=False, failed=False)  # the DR test's hook, and what Ansible adds to a result
    result = step(phases.begin, modules, runbook="dr_test", options=answer, poll_interval=1,
                  inputs={"gate": {"enforce": False}, "launch_timeout": 120})
    record = load(result["run"])
    assert record["asked"]["machines"] == ["web-1", "db-1"] and record["targets"]["rpo_seconds"] == 600
    assert (record["gate"]["states"], record["gate"]["max_lag"], record["gate"]["enforce"]) == (["continuous", "lagging"], 300, False)
    assert record.test_network["network"]["subnets"] == ["isolated-a"]
    assert record["settings"]["launch_timeout"] == 120  # what the runbook sets goes over its options
    assert record["settings"]["clean_leftovers_option"] == "dr_test_clean_leftovers"  # the option a message names
    assert record["settings"]["poll_interval"] == 1  # given on its own: over both


def test_an_option_added_to_a_roles_argument_specs_reaches_the_run_typed_and_defaulted_with_no_other_file_changed(tmp_path, monkeypatch):
    # The DR test's role with one option more - the engine's points_strict, which the DR test does not have - and nothing else.
    roles = tmp_path / "roles"
    shutil.copytree(os.path.join(COLLECTION, "roles", "dr_test"), str(roles / "dr_test"))
    path = roles / "dr_test" / "meta" / "argument_specs.yml"
    specs = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "dr_test_points_strict" not in role_options(specs["argument_specs"], "main")
    specs["argument_specs"]["main"]["options"]["dr_test_points_strict"] = dict(type="bool", default=True, description="Stop, not repin.")
    path.write_text(yaml.safe_dump(specs), encoding="utf-8")
    monkeypatch.setattr(_options, "ROLES", str(roles))
    monkeypatch.setattr(_options, "_SPECS", {})
    monkeypatch.chdir(tmp_path)  # ansible-playbook started in a directory of the user's: the report's is taken from there
    specs = role_options(argument_specs(str(roles / "dr_test")), "main")  # as runbook_options reads the role it runs in
    for given, strict in (({}, True), ({"dr_test_points_strict": "false"}, False), ({"dr_test_points_strict": "yes"}, True)):
        answer = options_of(specs, dict(given, dr_test_project="production"), "dr_test_")  # text, as AWX gives it
        modules = Modules(service_login={"session": "s3ss10n", "user": {"username": USER}})
        record = load(step(phases.begin, modules, runbook="dr_test", options=dict(answer, changed=False))["run"])
        assert record["points_strict"] is strict and record["project"] == "production"


def test_a_failed_sign_in_is_recorded(tmp_path):
    result = step(phases.begin, Modules(service_login={"failed": True, "msg": "POST /login failed: HTTP 401"}), runbook="dr_test",
                  project="production")
    assert result["failed"] and load(result["run"])["failure"] == {"phase": "login", "message": "POST /login failed: HTTP 401"}


# -- read -----------------------------------------------------------------------------------------


def test_read_judges_the_machines_once(tmp_path, capsys):
    run = begin(tmp_path, waves="db-*; web-*")
    result = read(run, [machine("web-1"), machine("db-1")])
    record = load(run)
    assert result["waves"] == [1, 1] and [wave["machines"] for wave in record["waves"]] == [["db-1"], ["web-1"]]
    assert record["project_id"] == "p-id" and record["started"] == T0 and sorted(record["health"]) == ["db-1", "web-1"]
    assert "No wave names" not in capsys.readouterr().out


def test_read_says_which_machines_of_the_project_no_wave_names(tmp_path, capsys):
    run = begin(tmp_path, waves="db-*; web-*")
    stopped = dict(machine("old-1"), replicationStatus="STOPPED")  # never a candidate of a pattern: not said
    assert not read(run, [machine("web-1"), machine("app-1"), machine("db-1"), stopped]).get("failed")
    assert [wave["machines"] for wave in load(run)["waves"]] == [["db-1"], ["web-1"]]
    assert "localhost: No wave names app-1 of project production: it is not in this DR test.\n" in capsys.readouterr().out


@pytest.mark.parametrize("machines,jobs,message", [
    ([machine("web-1", state="paused")], [], "The health gate stopped the run; nothing was launched. Not ready (1 of 1): web-1: replication is paused"),
    ([machine("web-1")], [job("j9", ["web-1"], status="STARTED", by="someone@example.com")],
     "Another job is running in project production: TEST_LAUNCH j9, started by someone@example.com"),
    ([machine("web-1", replica="r1", launched_at=T1)], [job("j9", ["web-1"], by="someone@example.com")],
     "Test machines that this DR test did not launch are there for web-1; nothing was launched"),
])
def test_read_stops_the_run_before_anything_is_launched(tmp_path, machines, jobs, message):
    run = begin(tmp_path)
    result = read(run, machines, jobs)
    assert result["failed"] and message in result["msg"]
    assert load(run)["failure"]["phase"] == "preflight"


def test_a_report_directory_without_room_for_the_runs_machines_is_refused_before_its_first_write(tmp_path, monkeypatch):
    # The first task proved the directory with a file of a few hundred machines' reports; once the machines are read it
    # is proven again with a file the size of this run's reports (a directory that takes 1 MiB but not 200 machines').
    sizes = []

    def unwritable(directory, size):
        sizes.append((directory, size))
        return "%s: No space left on device" % directory if directory == str(tmp_path / "reports") and size > (1 << 20) else None
    monkeypatch.setattr(_run_read, "unwritable", unwritable)
    fleet = [machine("web-%03d" % number) for number in range(200)]
    run = begin(tmp_path, report_dir=str(tmp_path / "reports"), waves="web-0*; web-1*")
    result = read(run, fleet)
    assert result["failed"] and result["msg"] == (
        "The DR test's report directory cannot take the reports of 200 machines (1.6 MiB): %s: No space left on device. Nothing was "
        "launched or changed: give a directory with room, or make room in this one." % (tmp_path / "reports"))
    assert sizes == [(str(tmp_path / "reports"), 200 * 8192)]
    assert sorted(set(name for name, args in result["calls"])) == ["service_job_info", "service_machine_info", "service_safety_lever"]
    assert load(run)["failure"]["phase"] == "preflight"

    # With room, the ledger is proven too (the run writes its entry there); a run of a few machines is not proven again.
    sizes[:] = []
    monkeypatch.setattr(_run_read, "unwritable", lambda directory, size: sizes.append((directory, size)))
    run = begin(tmp_path, report_dir=str(tmp_path / "room"), waves="web-0*; web-1*")
    assert not read(run, fleet).get("failed")
    assert sizes == [(str(tmp_path / "room"), 200 * 8192), (str(tmp_path / "data" / "replication.recovery" / "ledger"), 200 * 8192)]
    sizes[:] = []
    assert not read(begin(tmp_path, report_dir=str(tmp_path / "room")), fleet[:5]).get("failed") and sizes == []


def test_launch_settings_left_to_defaults_are_one_warning_naming_the_first_machines_and_counting_the_rest(tmp_path, monkeypatch):
    warned = []
    monkeypatch.setattr(_step.display, "warning", warned.append)
    fleet = [machine("web-%02d" % number) for number in range(12)]
    defaults = dict((found["name"], ["subnet", "security groups"]) for found in fleet)
    run = begin(tmp_path)
    assert not read(run, fleet, launch_settings=dict(SETTINGS_HOLD, defaults=defaults)).get("failed")
    assert len(warned) == 1 and warned[0].startswith("localhost: 12 of 12 machines cannot have their launch settings proven")
    assert "(subnet and security groups: web-00, web-01, web-02, web-03, web-04, web-05, web-06, web-07, web-08, web-09 and 2 more)" in warned[0]


def test_a_blueprint_naming_what_the_region_lacks_stops_the_run_before_launching_unless_its_machine_is_excluded(tmp_path):
    lacking = dict(SETTINGS_HOLD, problems={"web-1": ["subnet subnet-9 is not in region us-east-1; it has private-a (subnet-1)"]})
    run = begin(tmp_path)
    result = read(run, [machine("web-1"), machine("db-1")], launch_settings=lacking)
    assert result["failed"] and result["msg"].startswith(
        "The launch settings check stopped the run; nothing was launched. 1 of 2 machines cannot launch in us-east-1 as their blueprints "
        "say: web-1: subnet subnet-9 is not in region us-east-1; it has private-a (subnet-1). Mend their blueprints, or exclude them.")
    written = step(phases.report, Modules(), run=run, session="s3ss10n", report_dir=str(tmp_path / "reports"))
    with open(written["outcome"]["report"]["json"]) as stream:
        report = json.load(stream)
    checks = dict((m["name"], dict((c["name"], c["status"]) for c in m["checks"])) for m in report["machines"])
    assert checks["web-1"]["launch settings"] == "failed" and checks["db-1"]["launch settings"] == "passed"
    run = begin(tmp_path)
    unchecked = {"db-1": ["disk type SSD (the service gives no region's disk types)"]}
    read(run, [machine("web-1"), machine("db-1")], launch_settings=dict(SETTINGS_HOLD, unchecked=unchecked))
    written = step(phases.report, Modules(), run=run, session="s3ss10n", report_dir=str(tmp_path / "unchecked"))
    with open(written["outcome"]["report"]["json"]) as stream:
        messages = dict((m["name"], dict((c["name"], c["message"]) for c in m["checks"])) for m in json.load(stream)["machines"])
    assert messages["db-1"]["launch settings"] == "as region us-east-1 offers; not checked: disk type SSD (the service gives no region's disk types)"
    assert messages["web-1"]["launch settings"] == "as region us-east-1 offers"
    run = begin(tmp_path, exclude="web-1")
    assert not read(run, [machine("web-1"), machine("db-1")], launch_settings=lacking).get("failed")
    run = begin(tmp_path, check_launch_settings="no")
    assert not read(run, [machine("web-1"), machine("db-1")], launch_settings=lacking).get("failed")  # not asked for, so not proven
    assert load(run)["launch_settings"] == {"check": False, "strict": False, "problems": {}, "unproven": {}}


def passed_dr_test(ledger, launched, **passed):
    """A DR test of production entered in the ledger, its machines passed or not."""
    _ledger.append(str(ledger), "dr_test", {"project": "production", "started": launched, "launch_requested": launched, "result": "passed",
                                            "machines": [{"id": name + "-id", "name": name, "passed": ok} for name, ok in passed.items()]})


def blueprint_changed(name, time):
    return {"timestamp": time, "eventName": "BLUEPRINT_UPDATED", "description": "Blueprint of %s updated." % name, "username": USER,
            "changedFields": [{"fieldName": "instanceType", "oldValue": "m5.large", "newValue": "m5.xlarge"}],
            "participatingMachines": [{"machineCloudEndureId": name + "-id", "machineCloudName": name}]}


def test_unproven_tests_the_machines_changed_since_they_passed_or_never_passed(tmp_path):
    ledger = tmp_path / "ledger"
    passed_dr_test(ledger, T0, **{"web-1": True, "db-1": True, "app-1": False})
    run = begin(tmp_path, machines="unproven", ledger_dir=str(ledger))
    assert load(run)["asked"]["machines"] is None and load(run)["asked"]["unproven"]
    asked = []
    changes = {"entries": [blueprint_changed("db-1", T0), blueprint_changed("web-1", T1)]}
    result = read(run, [machine("web-1"), machine("db-1"), machine("app-1"), machine("new-1")],
                  service_audit_log_info=lambda args: asked.append(args) or changes)
    record = load(run)
    assert not result.get("failed"), result
    assert [m["name"] for m in record["machines"]] == ["web-1", "app-1", "new-1"]
    assert asked == [{"session": "s3ss10n", "project": "p-id", "since": T0, "until": T0}]
    [check] = record["run_checks"]
    assert check["name"] == "unproven machines" and check["message"].startswith(
        "3 of 4 machines are not proven (the ledger of runs): web-1: changed since last proven on %s (entry 1 of the ledger, dr_test): %s "
        "BLUEPRINT_UPDATED by %s: Blueprint of web-1 updated. app-1: never proven. new-1: never proven" % (T0, T1, USER))


def test_unproven_with_every_machine_proven_launches_nothing_and_passes(tmp_path):
    ledger = tmp_path / "ledger"
    passed_dr_test(ledger, T0, **{"web-1": True})
    run = begin(tmp_path, machines="unproven", ledger_dir=str(ledger))
    result = read(run, [machine("web-1")], service_audit_log_info={"entries": [blueprint_changed("web-1", T0)]})
    assert not result.get("failed") and result["waves"] == [] and result["machines"] == 0
    report = report_of(load(run), "replication.recovery.dr_test/v1")
    assert report["result"] == "passed" and report["machines"] == []
    assert report["checks"][0]["message"] == ("every machine of project production is proven (the ledger of runs): none changed since it "
                                              "last passed; nothing to test")


def test_unproven_refuses_a_broken_ledger_and_what_does_not_go_with_it(tmp_path):
    ledger = tmp_path / "ledger"
    passed_dr_test(ledger, T0, **{"web-1": True})
    passed_dr_test(ledger, T1, **{"web-1": True})
    os.remove(str(ledger / "00000001.json"))
    run = begin(tmp_path, machines="unproven", ledger_dir=str(ledger))
    result = read(run, [machine("web-1")])  # refused before the audit log is read
    assert result["failed"] and result["msg"].startswith("The ledger at %s is broken, and the machines it proves cannot be trusted; nothing was "
                                                         "launched. Entry 1 is missing" % ledger)
    for inputs in ({"waves": "web-*"}, {"launch_type": "recovery"}, {"recovery_plan": "all"}):
        args = dict(runbook="dr_test", title="DR test", project="production", machines="unproven", **inputs)
        refused = step(phases.begin, Modules(service_login={"session": "s3ss10n", "user": {"username": USER}}), **args)
        assert refused["failed"] and "machines=unproven picks the machines to test" in refused["msg"], inputs


def test_proofs_of_a_fleet_without_a_ledger_read_the_last_test_launch(tmp_path):
    tested = dict(machine("web-1"), lifeCycle={"lastTestLaunchDateTime": T0})
    fleet = {"service_time": T2, "projects": [{"name": "production", "id": "p-id", "machines": [tested, machine("db-1")]}]}
    audit = Modules(service_audit_log_info={"entries": [blueprint_changed("web-1", T1)]})
    result = step(ledger_proof_info, audit, fleet=fleet, session="s3ss10n")
    [project] = result["projects"]
    assert result["source"] == "last test launch" and project["unproven"] == ["web-1", "db-1"]
    assert [m["status"] for m in project["machines"]] == ["changed since last proven", "never proven"]
    assert audit.called("service_audit_log_info") == [{"session": "s3ss10n", "project": "p-id", "since": T0, "until": T2}]
    assert result["lines"][0] == "production: 0 of 2 machines proven (no ledger: proven means test-launched, by the service's record)."
    result = step(ledger_proof_info, Modules(), fleet=fleet, ledger_dir=str(tmp_path / "not-yet"))
    assert result["source"] == "ledger" and result["projects"][0]["unproven"] == ["web-1", "db-1"]  # nothing proven: no audit log read
    assert step(ledger_proof_info, Modules(), fleet={"projects": [{"name": "x"}]})["msg"].startswith("fleet must be the result of")


def test_ledger_report_info_reads_the_newest_reports_the_same_in_check_mode_and_refuses_bad_bounds(tmp_path):
    """The newest entries of a runbook (of a project, after an entry), read without a request and without a write - under
    --check the same; a ledger not made yet has none; a count below one or a negative entry is refused by name."""
    ledger = str(tmp_path / "ledger")
    for day, project in ((1, "shop"), (2, "crm"), (3, "shop")):
        _ledger.append(ledger, "dr_test", dict(project=project, result="passed", started="2026-11-0%dT02:00:00Z" % day))
    before = sorted(os.listdir(ledger))
    found = step(ledger_report_info, Modules(), runbook="dr_test", project="shop", count=5, ledger_dir=ledger)
    assert [(entry["sequence"], entry["report"]["started"][:10]) for entry in found["entries"]] == [(1, "2026-11-01"), (3, "2026-11-03")]
    assert found["changed"] is False and found["ledger_dir"] == os.path.realpath(ledger)
    checked = step(ledger_report_info, Modules(), check_mode=True, runbook="dr_test", project="shop", after=1, ledger_dir=ledger)
    assert [entry["sequence"] for entry in checked["entries"]] == [3] and sorted(os.listdir(ledger)) == before
    assert step(ledger_report_info, Modules(), runbook="dr_test", ledger_dir=str(tmp_path / "not-yet"))["entries"] == []
    assert "count is 1 or more" in step(ledger_report_info, Modules(), runbook="dr_test", count=0, ledger_dir=ledger)["msg"]
    assert step(ledger_report_info, Modules(), runbook="dr_test", after=-1, ledger_dir=ledger)["failed"]


def test_proofs_of_several_projects_read_their_audit_logs_in_one_session():
    tested = dict(machine("web-1"), lifeCycle={"lastTestLaunchDateTime": T0})
    fleet = {"service_time": T2, "projects": [{"name": name, "id": name + "-id", "machines": [tested]} for name in ("production", "staging")]}
    modules = Modules(service_login=lambda args: {"ended": True} if args.get("state") == "absent" else {"session": "0ne"},
                      service_audit_log_info={"entries": []})
    result = step(ledger_proof_info, modules, fleet=fleet, username="dr", password="secret")
    assert [p["unproven"] for p in result["projects"]] == [[], []]
    assert [(args["project"], args["session"]) for args in modules.called("service_audit_log_info")] == [("production-id", "0ne"), ("staging-id", "0ne")]
    assert [args.get("state") for args in modules.called("service_login")] == [None, "absent"]


def test_a_gate_not_enforced_reports_and_goes_on(tmp_path):
    run = begin(tmp_path, gate={"enforce": "false"})
    result = read(run, [machine("web-1", state="stale"), machine("db-1")])
    health = load(run)["health"]
    assert not result.get("failed") and health["web-1"]["forced"] and not health["db-1"]["forced"]


def test_machines_of_a_blocking_launch_type_stop_the_run_unless_cleaned_first(tmp_path):
    up = [machine("web-1", replica="r1", launched_at=T1), machine("db-1")]
    run = begin(tmp_path, runbook="failover", launch_type="recovery", blocking_launch_types="test", clean_blocking_option="failover_clean_dr_tests")
    result = read(run, up, [job("j1", ["web-1"], by="tester@example.com")])
    assert result["failed"] and result["msg"] == ("Test machines are up for web-1; nothing was launched. Clean them up first, or let this run do "
                                                  "it (failover_clean_dr_tests=true).")
    run = begin(tmp_path, runbook="failover", launch_type="recovery", blocking_launch_types=["test"], clean_blocking=True)
    assert not read(run, up, [job("j1", ["web-1"], by="tester@example.com")]).get("failed")
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1"]})
    assert step(phases.resume, modules, run=run, session="s")["cleaned"] == ["web-1"]
    assert modules.called("service_replica_cleanup")[0]["replicas"] == ["r1"]


def test_points_given_per_machine_go_with_their_wave_and_name_only_the_runs_machines(tmp_path):
    run = begin(tmp_path, waves="db-1; web-1", point_in_time="db-1=p-db, web-1-id=p-web")
    listed = {"db-1": [point("db-1", T1), {"id": "p-db", "dateTime": T0}], "web-1": [{"id": "p-web", "dateTime": T0}]}
    assert not read(run, [machine("web-1"), machine("db-1")], points=listed).get("failed")
    assert load(run)["pinned"] == {"db-1": {"id": "p-db", "date_time": T0}, "web-1": {"id": "p-web", "date_time": T0}}
    modules = Modules(service_launch={"would_launch": ["db-1"]})
    step(phases.launch, modules, check_mode=True, run=run, session="s", wave=1)
    [launched] = modules.called("service_launch")
    assert launched["points_in_time"] == {"db-1-id": "p-db"} and launched["check_points"] is False and launched["machines"] == ["db-1-id"]
    run = begin(tmp_path, point_in_time="app-9=p-app")
    result = read(run, [machine("web-1")])
    assert result["failed"] and "The points in time name app-9, which is not among the machines of the run" in result["msg"]


def test_every_point_is_pinned_when_the_run_begins_and_a_missing_one_is_named_with_the_points_there_are(tmp_path):
    early, late = "2026-11-22T09:00:00.000000+00:00", "2026-11-22T09:45:00.000000+00:00"
    listed = {"web-1": [point("web-1", late, "-2"), point("web-1", early, "-1")], "db-1": [point("db-1", late)]}
    run = begin(tmp_path, point_in_time="before:2026-11-22T09:30:00Z")
    result = read(run, [machine("web-1"), machine("db-1")], points=listed)
    assert result["failed"] and result["msg"] == (
        "db-1 has no point in time at or before 2026-11-22T09:30:00Z; its points run from 2026-11-22T09:45:00Z to 2026-11-22T09:45:00Z; "
        "nothing was launched. Choose another point in time (dr_test_point_in_time), or leave those machines out.")
    run = begin(tmp_path, point_in_time="before:2026-11-22T11:30:00Z")  # later than the service's now, T0
    modules = Modules(service_machine_info={"project": {"id": "p-id", "name": "production"}, "service_time": T0, "machines": [machine("web-1")]},
                      service_job_info={"jobs": []})
    result = read(run, [], modules=modules)
    assert result["failed"] and result["msg"].startswith(
        "before:2026-11-22T11:30:00Z is later than the service's now, 2026-11-22T10:00:00Z: every point of every machine is before it")
    assert "the data-loss windows would be negative" in result["msg"].replace("\n", " ")
    # The lever, the jobs and the machines: nothing else read, nothing written.
    assert [name for name, unused in modules.calls] == ["service_job_info", "service_machine_info", "service_safety_lever"]
    run = begin(tmp_path, point_in_time="before:2026-11-22T09:30:00Z")
    listed = {"web-1": [point("web-1", T0, "-new"), point("web-1", "2026-11-22T09:20:00.000000+00:00", "-old")]}
    assert not read(run, [machine("web-1")], points=listed).get("failed")
    assert load(run)["pinned"] == {"web-1": {"id": "web-1-point-old", "date_time": "2026-11-22T09:20:00.000000+00:00"}}


def test_points_as_of_an_applications_start_take_each_machines_newest_point_then(tmp_path):
    listed = {"web-1": [point("web-1", T0, "-new"), point("web-1", "2026-11-22T09:20:00.000000+00:00", "-old")],
              "db-1": [point("db-1", "2026-11-22T09:19:00.000000+00:00")]}
    run = begin(tmp_path, points_as_of="2026-11-22T09:20:00Z")  # the service's now is T0, 10:00
    assert not read(run, [machine("web-1"), machine("db-1")], points=listed).get("failed")
    record = load(run)
    assert record["pinned"] == {"web-1": {"id": "web-1-point-old", "date_time": "2026-11-22T09:20:00.000000+00:00"},
                                "db-1": {"id": "db-1-point", "date_time": "2026-11-22T09:19:00.000000+00:00"}}
    assert record["points_moment"] == "2026-11-22T09:20:00Z"
    assert record["point_in_time"] == "latest as of 2026-11-22T09:20:00Z (when the application began, on the service's clock)"
    # A point per machine: the machines not named take theirs as of the moment too.
    run = begin(tmp_path, points_as_of="2026-11-22T09:20:00Z", point_in_time="db-1=db-1-point")
    assert not read(run, [machine("web-1"), machine("db-1")], points=listed).get("failed")
    assert load(run)["pinned"]["web-1"]["id"] == "web-1-point-old"
    # A moment of the run's own is kept (the application's, 09:10, has no point).
    run = begin(tmp_path, points_as_of="2026-11-22T09:10:00Z", point_in_time="before:2026-11-22T09:30:00Z")
    assert not read(run, [machine("web-1"), machine("db-1")], points=listed).get("failed")
    assert load(run)["points_as_of"] is None and "points_moment" not in load(run) and load(run)["pinned"]["web-1"]["id"] == "web-1-point-old"
    # A moment later than the service's now is no moment of its clock: the latest, said.
    run = begin(tmp_path, points_as_of="2026-11-22T10:30:00Z")
    assert not read(run, [machine("web-1"), machine("db-1")], points=listed).get("failed")
    assert load(run)["pinned"]["web-1"]["id"] == "web-1-point-new" and "is later than the service's now" in load(run)["point_in_time"]
    refused = step(phases.begin, Modules(), runbook="dr_test", project="production", points_as_of="yesterday")
    assert refused["failed"] and refused["msg"] == "points_as_of is an RFC 3339 date-time, not 'yesterday'. Nothing was launched."


@pytest.mark.parametrize("inputs, with_the_machines", [
    ({}, True), (dict(machines="web-1"), False), (dict(exclude="db-1"), False), (dict(waves="db-*; web-*"), False),
])
def test_the_points_of_a_whole_project_are_read_with_its_machines_and_those_of_a_choice_on_their_own(tmp_path, inputs, with_the_machines):
    earlier = "2026-11-22T09:20:00.000000+00:00"
    listed = {"web-1": [point("web-1", T0, "-new"), point("web-1", earlier, "-old")], "db-1": [point("db-1", earlier)]}
    run = begin(tmp_path, point_in_time="before:2026-11-22T09:30:00Z", **inputs)
    modules = Modules(service_job_info={"jobs": []}, service_machine_info=lambda args: {
        "project": {"id": "p-id", "name": "production"}, "service_time": T0,
        "machines": [dict(m, **({"points_in_time": listed[m["name"]]} if args.get("include_points_in_time") else {}))
                     for m in (machine("web-1"), machine("db-1"))]}, service_point_in_time_info=points_info(listed),
        service_machine_tags={"changed_machines": []})
    result = read(run, [], modules=modules)
    assert [call.get("include_points_in_time") for call in modules.called("service_machine_info")] == [with_the_machines]
    assert len(modules.called("service_point_in_time_info")) == (0 if with_the_machines else 1)
    assert not result.get("failed"), result
    pinned = load(run)["pinned"]
    assert pinned["web-1"] == {"id": "web-1-point-old", "date_time": earlier}
    assert sorted(pinned) == (["web-1"] if inputs.get("machines") or inputs.get("exclude") else ["db-1", "web-1"])


@pytest.mark.parametrize("value, message", [
    ("before:2026-11-25", "is a date without a time"), ("before:2026-11-25T03:00", "has no Z or offset"),
    ("yesterday", "must be latest, before:<date-time>"),
])
def test_a_moment_a_person_could_mean_two_ways_is_refused_before_signing_in(value, message):
    modules = Modules()
    result = step(phases.begin, modules, runbook="failover", project="production", launch_type="recovery", point_in_time=value)
    assert result["failed"] and message in result["msg"] and "Nothing was launched" in result["msg"] and modules.calls == []


# -- resume ---------------------------------------------------------------------------------------


def test_resume_follows_an_earlier_cleanup_then_cleans_up_what_is_left(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1", replica="r1", launched_at=T1)],
         [job("j2", ["web-1"], job_type="CLEANUP", status="STARTED", created=T2), job("j1", ["web-1"])])
    modules = Modules(service_job_info={"job": job("j2", ["web-1"], job_type="CLEANUP"), "progress": {}},
                      service_replica_cleanup={"removed_machines": ["web-1"], "job": job("j3", ["web-1"], job_type="CLEANUP", status="STARTED")})
    modules.answers["service_job_info"] = [{"job": job("j2", ["web-1"], job_type="CLEANUP"), "progress": {}},
                                           {"job": job("j3", ["web-1"], job_type="CLEANUP"), "progress": {}}]
    result = step(phases.resume, modules, run=run, session="s3ss10n")
    assert result["cleaned"] == ["web-1"]
    assert [args["job"] for args in modules.called("service_job_info")] == ["j2", "j3"]
    assert modules.called("service_replica_cleanup")[0]["replicas"] == ["r1"]
    messages = load(run)["earlier"]["messages"]
    assert messages[0].startswith("the cleanup job j2 of an earlier run was followed to its end")


# -- the safety lever -----------------------------------------------------------------------------


def test_a_rehearsal_begun_under_an_engaged_lever_is_cancelled_before_its_first_write(tmp_path):
    run = begin(tmp_path)
    result = read(run, [machine("web-1")], service_safety_lever=ENGAGED_LEVER, service_machine_tags=lambda args: pytest.fail("a write"))
    assert result["failed"] and result.get("stopped_because", result["msg"]) == (
        "Cancelled: the safety lever of project production is engaged by on-call at 2026-11-22T10:02:00Z: INC-7: payments.")
    # It read what an earlier run may have left (nothing), and wrote nothing; the lever by the project's ID the machines'
    # read found, so that the project is not looked up by name once more.
    assert result["calls"] == [("service_job_info", {"session": "s3ss10n", "project": "production", "limit": 50}), result["calls"][1],
                               ("service_safety_lever", {"session": "s3ss10n", "project": "p-id"})]
    assert result["calls"][1][0] == "service_machine_info"
    record = load(run)
    assert record["lever"]["obeyed"] is True and record["failure"]["phase"] == "preflight"
    assert outcome_of(record, "failed") == "cancelled"
    assert "once the lever is released" in next_run(record, "cancelled")


def test_under_an_engaged_lever_a_rerun_takes_up_what_a_stopped_run_launched_cleans_it_up_and_launches_nothing_more(tmp_path, capsys):
    run = begin(tmp_path, waves="web-*; db-*")
    # A stopped run of this DR test launched wave 1 (web-1), which is up; the lever was engaged since.
    earlier = [job("j0", ["web-1"], created=T0)]
    result = read(run, [machine("web-1", replica="web-1-target", launched_at=T1), machine("db-1")], jobs=earlier,
                  service_safety_lever=ENGAGED_LEVER)
    assert not result.get("failed"), result
    assert "this run takes them up and cleans up, and launches nothing more" in capsys.readouterr().out
    modules = Modules(service_safety_lever=ENGAGED_LEVER, service_launch={"job": job("j0", ["web-1"]), "launched": launched("web-1")})
    assert not step(phases.launch, modules, run=run, session="s3ss10n", wave=1).get("failed")  # wave 1 adopted, for the cleanup
    record = load(run)
    record["view"]["web-1"] = {"running": True}  # as the look saw it: wave 1 passed
    save(run, record)
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=2)
    assert result["failed"] and "Nothing was launched after it" in result.get("stopped_because", result["msg"])
    record = load(run)
    assert record["waves"][0]["adopted"] and "web-1" in record["launched"] and record["waves"][1]["status"] == "not launched"
    assert not [args for args in modules.called("service_launch") if "machines" in args]  # no launch request: it only read j0's outcome
    assert not modules.called("service_safety_lever")  # seen engaged as the run began: not read again


def test_a_lever_read_just_now_is_not_read_again_before_the_launch_but_at_each_look_at_its_job(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1")])
    running = {"job": job("j1", ["web-1"], status="STARTED"), "progress": dict(machines=1, done=0, running=1, failed=0)}
    modules = Modules(service_launch=[{"job": job("j1", ["web-1"], status="STARTED")}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}],
                      service_job_info=[running, {"job": job("j1", ["web-1"])}])
    assert not step(phases.launch, modules, run=run, session="s3ss10n", wave=1).get("failed")
    # ... and at the look that saw the job end too: a job shorter than the progress interval is watched all the same.
    assert [name for name, unused in modules.calls] == ["service_launch", "service_job_info", "service_safety_lever", "service_job_info",
                                                        "service_safety_lever", "service_launch"]


def test_a_failover_begun_under_an_engaged_lever_goes_on_and_says_so(tmp_path, capsys):
    run = begin(tmp_path, runbook="failover", title="Failover", launch_type="recovery")
    result = read(run, [machine("web-1")], service_safety_lever=ENGAGED_LEVER)
    assert not result.get("failed"), result
    record = load(run)
    assert record["lever"]["obeyed"] is False and record["to_launch"] == ["web-1"] and not record.get("failure")
    assert "INC-7: payments. It holds back rehearsals only: the failover goes on." in capsys.readouterr().out


def lever_read_long_ago(run):
    """The run's read of the safety lever, aged past LEVER_FRESH_SECONDS: the launch reads it again."""
    record = load(run)
    record["stop_when"]["lever_read"] -= _run_launch.LEVER_FRESH_SECONDS + 1
    save(run, record)


def test_before_a_later_wave_the_lever_is_read_again_however_recently_a_look_read_it(tmp_path):
    run = begin(tmp_path, waves="web-*; db-*")
    read(run, [machine("web-1"), machine("db-1")])
    modules = Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}])
    assert not step(phases.launch, modules, run=run, session="s3ss10n", wave=1).get("failed")
    assert not modules.called("service_safety_lever")  # read as the run began, a moment ago
    record = load(run)
    record["view"]["web-1"] = {"running": True}
    save(run, record)
    modules = Modules(service_safety_lever=ENGAGED_LEVER)
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=2)
    assert result["failed"] and [name for name, unused in modules.calls] == ["service_safety_lever"]  # read, and nothing launched


def test_a_rehearsal_that_finds_the_lever_engaged_before_a_wave_launches_nothing_more(tmp_path):
    run = begin(tmp_path, waves="web-*; db-*")
    read(run, [machine("web-1"), machine("db-1")])
    lever_read_long_ago(run)
    modules = Modules(service_safety_lever=ENGAGED_LEVER)
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["failed"] and result.get("stopped_because", result["msg"]).startswith(
        "Stopped: the safety lever of project production is engaged by on-call"), result
    assert [name for name, unused in modules.calls] == ["service_safety_lever"]  # nothing launched
    record = load(run)
    assert [wave["status"] for wave in record["waves"]] == ["not launched", "not launched"] and record["lever"]["seen"]
    assert outcome_of(record, "failed") == "stopped"


def test_a_rehearsal_whose_lever_is_engaged_while_its_job_runs_follows_the_job_to_its_end_records_it_and_stops(tmp_path):
    run = begin(tmp_path, waves="web-*; db-*")
    read(run, [machine("web-1"), machine("db-1")])
    lever_read_long_ago(run)
    # Released before the launch, engaged at the first look at the running job: read no more after that.
    modules = Modules(service_safety_lever=[RELEASED_LEVER, ENGAGED_LEVER],
                      service_launch=[{"job": job("j1", ["web-1"], status="STARTED")},
                                      {"job": job("j1", ["web-1"]), "launched": launched("web-1")}],
                      service_job_info=[{"job": job("j1", ["web-1"], status="STARTED"), "progress": dict(machines=1, done=0, running=1, failed=0)},
                                        {"job": job("j1", ["web-1"])}])
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["failed"] and "Nothing was launched after it" in result.get("stopped_because", result["msg"]), result
    assert [name for name, unused in modules.calls] == ["service_safety_lever", "service_launch", "service_job_info", "service_safety_lever",
                                                        "service_job_info", "service_launch"]
    record = load(run)
    assert record["launched"]["web-1"]["wave"] == 1 and record["waves"][0]["status"] == "launched"  # the cleanup finds it
    assert record["waves"][1]["status"] == "not launched" and record["failure"]["phase"] == "launch"
    assert outcome_of(record, "failed") == "stopped"


def test_a_failover_never_reads_the_lever_at_its_launch(tmp_path):
    run = begin(tmp_path, runbook="failover", launch_type="recovery")
    read(run, [machine("web-1")])
    modules = Modules(service_safety_lever=ENGAGED_LEVER, service_machine_tags={"changed_machines": []},
                      service_launch=[{"job": job("j1", ["web-1"], job_type="RECOVERY_LAUNCH")},
                                      {"job": job("j1", ["web-1"], job_type="RECOVERY_LAUNCH"), "launched": launched("web-1")}])
    assert not step(phases.launch, modules, run=run, session="s3ss10n", wave=1).get("failed")
    assert not modules.called("service_safety_lever")


# -- stop conditions ------------------------------------------------------------------------------

SHOP = [{"name": "shop", "url": "https://shop.example/health"}]


def answering(monkeypatch, *answers):
    """The probes' HTTP looks answer these, in turn (passed or not); answers the looks made."""
    looks, given = [], list(answers)

    def look(probe):
        looks.append(probe["name"])
        passed = given.pop(0)
        return passed, "answered %s" % (200 if passed else 503)
    monkeypatch.setattr(_stops, "look_at_url", look)
    return looks


def test_a_probe_that_stops_at_its_first_failure_cancels_a_run_before_its_first_write(tmp_path, monkeypatch):
    answering(monkeypatch, False)
    run = begin(tmp_path, stop_when=[dict(SHOP[0], after_failures=1)])
    result = read(run, [machine("web-1")])
    assert result["failed"] and result.get("stopped_because", result["msg"]).startswith(
        "Cancelled: the stop condition shop failed 1 times in a row (answered 503, at ")
    assert [name for name, unused in result["calls"]] == ["service_job_info", "service_machine_info", "service_safety_lever"]
    record = load(run)
    assert outcome_of(record, "failed") == "cancelled" and "once what its stop condition watches is well" in next_run(record, "cancelled")
    assert report_of(record, schema="replication.recovery.dr_test/v1")["stop_conditions"]["stopped_by"]["probe"] == "shop"


def test_a_probe_failing_twice_in_a_row_while_the_job_runs_stops_the_run_once_the_job_ended(tmp_path, monkeypatch):
    looks = answering(monkeypatch, True, True, False, False)  # the read, the launch, then two looks at the running job
    run = begin(tmp_path, waves="web-*; db-*", stop_when=SHOP)
    read(run, [machine("web-1"), machine("db-1")])
    running = {"job": job("j1", ["web-1"], status="STARTED"), "progress": dict(machines=1, done=0, running=1, failed=0)}
    modules = Modules(service_launch=[{"job": job("j1", ["web-1"], status="STARTED")}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}],
                      service_job_info=[running, running, {"job": job("j1", ["web-1"])}])
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["failed"] and "Stopped: the stop condition shop failed 2 times in a row" in result.get("stopped_because", result["msg"])
    assert len(looks) == 4 and len(modules.called("service_job_info")) == 3  # no look at the probe after it stopped the run
    record = load(run)
    assert record["launched"]["web-1"]["wave"] == 1 and [wave["status"] for wave in record["waves"]] == ["launched", "not launched"]
    stops = report_of(record, schema="replication.recovery.dr_test/v1")["stop_conditions"]
    assert [look["passed"] for look in stops["timeline"]] == [True, True, False, False] and stops["probes"][0]["failures_in_a_row"] == 2
    assert outcome_of(record, "failed") == "stopped"


def test_a_machine_outside_the_blast_radius_is_refused_by_name_before_any_write(tmp_path):
    run = begin(tmp_path, blast_radius="web-*, tag:drill")
    modules = Modules(service_job_info={"jobs": []}, service_machine_info=lambda args: {
        "project": {"id": "p-id", "name": "production"}, "service_time": T0,
        "machines": [machine("web-1"), dict(machine("db-1"), tags=["drill"]), machine("erp-1")]})
    result = read(run, [], modules=modules)
    assert result["failed"] and result.get("stopped_because", result["msg"]) == (
        "erp-1 is outside the blast radius (web-*, tag:drill) and would take part: give the run machines within it (or widen it); "
        "nothing was launched.")
    assert [name for name, unused in modules.calls] == ["service_job_info", "service_machine_info", "service_safety_lever"]
    assert outcome_of(load(run), "failed") == "refused"
    run = begin(tmp_path, blast_radius="web-*, tag:drill", machines="web-1, db-1")
    assert not read(run, [machine("web-1"), dict(machine("db-1"), tags=["drill"]), machine("erp-1")]).get("failed")


def test_a_flapping_probe_lets_the_run_go_on(tmp_path, monkeypatch):
    answering(monkeypatch, False, True, False, True, True)  # the look that sees the job end looks too
    run = begin(tmp_path, stop_when=SHOP)
    read(run, [machine("web-1")])
    running = {"job": job("j1", ["web-1"], status="STARTED"), "progress": dict(machines=1, done=0, running=1, failed=0)}
    modules = Modules(service_launch=[{"job": job("j1", ["web-1"], status="STARTED")}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}],
                      service_job_info=[running, running, {"job": job("j1", ["web-1"])}])
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert not result.get("failed") and result["launched"] == 1
    assert load(run)["stop_when"]["stopped_by"] is None


# -- launch ---------------------------------------------------------------------------------------


def test_a_wave_is_launched_followed_and_what_it_launched_recorded(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1"), machine("db-1")])
    # The job ended: service_job_info counts no machines of it (progress_when_ended), which the outcome reads anyway.
    modules = Modules(service_launch=[{"job": job("j1", ["web-1", "db-1"], status="STARTED")},
                                      {"job": job("j1", ["web-1", "db-1"]), "launched": launched("web-1", "db-1")}],
                      service_job_info={"job": job("j1", ["web-1", "db-1"])})
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["launched"] == 2 and result["next_wave"] is None and result["job"] == {"id": "j1", "status": "COMPLETED"}
    followed = modules.called("service_job_info")[0]
    assert followed["progress"] is True and followed["progress_when_ended"] is False
    started, outcome = modules.called("service_launch")
    assert started["machines"] == ["web-1-id", "db-1-id"] and started["force"] is True and started["wait"] is False
    # Launched from the points pinned when the run began; the outcome reads no point again (the record has their times).
    assert started["points_in_time"] == {"web-1-id": "web-1-point", "db-1-id": "db-1-point"} and started["check_points"] is False
    assert started["session"] == "s3ss10n" and outcome == {"session": "s3ss10n", "project": "p-id", "job": "j1", "check_points": False}
    record = load(run)
    assert record["launched"]["web-1"]["target"]["machineCloudId"] == "i-web-1" and record["waves"][0]["status"] == "launched"
    assert record["launched"]["web-1"]["point_in_time"] == {"id": "web-1-point", "date_time": T0} and result["changed"] is True


NETWORK = {"subnets": ["isolated-a"], "security_groups": ["isolated"], "public_ip_action": "DONT_ALLOCATE"}
TESTED_IN = {"subnetIDs": ["subnet-7"], "securityGroupIDs": ["sg-7"], "publicIPAction": "DONT_ALLOCATE"}


def network_answer(switched=(), restored=(), refused=None):
    return {"switched": dict((name, TESTED_IN) for name in switched), "restored": list(restored), "refused": refused or {},
            "still_switched": list(switched), "kept": [], "diff": {"before": {}, "after": {}}}


def test_with_a_test_network_the_blueprints_are_switched_just_before_the_launch_and_put_back_once_it_ended(tmp_path):
    run = begin(tmp_path, test_network=json.dumps(NETWORK))
    read(run, [machine("web-1"), machine("db-1")])
    modules = Modules(service_test_network=[network_answer(switched=["db-1", "web-1"]), network_answer(restored=["db-1", "web-1"])],
                      service_launch=[{"job": job("j1", ["web-1", "db-1"])}, {"job": job("j1", ["web-1", "db-1"]), "launched": launched("web-1", "db-1")}])
    step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    # The second service_launch reads what the ended job launched: the put back comes once it ended.
    # The lever read as the run began is fresh: not read again before the launch.
    assert [name for name, args in modules.calls] == ["service_test_network", "service_launch", "service_test_network", "service_launch"]
    switch, put_back = modules.called("service_test_network")
    assert switch["state"] == "switched" and switch["network"] == NETWORK and sorted(switch["machines"]) == ["db-1", "web-1"]
    assert put_back["state"] == "restored" and "network" not in put_back
    record = load(run)
    assert record["test_network"]["tested_in"] == {"db-1": TESTED_IN, "web-1": TESTED_IN} and record["test_network"]["restored"] == ["db-1", "web-1"]
    machines = report_of(record, "")["machines"]
    assert [m["test_network"] for m in machines] == [TESTED_IN, TESTED_IN]
    assert [c for c in report_of(record, "")["checks"] if c["name"] == "test network"][0]["status"] == "passed"


def test_each_wave_switches_with_the_overrides_of_its_own_machines_and_overrides_must_name_machines_of_the_project(tmp_path):
    network = dict(NETWORK, machines={"db-1": {"private_ip_action": "CUSTOM_IP", "private_ips": ["172.16.0.10"]}})
    run = begin(tmp_path, waves="db-1; web-1", test_network=network)
    read(run, [machine("web-1"), machine("db-1")])
    for wave, name in ((1, "db-1"), (2, "web-1")):
        modules = Modules(service_test_network=[network_answer(switched=[name]), network_answer(restored=[name])],
                          service_launch=[{"job": job("j%d" % wave, [name])}, {"job": job("j%d" % wave, [name]), "launched": launched(name)}],
                          service_point_in_time_info=points_info())  # wave 2's points read again: none thinned out
        step(phases.launch, modules, run=run, session="s3ss10n", wave=wave)
        switched = modules.called("service_test_network")[0]
        assert switched["machines"] == [name]
        assert switched["network"] == (dict(NETWORK, machines={"db-1": network["machines"]["db-1"]}) if name == "db-1" else NETWORK)
        record = load(run)
        record["view"][name] = {"running": True}  # as the look sees it
        save(run, record)
    run = begin(tmp_path, test_network=dict(NETWORK, machines={"db-9": {"private_ips": ["172.16.0.10"]}}))
    result = read(run, [machine("web-1"), machine("db-1")])
    assert result["failed"] and "The test network's machines name db-9, not machines of project production" in result["msg"]


def test_a_machine_whose_blueprint_cannot_take_the_test_network_stops_the_wave_before_its_launch(tmp_path):
    run = begin(tmp_path, test_network=NETWORK)
    read(run, [machine("web-1")])
    modules = Modules(service_test_network=network_answer(refused={"web-1": "its blueprint has no iamRole"}))
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["failed"] and "web-1: its blueprint has no iamRole" in result["msg"] and not modules.called("service_launch")


def test_a_test_network_is_refused_for_a_recovery_that_stays(tmp_path):
    result = step(phases.begin, Modules(service_login={"session": "s", "user": {"username": USER}}), runbook="failover", project="production",
                  launch_type="recovery", test_network=NETWORK)
    assert result["failed"] and "a test network is for test launches and a failover that rolls back, not recovery machines that stay" in result["msg"]
    result = step(phases.begin, Modules(), runbook="dr_test", project="production", test_network={"subnet": ["a"]})
    assert result["failed"] and "test_network has no option subnet" in result["msg"]


def test_a_failover_that_rolls_back_launches_into_the_test_network_and_rehearses(tmp_path):
    run = begin(tmp_path, runbook="failover", title="Failover", launch_type="recovery", roll_back=True, test_network=NETWORK, on_failed_over="stand")
    record = load(run)
    assert record.rehearses and record["kind"] == "recovery"
    read(run, [machine("web-1")])
    modules = Modules(service_test_network=[network_answer(switched=["web-1"]), network_answer(restored=["web-1"])],
                      service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}])
    step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert [name for name, args in modules.calls] == ["service_test_network", "service_launch", "service_test_network", "service_launch"]
    assert modules.called("service_launch")[0]["launch_type"] == "recovery"
    assert load(run)["test_network"]["restored"] == ["web-1"]
    # A rehearsal: begun under an engaged lever, it is cancelled before its first write.
    run = begin(tmp_path, runbook="failover", title="Failover", launch_type="recovery", roll_back=True, test_network=NETWORK, on_failed_over="stand")
    result = read(run, [machine("web-1")], service_safety_lever=ENGAGED_LEVER)
    assert result["failed"] and result["msg"].startswith("Cancelled: the safety lever of project production is engaged"), result
    # Without a test network, a failover that rolls back is a failover: the lever does not hold it back.
    assert not load(begin(tmp_path, runbook="failover", title="Failover", launch_type="recovery", roll_back=True)).rehearses


def test_blueprints_an_earlier_run_left_switched_are_put_back_first_and_one_changed_since_stops_the_run(tmp_path):
    run = begin(tmp_path, runbook="failover", launch_type="recovery")
    read(run, [machine("web-1"), machine("db-1")], launch_settings=dict(SETTINGS_HOLD, switched=["db-1", "web-1"]))
    modules = Modules(service_test_network=network_answer(restored=["db-1", "web-1"]))
    step(phases.resume, modules, run=run, session="s3ss10n")
    assert modules.called("service_test_network")[0]["machines"] == ["db-1", "web-1"]
    assert any("put back the blueprints of db-1, web-1" in message for message in load(run)["earlier"]["messages"])
    run = begin(tmp_path, runbook="failover", launch_type="recovery")
    read(run, [machine("web-1")], launch_settings=dict(SETTINGS_HOLD, switched=["web-1"]))
    result = step(phases.resume, Modules(service_test_network=network_answer(refused={"web-1": "somebody changed it"})), run=run, session="s")
    assert result["failed"] and "web-1: somebody changed it" in result["msg"] and "Nothing was launched" in result["msg"]


def test_a_wave_an_earlier_run_launched_is_adopted_not_launched_again(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1", replica="r1", launched_at=T1)], [job("j1", ["web-1"])])
    modules = Modules(service_launch={"job": job("j1", ["web-1"]), "launched": launched("web-1")})
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["launched"] == 1
    assert modules.called("service_launch") == [{"session": "s3ss10n", "project": "p-id", "job": "j1"}]  # only what it launched
    record = load(run)
    assert record["waves"][0]["adopted"] is True
    assert record["earlier"]["messages"] == ["wave 1: adopted the launch job j1 of an earlier run, created %s" % T0]


def test_an_adopted_machine_whose_blueprint_was_put_back_since_is_not_judged_by_a_public_address_it_may_not_have(tmp_path):
    # A rehearsal in a test network, killed while its launch job ran; another run (a failover refused beside it) put back
    # the blueprint the killed run left switched. Run again, the rehearsal adopts the launch: where its machine was
    # launched, the blueprint no longer says - the public address is not judged (its checks judge it), nothing switched.
    run = begin(tmp_path, test_network=NETWORK)
    read(run, [machine("web-1", replica="r1", launched_at=T1)], [job("j1", ["web-1"])])
    modules = Modules(service_launch={"job": job("j1", ["web-1"]), "launched": launched("web-1")}, service_test_network=network_answer())
    step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    record = load(run)
    assert record["waves"][0]["adopted"] is True and record["test_network"]["unseen"] == ["web-1"] and record["test_network"]["tested_in"] == {}
    assert [args["state"] for args in modules.called("service_test_network")] == ["restored"]  # nothing switched; none to put back
    record["view"]["web-1"] = {"running": True, "cloud_id": "i-web-1", "public_ips": []}
    checks = dict((c["name"], c) for c in report_of(record, "")["machines"][0]["checks"])
    assert checks["public address"]["status"] == "skipped" and "no longer says the network it was launched into" in checks["public address"]["message"]
    record["view"]["web-1"]["public_ips"] = ["203.0.113.9"]  # one it has is one it has
    assert dict((c["name"], c) for c in report_of(record, "")["machines"][0]["checks"])["public address"]["status"] == "passed"


def test_a_wave_larger_than_a_job_may_take_goes_out_in_several_jobs_and_a_run_again_adopts_them_job_by_job(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_LIMITS", '{"servers_per_job": 2}')  # as an AWX credential gives it
    run = begin(tmp_path)
    read(run, [machine("m-1"), machine("m-2"), machine("m-3")])
    assert load(run)["waves"][0]["parts"] == [["m-1", "m-2"], ["m-3"]]
    modules = Modules(service_launch=[{"job": job("j1", ["m-1", "m-2"])}, {"job": job("j1", ["m-1", "m-2"]), "launched": launched("m-1", "m-2")},
                                      {"job": job("j2", ["m-3"], created=T1)}, {"job": job("j2", ["m-3"], created=T1), "launched": launched("m-3")}])
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert result["launched"] == 3 and result["jobs"] == [{"id": "j1", "status": "COMPLETED"}, {"id": "j2", "status": "COMPLETED"}]
    assert [args["machines"] for args in modules.called("service_launch") if "machines" in args] == [["m-1-id", "m-2-id"], ["m-3-id"]]
    wave = load(run)["waves"][0]
    assert [job["id"] for job in wave["jobs"]] == ["j1", "j2"] and wave["status"] == "launched" and wave["job"]["creationDateTime"] == T0
    assert load(run)["launched"]["m-3"]["requested"] == T1  # its own job's request
    # Stopped after the first job: a run again adopts it and launches the second only.
    again = begin(tmp_path)
    read(again, [machine("m-1", replica="r1", launched_at=T1), machine("m-2", replica="r2", launched_at=T1), machine("m-3")],
         [job("j1", ["m-1", "m-2"])])
    assert load(again)["earlier"]["adopted"]["0"][0]["id"] == "j1"
    modules = Modules(service_launch=[{"job": job("j1", ["m-1", "m-2"]), "launched": launched("m-1", "m-2")}, {"job": job("j3", ["m-3"])},
                                      {"job": job("j3", ["m-3"]), "launched": launched("m-3")}])
    result = step(phases.launch, modules, run=again, session="s3ss10n", wave=1)
    assert [args.get("machines") for args in modules.called("service_launch")] == [None, ["m-3-id"], None] and result["changed"] is True
    assert [(job["id"], job["adopted"]) for job in load(again)["waves"][0]["jobs"]] == [("j1", True), ("j3", False)]


def test_a_job_of_a_wave_that_failed_as_a_whole_stops_the_wave_later_jobs_not_sent(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_LIMITS", '{"servers_per_job": 1}')
    run = begin(tmp_path)
    read(run, [machine("m-1"), machine("m-2")])
    failed = job("j1", ["m-1"], status="FAILED")
    modules = Modules(service_launch=[{"job": failed}, {"job": failed, "launched": [], "failed_machines": ["m-1"], "failed": True, "msg": "m-1 failed"}])
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=1)
    assert [args["machines"] for args in modules.called("service_launch") if "machines" in args] == [["m-1-id"]]
    wave = load(run)["waves"][0]
    assert wave["status"] == "failed" and wave["message"] == "TEST_LAUNCH j1 FAILED; the wave's later jobs were not sent"
    assert result["jobs"] == [{"id": "j1", "status": "FAILED"}] and result["failed_machines"] == ["m-1"]


def test_a_limit_that_is_no_number_stops_the_run_before_anything_is_sent(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_LIMITS", '{"servers_per_job": "all"}')
    result = read(begin(tmp_path), [machine("m-1")])
    assert result["failed"] and "service_limits.servers_per_job must be a whole number of 1 or more, not 'all'. Nothing was sent." in result["msg"]


EARLIER_POINT = "2026-11-22T09:40:00.000000+00:00"


def pin_mark(name, point_id, moment=EARLIER_POINT, run="20261122T094500Z", runbook="dr_test"):
    return "replication.recovery/pin=%s:%s:%s:%s" % (runbook, run, point_id, compact_moment(moment))


def test_a_run_of_several_waves_keeps_its_pinned_points_in_the_service_one_write_and_one_wave_keeps_none(tmp_path):
    run = begin(tmp_path, waves="db-*; web-*")
    modules = Modules(service_machine_info=lambda args: {"project": {"id": "p-id", "name": "production"}, "service_time": T0,
                                                         "machines": [machine("web-1"), machine("db-1")]},
                      service_job_info={"jobs": []}, service_point_in_time_info=points_info(), service_machine_tags={"changed_machines": []})
    assert not read(run, [], modules=modules).get("failed")
    [marked] = modules.called("service_machine_tags")
    assert marked["tags"] == {"db-1-id": [pin_mark("db-1", "db-1-point", T0, "20261122T100000Z")],
                              "web-1-id": [pin_mark("web-1", "web-1-point", T0, "20261122T100000Z")]}
    assert load(run)["pins_from"] == {"run": "20261122T100000Z", "marked": True}
    one = Modules(service_machine_info=modules.answers["service_machine_info"][0], service_job_info={"jobs": []},
                  service_point_in_time_info=points_info())
    assert not read(begin(tmp_path), [], modules=one).get("failed") and one.called("service_machine_tags") == []  # unexpected otherwise


def test_a_run_that_adopts_a_stopped_run_launches_the_rest_from_the_points_it_pinned_and_marks_nothing_anew(tmp_path):
    db = dict(machine("db-1", replica="r1", launched_at=T1), tags=[pin_mark("db-1", "db-1-point-old")])
    web = dict(machine("web-1"), tags=[pin_mark("web-1", "web-1-point-old"), "owner=dr"])
    listed = {"web-1": [point("web-1", T0, "-new"), point("web-1", EARLIER_POINT, "-old")]}
    run = begin(tmp_path, waves="db-*; web-*")
    result = read(run, [db, web], [job("j1", ["db-1"])], points=listed)
    assert not result.get("failed") and result["adopted"] == [1]
    record = load(run)
    assert record["pinned"]["web-1"] == {"id": "web-1-point-old", "date_time": EARLIER_POINT}  # not the newest, pinned anew
    assert record["pinned"]["db-1"]["id"] == "db-1-point-old" and record["pins_from"]["run"] == "20261122T094500Z"
    # Run again with other waves (one wave of both): the stopped run's launch is wave 1, as it was launched, and web-1 follows.
    run = begin(tmp_path, waves="db-*,web-*")
    result = read(run, [db, web], [job("j1", ["db-1"])], points=listed)
    assert not result.get("failed") and result["adopted"] == [1] and result["waves"] == [1, 1]
    assert [wave["machines"] for wave in load(run)["waves"]] == [["db-1"], ["web-1"]]
    assert load(run)["pinned"]["web-1"]["id"] == "web-1-point-old"
    # Asked for another point than the one it pinned: refused, naming it, before anything is written.
    run = begin(tmp_path, waves="db-*; web-*", point_in_time="web-1=web-1-point-new")
    refused = read(run, [db, web], [job("j1", ["db-1"])], points=listed)
    assert refused["failed"] and "nothing was launched" in refused["msg"]
    assert "web-1: pinned 2026-11-22T09:40:00Z (web-1-point-old) by the run it adopts; asked web-1=web-1-point-new, which is " \
           "2026-11-22T10:00:00Z (web-1-point-new)" in refused["msg"]


def test_a_launch_that_ends_between_the_reads_of_the_jobs_and_the_machines_is_adopted(tmp_path):
    # The service moves on between two requests: whichever is read first sees the launch job running
    # and no target machine yet; the second sees the job ended and the machine up.
    reads = []

    def seen(before, after):
        def answer(unused_args):
            reads.append(before)
            return after if len(reads) > 1 else before
        return answer

    run = begin(tmp_path)
    result = step(phases.read, Modules(
        service_job_info=seen({"jobs": [job("j1", ["web-1"], status="STARTED", ended=None)]}, {"jobs": [job("j1", ["web-1"])]}),
        service_machine_info=seen(dict(project={"id": "p-id", "name": "production"}, service_time=T0, machines=[machine("web-1")]),
                                  dict(project={"id": "p-id", "name": "production"}, service_time=T1,
                                       machines=[machine("web-1", replica="r1", launched_at=T1)]))), run=run, session="s3ss10n")
    assert result["adopted"] == [1] and result["to_clean"] == []
    assert load(run)["earlier"]["adopted"]["0"][0]["id"] == "j1"


def test_after_a_wave_that_failed_no_wave_is_launched(tmp_path):
    run = begin(tmp_path, waves="db-1; web-1")
    read(run, [machine("web-1"), machine("db-1")])
    failed = dict(job("j1", ["db-1"], status="FAILED"), log=[{"message": "db-1: conversion failed."}])
    step(phases.launch, Modules(service_launch=[{"job": job("j1", ["db-1"])},
                                                {"failed": True, "msg": "Launch job j1 FAILED", "job": failed, "failed_machines": ["db-1"],
                                                 "launched": []}]), run=run, session="s3ss10n", wave=1)
    modules = Modules()
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=2)
    assert modules.calls == [] and result["next_wave"] is None
    assert result["stopped"] == "wave 1 failed: db-1 did not launch"
    record = load(run)
    assert record["failed_machines"] == {"db-1": "db-1: conversion failed."}
    assert [wave["status"] for wave in record["waves"]] == ["failed", "not launched"]
    again = step(phases.launch, modules, run=run, session="s3ss10n", wave=2)  # the role in one play asks again: said once
    assert modules.calls == [] and again["stopped"] == "wave 1 failed: db-1 did not launch"


def test_a_task_of_yours_that_stopped_the_run_stops_this_wave_and_every_later_one(tmp_path):
    run = begin(tmp_path, waves="db-1; app-1; web-1")
    read(run, [machine("web-1"), machine("app-1"), machine("db-1")])
    step(phases.launch, Modules(service_launch=[{"job": job("j1", ["db-1"])}, {"job": job("j1", ["db-1"]), "launched": launched("db-1")}]),
         run=run, session="s3ss10n", wave=1)
    modules = Modules()
    stopped = dict(task="your tasks after wave 1 (Check the database)", message="the database answers with yesterday's orders")
    result = step(phases.launch, modules, run=run, session="s3ss10n", wave=2, stopped=stopped)
    assert modules.calls == [] and result["next_wave"] is None
    said = "not launched: the run stopped at your tasks after wave 1 (Check the database)"
    assert result["stopped"] == said
    record = load(run)
    assert record["failure"] == {"phase": "run", "task": "your tasks after wave 1 (Check the database)",
                                 "message": "your tasks after wave 1 (Check the database): the database answers with yesterday's orders"}
    assert [(wave.get("status"), wave.get("message")) for wave in record["waves"]] == [("launched", ""), ("not launched", said), ("not launched", said)]


def test_a_task_that_stopped_the_run_does_not_hide_a_failure_a_step_recorded(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1")], jobs=[job("j0", ["web-1"], status="STARTED", by="someone@example.test")])
    assert load(run)["failure"]["phase"] == "preflight"
    result = step(phases.launch, Modules(), run=run, session="s3ss10n", wave=1, stopped=dict(task="Read", message="it failed"))
    assert result["stopped"] == "not launched: the run stopped in preflight" and load(run)["failure"]["phase"] == "preflight"


def test_in_check_mode_a_wave_says_what_it_would_launch(tmp_path):
    run = begin(tmp_path, waves="db-1; web-1")
    read(run, [machine("web-1"), machine("db-1")])
    for wave, name in ((1, "db-1"), (2, "web-1")):
        result = step(phases.launch, Modules(service_launch={"would_launch": [name]}, service_point_in_time_info=points_info()), check_mode=True,
                      run=run, session="s", wave=wave)
        assert result["would_launch"] == [name] and result["changed"] is True  # under --check, a change where the run would launch
    assert load(run)["predicted"] == ["db-1", "web-1"]


# -- look, checks ---------------------------------------------------------------------------------


def test_look_waits_for_the_machines_that_do_not_run_and_makes_hosts(tmp_path, waits):
    run = begin(tmp_path, checks_tasks="/checks.yml", boot_timeout=30)
    read(run, [machine("web-1"), machine("db-1")])
    pending = [dict(entry, target_machine=dict(entry["target_machine"], machineCloudState="pending")) if entry["machine_name"] == "db-1"
               else entry for entry in launched("web-1", "db-1")]
    step(phases.launch, Modules(service_launch=[{"job": job("j1", ["web-1", "db-1"])}, {"job": job("j1", ["web-1", "db-1"]), "launched": pending}]),
         run=run, session="s", wave=1)
    modules = Modules(service_machine_info={"service_time": T2, "machines": [dict(machine("db-1"), target_machine=target("db-1"))]})
    result = step(phases.look, modules, run=run, session="s", wave=1)
    assert result["running"] == 2 and result["to_check"] == 2
    assert modules.called("service_machine_info")[0]["machines"] == ["db-1-id"]
    view = load(run)["view"]
    assert view["web-1"]["up"] == T1 and view["db-1"]["up"] == T2
    assert [host["name"] for host in result["hosts"]] == ["dr-test-production/web-1", "dr-test-production/db-1"]
    assert waits == [1]  # one look after the poll interval


def test_a_lever_engaged_while_the_machines_boot_stops_the_run_before_the_checks(tmp_path, waits, monkeypatch):
    # The boot wait lasts up to the boot timeout: the lever is looked at there too, a progress interval apart at most.
    monkeypatch.setattr(_stops, "time", MagicMock(time=_wait.monotonic))
    run = begin(tmp_path, checks_tasks="/checks.yml", boot_timeout=600, progress_interval=5)
    read(run, [machine("web-1")])
    booting = [dict(entry, target_machine=dict(entry["target_machine"], machineCloudState="pending")) for entry in launched("web-1")]
    step(phases.launch, Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": booting}]),
         run=run, session="s", wave=1)
    still_booting = [dict(machine("web-1"), target_machine=dict(target("web-1"), machineCloudState="pending"))]
    modules = Modules(service_safety_lever=[RELEASED_LEVER, ENGAGED_LEVER], service_machine_info={"service_time": T2, "machines": still_booting})
    result = step(phases.look, modules, run=run, session="s", wave=1)
    assert result["failed"] and result.get("stopped_because", result["msg"]).startswith(
        "Stopped: the safety lever of project production is engaged by on-call")
    # Read before the checks, then not again until the progress interval had passed: 5 looks at the machines, then it.
    assert len(modules.called("service_safety_lever")) == 2 and len(modules.called("service_machine_info")) == 4 and sum(waits) == 5
    record = load(run)
    assert record["lever"]["phase"] == "the checks of wave 1" and record["lever"]["obeyed"] and record["failure"]["phase"] == "checks"


def test_a_machines_checks_are_written_beside_the_record_and_read_by_the_report(tmp_path):
    run = begin(tmp_path, checks_tasks="/checks.yml")
    checked_dir = load(run)["checked_dir"]
    result = step(runbook_checked, Modules(), checked_dir=checked_dir, machine="web-1", machine_id="web-1-id", began=T0, passed=True,
                  message="checks.yml passed")
    assert result["checked"]["passed"] is True
    assert json.load(open(os.path.join(checked_dir, "web-1-id.json")))["machine"] == "web-1"


# -- clean up, report -----------------------------------------------------------------------------


def launched_run(tmp_path, **inputs):
    run = begin(tmp_path, **inputs)
    read(run, [machine("web-1"), machine("db-1")])
    step(phases.launch, Modules(service_launch=[{"job": job("j1", ["web-1", "db-1"])},
                                                {"job": job("j1", ["web-1", "db-1"]), "launched": launched("web-1", "db-1")}]),
         run=run, session="s", wave=1)
    step(phases.look, Modules(), run=run, session="s", wave=1)
    return run


def test_clean_up_removes_what_the_run_started_and_the_job_proves_it(tmp_path):
    run = launched_run(tmp_path)
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1", "db-1"], "job": job("j2", ["web-1", "db-1"], job_type="CLEANUP")})
    result = step(runbook_clean_up, modules, run=run, session="s")
    assert result["removed"] == ["web-1", "db-1"]
    assert modules.called("service_replica_cleanup")[0]["replicas"] == ["web-1", "db-1"]
    # The cleanup job completed naming every machine of the run: their target machines are gone without a read.
    assert modules.called("service_machine_info") == []
    assert load(run)["cleanup"]["status"] == "passed"


def test_a_cleanup_job_that_names_not_every_machine_is_proven_by_reading_them(tmp_path):
    run = launched_run(tmp_path)
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1", "db-1"], "job": job("j2", ["db-1"], job_type="CLEANUP")},
                      service_machine_info={"machines": [machine("web-1"), machine("db-1")]})
    result = step(runbook_clean_up, modules, run=run, session="s")
    assert result["removed"] == ["web-1", "db-1"] and load(run)["cleanup"]["status"] == "passed"
    assert modules.called("service_machine_info")[0]["machines"] == ["web-1", "db-1"]


def test_a_machine_still_there_after_the_cleanup_fails_it(tmp_path):
    run = launched_run(tmp_path)
    # The job leaves web-1 out: the read finds its test machine still there.
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1", "db-1"], "job": job("j2", ["db-1"], job_type="CLEANUP")},
                      service_machine_info={"machines": [machine("web-1", replica="r9", launched_at=T2), machine("db-1")]})
    result = step(runbook_clean_up, modules, run=run, session="s")
    assert result["failed"] and "After the cleanup, 1 machines still have a test machine: web-1" in result["msg"]
    assert load(run)["failure"]["phase"] == "cleanup"


def test_on_failure_the_machines_are_kept_when_asked(tmp_path):
    run = launched_run(tmp_path, keep_on_failure="true", targets={"rto_seconds": 1})
    modules = Modules()
    result = step(runbook_clean_up, modules, run=run, session="s")
    assert result["kept"] == ["web-1", "db-1"] and modules.calls == []


def test_a_committed_run_keeps_what_it_launched(tmp_path):
    run = launched_run(tmp_path)
    modules = Modules()
    result = step(runbook_clean_up, modules, run=run, session="s", keep="yes", kept_because="committed")
    assert result["removed"] == [] and result["kept"] == ["web-1", "db-1"] and modules.calls == []
    assert load(run)["cleanup"] == {"status": "skipped", "kept": ["web-1", "db-1"], "message": "committed: web-1, db-1"}


def test_the_report_is_written_and_the_run_ended(tmp_path):
    run = launched_run(tmp_path)
    record = load(run)
    record["cleanup"] = {"status": "passed", "removed_machines": ["web-1", "db-1"], "message": "terminated"}
    with open(run, "w") as handle:
        json.dump(record, handle)
    result = step(phases.report, Modules(), run=run, report_dir=str(tmp_path / "reports"))
    assert result["outcome"]["result"] == "passed" and "message" not in result
    assert result["lines"][0] == "DR test of production: PASSED. 2 of 2 machines passed."
    assert os.path.exists(str(tmp_path / "reports" / "dr_test_production.junit.xml"))
    assert not os.path.exists(os.path.dirname(run))


def test_a_report_that_cannot_be_written_at_the_end_is_kept_beside_the_runs_and_the_outcome_says_where(tmp_path, monkeypatch):
    run = launched_run(tmp_path)
    reports = str(tmp_path / "reports")
    real = _run_report.write

    def refused_there(report, directory, name, newest=True):
        if directory == reports:
            raise OSError(28, "No space left on device")
        return real(report, directory, name, newest=newest)

    monkeypatch.setattr(_run_report, "write", refused_there)
    result = step(phases.report, Modules(), run=run, report_dir=reports)
    kept = os.path.join(os.path.dirname(os.path.dirname(run)), "replication-recovery-reports")
    assert result["lines"][1] == "The report could not be written in %s ([Errno 28] No space left on device): it is kept in %s." % (reports, kept)
    assert os.path.exists(result["outcome"]["report"]["json"]) and result["outcome"]["report"]["json"].startswith(kept)
    assert not os.path.exists(reports)


def test_in_check_mode_the_report_says_what_would_be_done_and_writes_nothing(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1")])
    result = step(phases.report, Modules(), check_mode=True, run=run, report_dir=str(tmp_path / "reports"))
    assert result["lines"] == ["DR test of production under --check: PLANNED. Would launch 1 machines (web-1). Nothing was launched, and no "
                               "report was written.", "Ledger: %s (the default) (nothing is entered under --check)" % (
                                   tmp_path / "data" / "replication.recovery" / "ledger")]
    assert result["outcome"]["outcome"] == "planned" and "message" not in result
    assert not os.path.exists(str(tmp_path / "reports")) and not os.path.exists(str(tmp_path / "data"))


# -- a recovery plan, and waiting for replication ---------------------------------------------------


def test_a_recovery_plan_is_run_instead_of_a_launch_and_its_steps_machines_recorded(tmp_path):
    run = begin(tmp_path, recovery_plan="tiers")
    plan = {"recovery_plans": [{"id": "plan-id", "name": "tiers", "steps": {"items": [{"name": "db", "machine_names": ["db-1"]},
                                                                                      {"name": "web", "machine_names": ["web-1"]}]}}]}
    read(run, [machine("web-1"), machine("db-1"), machine("app-1")], service_recovery_plan_info=plan)
    record = load(run)
    assert [m["name"] for m in record["machines"]] == ["db-1", "web-1"]  # the plan's machines, in its order
    plan_job = job("j1", ["db-1", "web-1"], job_type="RECOVERY_PLAN_TEST")
    modules = Modules(service_recovery_plan_run=[{"job": plan_job}, {"job": plan_job, "steps": [
        {"name": "db", "machines": launched("db-1")}, {"name": "web", "machines": launched("web-1")}]}])
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    started, outcome = modules.called("service_recovery_plan_run")
    assert started["plan"] == "plan-id" and started["mode"] == "test" and outcome["job"] == "j1"
    assert result["launched"] == 2 and sorted(load(run)["launched"]) == ["db-1", "web-1"]


def test_waiting_for_replication_shows_progress_until_every_machine_is_synced(waits):
    syncing = dict(machine("db-1"), lag_seconds=None, replication_state="initial_sync", sync_percent=45.2)
    synced = dict(machine("db-1"), sync_percent=100.0)
    modules = Modules(service_machine_info=[{"machines": [syncing]}, {"machines": [synced]}])
    result = step(runbook_wait_replication, modules, project="payroll", machines="db-1", poll_interval="1", wait_timeout="60")
    assert result["done"] is True and result["progress"] == ["db-1 continuous 100.0%"]
    assert result["machines"] == [{"id": "db-1-id", "name": "db-1", "replication_state": "continuous", "sync_percent": 100.0,
                                   "lag_seconds": 30, "backlog_bytes": 0}]
    assert [args["machines"] for args in modules.called("service_machine_info")] == [["db-1"], ["db-1"]] and waits == [1.0]


def test_waiting_to_catch_up_says_no_lag_of_a_machine_that_has_none_yet(waits, capsys):
    initiating = dict(machine("db-1"), lag_seconds=None, backlog_bytes=None, replication_state="initiating", sync_percent=0)
    behind = dict(machine("web-1"), lag_seconds=754, backlog_bytes=2048, sync_percent=100.0)
    caught_up = dict(machine("app-1"), backlog_bytes=0, sync_percent=100.0)
    modules = Modules(service_machine_info={"machines": [initiating, behind, caught_up]})
    result = step(runbook_wait_replication, modules, project="payroll", until="caught_up", poll_interval=1, wait_timeout=0)
    said = capsys.readouterr().out
    assert result["failed"]
    assert "1 of 3 machines have caught up; not yet: db-1 initiating (no point in time yet: lag not measured), web-1 continuous, lag " \
           "12 min 34 s, backlog 2048 bytes" in said
    assert "None" not in said


def test_replication_that_does_not_get_there_in_time_fails_naming_each_machine(waits):
    syncing = dict(machine("db-1"), lag_seconds=None, replication_state="initial_sync", sync_percent=45.2)
    result = step(runbook_wait_replication, Modules(service_machine_info={"machines": [syncing]}), project="payroll", poll_interval=1,
                  wait_timeout=0)
    assert result["failed"] and result["msg"] == "The machines did not finish initial sync within 0 seconds: db-1 initial_sync 45.2%"
    modules = Modules(service_machine_info={"machines": [syncing]})
    result = step(runbook_wait_replication, modules, project="payroll", poll_interval=2, wait_timeout=60)
    # Looks further apart each time, never past the timeout, the last one at it.
    assert result["failed"] and waits == [2.0, 3.0, 4.5, 6.75, 10.125, 15.1875, 18.4375] and len(modules.called("service_machine_info")) == 8


def test_waiting_for_hosts_to_register_reads_the_machine_list_once_a_look_for_all_of_them(waits):
    modules = Modules(service_machine_info=[{"machines": [machine("old-1")]}, {"machines": [machine("old-1"), machine("new-1")]},
                                            {"machines": [machine("new-1"), machine("new-2"), dict(machine("new-3"), isAgentInstalled=True)]}])
    result = step(runbook_wait_replication, modules, project="payroll", machines=["new-1", "new-2", "new-3"], until="registered",
                  poll_interval=1, wait_timeout=60)
    assert result["done"] is True and result["progress"] == ["3 of 3 machines registered"]
    assert [args.get("machines") for args in modules.called("service_machine_info")] == [None] * 3 and waits == [1.0, 1.5]


def test_hosts_that_do_not_register_in_time_are_named(waits):
    modules = Modules(service_machine_info={"machines": [machine("new-1"), dict(machine("new-2"), isAgentInstalled=False)]})
    result = step(runbook_wait_replication, modules, project="payroll", machines="new-1,new-2", until="registered", poll_interval=1,
                  wait_timeout=0)
    assert result["failed"] and result["msg"].startswith("These machines did not register within 0 seconds: new-2. ")
    result = step(runbook_wait_replication, Modules(), project="payroll", until="registered")
    assert result["failed"] and result["msg"] == "until=registered needs the machines to wait for."


# -- the failback's step --------------------------------------------------------------------------


def site_machine(name, region, kind="lastRecoveryLaunchDateTime", replica=None):
    found = machine(name)
    replica = replica or "%s-%s" % (name, region)
    found.update(replica=replica, lifeCycle={kind: T1},
                 target_machine={"id": replica, "machine": name + "-id", "machineCloudState": "running", "regionId": region,
                                 "machineCloudId": "i-" + replica})
    return found


def failback_project(reversed_now):
    return {"projects": [{"id": "p-id", "name": "production", "replicationReversed": reversed_now, "sourceRegion": "home"}]}


def reverse(tmp_path, machines, reversed_now, check_mode=False, remove_recovery=False, **modules):
    run = begin(tmp_path, runbook="failback", title="failback", launch_type="cutover")

    def machine_info(args):
        # The list, and the target machines of those asked for (one read each): the ones no mark names.
        listed = [m if args.get("include_target_machine") else dict((k, v) for k, v in m.items() if k != "target_machine")
                  for m in machines if not args.get("machines") or m["id"] in args["machines"]]
        return {"project": {"id": "p-id", "name": "production"}, "service_time": T0, "machines": listed}

    answers = dict(service_project_info=failback_project(reversed_now), service_machine_info=machine_info,
                   service_reverse_replication={"changed": True, "project": {}}, service_machine_tags={"changed": True})
    answers.update(modules)
    called = Modules(**answers)
    result = step(runbook_reverse, called, check_mode=check_mode, run=run, session="s3ss10n", direction="reversed",
                  remove_recovery=remove_recovery)
    return run, result, called


def marked(found, replica):
    return dict(found, tags=["tier-1", "replication.recovery/recovered=%s" % replica])


def test_after_a_failover_the_failback_names_its_recovery_machines_in_the_service_then_reverses(tmp_path):
    run, result, called = reverse(tmp_path, [site_machine("db-1", "away"), site_machine("web-1", "away")], reversed_now=False)
    assert result["stage"] == "reversed" and result["wait"] is True and result["machines"] == ["db-1", "web-1"]
    assert called.called("service_reverse_replication")[0]["direction"] == "reversed"
    # One write names both recovery machines, before the reverse; their target machines were read (no mark named them).
    [tags] = called.called("service_machine_tags")
    assert tags["tags"] == {"db-1-id": ["replication.recovery/recovered=db-1-away"], "web-1-id": ["replication.recovery/recovered=web-1-away"]}
    assert [name for name, unused in called.calls].index("service_machine_tags") < [name for name, unused in called.calls].index(
        "service_reverse_replication")
    assert [args.get("include_target_machine") for args in called.called("service_machine_info")] == [None, True]
    record = load(run)
    assert record["spare"] == ["db-1-away", "web-1-away"] and record["keeps_launched"] is True
    assert [check["name"] for check in record["run_checks"]] == ["reverse"]


def test_marked_by_the_failover_the_recovery_machines_are_known_without_a_read_or_a_write(tmp_path):
    run, result, called = reverse(tmp_path, [marked(site_machine("db-1", "away"), "db-1-away")], reversed_now=False)
    assert result["stage"] == "reversed" and load(run)["failback"]["recovery"]["db-1"]["replica"] == "db-1-away"
    assert not called.called("service_machine_tags") and [args.get("include_target_machine") for args in called.called("service_machine_info")] == [None]


def test_a_failback_under_check_reverses_nothing_writes_no_mark_and_judges_the_guard_later(tmp_path):
    run, result, called = reverse(tmp_path, [site_machine("db-1", "away")], reversed_now=False, check_mode=True)
    assert result["stage"] == "would reverse" and result["wait"] is False
    assert not called.called("service_machine_tags")
    assert load(run)["gate"]["enforce"] is True and load(run)["gate_deferred"] == "judged after the reverse, not before"


def test_a_machine_never_failed_over_stops_the_failback_before_it_reverses_and_it_is_refused(tmp_path):
    run, result, called = reverse(tmp_path, [site_machine("db-1", "away"), machine("web-1")], reversed_now=False)
    assert result["failed"] and "web-1 has no recovery machine" in result["msg"] and not called.called("service_reverse_replication")
    assert not called.called("service_machine_tags")
    assert outcome_of(load(run), "failed") == "refused"  # nothing was sent: not "stopped"


def test_a_reverse_sent_without_an_answer_is_a_failback_that_stopped_not_one_refused(tmp_path):
    """A write may take effect though no answer came: once the failback sent one, what it came to is stopped."""
    run, result, called = reverse(tmp_path, [marked(site_machine("db-1", "away"), "db-1-away")], reversed_now=False,
                                  service_reverse_replication={"failed": True, "msg": "POST .../reverseReplication: no answer"})
    assert result["failed"] and called.called("service_reverse_replication") and not called.called("service_machine_tags")
    assert load(run)["failback"]["written"] is True and outcome_of(load(run), "failed") == "stopped"


@pytest.mark.parametrize("reversed_now, region, stage, wait", [
    (True, "away", "reversed", True),         # stopped while it waited: wait again
    (True, "home", "launched back", False),   # stopped after the launch back
    (False, "home", "returned", False),       # it all happened
])
def test_a_failback_run_again_goes_on_from_where_the_service_stands(tmp_path, reversed_now, region, stage, wait):
    kind = "lastCutoverDateTime" if region == "home" else "lastRecoveryLaunchDateTime"
    unused, result, called = reverse(tmp_path, [site_machine("db-1", region, kind)], reversed_now=reversed_now)
    assert (result["stage"], result["wait"]) == (stage, wait) and not called.called("service_reverse_replication")


def test_a_machine_whose_target_machine_is_not_the_one_its_mark_names_was_launched_back(tmp_path):
    launched_back = marked(site_machine("db-1", None, "lastCutoverDateTime", replica="db-1-new"), "db-1-away")
    run, result, called = reverse(tmp_path, [launched_back], reversed_now=True,
                                  service_project_info={"projects": [{"id": "p-id", "replicationReversed": True}]})
    assert result["stage"] == "launched back" and load(run)["failback"]["recovery"]["db-1"]["replica"] == "db-1-away"
    assert [args.get("include_target_machine") for args in called.called("service_machine_info")] == [None]


@pytest.mark.parametrize("terminated,participants,asked,said", [
    (["db-1-away"], ["db-1-id"], 1, "1 recovery machines terminated, proven gone: db-1"),  # the completed job names its machine
    (["db-1-away"], [], 2, "1 recovery machines terminated, proven gone: db-1"),  # a job that does not: the service is asked again
    ([], None, 1, "0 recovery machines terminated (1 by an earlier run), proven gone: db-1"),  # a run stopped in its cleanup
])
def test_the_return_removes_the_recovery_machines_its_marks_name_and_proves_them_gone(tmp_path, terminated, participants, asked, said):
    run = reverse(tmp_path, [marked(site_machine("db-1", "away"), "db-1-away")], reversed_now=False)[0]
    cleanups = Modules(service_reverse_replication={"changed": True, "project": {}}, service_machine_tags={"changed": True},
                       service_replica_cleanup=[{"removed": terminated, "removed_machines": ["db-1"] if terminated else [],
                                                 "job": {"id": "c1", "status": "COMPLETED", "participatingMachines": participants}
                                                 if terminated else None},
                                                {"removed": [], "removed_machines": []}])
    result = step(runbook_reverse, cleanups, run=launched_back(run), session="s3ss10n", direction="original", remove_recovery="yes")
    assert result["returned"] is True and result["removed"] == ["db-1"]
    # Named and confirmed: production until the machines launched back took its place.
    assert [(args["replicas"], args["terminate_production"]) for args in cleanups.called("service_replica_cleanup")] == [
        (["db-1-away"], ["db-1-away"])] * asked
    assert cleanups.called("service_machine_tags") == [{"session": "s3ss10n", "project": "p-id", "state": "absent",
                                                        "tags": {"db-1-id": ["replication.recovery/recovered=*"]}}]
    checks = dict((check["name"], check) for check in load(run)["run_checks"])
    assert dict((name, check["status"]) for name, check in checks.items()) == {
        "reverse": "passed", "original direction": "passed", "recovery machines": "passed"}
    assert checks["recovery machines"]["message"] == said


def test_a_recovery_machine_left_after_its_cleanup_fails_the_return_and_keeps_its_mark(tmp_path):
    run = reverse(tmp_path, [marked(site_machine("db-1", "away"), "db-1-away")], reversed_now=False)[0]
    cleanups = Modules(service_reverse_replication={"changed": True, "project": {}},
                       service_replica_cleanup=[{"removed": ["db-1-away"], "removed_machines": ["db-1"], "job": {"id": "c1", "status": "COMPLETED"}},
                                                {"removed": ["db-1-away"], "removed_machines": ["db-1"]}])
    result = step(runbook_reverse, cleanups, run=launched_back(run), session="s3ss10n", direction="original", remove_recovery=True)
    assert result["failed"] and "After their cleanup, recovery machines were still there: db-1." in result["msg"]
    assert cleanups.called("service_machine_tags") == []  # the mark still names the recovery machine


def test_more_recovery_machines_than_a_job_may_take_are_removed_in_several_jobs_each_proven(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_LIMITS", '{"servers_per_job": 1}')
    run = reverse(tmp_path, [marked(site_machine(name, "away"), name + "-away") for name in ("db-1", "web-1")], reversed_now=False)[0]
    cleanups = Modules(service_reverse_replication={"changed": True, "project": {}}, service_machine_tags={"changed_machines": []},
                       service_replica_cleanup=[{"removed": [name + "-away"], "removed_machines": [name], "job": dict(
                           job("c-" + name, [name], job_type="CLEANUP"))} for name in ("db-1", "web-1")])
    result = step(runbook_reverse, cleanups, run=launched_back(run), session="s3ss10n", direction="original", remove_recovery=True)
    assert not result.get("failed"), result
    # One job each; their machines in their jobs prove them gone, with no read again.
    assert [args["replicas"] for args in cleanups.called("service_replica_cleanup")] == [["db-1-away"], ["web-1-away"]]
    assert [check["message"] for check in load(run)["run_checks"] if check["name"] == "recovery machines"] == [
        "2 recovery machines terminated, proven gone: db-1, web-1"]


@pytest.mark.parametrize("check_mode", [False, True])
def test_a_failback_that_happened_removes_the_recovery_machines_its_marks_still_name_when_asked(tmp_path, check_mode):
    """A run stopped while it removed the recovery machines: run again, it finds the failback happened, and the marks
    still name them - their cleanup job may have ended in the service since. Removed (here: proven gone), marks gone."""
    back = marked(site_machine("db-1", "home", "lastCutoverDateTime", replica="db-1-new"), "db-1-away")
    run, result, called = reverse(tmp_path, [back], reversed_now=False, check_mode=check_mode, remove_recovery=True,
                                  service_replica_cleanup={"removed": [], "removed_machines": []})
    assert result["stage"] == "returned" and result["machines"] == ["db-1"]
    assert load(run)["asked"]["machines"] == []  # nothing is launched, adopted or checked again
    if check_mode:
        assert not called.called("service_replica_cleanup") and not called.called("service_machine_tags")
        return
    assert [(args["replicas"], args["terminate_production"]) for args in called.called("service_replica_cleanup")] == [(["db-1-away"], ["db-1-away"])]
    assert called.called("service_machine_tags") == [{"session": "s3ss10n", "project": "p-id", "state": "absent",
                                                      "tags": {"db-1-id": ["replication.recovery/recovered=*"]}}]
    record = load(run)
    assert record["failback"]["removed"] == ["db-1"]
    assert [check["message"] for check in record["run_checks"] if check["name"] == "recovery machines"] == [
        "0 recovery machines terminated (1 by an earlier run), proven gone: db-1"]


def test_a_failback_that_happened_keeps_the_recovery_machines_unless_asked(tmp_path):
    back = marked(site_machine("db-1", "home", "lastCutoverDateTime", replica="db-1-new"), "db-1-away")
    unused, result, called = reverse(tmp_path, [back], reversed_now=False)
    assert result["stage"] == "returned" and not called.called("service_replica_cleanup") and not called.called("service_machine_tags")


def launched_back(run):
    """The run record of a failback whose one wave launched db-1 back."""
    record = load(run)
    record["waves"] = [{"machines": ["db-1"], "status": "launched", "job": {"id": "j1"}}]
    record["launched"] = {"db-1": {"id": "db-1-id", "wave": 1, "target": {}}}
    record["view"] = {"db-1": {"running": True}}
    with open(run, "w") as stream:
        json.dump(record, stream)
    return run


def test_a_failed_failback_leaves_replication_reversed(tmp_path):
    run = reverse(tmp_path, [site_machine("db-1", "away")], reversed_now=False)[0]
    record = load(run)
    record["waves"] = [{"machines": ["db-1"], "status": "failed", "job": {"id": "j1"}}]
    with open(run, "w") as stream:
        json.dump(record, stream)
    nothing = Modules()
    result = step(runbook_reverse, nothing, run=run, session="s3ss10n", direction="original", remove_recovery=True)
    assert result["returned"] is False and nothing.calls == []  # the recovery machines and their marks stay


# -- recovery machines are production --------------------------------------------------------------------


def recovered(name, replica=None, kind="lastRecoveryLaunchDateTime", committed=True):
    found = machine(name)
    replica = replica or name + "-target"
    found.update(replica=replica, lifeCycle={kind: T1}, tags=["replication.recovery/recovered=" + replica] if committed else [])
    return found


def failover(tmp_path, **inputs):
    args = dict(runbook="failover", title="failover", launch_type="recovery", on_failed_over="stand", blocking_launch_types=["test"])
    args.update(inputs)
    return begin(tmp_path, **args)


def test_a_failover_run_again_reports_what_stands_and_launches_nothing(tmp_path):
    run = failover(tmp_path)  # no point policy given: what stands is what it is
    launch = job("j1", ["web-1", "db-1"], job_type="RECOVERY_LAUNCH")
    result = read(run, [recovered("web-1"), recovered("db-1", committed=False)], [launch])
    record = load(run)
    assert not result.get("failed"), result
    assert result["stands"] == ["db-1", "web-1"] and record["to_launch"] == [] and record["health"] == {}
    assert record["stands"]["web-1"]["said"] == ("failed over since 2026-11-22T10:04:00Z, from the point in time of 2026-11-22T10:00:00Z "
                                                 "(web-1-point), recovery machine i-web-1")
    modules = Modules()
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert modules.calls == [] and result["changed"] is False and load(run)["waves"][0]["status"] == "stands"
    # Committed: both are kept, and db-1 (launched by an earlier run that did not commit) gets its mark now; web-1 has it.
    tags = Modules(service_machine_tags={"changed": True})
    result = step(runbook_clean_up, tags, run=run, session="s", keep=True, kept_because="committed")
    assert tags.called("service_machine_tags") == [{"session": "s", "project": "p-id", "tags": {"db-1-id": ["replication.recovery/recovered=db-1-target"]}}]
    report = report_of(load(run), "replication.recovery.failover/v1")
    assert report["result"] == "passed" and report["counts"]["stands"] == 2 and report["counts"]["launched"] == 0
    assert [m["cleanup"] for m in report["machines"]] == ["kept", "kept"] and report["machines"][0]["addresses"] == ["public 203.0.113.9"]


def test_a_failover_of_several_waves_run_again_whose_every_machine_stands_writes_no_pin_mark(tmp_path):
    # Nothing is launched, and its outcome says NOTHING DONE: the run pins nothing in the service either.
    run = failover(tmp_path, waves="web-*; db-*")
    result = read(run, [recovered("web-1"), recovered("db-1")], [job("j1", ["web-1", "db-1"], job_type="RECOVERY_LAUNCH")],
                  service_machine_tags=lambda args: pytest.fail("a write: %s" % args))
    assert not result.get("failed"), result
    assert result["stands"] == ["db-1", "web-1"] and "pins_from" not in load(run)


def test_a_failover_run_again_names_the_point_each_stands_on_from_the_pin_mark_of_the_run_that_launched_it(tmp_path):
    """The run it takes up pinned the points, so they are not read again: each machine's pin mark names the one it stands on."""
    marked = []
    for name in ("web-1", "db-1"):
        found = recovered(name)
        found["tags"].append(pin_mark(name, name + "-point", T0, runbook="failover"))
        marked.append(found)
    run = failover(tmp_path)
    result = read(run, marked, [job("j1", ["web-1", "db-1"], job_type="RECOVERY_LAUNCH")], service_point_in_time_info=points_info({}))
    assert not result.get("failed") and result["stands"] == ["db-1", "web-1"]
    assert load(run)["stands"]["db-1"]["said"] == ("failed over since 2026-11-22T10:04:00Z, from the point in time of 2026-11-22T10:00:00Z "
                                                   "(db-1-point), recovery machine i-db-1")


@pytest.mark.parametrize("point_in_time, limit", [(None, 1), ("latest", 1), ("before:2026-11-22T10:02:00Z", None), ("web-1=web-1-point", None)])
def test_a_run_that_pins_every_newest_point_reads_only_those_with_its_machines(tmp_path, point_in_time, limit):
    listed = {"web-1": [point("web-1", T1, "-newer"), point("web-1")], "db-1": [point("db-1")]}
    run = begin(tmp_path, point_in_time=point_in_time)
    modules = Modules(service_job_info={"jobs": []}, service_machine_tags={"changed_machines": []},
                      service_machine_info=lambda args: {"project": {"id": "p-id", "name": "production"}, "service_time": T1, "machines": [
                          dict(m, points_in_time=listed[m["name"]][:args.get("points_in_time_limit")]) for m in (machine("web-1"), machine("db-1"))]})
    assert not read(run, [], modules=modules).get("failed")
    assert [call.get("points_in_time_limit") for call in modules.called("service_machine_info")] == [limit]
    assert load(run)["pinned"]["web-1"]["id"] == ("web-1-point-newer" if point_in_time in (None, "latest")
                                                  else "web-1-point")


def test_a_failover_asked_for_another_point_than_what_stands_is_refused_before_any_write(tmp_path):
    run = failover(tmp_path, point_in_time="latest")
    newer = {"web-1": [point("web-1", T1, "-newer"), point("web-1")]}
    result = read(run, [recovered("web-1")], points=newer)
    assert result["failed"] and result["msg"] == (
        "What stands differs from what this failover was asked; nothing was launched or terminated. web-1: failed over since "
        "2026-11-22T10:04:00Z, from the point in time of 2026-11-22T10:00:00Z (web-1-point), recovery machine i-web-1; asked latest, which "
        "is the point in time of 2026-11-22T10:04:00Z (web-1-point-newer). To keep what stands, run it without failover_point_in_time: it "
        "reports what stands and launches nothing. To replace them, plan with --check and failover_replace naming them, then run with the "
        "token the plan prints as failover_confirm.")
    run = failover(tmp_path, point_in_time="latest")
    assert not read(run, [recovered("web-1")]).get("failed")  # the same point: nothing differs
    # The pin mark of the failover that launched it keeps the point it stands on: compared with what this run asks, not taken for it.
    marked = recovered("web-1")
    marked["tags"].append(pin_mark("web-1", "web-1-point", T0, runbook="failover"))
    refused = read(failover(tmp_path, point_in_time="latest"), [marked], points=newer)
    assert refused["failed"] and "asked latest, which is the point in time of 2026-11-22T10:04:00Z (web-1-point-newer)" in refused["msg"]


def test_a_replacement_needs_the_token_its_plan_printed(tmp_path):
    machines = [recovered("web-1"), recovered("db-1")]
    run = failover(tmp_path, replace="web-1")
    result = read(run, machines)
    assert result["failed"] and "Replacing the production machines of web-1 needs the confirmation token of its plan; none was given" in result["msg"]
    run = failover(tmp_path, replace="web-1", check_mode=True)
    planned = step(phases.read, Modules(service_machine_info=lambda args: read_answer(machines, args), service_job_info={"jobs": []},
                                        service_point_in_time_info=points_info()), check_mode=True, run=run, session="s")
    assert not planned.get("failed"), planned
    token = load(run)["replace"]["token"]
    run = failover(tmp_path, replace="web-1", confirm="not-" + token)
    assert "the token given (not-%s) is not this plan's" % token in read(run, machines)["msg"]
    run = failover(tmp_path, replace="web-1", confirm=token)
    assert not read(run, machines).get("failed")
    record = load(run)
    assert sorted(record["replaced"]) == ["web-1"] and sorted(record["stands"]) == ["db-1"] and record["to_launch"] == ["web-1"]
    modules = Modules(service_launch={"job": None})
    step(phases.launch, modules, run=run, session="s", wave=1)
    [launched] = modules.called("service_launch")
    assert launched["machines"] == ["web-1-id"] and launched["replace_production"] == ["web-1-id"]


def test_a_replacement_in_a_run_that_rolls_back_is_refused():
    result = step(phases.begin, Modules(), runbook="failover", project="production", launch_type="recovery", replace="web-1", roll_back=True)
    assert result["failed"] and "replace only in a run that commits" in result["msg"]


def read_answer(machines, args):
    listed = [m for m in machines if not args.get("machines") or m["id"] in args["machines"] or m["name"] in args["machines"]]
    if args.get("include_target_machine"):
        listed = [dict(m, target_machine=dict(target(m["name"]), id=m["replica"])) if m.get("replica") else m for m in listed]
    return {"project": {"id": "p-id", "name": "production"}, "service_time": T0, "machines": listed}


@pytest.mark.parametrize("runbook, title, launch_type", [("dr_test", "DR test", "test"), ("dr_test", "DR test", "recovery"),
                                                         ("clean_point", "clean point search", "test")])
def test_every_other_runbook_refuses_a_failed_over_machine_before_anything_is_written(tmp_path, runbook, title, launch_type):
    run = begin(tmp_path, runbook=runbook, title=title, launch_type=launch_type)
    result = read(run, [recovered("web-1"), machine("db-1"), recovered("app-1", kind="lastCutoverDateTime")])
    assert result["failed"] and result["msg"].startswith(
        "2 of the machines of this %s are failed over, and their cutover and recovery machines run production: app-1: cut over since "
        "2026-11-22T10:04:00Z, from the point in time of 2026-11-22T10:00:00Z (app-1-point), cutover machine i-app-1. web-1: failed over since"
        % title)
    assert "nothing was launched or terminated" in result["msg"] and "protect them as source machines of a project of their own" in result["msg"]


def test_a_dr_test_of_recovery_launches_marks_its_drill_and_takes_it_for_its_own_when_run_again(tmp_path):
    run = begin(tmp_path, launch_type="recovery")
    assert not read(run, [machine("web-1")]).get("failed")
    modules = Modules(service_machine_tags={"changed": True}, service_launch={"job": None})
    step(phases.launch, modules, run=run, session="s", wave=1)
    assert modules.called("service_machine_tags")[0]["tags"] == {"web-1-id": ["replication.recovery/drill=" + T0]}
    # Stopped, run again: its drill is no production; the launch of the stopped run is adopted.
    drill = dict(recovered("web-1", committed=False), tags=["replication.recovery/drill=" + T0])
    run = begin(tmp_path, launch_type="recovery")
    result = read(run, [drill], [job("j1", ["web-1"], job_type="RECOVERY_LAUNCH", created=T0, ended=T1)])
    assert not result.get("failed") and result["adopted"] == [1]
    # A failover takes a drill for a DR test's machine in its way.
    run = failover(tmp_path)
    result = read(run, [drill])
    assert result["failed"] and "Test (a DR test's recovery drill) machines are up for web-1" in result["msg"]


def test_a_cleanup_on_its_own_refuses_production_and_removes_a_drill(tmp_path):
    drill = dict(recovered("web-1", committed=False), tags=["replication.recovery/drill=" + T0])
    answers = dict(service_machine_info=lambda args: read_answer([recovered("db-1"), drill], args), service_login=SIGNED_IN)
    result = step(runbook_clean_up, Modules(**answers), project="production", launch_type="recovery", poll_interval=1)
    assert result["failed"] and result["msg"].startswith("db-1 has a recovery machine that runs production (db-1: failed over since")
    assert "Nothing was terminated" in result["msg"]
    modules = Modules(service_machine_info=[lambda args: read_answer([drill], args), lambda args: read_answer([machine("web-1")], args)],
                      service_machine_tags={"changed": True}, service_login=SIGNED_IN,
                      service_replica_cleanup={"removed": ["web-1-target"], "removed_machines": ["web-1"]})
    result = step(runbook_clean_up, modules, project="production", launch_type="recovery", machines="web-1", poll_interval=1)
    assert not result.get("failed") and result["removed"] == ["web-1"]
    [cleaned] = modules.called("service_replica_cleanup")
    assert cleaned["replicas"] == ["web-1-target"] and cleaned["terminate_production"] == ["web-1-target"]
    assert modules.called("service_machine_tags")[0]["state"] == "absent"


def test_a_cleanup_on_its_own_follows_its_job_to_the_end_and_proves_it(tmp_path):
    running = job("c1", ["web-1", "db-1"], job_type="CLEANUP", status="STARTED", ended=None)
    progress = {"done": 2, "machines": 2, "running": 0, "failed": 0}
    modules = Modules(service_replica_cleanup={"removed": ["web-1-target", "db-1-target"], "removed_machines": ["web-1", "db-1"], "job": running},
                      service_job_info={"job": dict(running, status="COMPLETED", endDateTime=T1), "progress": progress},
                      service_machine_info=lambda args: read_answer([machine("web-1"), machine("db-1")], args), service_login=SIGNED_IN)
    result = step(runbook_clean_up, modules, project="production", launch_type="test", poll_interval=1, progress_interval=1)
    assert not result.get("failed") and result["removed"] == ["web-1", "db-1"]
    assert result["job"] == {"id": "c1", "status": "COMPLETED", "created": T0, "ended": T1}
    [followed] = modules.called("service_job_info")
    assert followed["project"] == "production" and followed["job"] == "c1" and followed["poll_interval"] == 1
    # One session for its reads, the cleanup and its proof: signed in once, signed out at its end - not once a module.
    assert [args.get("state") for args in modules.called("service_login")] == [None, "absent"]
    assert modules.called("service_login")[1]["session"] == "s-cleanup"
    assert [name for name, args in modules.calls if name != "service_login" and args.get("session") != "s-cleanup"] == []


def test_a_cleanup_on_its_own_takes_the_session_its_task_brings():
    modules = Modules(service_replica_cleanup={"removed": ["web-1-target"], "removed_machines": ["web-1"], "job": None},
                      service_machine_info=lambda args: read_answer([machine("web-1")], args))
    result = step(runbook_clean_up, modules, project="production", launch_type="test", session="s-given")
    assert not result.get("failed") and modules.called("service_login") == []
    assert [name for name, args in modules.calls if args.get("session") != "s-given"] == []


@pytest.mark.parametrize("strict", [False, True])
def test_a_pinned_point_thinned_out_before_its_wave_is_replaced_or_stops_a_strict_run(tmp_path, strict):
    run = failover(tmp_path, waves="db-1; web-1", points_strict=strict)
    assert not read(run, [machine("web-1"), machine("db-1")]).get("failed")
    record = load(run)
    record["view"]["db-1"] = {"running": True}
    record["launched"]["db-1"] = {"id": "db-1-id", "wave": 1, "target": {}}
    record["waves"][0].update(status="launched", job=job("j1", ["db-1"]))
    save(run, record)
    older = point("web-1", "2026-11-22T09:00:00.000000+00:00", "-older")
    modules = Modules(service_point_in_time_info=points_info({"web-1": [point("web-1", T1, "-newer"), older]}),
                      service_launch={"job": None})
    result = step(phases.launch, modules, run=run, session="s", wave=2)
    record = load(run)
    if strict:
        assert result["failed"] and result["msg"].startswith(
            "Points in time pinned when the run began were thinned out by the service before wave 2, which is not launched (points_strict): "
            "web-1: the point of 2026-11-22T10:00:00Z (web-1-point) would be replaced by the newest point before it, of "
            "2026-11-22T09:00:00Z (web-1-point-older): 1 h 0 min more data lost.")
        assert not modules.called("service_launch") and record["waves"][1]["status"] == "not launched"
    else:
        assert not result.get("failed") and modules.called("service_launch")[0]["points_in_time"] == {"web-1-id": "web-1-point-older"}
        assert record["repinned"]["web-1"]["extra_seconds"] == 3600.0 and record["pinned"]["web-1"]["id"] == "web-1-point-older"


REFUSED = {"failed": True, "msg": "POST /projects/p-id/launchMachines failed: HTTP 400 invalidInput: items: web-1-point is not a point in time",
           "error": {"method": "POST", "path": "/projects/p-id/launchMachines", "status": 400, "code": "invalidInput"}}


def test_a_launch_refused_because_a_point_was_thinned_out_since_its_last_read_is_tried_once_more_from_the_point_before_it(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1"), machine("db-1")])  # the points were read just now: wave 1 does not read them again first
    older = point("web-1", "2026-11-22T09:00:00.000000+00:00", "-older")
    outcome = {"job": job("j1", ["web-1", "db-1"]), "launched": launched("web-1", "db-1")}
    modules = Modules(service_launch=[REFUSED, {"job": job("j1", ["web-1", "db-1"])}, outcome],
                      service_point_in_time_info=points_info({"web-1": [point("web-1", T1, "-newer"), older]}))
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert not result.get("failed"), result
    refused, started, unused_outcome = modules.called("service_launch")
    assert refused["points_in_time"]["web-1-id"] == "web-1-point" and started["points_in_time"] == {"web-1-id": "web-1-point-older", "db-1-id": "db-1-point"}
    assert load(run)["repinned"]["web-1"]["extra_seconds"] == 3600.0


def test_a_point_thinned_again_while_the_points_were_read_again_is_replaced_again_and_the_launch_sent_once_more(tmp_path):
    run = begin(tmp_path)
    read(run, [machine("web-1"), machine("db-1")])
    older = point("web-1", "2026-11-22T09:00:00.000000+00:00", "-older")
    oldest = point("web-1", "2026-11-22T08:00:00.000000+00:00", "-oldest")
    outcome = {"job": job("j1", ["web-1", "db-1"]), "launched": launched("web-1", "db-1")}
    modules = Modules(service_launch=[REFUSED, REFUSED, {"job": job("j1", ["web-1", "db-1"])}, outcome],
                      service_point_in_time_info=[points_info({"web-1": [point("web-1", T1, "-newer"), older]}),
                                                  points_info({"web-1": [point("web-1", T1, "-newer"), oldest]})])
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert not result.get("failed"), result
    assert [args["points_in_time"]["web-1-id"] for args in modules.called("service_launch")[:3]] == ["web-1-point", "web-1-point-older", "web-1-point-oldest"]
    assert load(run)["repinned"]["web-1"]["extra_seconds"] == 3600.0  # from the older point to the oldest
    # As often as a point is read gone, and no more than LAUNCH_ATTEMPTS: then the refusal stops the wave.
    run = begin(tmp_path)
    read(run, [machine("web-1"), machine("db-1")])
    gone = [points_info({"web-1": [point("web-1", T1, "-newer"), point("web-1", "2026-11-22T0%d:00:00.000000+00:00" % hour, "-%d" % hour)]})
            for hour in (9, 8, 7, 6, 5)]
    modules = Modules(service_launch=REFUSED, service_point_in_time_info=gone)
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert result["failed"] and len(modules.called("service_launch")) == _run_launch.LAUNCH_ATTEMPTS


def test_a_search_round_never_launches_a_machine_from_another_point_than_its_candidate(tmp_path):
    candidates = {"web-1-id": {"id": "web-1-point", "date_time": T0}, "db-1-id": {"id": "db-1-point", "date_time": T0}}
    run = begin(tmp_path, runbook="clean_point", round=2, pinned=candidates,
                point_in_time=dict((machine_id, point["id"]) for machine_id, point in candidates.items()))
    read(run, [machine("web-1"), machine("db-1")])
    outcome = {"job": job("j1", ["db-1"]), "launched": launched("db-1")}
    modules = Modules(service_launch=[REFUSED, {"job": job("j1", ["db-1"])}, outcome],
                      service_point_in_time_info=points_info({"web-1": [point("web-1", T1, "-newer"), point("web-1", T0, "-older")]}))
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert not result.get("failed"), result
    refused, started, unused_outcome = modules.called("service_launch")
    # web-1's candidate is gone: it is left out of the round, not launched from the point before it.
    assert sorted(refused["machines"]) == ["db-1-id", "web-1-id"] and started["machines"] == ["db-1-id"]
    assert started["points_in_time"] == {"db-1-id": "db-1-point"}
    record = load(run)
    assert record["thinned_out"] == ["web-1"] and "thinned out by the service before the launch" in record["failed_machines"]["web-1"]
    assert "web-1" not in record["launched"] and record["waves"][0]["status"] == "launched"


def test_a_search_round_whose_every_candidate_was_thinned_out_launches_nothing_and_stops_no_run(tmp_path):
    candidates = {"web-1-id": {"id": "web-1-point", "date_time": T0}}
    run = begin(tmp_path, runbook="clean_point", round=3, pinned=candidates, point_in_time={"web-1-id": "web-1-point"}, machines="web-1")
    read(run, [machine("web-1"), machine("db-1")])
    modules = Modules(service_launch=REFUSED, service_point_in_time_info=points_info({"web-1": [point("web-1", T1, "-newer")]}))
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert not result.get("failed") and result["launched"] == 0 and len(modules.called("service_launch")) == 1
    record = load(run)
    assert record["waves"][0]["status"] == "not launched" and record["thinned_out"] == ["web-1"] and not record.get("failure")


@pytest.mark.parametrize("answers", [[REFUSED], [REFUSED, REFUSED], [dict(REFUSED, error=dict(REFUSED["error"], status=None))]])
def test_a_launch_refused_with_every_point_still_there_or_refused_again_or_unanswered_fails_the_wave_and_is_not_tried_blindly(tmp_path, answers):
    run = begin(tmp_path)
    read(run, [machine("web-1"), machine("db-1")])
    thinned_out = len(answers) == 2
    modules = Modules(service_launch=answers, service_point_in_time_info=points_info(
        {"web-1": [point("web-1", T1, "-newer"), point("web-1", "2026-11-22T09:00:00.000000+00:00", "-older")]} if thinned_out else None))
    result = step(phases.launch, modules, run=run, session="s", wave=1)
    assert result["failed"] and "HTTP 400 invalidInput" in result["msg"]
    # Tried again only after a point was replaced; each refusal reads the points again (the second finds none gone); a launch
    # that got no answer may have started a job: never sent again.
    assert len(modules.called("service_launch")) == (2 if thinned_out else 1)
    assert len(modules.called("service_point_in_time_info")) == (0 if answers[0]["error"]["status"] is None else len(answers))


# -- the clean point search's journal --------------------------------------------------------------------

from ansible_collections.replication.recovery.plugins.action import runbook_search  # noqa: E402
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time  # noqa: E402
from ansible_collections.replication.recovery.plugins.plugin_utils._search import load_journal, new_journal, save_journal  # noqa: E402


def search_modules(project_id="p-id", account="acc-1"):
    return Modules(service_login=lambda args: {"ended": True} if args.get("state") == "absent" else {"session": "0ne", "user": {"account": account}},
                   service_project_info={"projects": [{"id": project_id, "name": "production"}]},
                   service_machine_info={"project": {"id": project_id, "name": "production"}, "service_time": T2, "machines": [machine("web-1")]},
                   service_point_in_time_info=points_info({"web-1": [point("web-1", T1, "-2"), point("web-1", T0, "-1")]}))


@pytest.mark.parametrize("journal_account, journal_project, said", [
    ("acc-2", "p-id", "account acc-2, not acc-1"),
    ("acc-1", "other-project", "project ID other-project, not p-id (another service's project of the same name, or one made anew)"),
])
def test_a_journal_of_another_account_or_project_is_set_aside_and_never_resumed(tmp_path, journal_account, journal_project, said):
    reports = tmp_path / "reports"
    path = str(reports / "clean_point_production.search.json")
    inputs = {"machines": None, "exclude": [], "recovery_plan": None, "after": None, "before": None, "consistent": False, "find_files": []}
    old = new_journal("production", journal_project, inputs, {"web-1": {"id": "web-1-id", "points": [point("web-1", T0, "-old")]}},
                      None, parse_time(T2), account=journal_account)
    save_journal(path, old)
    modules = search_modules()
    result = step(runbook_search, modules, stage="plan", options=dict(project="production", report_dir=str(reports), checks_tasks="/checks.yml"))
    assert not result.get("failed"), result
    assert result["lines"][0].startswith("The journal %s is of %s: it is set aside as %s/clean_point_production.search.set-aside-" % (
        path, said, reports)) and result["lines"][0].endswith(", and never resumed.")
    journal = load_journal(path)
    assert journal["account"] == "acc-1" and journal["project_id"] == "p-id" and result["points_in_time"] == {"web-1-id": "web-1-point-2"}
    assert [name for name in os.listdir(str(reports)) if "set-aside" in name] and result["pinned"] == {
        "web-1-id": {"id": "web-1-point-2", "date_time": T1}}
    # The stage's reads share one session, signed out at the end.
    assert [args.get("session") for name, args in modules.calls if name != "service_login"] == ["0ne"] * 3
    assert [args.get("state") for args in modules.called("service_login")] == [None, "absent"]


@pytest.mark.parametrize("check_mode", [False, True])
@pytest.mark.parametrize("text, why", [('{"schema": "replication', "cannot be read (Unterminated string"),
                                       ('{"schema": "replication.recovery.clean_point.journal/v0"}', "cannot be read (its schema is "
                                        "replication.recovery.clean_point.journal/v0, not replication.recovery.clean_point.journal/v1)")])
def test_a_journal_that_cannot_be_read_is_set_aside_never_written_over(tmp_path, text, why, check_mode):
    """What a stopped search learnt is never lost: its journal, unreadable or of another version, is moved aside and the new search
    says so - under --check, which writes nothing, it only says a run would."""
    reports = tmp_path / "reports"
    reports.mkdir()
    path = reports / "clean_point_production.search.json"
    path.write_text(text)
    result = step(runbook_search, search_modules(), check_mode=check_mode, stage="plan",
                  options=dict(project="production", report_dir=str(reports), checks_tasks="/checks.yml"))
    assert not result.get("failed"), result
    assert result["lines"][0].startswith("The journal %s %s" % (path, why)), result["lines"][0]
    aside = [name for name in os.listdir(str(reports)) if "set-aside" in name]
    if check_mode:
        assert result["lines"][0].endswith(": a run would set it aside, and begin a new search.") and not aside and path.read_text() == text
        # The rest of the --check run reads it no more than it writes it: the round's end and the report plan, and pass.
        for stage in ("end", "report"):
            later = step(runbook_search, Modules(), check_mode=True, stage=stage, options=dict(project="production", report_dir=str(reports)))
            assert not later.get("failed"), later
        assert path.read_text() == text and not [name for name in os.listdir(str(reports)) if "set-aside" in name]
    else:
        assert result["lines"][0].endswith(", and never resumed.") and (reports / aside[0]).read_text() == text
        assert load_journal(str(path))["project_id"] == "p-id"  # the new search's


def test_the_journal_of_this_search_is_resumed_and_its_round_reads_its_candidates_again(tmp_path):
    reports = tmp_path / "reports"
    modules = search_modules()
    first = step(runbook_search, modules, stage="plan", options=dict(project="production", report_dir=str(reports), checks_tasks="/checks.yml"))
    assert first["round"] == 1 and not first["adopt"]
    # Run again with the round planned and not judged (a stopped run): its launch is adopted, its points not read again.
    again = search_modules()
    again.answers["service_machine_info"] = [{"project": {"id": "p-id", "name": "production"}, "service_time": T2, "machines": [machine("web-1")]}]
    second = step(runbook_search, again, stage="plan", options=dict(project="production", report_dir=str(reports), checks_tasks="/checks.yml"))
    assert second["round"] == 1 and second["adopt"] and "(continued: a stopped run planned it)" in second["lines"][-1]
    assert not again.called("service_point_in_time_info")


def test_a_failover_removes_a_drills_mark_left_behind_before_it_launches(tmp_path):
    stale = dict(machine("web-1"), tags=["replication.recovery/drill=" + T0])  # a DR test that never ended; its drill cleaned up
    run = failover(tmp_path)
    assert not read(run, [stale, machine("db-1")]).get("failed")
    modules = Modules(service_machine_tags={"changed": True}, service_launch={"job": None})
    step(phases.launch, modules, run=run, session="s", wave=1)
    assert [name for name, unused in modules.calls] == ["service_machine_tags", "service_launch"]
    assert modules.called("service_machine_tags")[0] == {"session": "s", "project": "p-id", "state": "absent",
                                                         "tags": {"web-1-id": ["replication.recovery/drill=*"]}}
    # And a recovery machine a failover committed is no drill, whatever mark is left.
    committed = dict(recovered("web-1"), tags=["replication.recovery/recovered=web-1-target", "replication.recovery/drill=" + T0])
    run = begin(tmp_path, launch_type="recovery")
    assert "failed over, and their recovery machines run production" in read(run, [committed])["msg"]


def test_a_search_stopped_before_it_wrote_a_journal_is_refused_and_says_why_and_that_it_wrote_none(tmp_path):
    """Its journal is written before its first round launches: without one, nothing was launched - refused, as the other
    runbooks say (AWX's outcome too), where it said only that it had no journal (found by a scratch run)."""
    reports = tmp_path / "reports"
    stopped = dict(task="Plan", message="A search by launches needs your checks that tell a clean machine; nothing was launched.")
    result = step(runbook_search, Modules(), stage="report", options=dict(project="production", report_dir=str(reports)), stopped=stopped)
    assert result["message"] == ("Clean point search of production: REFUSED. A search by launches needs your checks that tell a clean "
                                 "machine; nothing was launched. It wrote no journal in %s: running it again begins anew." % reports)
    assert result["outcome"] == {"project": "production", "result": "failed", "outcome": "refused"} and result["lines"] == [result["message"]]
    # Under --check the same stop fails the check as it fails the run, and writes nothing.
    checked = step(runbook_search, Modules(), check_mode=True, stage="report", options=dict(project="production", report_dir=str(reports)),
                   stopped=stopped)
    assert checked["message"] == ("Clean point search of production under --check: REFUSED. As the real run would be: %s" % stopped["message"]
                                  ) and not reports.exists()
    assert checked["outcome"] == {"project": "production", "result": "failed", "outcome": "refused"}
    unstopped = step(runbook_search, Modules(), stage="report", options=dict(project="production", report_dir=str(reports)))
    assert unstopped["message"] == "The clean point search of production has no journal in %s." % reports


def test_a_restore_test_of_a_project_that_is_no_backup_project_is_refused_before_anything_is_written(tmp_path):
    """The service launches restore servers for a backup project alone (422 for another): the run pinned its points (marks on
    the machines) and stopped at the launch - found by a scratch run of the restore test on the demo's DR project."""
    def answers(kind):
        found = read_answers([machine("web-1")])
        listed = found["service_machine_info"]
        found["service_machine_info"] = lambda args: dict(listed(args), project={"id": "p-id", "name": "production", "type": kind})
        return Modules(**found)
    run = begin(tmp_path, runbook="restore_test", title="Restore test", launch_type="restore")
    modules = answers("DR")
    result = read(run, [], modules=modules)
    assert result["failed"] and result["msg"] == ("Project production is a DR project: only a backup project has restore servers to "
                                                  "launch, and a restore test is run on one; nothing was launched."), result
    assert [name for name, unused in modules.calls] == ["service_job_info", "service_machine_info"]
    assert load(run)["failure"]["phase"] == "preflight"
    run = begin(tmp_path, runbook="restore_test", title="Restore test", launch_type="restore")
    assert not read(run, [], modules=answers("BACKUP")).get("failed")
