# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run in the engine's three steps - runbook_start, runbook_wave, runbook_finish - with the modules they run scripted:
each drives the run's phases (plugin_utils._run) in one task, and answers what the playbook needs of them: the group of
the next wave, the hosts, the outcome published."""

import os

import pytest

from ansible_collections.replication.recovery.plugins.action import runbook_finish, runbook_start, runbook_wave
from ansible_collections.replication.recovery.plugins.plugin_utils._step import load

from ansible_collections.replication.recovery.tests.unit.plugins.action.test_runbook_steps import (  # pylint: disable=unused-import
    USER, Modules, job, launched, machine, no_leftover_runs, points_info, read_answers, step, waits)  # the last two: autouse fixtures

LOGIN = {"session": "s3ss10n", "user": {"username": USER}}


def started(tmp_path, listed, modules=None, read=True, check_mode=False, **inputs):
    """A run started on a project of the machines ``listed`` with the engine's ``inputs``: its result, and the modules it ran."""
    modules = modules or Modules(service_login=LOGIN, **read_answers(listed))
    args = dict(runbook="dr_test", title="DR test", project="production", read=read, check_mode=check_mode,
                inputs=dict(inputs, poll_interval=1, progress_interval=1))
    return step(runbook_start, modules, **args), modules


def test_a_run_begins_with_what_its_roles_options_give_as_the_engine_role_passes_them(tmp_path):
    """The engine's role gives runbook_start a role's options whole (runbook_options' answer, its project among them) and
    what the runbook sets itself: the project and the waves reach the run from the options, the inputs go over them, and an
    input of no such name is refused by it before anything is read."""
    modules = Modules(service_login=LOGIN, **read_answers([machine("web-1"), machine("db-1")]))
    options = dict(project="production", waves="db-*; web-*", gate_max_lag=120, checks_tasks=None, poll_interval=1, progress_interval=1)
    result = step(runbook_start, modules, runbook="dr_test", title="DR test", options=options, inputs=dict(launch_type="debug"))
    assert not result.get("failed"), result
    record = load(result["run"])
    assert (record["project"], record["launch_type"], record["gate"]["max_lag"]) == ("production", "debug", 120)
    assert result["waves"] == [1, 1]
    refused = step(runbook_start, Modules(), runbook="dr_test", title="DR test", options=options, inputs=dict(rol_back=True))
    assert refused["failed"] and refused["msg"] == "Bug in the runbook: rol_back is no input of the engine (_run_begin.INPUTS); did you mean roll_back?"


def test_a_run_starts_in_one_step_begun_read_and_resumed_and_its_first_wave_is_next(tmp_path):
    result, modules = started(tmp_path, [machine("web-1"), machine("db-1")], waves="db-*; web-*")
    assert not result.get("failed"), result
    assert result["session"] == "s3ss10n" and result["_ansible_no_log"] is True
    assert (result["machines"], result["waves"], result["cleaned"]) == (2, [1, 1], [])
    assert (result["add_group"], result["parent_groups"]) == ("dr_test_wave_1", ["all"])  # as group_by makes it
    record = load(result["run"])
    assert record["username"] == USER and [wave["machines"] for wave in record["waves"]] == [["db-1"], ["web-1"]]
    assert [name for name, unused in modules.calls][:1] == ["service_login"] and not modules.called("service_launch")
    # One sign-in: the read goes on in the session the start began.
    assert len(modules.called("service_login")) == 1 and all(args["session"] == "s3ss10n" for unused, args in modules.calls[1:])


def test_where_the_action_adds_the_group_itself_the_start_and_the_wave_add_the_next_waves(tmp_path, monkeypatch):
    """ansible-core 2.22 takes no add_group from an action's result - a run whose host joined no wave's group launched
    nothing and said NOTHING DONE - but from the action's own add_group, which the steps call where the core has it."""
    added = []
    for plugin in (runbook_start, runbook_wave):
        monkeypatch.setattr(plugin.ActionModule, "add_group", lambda self, name, parent_group_names=None: added.append((name, parent_group_names)),
                            raising=False)
    result, unused = started(tmp_path, [machine("web-1"), machine("db-1")], waves="db-*; web-*")
    assert added == [("dr_test_wave_1", ["all"])]
    step(runbook_wave, Modules(service_launch=[{"job": job("j1", ["db-1"])}, {"job": job("j1", ["db-1"]), "launched": launched("db-1")}]),
         run=result["run"], session="s3ss10n", wave=1)
    assert added == [("dr_test_wave_1", ["all"]), ("dr_test_wave_2", ["all"])]


def test_a_run_finished_with_a_wave_nothing_ran_fails_naming_it_never_nothing_done(tmp_path):
    """The plays of a wave that ran on no host (ansible-core 2.22 once took no group from the steps) leave its machines to
    launch: the finish says so, and the run fails - it is not a run that had nothing to do."""
    result, unused = started(tmp_path, [machine("web-1"), machine("db-1")], waves="db-*; web-*")
    step(runbook_wave, Modules(service_launch=[{"job": job("j1", ["db-1"])}, {"job": job("j1", ["db-1"]), "launched": launched("db-1")}]),
         run=result["run"], session="s3ss10n", wave=1)
    modules = Modules(service_replica_cleanup={"removed_machines": ["db-1"], "job": job("j2", ["db-1"], job_type="CLEANUP")},
                      service_login={"ended": True})
    finished = step(runbook_finish, modules, run=result["run"], session="s3ss10n", report_dir=str(tmp_path / "reports"))
    assert finished["outcome"]["result"] == "failed" and finished["lines"][0] == "DR test of production: FAILED. 1 of 2 machines passed."
    assert finished["outcome"]["failures"] == ["wave 2: never run: the run finished with its 1 machines still to launch, and nothing had stopped "
                                               "it - no play of the wave ran on the project's host"]
    unstarted, unused = started(tmp_path, [machine("web-1")])
    finished = step(runbook_finish, Modules(service_login={"ended": True}), run=unstarted["run"], session="s3ss10n",
                    report_dir=str(tmp_path / "reports"))
    assert finished["outcome"]["result"] == "failed" and finished["outcome"]["outcome"] == "failed"
    assert finished["outcome"]["failures"][0].startswith("wave 1: never run") and finished["outcome"]["counts"]["launched"] == 0


def test_a_start_whose_read_refuses_ends_its_session_and_answers_the_run_without_it(tmp_path):
    modules = Modules(service_login=[LOGIN, {"ended": True}], **read_answers([machine("web-1")]))
    result, unused = started(tmp_path, [], modules=modules, machines="app-*")
    assert result["failed"] and "session" not in result and "add_group" not in result
    assert load(result["run"])["failure"]["phase"] == "preflight"
    # Signed in, then out again: the failed result, which is shown, never holds the session.
    assert modules.called("service_login") == [{}, {"state": "absent", "session": "s3ss10n"}]


def test_a_run_begun_only_is_read_once_its_own_steps_ran_given_its_run_and_session(tmp_path):
    begun, modules = started(tmp_path, [machine("web-1")], read=False)
    assert begun["session"] == "s3ss10n" and "machines" not in begun and not modules.called("service_machine_info")
    modules = Modules(**read_answers([machine("web-1")]))
    result = step(runbook_start, modules, run=begun["run"], session=begun["session"], begin=False)
    assert result["machines"] == 1 and result["add_group"] == "dr_test_wave_1" and result["session"] == "s3ss10n"
    assert not modules.called("service_login")
    assert step(runbook_start, Modules(), run=begun["run"], session="s3ss10n-2", runbook="dr_test", project="production")["failed"]


def test_a_wave_is_launched_and_looked_at_in_one_step_and_the_next_wave_is_next(tmp_path):
    result, unused = started(tmp_path, [machine("web-1"), machine("db-1")], waves="db-*; web-*")
    run = result["run"]
    modules = Modules(service_launch=[{"job": job("j1", ["db-1"])}, {"job": job("j1", ["db-1"]), "launched": launched("db-1")}])
    first = step(runbook_wave, modules, run=run, session="s3ss10n", wave=1)
    assert (first["launched"], first["running"], first["next_wave"]) == (1, 1, 2)
    assert [host["name"] for host in first["hosts"]] == ["dr-test-production/db-1"]
    assert (first["add_group"], first["parent_groups"]) == ("dr_test_wave_2", ["all"])
    # A later wave reads its pinned points again first: the service may have thinned them out since.
    modules = Modules(service_launch=[{"job": job("j2", ["web-1"])}, {"job": job("j2", ["web-1"]), "launched": launched("web-1")}],
                      service_point_in_time_info=points_info())
    last = step(runbook_wave, modules, run=run, session="s3ss10n", wave=2)
    assert last["next_wave"] is None and "add_group" not in last and last["running"] == 1


def test_a_wave_the_run_stopped_before_is_neither_launched_nor_looked_at(tmp_path):
    result, unused = started(tmp_path, [machine("web-1")])
    modules = Modules()
    stopped = step(runbook_wave, modules, run=result["run"], session="s3ss10n", wave=1, stopped={"task": "Your tasks", "message": "failed"})
    assert stopped["stopped"] and "hosts" not in stopped and "add_group" not in stopped and modules.calls == []


def test_a_search_rounds_run_has_one_wave_which_the_plays_number_by_the_round(tmp_path):
    result, unused = started(tmp_path, [machine("web-1")], round=3)
    modules = Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}])
    third = step(runbook_wave, modules, run=result["run"], session="s3ss10n", wave=3)
    assert (third["wave"], third["launched"], third["next_wave"]) == (1, 1, None) and "add_group" not in third
    assert load(result["run"])["waves"][0]["job"]["id"] == "j1"
    # A round whose begin failed has no session: its wave, which the round stopped before, is not launched, and needs none.
    result, unused = started(tmp_path, [machine("web-1")], round=4)
    modules = Modules()
    stopped = step(runbook_wave, modules, run=result["run"], wave=4, stopped={"task": "Begin the round's run", "message": "refused"})
    assert stopped["stopped"] and modules.calls == [] and load(result["run"])["waves"][0]["status"] == "not launched"


def test_the_finish_cleans_up_writes_the_report_publishes_it_and_signs_out(tmp_path, capsys):
    result, unused = started(tmp_path, [machine("web-1")])
    run = result["run"]
    # A session as long as a real one: ansible-core 2.22 masks a secret wherever it appears in what is displayed (a session
    # "s" made "localhost" "localho$REDACTED$t").
    step(runbook_wave, Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}]),
         run=run, session="s3ss10n", wave=1)
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1"], "job": job("j2", ["web-1"], job_type="CLEANUP")},
                      service_login={"ended": True})
    finished = step(runbook_finish, modules, run=run, session="s3ss10n", report_dir=str(tmp_path / "reports"))
    assert not finished.get("failed") and finished["outcome"]["result"] == "passed" and "message" not in finished
    outcome = finished["outcome"]
    assert finished["ansible_stats"] == {"data": {"dr_test": outcome, "dr_test_projects": {"production": outcome}},
                                         "per_host": False, "aggregate": True}
    assert modules.called("service_login") == [{"session": "s3ss10n", "state": "absent"}]
    assert os.path.exists(str(tmp_path / "reports" / "dr_test_production.json")) and not os.path.exists(os.path.dirname(run))
    assert "localhost: DR test of production: PASSED. 1 of 1 machines passed." in capsys.readouterr().out


def test_a_cleanup_that_fails_is_recorded_and_the_report_follows_saying_why(tmp_path):
    result, unused = started(tmp_path, [machine("web-1")])
    run = result["run"]
    step(runbook_wave, Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}]),
         run=run, session="s3ss10n", wave=1)
    modules = Modules(service_replica_cleanup={"removed_machines": ["web-1"], "job": job("j2", ["db-1"], job_type="CLEANUP")},
                      service_machine_info={"machines": [machine("web-1", replica="r9", launched_at="2026-11-22T11:00:00Z")]},
                      service_login={"ended": True})
    finished = step(runbook_finish, modules, run=run, session="s3ss10n", report_dir=str(tmp_path / "reports"))
    assert not finished.get("failed") and finished["outcome"]["result"] == "failed"
    assert "still have a test machine: web-1" in finished["message"] and modules.called("service_login")


@pytest.mark.parametrize("check_mode", [True, False])
def test_what_a_run_refused_before_its_first_write_is_reported_and_published_as_the_real_run_would(tmp_path, check_mode):
    modules = Modules(service_login=[LOGIN, {"ended": True}], **read_answers([machine("web-1")]))
    result, unused = started(tmp_path, [], modules=modules, machines="app-*")
    finished = step(runbook_finish, Modules(), check_mode=check_mode, run=result["run"], report_dir=str(tmp_path / "reports"))
    assert finished["outcome"]["outcome"] == "refused" and "app-*" in finished["message"]
    # Under --check nothing is published but a plan's confirmation token; this run has none.
    assert ("ansible_stats" in finished) is not check_mode


def test_under_check_the_finish_writes_the_plan_and_publishes_nothing_but_a_plans_token(tmp_path):
    result, unused = started(tmp_path, [machine("web-1")], check_mode=True)
    step(runbook_wave, Modules(service_launch={"would_launch": ["web-1"]}), check_mode=True, run=result["run"], session="s3ss10n", wave=1)
    finished = step(runbook_finish, Modules(service_login={"ended": True}), check_mode=True, run=result["run"], session="s3ss10n",
                    report_dir=str(tmp_path / "reports"), write_plan=True)
    assert finished["outcome"]["outcome"] == "planned" and "ansible_stats" not in finished  # no production replaced: no token
    assert os.path.exists(finished["plan"][".plan.json"]) and os.path.exists(finished["plan"][".plan.md"])
    assert not os.path.exists(str(tmp_path / "reports" / "dr_test_production.json"))


def test_a_cleanup_that_breaks_is_recorded_as_the_cleanups_failure_and_the_report_still_written(tmp_path, monkeypatch):
    from ansible_collections.replication.recovery.plugins.plugin_utils import _run_clean_up

    result, unused = started(tmp_path, [machine("web-1")])
    step(runbook_wave, Modules(service_launch=[{"job": job("j1", ["web-1"])}, {"job": job("j1", ["web-1"]), "launched": launched("web-1")}]),
         run=result["run"], session="s3ss10n", wave=1)

    def broken(*args, **kwargs):
        raise KeyError("phase")
    monkeypatch.setattr(_run_clean_up.CleaningUp, "terminate_what_the_run_launched", broken)
    finished = step(runbook_finish, Modules(service_login={"ended": True}), run=result["run"], session="s3ss10n",
                    report_dir=str(tmp_path / "reports"))
    assert not finished.get("failed") and finished["outcome"]["result"] == "failed"
    assert "cleanup: KeyError: 'phase'" in finished["message"] and os.path.exists(str(tmp_path / "reports" / "dr_test_production.json"))


def test_a_lever_a_failover_saw_engaged_as_it_began_is_no_stop_of_its_checks():
    from types import SimpleNamespace

    from ansible_collections.replication.recovery.plugins.plugin_utils._record import as_record
    from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run

    # Read as the run began (runbook_start): no phase - the lever held nothing back, and the checks' verdict stands.
    lever = {"state": "engaged", "by": "on-call", "at": "2026-11-22T10:02:00Z", "reason": "INC-7", "obeyed": False}
    run = Run(SimpleNamespace(PHASE="cleanup"), record=as_record({"lever": lever, "checked": {}, "waves": []}))
    run.lever_in_the_checks()
    assert run.record["lever"] == lever and "failure" not in run.record
