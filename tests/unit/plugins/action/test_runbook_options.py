# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""runbook_options as a role's first task runs it: the role's own argument specs read, every option typed from the text
given, a bad one refused by name, paths from where ansible-playbook started, and AWX's relative directories warned of."""

import json
import os
from unittest.mock import MagicMock, patch

import pytest
from ansible.errors import AnsibleParserError
from ansible.parsing.dataloader import DataLoader

from ansible_collections.replication.recovery.plugins.action import runbook_options
from ansible_collections.replication.recovery.plugins.plugin_utils import _files, _step
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION

HEALTH = dict(health_projects=[], health_states=["continuous"], health_max_lag=900, health_max_backlog=None, health_tested_within_days=30,
              health_exclude_stopped=True, health_proven=True, health_require_proven=False, health_restore_verified_within_days=None,
              health_ignore_events=[], health_fail=True, health_report_dir="health_report", health_report_name="health")


def run(task_vars, entry_point="main", role="health"):
    task = MagicMock()
    task.args = {}
    task.check_mode = False
    task.async_val = 0
    task.get_path.return_value = os.path.join(COLLECTION, "roles", role, "tasks", entry_point + ".yml:7")  # the task's file: its entry point
    templar = MagicMock()
    templar.template.side_effect = lambda value: value
    action = runbook_options.ActionModule(task, MagicMock(), templar, loader=None, templar=templar, shared_loader_obj=None)
    action._load_name = "replication.recovery.runbook_options"
    return action.run(task_vars=dict(task_vars, inventory_hostname="localhost", **in_role(role)))


def in_role(role):
    """The magic variables Ansible gives every task of the role ``role``."""
    return dict(role_name=role, role_path=os.path.join(COLLECTION, "roles", role))


@pytest.mark.parametrize("path, entry_point", [
    (os.path.join(COLLECTION, "roles", "application", "tasks", "level.yml:7"), "level"),
    ("/somewhere/roles/dr_test/tasks/start.yml:7", "start"),
    ("", "main"),  # a task made by code, of no file
])
def test_a_task_reads_the_options_of_the_entry_point_whose_tasks_file_it_is_in(path, entry_point):
    task = MagicMock()
    task.get_path.return_value = path
    assert runbook_options.entry_point_of(task) == entry_point


def test_a_required_option_of_the_entry_point_the_task_is_in_is_required(tmp_path):
    answer = run(dict(application_nodes={}), entry_point="level", role="application")
    assert answer.get("failed") and "application_level" in answer["msg"], answer


def test_a_task_outside_a_role_is_refused_as_it_has_no_options_to_read():
    task = MagicMock()
    task.args = {}
    task.check_mode = False
    task.async_val = 0
    action = runbook_options.ActionModule(task, MagicMock(), MagicMock(), loader=None, templar=MagicMock(), shared_loader_obj=None)
    action._load_name = "replication.recovery.runbook_options"
    answer = action.run(task_vars=dict(inventory_hostname="localhost"))
    assert answer["failed"] and answer["msg"] == "runbook_options reads the options of the role it runs in: run it in a role's tasks."


@pytest.fixture(autouse=True)
def started_elsewhere(tmp_path, monkeypatch):
    """ansible-playbook started in a directory of the user's (ansible-test runs units in the collection, where a relative
    report directory would be refused), the default ledger the test's own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def warnings(monkeypatch):
    said = []
    monkeypatch.setattr(_step.display, "warning", said.append)
    return said


def test_the_roles_options_are_read_typed_from_the_text_they_were_given_in(tmp_path, monkeypatch, warnings):
    monkeypatch.chdir(tmp_path)
    answer = run(dict(HEALTH, health_fail="no", health_max_lag="1200", health_projects="prod-*, crm", health_exclude_stopped="0",
                      health_tested_within_days="14"))
    assert not answer.get("failed"), answer
    assert answer["fail"] is False and answer["max_lag"] == 1200 and answer["projects"] == ["prod-*", "crm"]
    assert answer["exclude_stopped"] is False and answer["tested_within_days"] == 14 and answer["states"] == ["continuous"]
    assert answer["report_dir"] == str(tmp_path / "health_report")  # where ansible-playbook was started
    assert answer["replication_recovery_ledger_dir"] is None and warnings == []


def test_every_list_number_and_flag_of_the_dr_test_is_read_from_the_text_awx_and_extra_variables_give(tmp_path, warnings):
    """Moved here from the playbook_dr_test target's case "every list and number input as text": a judgement of the text
    alone. That the options typed reach the run is held by test_runbook_run's option added to the argument specs, and
    every runbook target gives its options as -e key=value text."""
    given = dict(dr_test_project="shop", dr_test_machines="web-1,web-2,db-1", dr_test_exclude="web-1",
                 dr_test_gate_states="continuous,lagging", dr_test_gate_max_lag="3600", dr_test_gate_no_backlog="false",
                 dr_test_rpo_target="86400", dr_test_rto_target="86400", dr_test_launch_timeout="900", dr_test_boot_timeout="300",
                 dr_test_cleanup_timeout="900", dr_test_poll_interval="1", dr_test_progress_interval="20", dr_test_check_public_ip="true",
                 dr_test_clean_leftovers="false", dr_test_keep_on_failure="false",
                 dr_test_report_dir=str(tmp_path / "reports"))
    answer = run(given, role="dr_test")
    assert not answer.get("failed"), answer
    assert answer["machines"] == ["web-1", "web-2", "db-1"] and answer["exclude"] == ["web-1"]
    assert answer["gate_states"] == ["continuous", "lagging"] and answer["gate_no_backlog"] is False
    assert [answer[name] for name in ("gate_max_lag", "rpo_target", "rto_target", "launch_timeout", "boot_timeout", "cleanup_timeout",
                                      "poll_interval", "progress_interval")] == [3600, 86400, 86400, 900, 300, 900, 1, 20]
    assert answer["check_public_ip"] is True and answer["clean_leftovers"] is False and answer["keep_on_failure"] is False
    assert answer["report_dir"] == str(tmp_path / "reports")
    assert warnings == []


def test_a_value_of_no_such_type_is_refused_naming_the_option(warnings):
    answer = run(dict(HEALTH, health_max_lag="a lot"))
    assert answer["failed"] and answer["msg"] == "health_max_lag must be a number, not 'a lot' (the role health): nothing was done."


def test_a_list_given_for_text_or_a_path_is_refused_naming_the_option(warnings):
    """Ansible's check of a role's options takes a list's text for the text asked: the evidence read its controls from the
    file "['dr-tested', 'rpo-met']" (found by a scratch run)."""
    answer = run(dict(HEALTH, health_report_dir=["dr-tested", "rpo-met"]))
    assert answer["failed"] and answer["msg"] == ('health_report_dir must be a path, not a list: ["dr-tested", "rpo-met"] (the role health): '
                                                  'nothing was done.'), answer
    answer = run(dict(HEALTH, health_report_name={"name": "weekly"}))
    assert answer["failed"] and answer["msg"].startswith('health_report_name must be text, not a mapping: {"name": "weekly"}'), answer
    assert not run(dict(HEALTH, health_report_name=2026)).get("failed")  # a number is no list: not refused here


def test_a_path_inside_the_installed_collection_is_refused(warnings):
    answer = run(dict(HEALTH, health_report_dir=os.path.join(COLLECTION, "playbooks", "health_report")))
    assert answer["failed"] and "health_report_dir" in answer["msg"] and "inside the installed collection replication.recovery" in answer["msg"]


def test_under_awx_a_relative_directory_is_warned_of(tmp_path, monkeypatch, warnings):
    monkeypatch.chdir(tmp_path)
    answer = run(dict(HEALTH, awx_job_id=42))
    assert not answer.get("failed") and len(warnings) == 1
    assert "health_report_dir is relative (health_report): under AWX it is in the job's private directory (%s)" % (
        tmp_path / "health_report") in warnings[0]
    run(dict(HEALTH, awx_job_id=42, health_report_dir=str(tmp_path / "kept")))
    assert len(warnings) == 1  # an absolute one is not


def test_options_a_runbook_is_given_by_the_one_that_runs_it_are_read_over_its_variables(tmp_path, monkeypatch, warnings):
    """A game day gives its runbook the scenario's options by their full names: over the inventory's, and typed the same;
    a name that is not an option of this role is passed over."""
    monkeypatch.chdir(tmp_path)
    given = dict(health_max_lag="300", health_fail="no", dr_test_waves="db-*")
    answer = run(dict(HEALTH, health_max_lag="1200", replication_recovery_options_given=given))
    assert not answer.get("failed"), answer
    assert answer["max_lag"] == 300 and answer["fail"] is False and "waves" not in answer
    answer = run(dict(HEALTH, replication_recovery_options_given=dict(health_max_lag="soon")))
    assert answer["failed"] and answer["msg"].startswith("health_max_lag must be a number, not 'soon'")
    answer = run(dict(HEALTH, replication_recovery_options_given=["health_max_lag"]))
    assert answer["failed"] and answer["msg"] == ("replication_recovery_options_given is a mapping of options by their names, not list: "
                                                  "nothing was done.")


def test_an_answer_that_carries_a_connections_secret_is_not_shown(tmp_path, monkeypatch, warnings):
    """A game day's scenario may give an application's node a connection in another account, with its password: the answer
    that carries it is hidden (-v shows the results of tasks), as in the JSON text an AWX survey gives it."""
    monkeypatch.chdir(tmp_path)
    nodes = dict(db=dict(project="db", connection=dict(url="https://other.example/api/latest", username="u", password="S3CRET")))
    scenario = dict(name="night", hypothesis="it recovers", runbook="application", blast_radius=dict(projects=["db"]), **{"with": dict(nodes=nodes)})
    without = dict(scenario, hypothesis="the password vault recovers", **{"with": dict(nodes=dict(db=dict(project="db")))})
    for given, hidden in ((scenario, True), (json.dumps(scenario), True), (without, False)):
        answer = run(dict(game_day_scenario=given), role="game_day")
        assert not answer.get("failed"), answer
        assert answer["_ansible_no_log"] is hidden


# -- what the user cannot have meant, refused by the run's first task ---------------------------------------------------


def begin(role, task_vars, extra=None, play=None, task=None, params=None, facts=None, strategy="linear", cli=(), defaults=None,
          answer=True, role_vars=None, role_path=None):
    """runbook_options as a run's first task (begins) in ``role``'s main, with the variables given where the user gives them:
    ``extra`` (-e, an AWX survey), ``play`` (the play's vars), ``task`` (the include's vars), ``params`` (the role's
    parameters); ``facts`` set by tasks (registered results); ``cli`` the extra variables as typed on the command line.
    ``role_vars`` are the role's vars/main.yml; ``role_path`` the path of the role as the task's role_path gives it (a role
    knows its own resolved, as Ansible's does). Every variable given is in ``task_vars`` too, as Ansible merges them."""
    found = MagicMock()
    found.args = dict(begins=True, answer=answer)
    found.check_mode = False
    found.async_val = 0
    found.get_path.return_value = os.path.join(COLLECTION, "roles", role, "tasks", "main.yml:5")
    # The play's roles: this one (with its defaults and parameters) as a dependency of another role, whose own are not its.
    this, other = MagicMock(), MagicMock()
    this.get_role_path.return_value, other.get_role_path.return_value = (os.path.realpath(in_role(name)["role_path"]) for name in (role, "evidence"))
    this.get_default_vars.return_value, other.get_default_vars.return_value = defaults or {}, dict(evidence_of_another_role=1)
    this.get_vars.return_value, other.get_vars.return_value = role_vars or {}, {}
    this.get_role_params.return_value, other.get_role_params.return_value = params or {}, dict(failover_comitt="of another role")
    this.get_all_dependencies.return_value, other.get_all_dependencies.return_value = [], [this]
    found.get_play.return_value.get_roles.return_value = [other]
    manager = found.get_variable_manager.return_value
    manager.extra_vars = extra or {}
    manager._nonpersistent_fact_cache = {"localhost": facts or {}}
    manager._fact_cache = {}
    found.get_play.return_value.strategy = strategy
    found.get_play.return_value.get_vars.return_value = play or {}
    found.get_vars.return_value = task or {}
    found.get_include_params.return_value = {}
    templar = MagicMock()
    templar.template.side_effect = lambda value: value
    action = runbook_options.ActionModule(found, MagicMock(), templar, loader=DataLoader(), templar=templar, shared_loader_obj=None)
    action._load_name = "replication.recovery.runbook_options"
    every = dict(task_vars)
    for given in (extra, play, task, params, facts, role_vars):
        every.update(given or {})
    with patch.object(runbook_options.context, "CLIARGS", {"extra_vars": tuple(cli)}):
        here = dict(in_role(role), **({"role_path": role_path} if role_path else {}))
        return action.run(task_vars=dict(every, inventory_hostname="localhost", **here))


FAILOVER = dict(failover_project="site")


@pytest.mark.parametrize("where, given", [
    ("an extra variable (-e, or an AWX survey)", "extra"),
    ("a variable of the play", "play"),
    ("a variable of the task that runs the role", "task"),
    ("a parameter of the role", "params"),
])
def test_a_misspelt_option_the_user_gave_is_refused_naming_the_nearest_option(warnings, where, given):
    """failover_comit=false once committed a failover asked to roll back: it was no option, and was passed over."""
    answer = begin("failover", FAILOVER, **{given: dict(failover_comit="false")})
    assert answer["failed"] and answer["msg"] == (
        "failover_comit: did you mean failover_commit? It is no option of the failover (given as %s); nothing was read or "
        "written." % where)
    assert warnings == []


# The typos of tests/integration/targets/options_meant, one of every other runbook; that target keeps the failover's, the
# failback's (JSON text) and the agent's (a group variable) end to end, with what the service saw.
@pytest.mark.parametrize("role, given, typo, meant, inventory", [
    ("dr_test", dict(dr_test_project="meant"), dict(dr_test_wavse="web-1;db-1"), "dr_test_waves", False),
    ("health", dict(health_projects="meant"), dict(health_max_lagg="60"), "health_max_lag", False),
    ("evidence", {}, dict(evidence_priod="30"), "evidence_period", False),
    ("protect", dict(protect_project="meant", protect_cloud_credentials={"name": "aws"}), dict(protect_regoin="us-west-2"), "protect_region",
     False),
    ("clean_point", dict(clean_point_project="meant"), dict(clean_point_consistant=True), "clean_point_consistent", False),
    ("application", dict(application_name="shop", application_nodes={"web": {"project": "meant"}}), dict(application_runbok="dr_test"),
     "application_runbook", False),
    ("game_day", dict(game_day_lever="engaged", game_day_projects=["meant"]), dict(game_day_lever_reasn="INC-2041"), "game_day_lever_reason",
     False),
    ("restore_test", dict(restore_test_project="meant"), dict(restore_test_point_in_tme="latest"), "restore_test_point_in_time", True),
    ("launch_policy", dict(launch_policy_project="meant"), dict(launch_policy_rule=[]), "launch_policy_rules", True),
    ("readiness", dict(readiness_project="meant", readiness_rpo_target="3600"), dict(readiness_rpo_targte="60"), "readiness_rpo_target", True),
])
def test_every_runbook_refuses_a_misspelt_option_naming_the_nearest(warnings, role, given, typo, meant, inventory):
    answer = begin(role, typo, extra=given) if inventory else begin(role, {}, extra=dict(given, **typo))
    (name, value), = typo.items()
    assert answer["failed"] and answer["msg"].startswith("%s: did you mean %s? It is no option of the " % (name, meant)), answer
    assert "(given as %s)" % ("an inventory or group variable" if inventory else "an extra variable (-e, or an AWX survey)") in answer["msg"]
    assert answer["msg"].endswith("; nothing was read or written.") and warnings == [], answer


def test_a_value_that_is_not_of_its_options_type_is_refused_by_name_before_anything_is_read(warnings):
    """As tests/integration/targets/playbook_readiness typed it: an RPO target of 15m, where seconds are asked."""
    answer = begin("readiness", {}, extra=dict(readiness_project="steady", readiness_rpo_target="15m"))
    assert answer["failed"] and answer["msg"].startswith("readiness_rpo_target must be a number, not '15m'"), answer


def test_a_name_far_from_every_option_is_refused_without_a_guess(warnings):
    """The failover's commit given to the failback: refused by its name, with no option offered as what was meant (its
    nearest, failback_hosts, is four edits away)."""
    answer = begin("failback", {}, extra=dict(failback_project="site", failback_comit="false"))
    assert answer["failed"] and answer["msg"] == ("failback_comit is no option of the failback (given as an extra variable (-e, or an AWX "
                                                  "survey)); nothing was read or written."), answer


def test_a_misspelt_required_option_is_refused_naming_both_in_one_line(warnings):
    answer = begin("failover", {}, extra=dict(failover_projcet="site"))
    assert answer["failed"] and answer["msg"] == (
        "failover_projcet: did you mean failover_project? It is no option of the failover (given as an extra variable (-e, or an "
        "AWX survey)), and failover_project is required and was not given; nothing was read or written.")
    answer = begin("failover", {})
    assert answer["failed"] and answer["msg"] == "failover_project is required, and was not given; nothing was read or written."


def test_an_inventory_variable_near_an_option_is_refused_and_one_far_from_every_option_warned_of(warnings):
    answer = begin("failover", dict(FAILOVER, failover_comit=False))
    assert answer["failed"] and answer["msg"].startswith("failover_comit: did you mean failover_commit? It is no option of the failover "
                                                         "(given as an inventory or group variable)")
    answer = begin("failover", dict(FAILOVER, failover_owner_team="dr", failover_pager="ops"))
    assert not answer.get("failed"), answer
    assert answer["project"] == "site" and warnings == [
        "localhost: failover_owner_team, failover_pager: no option of the failover, and far from every one (another role's, of the "
        "inventory?): not read."]


def test_what_tasks_set_and_the_roles_own_defaults_are_never_taken_for_options(warnings):
    """A play that runs a DR test and then a failover: what the DR test registered (dr_test_options, dr_test_read) is the
    failover's to pass over, and the failover's own registered names (of an earlier run in the play) too."""
    answer = begin("failover", FAILOVER, facts=dict(failover_options={"commit": True}, failover_moved=1, dr_test_options={}),
                   defaults=dict(failover_commitment=1))
    assert not answer.get("failed") and warnings == [], answer


def test_a_collection_reached_through_a_link_has_its_roles_own_variables_and_parameters_known(tmp_path, warnings):
    """A checkout linked into the collections path: the task's role_path is the link's, a role knows its path resolved. The
    health's vars/main.yml were warned of as variables of the inventory (found by a scratch run), and a misspelt parameter of
    the role was not taken for the user's."""
    (tmp_path / "recovery").symlink_to(COLLECTION)
    linked = tmp_path / "recovery" / "roles" / "health"
    answer = begin("health", {}, role_vars=dict(health_summary="...", health_lag_threshold=600), role_path=str(linked))
    assert not answer.get("failed") and warnings == [], answer
    answer = begin("health", {}, params=dict(health_max_lagg="60"), role_path=str(linked))
    assert answer["failed"] and answer["msg"].startswith("health_max_lagg: did you mean health_max_lag? It is no option of the fleet health "
                                                         "(given as a parameter of the role)"), answer


def test_the_options_of_the_runbooks_it_runs_and_the_shared_ones_are_known(warnings):
    """A game day runs a DR test: dr_test_waves given to it is the DR test's; replication_recovery_ledger_dir is every
    runbook's; replication_recovery_options_given is how one runbook hands another its options."""
    answer = begin("game_day", {}, extra=dict(game_day_lever="engaged", game_day_projects="shop", dr_test_waves="db-*",
                                              replication_recovery_ledger_dir="/srv/ledger", replication_recovery_options_given={}))
    assert not answer.get("failed"), answer
    answer = begin("game_day", {}, extra=dict(dr_test_wavse="db-*"))
    assert answer["failed"] and answer["msg"].startswith("dr_test_wavse: did you mean dr_test_waves? It is no option of the game day")
    answer = begin("health", {}, extra=dict(replication_recovery_ledgr_dir="/srv"))
    assert answer["failed"] and answer["msg"].startswith("replication_recovery_ledgr_dir: did you mean replication_recovery_ledger_dir?")


def test_a_variable_of_another_prefix_is_not_the_runbooks_to_judge(warnings):
    answer = begin("failover", FAILOVER, extra=dict(dr_test_wavse="db-*", agent_porject="x", checks_log="/tmp/x"))
    assert not answer.get("failed") and warnings == [], answer


@pytest.mark.parametrize("strategy, refused", [("linear", False), ("ansible.builtin.linear", False), ("debug", False),
                                               ("free", True), ("host_pinned", True), ("ansible.builtin.free", True)])
def test_a_play_whose_strategy_is_not_linear_is_refused(warnings, strategy, refused):
    answer = begin("dr_test", dict(dr_test_project="site"), strategy=strategy)
    assert bool(answer.get("failed")) is refused, answer
    if refused:
        assert answer["msg"] == ("The DR test runs in a play of strategy linear, not strategy %s: its waves and the hosts it adds move "
                                 "every host of the play together. Set strategy: linear on the play; nothing was read or written."
                                 % strategy.rpartition(".")[2])


@pytest.mark.parametrize("role, given, title", [
    ("failover", dict(failover_project="site"), "failover"), ("failback", dict(failback_project="site"), "failback"),
    ("restore_test", dict(restore_test_project="site"), "restore test"), ("clean_point", dict(clean_point_project="site"), "clean point search"),
    ("application", dict(application_name="shop", application_nodes={"web": {"project": "site"}}), "application"),
    ("game_day", dict(game_day_lever="engaged", game_day_projects="site", game_day_lever_reason="INC-1"), "game day"),
])
def test_every_runbook_that_moves_its_hosts_together_is_refused_in_a_free_play(warnings, role, given, title):
    answer = begin(role, given, strategy="free")
    assert answer.get("failed") and answer["msg"].startswith("The %s runs in a play of strategy linear, not strategy free" % title), answer


def test_text_that_key_value_split_at_a_space_is_refused_naming_the_json_that_keeps_it(warnings):
    """-e 'game_day_lever_reason=INC-2041: payments latency' is the reason INC-2041: to Ansible, the rest dropped."""
    extra = dict(game_day_lever="engaged", game_day_lever_reason="INC-2041:", _raw_params="payments latency")
    answer = begin("game_day", {}, extra=extra, cli=["game_day_lever=engaged", "game_day_lever_reason=INC-2041: payments latency"])
    assert answer["failed"] and answer["msg"] == (
        "game_day_lever_reason was given as -e 'game_day_lever_reason=INC-2041: payments latency', which Ansible splits at its "
        "spaces: it would take the first word and drop the rest. Give it as JSON text, -e '{\"game_day_lever_reason\": \"INC-2041: "
        "payments latency\"}'; nothing was read or written.")
    # A moment as a tired operator types it: the date kept, its time dropped.
    extra = dict(failover_project="safe", failover_point_in_time="before:2026-11-25", _raw_params="03:00")
    answer = begin("failover", {}, extra=extra, cli=["failover_project=safe", "failover_point_in_time=before:2026-11-25 03:00"])
    assert answer["failed"] and answer["msg"].startswith(
        "failover_point_in_time was given as -e 'failover_point_in_time=before:2026-11-25 03:00', which Ansible splits at its spaces") and (
        "Give it as JSON text, -e '{\"failover_point_in_time\": \"before:2026-11-25 03:00\"}'" in answer["msg"]), answer
    for kept in ('game_day_lever_reason="INC-2041: payments latency"', '{"game_day_lever_reason": "INC-2041: payments latency"}',
                 "@vars.yml", "other_reason=two words"):
        answer = begin("game_day", {}, extra=dict(game_day_lever="engaged"), cli=[kept])
        assert not answer.get("failed"), (kept, answer)


def test_only_the_runs_first_task_judges_so_that_a_finish_is_never_refused_part_way(warnings):
    answer = run(dict(HEALTH, health_max_lagg="60"))
    assert not answer.get("failed"), answer


def test_without_the_answer_nothing_is_answered_and_a_refusal_still_is(warnings):
    """For a role whose options hold secrets: its task that answers them hides its output, so the refusal comes first."""
    task_vars = dict(protect_project="p", protect_region="r", protect_cloud_credentials={"name": "aws", "private_key": "secret"})
    answer = begin("protect", task_vars, answer=False)
    assert not answer.get("failed") and "secret" not in str(answer) and "cloud_credentials" not in answer, answer
    answer = begin("protect", task_vars, answer=False, extra=dict(protect_regoin="r"))
    assert answer["failed"] and answer["msg"].startswith("protect_regoin: did you mean protect_region?")


@pytest.mark.parametrize("role, option, text, why", [
    ("dr_test", "dr_test_checks_tasks", None, "does not exist"),
    ("failover", "failover_after_tasks", "not: [valid\n", "cannot be read as YAML"),
    ("restore_test", "restore_test_after_wave_tasks", "name: a task, not a list of them\n", "is no list of tasks (a mapping)"),
    ("clean_point", "clean_point_checks_tasks", None, "does not exist"),
])
def test_a_task_file_of_the_users_is_read_before_anything_is_launched(tmp_path, warnings, role, option, text, why):
    """Ansible reads a checks or hook file only as it includes it, after the launch: one missing, or not YAML, stopped the
    playbook there - the machines launched left up, no report written (found by a scratch run)."""
    path = tmp_path / "tasks.yml"
    if text is not None:
        path.write_text(text)
    given = {role + "_project": "meant", option: str(path)}
    answer = begin(role, {}, extra=given)
    assert answer["failed"] and answer["msg"].startswith("%s: %s %s" % (option, path, why)), answer
    assert answer["msg"].endswith("Nothing was read or written: give a task file of yours (a YAML list of tasks).")
    path.write_text("- name: A check of mine\n  ansible.builtin.debug:\n    msg: up\n")
    assert not begin(role, {}, extra=given).get("failed")
    path.write_text("")  # an empty task file includes nothing, as Ansible takes it
    assert not begin(role, {}, extra=given).get("failed")


def test_a_task_file_whose_tasks_ansible_cannot_load_is_refused_in_ansibles_words(tmp_path, warnings, monkeypatch):
    """A module's name misspelt in a checks file: Ansible's loading of it ended the playbook with its machines launched. The
    tasks are loaded as Ansible includes them (tests/integration/targets/options_meant runs it with ansible-playbook's own
    plugin loader); here the loading is Ansible's answer alone."""
    path = tmp_path / "checks.yml"
    path.write_text("- ansible.builtin.debgu:\n    msg: up\n")
    loaded = []

    def load(tasks, variable_manager, loader):
        loaded.append((tasks, loader.get_basedir()))
        raise AnsibleParserError("couldn't resolve module/action 'ansible.builtin.debgu'. This often indicates a misspelling.\nOrigin: ...")
    monkeypatch.setattr(_files, "load_tasks", load)
    answer = begin("failback", {}, extra=dict(failback_project="meant", failback_checks_tasks=str(path)))
    assert answer["failed"] and answer["msg"] == (
        "failback_checks_tasks: %s holds a task Ansible cannot load (couldn't resolve module/action 'ansible.builtin.debgu'. This often "
        "indicates a misspelling.). Nothing was read or written: give a task file of yours (a YAML list of tasks)." % path), answer
    # Loaded from beside it, as Ansible includes it (its own imports are found there).
    assert loaded == [([{"ansible.builtin.debgu": {"msg": "up"}}], str(tmp_path))]


def test_every_directory_the_run_writes_is_proven_before_anything_is_read(tmp_path, monkeypatch, warnings):
    """An immutable or full report directory was found after the whole DR test ran - machines launched, checked and removed -
    and its result lost. The report directory, the ledger (the default one when none is named) and the run's state
    directory now each take a file at the run's first task."""
    tried = []
    monkeypatch.setattr(runbook_options, "unwritable", lambda directory: tried.append(directory) or None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(runbook_options.tempfile, "gettempdir", lambda: str(tmp_path / "state"))
    answer = begin("dr_test", dict(dr_test_project="site"))
    assert not answer.get("failed"), answer
    assert tried == [str(tmp_path / "dr_test_report"), str(tmp_path / "data" / "replication.recovery" / "ledger"), str(tmp_path / "state")]
    del tried[:]
    answer = begin("readiness", dict(readiness_project="site", readiness_rpo_target=60, replication_recovery_ledger_dir="ledger"))
    assert not answer.get("failed") and tried == [str(tmp_path / "readiness_report"), str(tmp_path / "ledger")], answer
    # The ledger named, and the default one (a game day's, which writes no report): each refused by its name.
    refused = []
    monkeypatch.setattr(runbook_options, "unwritable", lambda directory: "%s: Operation not permitted" % directory if directory in refused else None)
    refused.append(str(tmp_path / "ledger"))
    answer = begin("dr_test", dict(dr_test_project="site", replication_recovery_ledger_dir=str(tmp_path / "ledger")))
    assert answer["failed"] and "cannot write in %s (replication_recovery_ledger_dir)" % (tmp_path / "ledger") in answer["msg"], answer
    refused.append(str(tmp_path / "data" / "replication.recovery" / "ledger"))
    answer = begin("game_day", dict(game_day_lever="engaged", game_day_projects=["site"], game_day_lever_reason="INC-2041"))
    assert answer["failed"] and answer["msg"].startswith("The game day cannot write in %s (the default ledger): " % refused[-1]), answer
    monkeypatch.setattr(runbook_options, "unwritable", lambda directory: "%s: Operation not permitted" % directory)
    answer = begin("dr_test", dict(dr_test_project="site"))
    assert answer["failed"] and answer["msg"] == (
        "The DR test cannot write in %s (dr_test_report_dir): %s: Operation not permitted. Nothing was read or written: give a "
        "directory it can write, or make this one writable." % (tmp_path / "dr_test_report", tmp_path / "dr_test_report"))


@pytest.mark.parametrize("role, given", [
    ("dr_test", dict(dr_test_project="site")), ("failover", dict(failover_project="site", failover_commit=False)),
    ("failback", dict(failback_project="site")), ("restore_test", dict(restore_test_project="site")),
    ("clean_point", dict(clean_point_project="site")), ("health", dict(health_projects="site")),
    ("launch_policy", dict(launch_policy_project="site")), ("evidence", {}),
    ("application", dict(application_name="shop", application_nodes={"web": {"project": "site"}}, application_runbook="dr_test")),
    ("readiness", dict(readiness_project="site", readiness_rpo_target=60)),
])
def test_every_runbook_refuses_a_report_directory_it_cannot_write_before_anything_is_read(tmp_path, monkeypatch, warnings, role, given):
    report_dir = str(tmp_path / (role + "_report"))  # its default, where ansible-playbook was started
    monkeypatch.setattr(runbook_options, "unwritable", lambda directory: "%s: Read-only file system" % directory if directory == report_dir else None)
    answer = begin(role, given)
    assert answer["failed"] and answer["msg"].endswith(
        "cannot write in %s (%s_report_dir): %s: Read-only file system. Nothing was read or written: give a directory it can write, "
        "or make this one writable." % (report_dir, role, report_dir)), answer


def test_a_directory_is_proven_by_a_file_written_and_removed_in_it_or_its_nearest_parent(tmp_path, monkeypatch):
    assert _files.unwritable(str(tmp_path / "not" / "made" / "yet")) is None and os.listdir(str(tmp_path)) == []
    (tmp_path / "a-file").write_text("x")
    assert _files.unwritable(str(tmp_path / "a-file" / "reports")) == "%s is not a directory" % (tmp_path / "a-file")

    def full(**kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(_files.tempfile, "NamedTemporaryFile", full)
    assert _files.unwritable(str(tmp_path)) == "%s: No space left on device" % tmp_path
