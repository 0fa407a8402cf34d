# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The game day's step on the controller: its begin - the scenario refused by name before anything is read or written,
the rehearsal a stopped game day left unreported taken up - and its end - every outcome said as the game day says it,
its report written and entered in the ledger once something was rehearsed, what it publishes, and why it did not pass."""

import json
import os
from unittest.mock import MagicMock

import pytest

from ansible_collections.replication.recovery.plugins.action import game_day_step
from ansible_collections.replication.recovery.plugins.plugin_utils import _step
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import append, newest_entries

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "..", "golden", "dr_test.json")
SCENARIO = dict(name="nightly", hypothesis="the storefront recovers within an hour", blast_radius=dict(projects=["storefront"]),
                targets=dict(rto_seconds=3600))


def rehearsal(outcome="passed", game_day="nightly", began="2026-11-27T13:12:58.622812+00:00"):
    """The DR test's report of a rehearsal, as it wrote it."""
    with open(GOLDEN, encoding="utf-8") as handle:
        report = json.load(handle)
    failures = [] if outcome == "passed" else ["web-1: RTO: 2 h 0 min over 1 h 0 min"]
    return dict(report, outcome=outcome, result="passed" if outcome == "passed" else "failed", failures=failures, game_day=game_day,
                run_began=began, started=began)  # its start: the ledger's key of a run


# The projects' levers as the service keeps them (service_safety_lever's lever), and the modules the step ran.
LEVERS = {}
RAN = []


def service(module_name, module_args, task_vars):
    RAN.append((module_name.rpartition(".")[2], dict(module_args)))
    if module_name.endswith("service_login"):
        return dict(session="s-1", user={}) if module_args.get("state") != "absent" else dict(ended=True)
    project = module_args["project"]
    if project not in LEVERS:
        return dict(failed=True, msg="Project %r was not found." % project)
    lever, state = LEVERS[project], module_args.get("state")
    if state and lever.get("unanswered"):
        return dict(failed=True, msg="POST /projects/x/recoveryPlans failed: HTTP 503")
    if not state or state == lever["state"]:
        return dict(changed=False, lever=lever)
    pulled = dict(state=state, by=module_args.get("by") or module_args.get("username"), at="2026-12-07T12:00:00Z", reason=module_args["reason"])
    if not task_vars["check_mode"]:
        LEVERS[project] = pulled
    return dict(changed=True, lever=pulled)


def step(monkeypatch, check_mode=False, task_vars=None, **args):
    """The step's answer, and the lines it said."""
    said = MagicMock()
    monkeypatch.setattr(_step, "display", said)
    task = MagicMock()
    task.args = args
    task.check_mode = check_mode
    task.async_val = 0
    action = game_day_step.ActionModule(task, MagicMock(), MagicMock(), loader=None, templar=None, shared_loader_obj=None)
    action._load_name = "replication.recovery.game_day_step"
    action._execute_module = lambda module_name, module_args, task_vars: service(module_name, module_args, dict(task_vars, check_mode=task.check_mode))
    answer = action.run(task_vars=dict({"inventory_hostname": "localhost"}, **(task_vars or {})))
    return answer, [call.args[0] for call in said.display.call_args_list]


def begun(monkeypatch, tmp_path, **args):
    answer, said = step(monkeypatch, phase="begin", scenario=json.dumps(SCENARIO), ledger_dir=str(tmp_path / "ledger"), **args)
    assert not answer.get("failed"), answer
    return answer, said


def ended(monkeypatch, tmp_path, plan, check_mode=False, **args):
    return step(monkeypatch, check_mode=check_mode, phase="end", plan=plan, ledger_dir=str(tmp_path / "ledger"), **args)


def test_a_scenario_that_cannot_run_is_refused_by_name_before_anything_is_read_or_written(monkeypatch, tmp_path):
    scenario = dict(SCENARIO, blast_radius=dict(projects=["payroll"]), **{"with": dict(project="storefront")})
    answer, unused = step(monkeypatch, phase="begin", scenario=scenario, ledger_dir=str(tmp_path / "ledger"))
    assert answer["failed"] and answer["msg"] == (
        "Game day nightly: REFUSED. project storefront is outside the blast radius of game day nightly (its projects: payroll). "
        "Nothing was read or written.")
    assert not os.path.exists(str(tmp_path / "ledger"))


def test_a_plan_that_carries_a_nodes_connection_secret_is_not_shown(monkeypatch, tmp_path):
    nodes = dict(db=dict(project="storefront", connection=dict(url="https://other.example/api/latest", username="u", password="S3CRET")))
    scenario = dict(SCENARIO, runbook="application", **{"with": dict(nodes=nodes)})
    answer, unused = step(monkeypatch, phase="begin", scenario=scenario, ledger_dir=str(tmp_path / "ledger"))
    assert answer["_ansible_no_log"] is True and answer["plan"]["with"]["nodes"]["db"]["connection"]["password"] == "S3CRET"
    assert begun(monkeypatch, tmp_path)[0]["_ansible_no_log"] is False


def test_the_rehearsal_a_stopped_game_day_left_unreported_is_taken_up_and_no_other(monkeypatch, tmp_path):
    ledger = str(tmp_path / "ledger")
    answer, said = begun(monkeypatch, tmp_path)
    assert answer["plan"]["subject"] == "DR test of storefront" and answer["unreported"] is None and said == []
    append(ledger, "dr_test", rehearsal(game_day="another"))
    assert begun(monkeypatch, tmp_path)[0]["unreported"] is None  # the newest is another game day's
    append(ledger, "dr_test", rehearsal(began="2026-11-28T02:00:00+00:00"))
    answer, said = begun(monkeypatch, tmp_path)
    assert answer["unreported"]["run_began"] == "2026-11-28T02:00:00+00:00"
    assert said == ["localhost: This game day's rehearsal, the DR test of storefront begun 2026-11-28T02:00:00+00:00, ended (passed) before "
                    "the game day that ran it reported it - it was stopped in between. This run reports it, and rehearses nothing anew; "
                    "run the game day again for a new rehearsal."]
    assert begun(monkeypatch, tmp_path, dry_run=True)[0]["unreported"] is None  # a plan reads no ledger
    assert step(monkeypatch, check_mode=True, phase="begin", scenario=SCENARIO, ledger_dir=ledger)[0]["unreported"] is None
    plan = answer["plan"]
    plan["with"]["report_dir"] = str(tmp_path / "reports")
    assert ended(monkeypatch, tmp_path, plan, unreported=answer["unreported"])[0]["changed"]  # now reported
    assert begun(monkeypatch, tmp_path)[0]["unreported"] is None


def test_a_rehearsal_is_judged_reported_entered_in_the_ledger_and_published(monkeypatch, tmp_path):
    plan = begun(monkeypatch, tmp_path)[0]["plan"]
    plan["with"]["report_dir"] = str(tmp_path / "reports")
    path = str(tmp_path / "dr_test.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(rehearsal(), handle)
    answer, said = ended(monkeypatch, tmp_path, plan, reported=dict(outcome=dict(outcome="passed", report=dict(json=path))))
    assert answer["changed"] and "message" not in answer
    assert said[0] == ("localhost: Game day nightly: PASSED. Hypothesis: the storefront recovers within an hour - borne out. No regression: "
                       "no earlier run of this scenario in the ledger to judge it against.")
    assert said[1].startswith("localhost: Report: %s/game_day_nightly." % (tmp_path / "reports")) and "Ledger: entry 1" in said[-1]
    published = answer["game_day"]
    assert (published["name"], published["outcome"], published["project"], published["dry_run"]) == ("nightly", "passed", "storefront", False)
    assert published["regressed"] is False and published["regression"] == [] and os.path.isfile(published["report"]["html"])
    [entry] = newest_entries(str(tmp_path / "ledger"), "game_day")
    assert entry["report"]["scenario"]["name"] == "nightly" and entry["report"]["rehearsal"]["outcome"] == "passed"


@pytest.mark.parametrize("given, check_mode, outcome, hypothesis", [
    (dict(dry_run=True, reported=dict(outcome=dict(outcome="planned"))), False, "PLANNED (dry run)", "planned, not tried"),
    (dict(), True, "PLANNED", "planned, not tried"),
    (dict(error="Refused: project storefront is in a failover."), False, "REFUSED", "not tried"),
    (dict(error="Cancelled: the safety lever of storefront is engaged."), False, "CANCELLED", "not tried"),
])
def test_a_game_day_that_rehearsed_nothing_writes_nothing_and_says_so(monkeypatch, tmp_path, given, check_mode, outcome, hypothesis):
    plan = begun(monkeypatch, tmp_path)[0]["plan"]
    answer, said = ended(monkeypatch, tmp_path, plan, check_mode=check_mode, **given)
    assert said == ["localhost: Game day nightly: %s. Hypothesis: the storefront recovers within an hour - %s." % (outcome, hypothesis)]
    assert answer["game_day"]["report"] is None and not answer["changed"] and not os.path.exists(str(tmp_path / "ledger"))
    assert answer.get("message") == ("Game day nightly did not pass. %s" % given["error"] if "error" in given else None)


def test_an_unreported_rehearsal_that_failed_fails_the_game_day_in_its_words(monkeypatch, tmp_path):
    plan = begun(monkeypatch, tmp_path)[0]["plan"]
    plan["with"]["report_dir"] = str(tmp_path / "reports")
    answer, said = ended(monkeypatch, tmp_path, plan, unreported=rehearsal(outcome="failed"))
    assert answer["message"] == "Game day nightly did not pass. DR test of storefront: FAILED. web-1: RTO: 2 h 0 min over 1 h 0 min"
    assert said[0].startswith("localhost: Game day nightly: FAILED. Hypothesis: the storefront recovers within an hour - not borne out.")


def test_an_applications_game_day_fails_in_the_applications_words_and_the_end_needs_the_plan(monkeypatch, tmp_path):
    plan = dict(begun(monkeypatch, tmp_path)[0]["plan"], runbook="application")
    answer, unused = ended(monkeypatch, tmp_path, plan, error="the node's run failed",
                           reported=dict(outcome=dict(outcome="refused"), message="Node db: its project was not found."))
    assert answer["message"] == "Game day nightly did not pass. Node db: its project was not found."
    answer, unused = step(monkeypatch, phase="end", ledger_dir=str(tmp_path / "ledger"))
    assert answer["failed"] and "takes the plan its begin answered" in answer["msg"]


def released(*projects):
    LEVERS.clear()
    LEVERS.update((project, dict(state="released", by=None, at=None, reason=None)) for project in projects)
    del RAN[:]


def test_the_lever_is_read_in_every_project_before_any_is_pulled_in_one_session(monkeypatch):
    released("shop", "payments")
    answer, said = step(monkeypatch, phase="lever", lever="engaged", reason="INC-7", projects=["shop", "nosuch"], username="oncall")
    assert answer["failed"] and "nosuch" in answer["msg"] and all(lever["state"] == "released" for lever in LEVERS.values())
    assert [module for module, unused in RAN] == ["service_login", "service_safety_lever", "service_safety_lever", "service_login"]
    del RAN[:]
    answer, said = step(monkeypatch, phase="lever", lever="engaged", reason="INC-7", projects=["shop", "payments"], username="oncall",
                        task_vars=dict(awx_user_name="alice"))
    assert said == ["localhost: Safety lever of shop, payments: ENGAGED by alice (INC-7). COMMITTED: 2 changed (shop, payments). Every rehearsal "
                    "there - DR test, clean point search, restore test, a failover that rolls back in a test network, the DR tests of an "
                    "application - is cancelled before it writes, and one that runs stops at its next look and cleans up; a failover or "
                    "failback goes on, and says so."]
    assert answer["game_day_lever"] == dict(state="engaged", reason="INC-7", projects=["shop", "payments"], changed=["shop", "payments"])
    assert [module for module, unused in RAN].count("service_login") == 2 and all(args.get("session") == "s-1" for module, args in RAN[1:-1])
    pulls = [args for module, args in RAN if module == "service_safety_lever" and args.get("state")]
    assert [args.get("by") for args in pulls] == ["alice", "alice"]  # the AWX user, when no one is named
    answer, said = step(monkeypatch, phase="lever", lever="engaged", reason="INC-7", projects=["shop", "payments"])
    assert "NOTHING DONE: every lever was so already." in said[0] and answer["game_day_lever"]["changed"] == [] and not answer["changed"]


def test_a_pull_the_service_refuses_in_one_project_leaves_the_others_pulled_and_fails_naming_it(monkeypatch):
    released("shop", "payments", "search")
    LEVERS["payments"]["unanswered"] = True
    answer, said = step(monkeypatch, phase="lever", lever="engaged", reason="INC-7", projects=["shop", "payments", "search"], by="on-call")
    assert answer["failed"] and answer["msg"] == ("The safety lever of payments was not pulled: payments (POST /projects/x/recoveryPlans failed: "
                                                  "HTTP 503). It was pulled in shop, search.")
    assert [LEVERS[project]["state"] for project in ("shop", "payments", "search")] == ["engaged", "released", "engaged"]


def test_the_lever_under_check_pulls_nothing_and_its_projects_may_be_the_scenarios(monkeypatch):
    released("shop", "payments")
    answer, said = step(monkeypatch, check_mode=True, phase="lever", lever="engaged", reason="INC-7", by="on-call",
                        scenario=json.dumps(dict(SCENARIO, blast_radius=dict(projects="shop, payments"))))
    assert said[0].startswith("localhost: Safety lever of shop, payments: ENGAGED by on-call (INC-7). PLANNED under --check: 2 would change, "
                              "nothing was written.")
    assert all(lever["state"] == "released" for lever in LEVERS.values())


@pytest.mark.parametrize("given, refused", [
    (dict(lever="engaged", reason="INC-7"), "Name the projects of the safety lever (game_day_projects, or the blast_radius.projects of game_day_scenario)"),
    (dict(lever="engaged", projects=["shop"], reason=" "), "Give the reason the lever is pulled (game_day_lever_reason)"),
    (dict(projects=["shop"], reason="INC-7"), "game_day_step's lever takes the state to pull it to (lever)"),
])
def test_a_lever_without_projects_a_reason_or_a_state_is_refused_before_anything_is_sent(monkeypatch, given, refused):
    released("shop")
    answer, unused = step(monkeypatch, phase="lever", **given)
    assert answer["failed"] and answer["msg"].startswith(refused) and RAN == []
