# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The application's step on the controller, phase by phase: the nodes as hosts without their secrets, the levels'
decisions, a node's outcome and its retry, approvals given and asked at a terminal, the end's report and ledger entry,
and a run resumed where it stood."""

import json
import os
from unittest.mock import MagicMock

import jsonschema
import pytest
from ansible.parsing.dataloader import DataLoader
from ansible.errors import AnsiblePromptNoninteractive

from ansible_collections.replication.recovery.plugins.action import application_step
from ansible_collections.replication.recovery.plugins.plugin_utils import _application_run

NODES = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"], retry=1, optional_machines=["db-3"]),
             app=dict(project="app", after=["db"], approval=True),
             edge=dict(project="edge", after=["identity"], connection=dict(url="https://other.example/api/latest", username="u", password="SECRET")))


SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "application", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)


def written(ended):
    """The application's report the end wrote, held to its schema."""
    with open(ended["outcome"]["report"]) as handle:
        report = json.load(handle)
    jsonschema.validate(report, SCHEMA)
    return report


# The services' clocks, by URL (None: the run's own connection), as service_login with read_time answers them; the
# sign-ins and sign-outs the step made.
CLOCKS = {None: "2026-11-27T03:00:00.000000+00:00", "https://other.example/api/latest": "2026-11-27T02:59:58.000000+00:00"}
LOGINS = []


# The projects the services know, each with its machines (name: seconds of lag, None for a machine with no point in time
# yet), as service_machine_info answers the preflight - any other project with one machine, but those MISSING. The reads made.
PROJECTS = dict(db=dict(db_1=30, db_3=30), app=dict(app_1=30))
MISSING = ("cahce",)
READS = []
# The projects whose safety lever is engaged (service_safety_lever's lever), and the machines' tags, by name.
ENGAGED_LEVERS = {}
TAGS = dict(db_3=["legacy"])


def service_login(module_name, module_args, task_vars):
    if module_name == "replication.recovery.service_machine_info":
        READS.append(dict(module_args))
        project = module_args["project"]
        if project in MISSING:
            return dict(failed=True, msg="Project %r was not found. Known: app, cache, db, edge, identity." % project)
        machines = [dict(id=name + "-id", name=name.replace("_", "-"), lag_seconds=lag, tags=TAGS.get(name, []))
                    for name, lag in PROJECTS.get(project, {project + "_1": 30}).items()]
        if module_args.get("include_points_in_time"):  # one point a day ago, of a machine that has one
            machines = [dict(machine, points_in_time=[dict(id=machine["name"] + "-p", dateTime="2026-11-25T23:00:00.000000+00:00")]
                             if machine["lag_seconds"] is not None else []) for machine in machines]
        return dict(project=dict(id=project + "-id", name=project), machines=machines,
                    launch_settings=dict(region=dict(id="r", name="us-east-1"), problems={}))
    if module_name == "replication.recovery.service_safety_lever":
        lever = ENGAGED_LEVERS.get(module_args["project"])
        return dict(lever=lever or dict(state="released", by=None, at=None, reason=None))
    assert module_name == "replication.recovery.service_login"
    LOGINS.append(dict(module_args))
    if module_args.get("state") == "absent":
        return dict(ended=True)
    return dict(session="s-%d" % len(LOGINS), user={}, service_time=CLOCKS[module_args.get("api_url")])


def step(check_mode=False, **args):
    task = MagicMock()
    task.args = args
    task.check_mode = check_mode
    task.async_val = 0
    action = application_step.ActionModule(task, MagicMock(), MagicMock(), loader=DataLoader(), templar=None, shared_loader_obj=None)
    action._load_name = "replication.recovery.application_step"
    action._execute_module = service_login
    return action.run(task_vars={"inventory_hostname": "localhost", "ansible_playbook_python": "/usr/bin/python3", "awx_user_name": "oncall"})


def begin(tmp_path, nodes=None, **args):
    return step(phase="begin", name="shop", nodes=NODES if nodes is None else nodes, report_dir=str(tmp_path / "reports"),
                ledger_dir=str(tmp_path / "ledger"), **args)


def report(path, machines, result=None, kept=(), points=None):
    """A node run's report; ``points``, the date-time of the point each machine launched from, by name."""
    checks = [dict(name="launch job, wave 1", status="passed" if all(machines.values()) else "failed")]
    written = dict(schema="replication.recovery.dr_test/v1", project="x", result=result or ("passed" if all(machines.values()) else "failed"),
                   checks=checks, measures=dict(rto_seconds=90), failures=[], started="2026-11-27T00:00:00Z", kept=list(kept),
                   machines=[dict(name=name, passed=passed, point_in_time=dict(id="p-" + name, date_time=points[name]) if points else None)
                             for name, passed in machines.items()])
    path.write_text(json.dumps(written))
    return str(path)


def test_begin_answers_the_nodes_as_hosts_by_level_and_keeps_no_secret(tmp_path):
    begun = begin(tmp_path)
    assert not begun.get("failed"), begun
    assert begun["levels"] == [["identity"], ["db", "edge"], ["app"]]
    edge = next(host for host in begun["hosts"] if host["application_node"] == "edge")
    assert edge["name"] == "shop.edge" and edge["groups"] == ["application_level_2", "application_nodes"] and edge["dr_test_project"] == "edge"
    assert "SECRET" not in json.dumps(begun)
    saved = (tmp_path / "reports" / "application_shop.run" / "run.json").read_text()
    assert "SECRET" not in saved and "https://other.example/api/latest" in saved
    assert "Level 3: app (project app, every machine, critical, after db, needs approval)" in begun["lines"]


@pytest.mark.parametrize("check_mode", [True, False])
def test_every_node_is_checked_before_any_acts_and_what_its_run_would_refuse_is_refused_in_its_words(tmp_path, check_mode):
    del READS[:]
    nodes = dict(identity=dict(project="identity"), cache=dict(project="cahce", after=["identity"]),
                 db=dict(project="db", after=["identity"]), app=dict(project="app", after=["db"]))
    PROJECTS["app"] = dict(app_1=None)  # no point in time yet
    try:
        refused = step(check_mode=check_mode, phase="begin", name="shop", nodes=nodes, report_dir=str(tmp_path / "reports"))
    finally:
        PROJECTS["app"] = dict(app_1=30)
    assert refused["failed"] and refused["msg"].startswith("Every node was checked before any acts: 2 of 4 would be refused, and no node acted; "
                                                           "nothing was written.")
    assert "Node cache: Project 'cahce' was not found. Known: app, cache, db, edge, identity." in refused["msg"]
    assert "Node app: app-1 has no point in time at or before 2026-11-27T03:00:00Z; it has no point in time yet (initial sync not done); " \
           "nothing was launched. Choose another point in time (dr_test_point_in_time), or leave those machines out." in refused["msg"]
    assert sorted(read["project"] for read in READS) == ["app", "cahce", "db", "identity"]  # one read a node, each with its launch settings
    assert all(read["prove_launch_settings"] for read in READS) and not (tmp_path / "reports").exists()


def test_the_nodes_and_the_approval_may_be_given_as_text(tmp_path):
    begun = begin(tmp_path, nodes='{"identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"], "approval": true}}',
                  approve="node: app\nby: Dana")
    assert begun["levels"] == [["identity"], ["app"]] and "approved by Dana" in begun["lines"][2]
    assert "neither JSON nor YAML" in begin(tmp_path, nodes="{identity: [")["msg"]


def test_begin_under_check_writes_only_the_plan(tmp_path):
    begun = begin(tmp_path, check_mode=True)
    assert begun["lines"][-2].startswith("Forecast RTO: none") and begun["lines"][-1].startswith("Plan: ")
    assert not (tmp_path / "reports" / "application_shop.run").exists()  # no run began
    plan = json.loads(open(begun["plan"]).read())
    assert plan["schema"] == "replication.recovery.application.plan/v1" and plan["levels"] == [["identity"], ["db", "edge"], ["app"]]
    assert plan["points_as_of"] == begun["points_as_of"] and "SECRET" not in json.dumps(plan)
    assert (tmp_path / "reports" / "application_shop.plan.md").read_text().startswith("# The plan of the application shop (dr_test)")


def test_every_node_takes_its_points_as_of_when_the_run_began_on_its_services_clock_and_a_resumed_run_keeps_it(tmp_path):
    del LOGINS[:]
    begun = begin(tmp_path)
    # The run's own service (identity, db, app) and edge's, read with edge's own connection: one session each, for the clock and
    # the nodes' checks, signed out once begin is done.
    assert begun["points_as_of"] == dict(identity=CLOCKS[None], db=CLOCKS[None], app=CLOCKS[None], edge=CLOCKS["https://other.example/api/latest"])
    assert dict((host["application_node"], host["runbook_points_as_of"]) for host in begun["hosts"]) == begun["points_as_of"]
    assert [(login.get("api_url"), login.get("password"), login.get("state")) for login in LOGINS] == [
        (None, None, None), ("https://other.example/api/latest", "SECRET", None), (None, None, "absent"),
        ("https://other.example/api/latest", "SECRET", "absent")]
    assert "Points in time: each machine's newest at or before 2026-11-27T02:59:58.000000+00:00 (edge); 2026-11-27T03:00:00.000000+00:00 " \
           "(app, db, identity), on its service's clock - when the application's run began - unless its node names its own." in begun["lines"]
    assert "SECRET" not in json.dumps(begun)
    del LOGINS[:]
    assert begin(tmp_path)["points_as_of"] == begun["points_as_of"]  # the run did not end: resumed, its moments
    assert [login.get("state") for login in LOGINS] == [None, None, "absent", "absent"]  # the nodes checked again, in one session each


def test_a_clock_that_cannot_be_read_stops_the_run_before_anything_is_written(tmp_path):
    task_args = dict(phase="begin", name="shop", nodes=dict(identity=dict(project="identity")), report_dir=str(tmp_path / "reports"))
    task = MagicMock(args=task_args, check_mode=False, async_val=0)
    action = application_step.ActionModule(task, MagicMock(), MagicMock(), loader=DataLoader(), templar=None, shared_loader_obj=None)
    action._execute_module = lambda **unused: dict(failed=True, msg="Authentication failed: wrong password")
    refused = action.run(task_vars={})
    assert refused["failed"] and refused["msg"] == (
        "The clock of the service at the run's connection could not be read - every node's points in time are taken as of the moment "
        "the application's run begins: Authentication failed: wrong password. Nothing was written.")
    assert not (tmp_path / "reports").exists()


def test_a_plan_binds_the_nodes_and_the_moment_of_the_points(tmp_path):
    nodes = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"]))
    planned = begin(tmp_path, nodes=nodes, check_mode=True)
    carried = begin(tmp_path, nodes={}, plan=planned["plan"])  # the plan alone: its nodes
    assert not carried.get("failed"), carried
    assert carried["points_as_of"] == planned["points_as_of"] and carried["levels"] == [["identity"], ["db"]]
    assert "Carries out the plan %s." % planned["plan"] in carried["lines"]
    assert "when the plan was made" in carried["lines"][-2]
    assert [host["runbook_points_as_of"] for host in carried["hosts"]] == [CLOCKS[None]] * 2
    state = carried["state"]
    # identity took its newest point at or before the moment; db ran later, when only an older one was left of that time.
    taken = dict(identity="2026-11-27T02:55:00.000000+00:00", db="2026-11-27T01:00:00.000000+00:00")
    for level, name in ((1, "identity"), (2, "db")):
        step(phase="level", state=state, level=level)
        step(phase="node", state=state, node=name, report=report(tmp_path / (name + ".json"), {name + "-1": True}, points={name + "-1": taken[name]}))
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    report_written = written(ended)
    assert report_written["plan"] == planned["plan"] and report_written["points_as_of"] == planned["points_as_of"]
    assert [node["points_as_of"] for node in report_written["nodes"]] == [CLOCKS[None]] * 2
    assert [node["behind_seconds"] for node in report_written["nodes"]] == [300, 7200]
    with open(ended["outcome"]["report"][:-len(".json")] + ".md") as handle:
        assert "Furthest behind it: db, whose oldest point is 2 h 0 min before its moment (2026-11-27T01:00:00.000000+00:00)." in handle.read()


def test_a_node_that_names_its_own_point_in_time_is_not_judged_behind_the_moment(tmp_path):
    nodes = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"], point_in_time="before:2026-11-26T00:00:00Z"))
    state = begin(tmp_path, nodes=nodes)["state"]
    taken = dict(identity="2026-11-27T02:50:00.000000+00:00", db="2026-11-25T23:00:00.000000+00:00")
    for level, name in ((1, "identity"), (2, "db")):
        step(phase="level", state=state, level=level)
        step(phase="node", state=state, node=name, report=report(tmp_path / (name + ".json"), {name + "-1": True}, points={name + "-1": taken[name]}))
    ended = step(phase="end", state=state)
    assert [node["behind_seconds"] for node in written(ended)["nodes"]] == [600, None]
    with open(ended["outcome"]["report"][:-len(".json")] + ".md") as handle:
        assert "Furthest behind it: identity, whose oldest point is 10 min 0 s before its moment" in handle.read()


def test_a_plan_is_refused_with_other_nodes_another_application_or_what_is_no_plan(tmp_path):
    nodes = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"]))
    plan = begin(tmp_path, nodes=nodes, check_mode=True)["plan"]
    changed = dict(nodes, db=dict(project="db", after=["identity"], retry=1), cache=dict(project="cache"))
    refused = begin(tmp_path, nodes=changed, plan=plan)
    assert refused["failed"] and "was made for other nodes: cache, db differ from application_nodes" in refused["msg"]
    assert not (tmp_path / "reports" / "application_shop.run").exists()
    assert not begin(tmp_path, nodes=nodes, plan=plan).get("failed")  # the same nodes, given again: carried out
    other = step(phase="begin", name="other", nodes=nodes, plan=plan, report_dir=str(tmp_path / "reports"))
    assert other["failed"] and "is of the application shop, not other" in other["msg"]
    (tmp_path / "not_a_plan.json").write_text("{}")
    assert "is not an application's plan" in begin(tmp_path, nodes={}, plan=str(tmp_path / "not_a_plan.json"))["msg"]
    assert "cannot be read" in begin(tmp_path, plan=str(tmp_path / "missing.json"))["msg"]
    assert "application_nodes is required" in step(phase="begin", name="shop", report_dir=str(tmp_path / "r"))["msg"]


def test_a_plan_with_a_node_in_another_account_needs_the_nodes_for_their_secrets(tmp_path):
    plan = begin(tmp_path, check_mode=True)["plan"]
    refused = begin(tmp_path, nodes={}, plan=plan)
    assert refused["failed"] and "nodes in another account (edge)" in refused["msg"]
    assert not begin(tmp_path, plan=plan).get("failed")  # with NODES, which carry edge's password


def test_a_run_that_has_not_ended_refuses_a_plan_of_another_moment(tmp_path):
    nodes = dict(identity=dict(project="identity"))
    begin(tmp_path, nodes=nodes)
    plan = tmp_path / "later.plan.json"
    planned = json.loads(open(begin(tmp_path, nodes=nodes, check_mode=True)["plan"]).read())
    plan.write_text(json.dumps(dict(planned, points_as_of=dict(identity="2027-01-01T00:00:00Z"))))
    refused = begin(tmp_path, nodes=nodes, plan=str(plan))
    assert refused["failed"] and "takes its points in time as of" in refused["msg"] and "Run it again without the plan" in refused["msg"]


def test_begin_refuses_bad_nodes_before_anything_is_written(tmp_path):
    refused = begin(tmp_path, nodes=dict(a=dict(project="p", after=["b"]), b=dict(project="q", after=["a"])))
    assert refused["failed"] and "in a cycle" in refused["msg"] and not (tmp_path / "reports").exists()


def test_an_approval_must_name_a_node_that_needs_one(tmp_path):
    assert "which needs no approval" in begin(tmp_path, approve=dict(node="db", by="Dana"))["msg"]
    assert "which is not a node" in begin(tmp_path, approve=dict(node="ghost", by="Dana"))["msg"]
    assert "with node (the node approved), by" in begin(tmp_path, approve=dict(node="app"))["msg"]


def test_the_levels_run_in_order_a_retry_relaunches_the_failed_machines_and_an_approval_is_awaited(tmp_path, monkeypatch):
    state = begin(tmp_path)["state"]
    first = step(phase="level", state=state, level=1)
    assert first["decisions"]["identity"]["run"]
    step(phase="node", state=state, node="identity", report=report(tmp_path / "identity.json", {"idp-1": True}), began=first["decisions"]["identity"]["began"])
    second = step(phase="level", state=state, level=2)
    assert second["decisions"]["db"]["run"] and second["decisions"]["edge"]["run"]
    failed = step(phase="node", state=state, node="db", report=report(tmp_path / "db.json", {"db-1": False, "db-2": True, "db-3": False}))
    assert failed["outcome"]["state"] == "failed" and failed["outcome"]["retry_machines"] == ["db-1"]  # db-3 is optional
    again = step(phase="node", state=state, node="db", attempt=1, report=report(tmp_path / "db-again.json", {"db-1": True}))
    assert again["outcome"]["state"] == "passed" and again["outcome"]["retry_machines"] == [] and len(again["outcome"]["attempts"]) == 2
    step(phase="node", state=state, node="edge", error="login failed")
    third = step(phase="level", state=state, level=3)
    assert third["decisions"]["app"] == dict(run=False, state="waiting for approval", reason="needs approval (application_approve: {node: app, by: ...})")
    # No terminal: nothing asked, and the run ends waiting (rc 0) - edge failed, but it is after identity only.
    monkeypatch.setattr(_application_run.display, "prompt_until", MagicMock(side_effect=AnsiblePromptNoninteractive("stdin is not interactive")))
    asked = step(phase="approve", state=state, approval_timeout=5)
    assert asked["approved"] == [] and asked["lines"][0].startswith("No terminal")
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    assert ended["outcome"]["result"] == "failed"  # edge is critical, and failed
    assert "edge: login failed" in ended["message"]
    nodes = dict((node["name"], node) for node in written(ended)["nodes"])
    assert [attempt["state"] for attempt in nodes["db"]["attempts"]] == ["failed", "passed"] and nodes["app"]["state"] == "waiting for approval"


def test_a_run_waiting_for_approval_ends_with_rc_0_and_the_next_run_with_the_approval_goes_on(tmp_path):
    nodes = dict(identity=dict(project="identity"), app=dict(project="app", after=["identity"], approval=True))
    state = begin(tmp_path, nodes=nodes)["state"]
    step(phase="level", state=state, level=1)
    step(phase="node", state=state, node="identity", report=report(tmp_path / "identity.json", {"idp-1": True}))
    step(phase="level", state=state, level=2)
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    assert ended["outcome"]["result"] == "waiting for approval" and ended["outcome"]["waiting"] == ["app"] and "message" not in ended
    assert written(ended)["result"] == "waiting for approval"
    assert not (tmp_path / "ledger").exists()  # entered once the run ends
    del READS[:]
    resumed = begin(tmp_path, nodes=nodes, approve=dict(node="app", by="Dana Night", comment="change 4711"))
    assert "resuming the run begun" in resumed["lines"][0]
    assert [read["project"] for read in READS] == ["app"]  # the node the earlier run ended is adopted, not checked again
    first = step(phase="level", state=state, level=1)
    assert not first["decisions"]["identity"]["run"] and "adopted, not run again" in first["lines"][0]
    assert step(phase="level", state=state, level=2)["decisions"]["app"]["run"]
    step(phase="node", state=state, node="app", report=report(tmp_path / "app.json", {"app-1": True}))
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    assert ended["outcome"]["result"] == "passed"
    assert written(ended)["approvals"]["app"]["comment"] == "change 4711"
    entry = json.loads((tmp_path / "ledger" / "00000001.json").read_text())
    assert entry["runbook"] == "application" and entry["report"]["approvals"]["app"]["by"] == "Dana Night"
    assert entry["report"]["approvals"]["app"]["controller_user"] == "oncall"
    assert "app: approved by Dana Night: change 4711 (controller user oncall" in "\n".join(ended["lines"])
    assert begin(tmp_path, nodes=nodes)["lines"][0] == "Application shop (dr_test): 2 nodes in 2 levels."  # a new run


def test_a_dr_tests_nodes_keep_their_test_machines_until_the_application_ends_then_they_are_cleaned_up(tmp_path):
    nodes = dict(identity=dict(project="identity"), app=dict(project="app", after=["identity"], approval=True))
    begun = begin(tmp_path, nodes=nodes)
    state = begun["state"]
    assert all(host["runbook_keep"] for host in begun["hosts"])
    step(phase="level", state=state, level=1)
    step(phase="node", state=state, node="identity", report=report(tmp_path / "identity.json", {"idp-1": True}, kept=["idp-1"]))
    step(phase="level", state=state, level=2)
    assert step(phase="result", state=state)["to_clean"] == {}  # app waits: identity's test machine stays up for it
    waiting = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    assert "identity: its test machines run until the application ends: idp-1." in waiting["lines"]
    begin(tmp_path, nodes=nodes, approve=dict(node="app", by="Dana"))
    step(phase="level", state=state, level=2)
    step(phase="node", state=state, node="app", report=report(tmp_path / "app.json", {"app-1": True}, kept=["app-1"]))
    assert step(phase="result", state=state)["to_clean"] == {"shop.identity": ["idp-1"], "shop.app": ["app-1"]}
    step(phase="cleaned", state=state, node="identity", removed=["idp-1"])
    step(phase="cleaned", state=state, node="app", error="cleanup job FAILED")
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"))
    assert ended["outcome"]["result"] == "failed" and "app: the cleanup of its test machines failed: cleanup job FAILED" in ended["message"]
    assert "identity: its test machines were terminated and proven gone: idp-1." in ended["lines"]
    assert dict((node["name"], node["cleanup"]["proven"]) for node in written(ended)["nodes"]) == dict(identity=True, app=False)


def test_a_failover_keeps_no_test_machines_for_the_application(tmp_path):
    begun = step(phase="begin", name="shop", runbook="failover", nodes=dict(a=dict(project="a")), report_dir=str(tmp_path / "reports"))
    assert "runbook_keep" not in begun["hosts"][0] and begun["hosts"][0]["failover_project"] == "a"
    assert step(phase="result", state=begun["state"])["to_clean"] == {}


def test_a_retry_that_wrote_no_report_keeps_what_the_first_launch_kept(tmp_path):
    state = begin(tmp_path, nodes=dict(db=dict(project="db", retry=1)))["state"]
    step(phase="level", state=state, level=1)
    step(phase="node", state=state, node="db", report=report(tmp_path / "db.json", {"db-1": False, "db-2": True}, kept=["db-2"]))
    again = step(phase="node", state=state, node="db", attempt=1, error="the retry could not sign in")
    assert again["outcome"]["state"] == "failed" and again["outcome"]["kept"] == ["db-2"] and again["outcome"]["retry_machines"] == []
    assert step(phase="result", state=state)["to_clean"] == {"shop.db": ["db-2"]}


def test_an_approval_asked_at_a_terminal_and_one_not_given_in_time(tmp_path, monkeypatch):
    nodes = dict(app=dict(project="app", approval=True), web=dict(project="web", approval=True))
    state = begin(tmp_path, nodes=nodes)["state"]
    step(phase="level", state=state, level=1)
    answers = iter([b"Robin Day", b"at the prompt", b""])
    monkeypatch.setattr(_application_run.display, "prompt_until", lambda *args, **kwargs: next(answers))
    asked = step(phase="approve", state=state, approval_timeout=5)
    assert asked["approved"] == ["app"] and asked["lines"][1] == "web: not approved; it waits."
    run = json.loads(open(os.path.join(state, "run.json")).read())
    assert run["approvals"]["app"]["by"] == "Robin Day" and run["approvals"]["app"]["comment"] == "at the prompt"
    again = step(phase="level", state=state, level=1, again=True)
    assert again["decisions"]["app"]["run"] and not again["decisions"]["web"]["run"]


@pytest.mark.parametrize("phase", ["level", "node", "end"])
def test_a_phase_without_a_run_says_so(tmp_path, phase):
    assert "No application run at" in step(phase=phase, state=str(tmp_path / "none"), level=1, node="x")["msg"]


def test_a_node_whose_run_ended_before_its_outcome_was_kept_is_adopted_from_its_report(tmp_path):
    nodes = dict(identity=dict(project="identity"), app=dict(project="app", after=["identity"]))
    state = begin(tmp_path, nodes=nodes)["state"]
    step(phase="level", state=state, level=1)
    (tmp_path / "reports" / "nodes").mkdir()
    written = report(tmp_path / "reports" / "nodes" / "dr_test_identity.json", {"idp-1": True})
    stale = report(tmp_path / "reports" / "nodes" / "dr_test_app.json", {"app-1": True})
    for path, began in ((written, "2999-01-01T00:00:00.5+00:00"), (stale, "2000-01-01T00:00:00+00:00")):
        with open(path) as handle:
            kept = dict(json.load(handle), run_began=began)
        with open(path, "w") as handle:
            json.dump(kept, handle)
    # Stopped after identity's run wrote its report, before its outcome was kept: run again, identity is not run again.
    begin(tmp_path, nodes=nodes)
    again = step(phase="level", state=state, level=1)
    assert not again["decisions"]["identity"]["run"] and again["decisions"]["identity"]["state"] == "passed"
    assert step(phase="level", state=state, level=2)["decisions"]["app"]["run"]  # an older run's report is not this run's


def test_a_run_of_the_other_runbook_is_refused_while_one_has_not_ended(tmp_path):
    nodes = dict(identity=dict(project="identity"))
    state = begin(tmp_path, nodes=nodes)["state"]
    refused = step(phase="begin", name="shop", runbook="failover", nodes=nodes, report_dir=str(tmp_path / "reports"))
    assert refused["failed"] and "The application's dr_test run begun" in refused["msg"] and "another application_name" in refused["msg"]
    assert os.path.isfile(os.path.join(state, "run.json"))  # the DR test's run, kept to be ended


@pytest.mark.parametrize("check_mode", [True, False])
def test_an_application_of_dr_tests_is_cancelled_before_any_node_acts_while_a_nodes_lever_is_engaged(tmp_path, check_mode):
    nodes = dict(identity=dict(project="identity"), app=dict(project="app", after=["identity"]))
    ENGAGED_LEVERS["app"] = dict(state="engaged", by="dana", at="2026-11-27T02:00:00Z", reason="INC-7: payments")
    try:
        cancelled = step(check_mode=check_mode, phase="begin", name="shop", nodes=nodes, report_dir=str(tmp_path / "reports"))
        assert not (tmp_path / "reports").exists()
        failover = step(check_mode=True, phase="begin", name="shop", runbook="failover", nodes=nodes, report_dir=str(tmp_path / "reports"))
    finally:
        del ENGAGED_LEVERS["app"]
    # app is of level 2: its own DR test would be cancelled at its start, after identity's had run - the application is, first.
    assert cancelled["failed"] and cancelled["msg"] == ("Cancelled: the safety lever of project app is engaged by dana at 2026-11-27T02:00:00Z: "
                                                        "INC-7: payments. No node acted; nothing was written. Run it again once the lever is released.")
    assert not failover.get("failed"), failover  # a failover is never held back by it (each node's run says it is engaged)


def test_every_nodes_machines_are_held_to_its_blast_radius_before_any_node_acts(tmp_path):
    radius = dict(dr_test_blast_radius=["db-1", "tag:legacy", "app-*"])
    nodes = dict(db=dict(project="db", vars=radius), identity=dict(project="identity", after=["db"], vars=radius),
                 app=dict(project="app", after=["db"], vars=dict(dr_test_blast_radius="app-*")))
    refused = begin(tmp_path, nodes=nodes)
    assert refused["failed"] and "1 of 3 would be refused, and no node acted; nothing was written." in refused["msg"]
    assert "Node identity: identity-1 is outside the blast radius (db-1, tag:legacy, app-*)." in refused["msg"]  # db-3 is in by its tag
    assert not (tmp_path / "reports").exists()


def test_every_nodes_task_files_are_read_before_any_node_acts(tmp_path):
    """A node's checks or hook file missing, or not YAML, was found only by the node's own run - once the levels before it had
    run - and then stopped the playbook with that node's machines launched."""
    good, broken = tmp_path / "checks.yml", tmp_path / "broken.yml"
    good.write_text("- name: A check\n  ansible.builtin.debug:\n    msg: up\n")
    broken.write_text("not: [valid\n")
    nodes = dict(db=dict(project="db", checks_tasks=str(good)), identity=dict(project="identity", after=["db"], checks_tasks=str(tmp_path / "gone.yml")),
                 app=dict(project="app", after=["db"], vars=dict(dr_test_after_wave_tasks=str(broken))))
    refused = begin(tmp_path, nodes=nodes)
    assert refused["failed"] and "2 of 3 would be refused, and no node acted; nothing was written." in refused["msg"], refused
    assert "Node identity: dr_test_checks_tasks: %s does not exist." % (tmp_path / "gone.yml") in refused["msg"]
    assert "Node app: dr_test_after_wave_tasks: %s cannot be read as YAML" % broken in refused["msg"]
    assert not (tmp_path / "reports").exists()


def stopped_report(path, probe="storefront"):
    """A node's DR test that a stop condition stopped: its first machine launched, and cleaned up."""
    written = dict(schema="replication.recovery.dr_test/v1", project="db", result="failed", outcome="stopped", checks=[], failures=["stopped"],
                   measures=dict(rto_seconds=None, rpo_seconds=40), started="2026-11-27T00:00:00Z", kept=[],
                   machines=[dict(name="db-1", passed=False)],
                   stop_conditions=dict(lever=None, looks=3, probes=[dict(name=probe, kind="url", after_failures=2, failures_in_a_row=2)],
                                        stopped_by=dict(probe=probe, failures=2, said="answered 503", at="2026-11-27T00:01:00Z"),
                                        timeline=[dict(at="2026-11-27T00:00:%02dZ" % second, probe=probe, passed=second == 0, said="-")
                                                  for second in (0, 30, 59)]))
    path.write_text(json.dumps(written))
    return str(path)


def test_a_node_a_stop_condition_stopped_stops_the_application_whatever_its_impact(tmp_path):
    nodes = dict(db=dict(project="db", impact="optional"), cache=dict(project="cache"), app=dict(project="app", after=["db", "cache"]))
    state = begin(tmp_path, nodes=nodes)["state"]
    step(phase="level", state=state, level=1)
    stopped = step(phase="node", state=state, node="db", report=stopped_report(tmp_path / "db.json"))["outcome"]
    assert stopped["state"] == "failed" and stopped["outcome"] == "stopped" and stopped["stopped_by"] == "by the stop condition storefront"
    step(phase="node", state=state, node="cache", report=report(tmp_path / "cache.json", {"cache-1": True}))
    # db is optional (on_failure: skip), yet app after it does not run: a stopped rehearsal launches nothing more.
    assert step(phase="level", state=state, level=2)["decisions"]["app"] == dict(
        run=False, state="blocked", reason="the application was stopped: db was stopped (by the stop condition storefront)")
    ended = step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger"), game_day="nightly")  # its game day's
    assert ended["outcome"]["outcome"] == "stopped" and ended["outcome"]["result"] == "failed"
    made = written(ended)
    assert made["game_day"] == "nightly"
    assert made["stop_conditions"]["stopped_by"]["probe"] == "storefront" and made["stop_conditions"]["looks"] == 3
    assert made["measures"] == dict(rpo_seconds=40, rto_seconds=90) and made["counts"] == dict(machines=2)  # the worst of each
    assert [node["outcome"] for node in made["nodes"]] == ["passed", "stopped", None]


def test_an_application_whose_every_node_that_ran_was_cancelled_is_cancelled(tmp_path):
    state = begin(tmp_path, nodes=dict(db=dict(project="db", vars=dict(dr_test_rto_target="600")), app=dict(project="app", after=["db"])))["state"]
    step(phase="level", state=state, level=1)
    cancelled = dict(schema="replication.recovery.dr_test/v1", project="db", result="failed", outcome="cancelled", checks=[], failures=["Cancelled"],
                     machines=[])
    (tmp_path / "db.json").write_text(json.dumps(cancelled))
    step(phase="node", state=state, node="db", report=str(tmp_path / "db.json"))
    step(phase="level", state=state, level=2)
    made = written(step(phase="end", state=state, ledger_dir=str(tmp_path / "ledger")))
    assert made["outcome"] == "cancelled" and made["targets"] == dict(rpo_seconds=None, rto_seconds=600) and made["game_day"] is None


# -- the run's record ------------------------------------------------------------------------------------------------

def test_the_runs_record_holds_only_its_declared_members_and_a_run_kept_before_is_taken_up(tmp_path):
    """What begin keeps is the declared record; a member the table does not declare is refused where it is written; a
    run.json kept by an earlier version (the same members, written before the record was typed) is resumed."""
    from ansible_collections.replication.recovery.plugins.plugin_utils._application import MEMBERS, RunState
    from ansible_collections.replication.recovery.plugins.plugin_utils._record import UndeclaredMember
    assert len(set(name for name, unused in MEMBERS)) == len(MEMBERS) and all(what.endswith(".") for unused, what in MEMBERS)
    state = begin(tmp_path, nodes=dict(identity=dict(project="identity")))["state"]
    with open(os.path.join(state, "run.json")) as handle:
        kept = json.load(handle)
    assert set(kept) == RunState.DECLARED - {"ended"}
    with pytest.raises(UndeclaredMember, match="The application run's record has no member 'wave_count'"):
        RunState(kept, wave_count=1)
    with pytest.raises(UndeclaredMember, match="no member 'wave_count'"):
        RunState(kept)["wave_count"] = 1
    resumed = begin(tmp_path, nodes=dict(identity=dict(project="identity")))
    assert resumed["lines"][0].endswith("resuming the run begun %s." % kept["began"])


def test_a_run_state_this_version_does_not_know_is_refused_by_its_path_before_anything_is_written(tmp_path):
    state = begin(tmp_path, nodes=dict(identity=dict(project="identity")))["state"]
    with open(os.path.join(state, "run.json")) as handle:
        kept = json.load(handle)
    with open(os.path.join(state, "run.json"), "w") as handle:
        json.dump(dict(kept, stages=[]), handle)
    refused = begin(tmp_path, nodes=dict(identity=dict(project="identity")))
    assert refused["failed"] and os.path.join(state, "run.json") in refused["msg"] and "'stages'" in refused["msg"]
    assert "Remove it to begin anew" in refused["msg"] and "nothing was written" in refused["msg"]
    assert step(phase="level", state=state, level=1)["failed"]
    with open(os.path.join(state, "run.json")) as handle:
        assert json.load(handle)["stages"] == []  # left as it was


@pytest.mark.parametrize("kept, text", [("run.json", '{"began": "2026-'), ("node_identity.json", "[]")])
def test_a_run_state_that_cannot_be_read_is_refused_by_its_path_never_taken_for_none(tmp_path, kept, text):
    """Taken for no earlier run, a stopped run's record would be begun anew over what it left - a node's outcome lost is a
    node run twice."""
    state = begin(tmp_path, nodes=dict(identity=dict(project="identity")))["state"]
    with open(os.path.join(state, kept), "w") as handle:
        handle.write(text)
    refused = begin(tmp_path, nodes=dict(identity=dict(project="identity")))
    assert refused["failed"] and "%s cannot be read (" % os.path.join(state, kept) in refused["msg"], refused
    assert refused["msg"].endswith("move it aside to begin anew; nothing was written.")
    with open(os.path.join(state, kept)) as handle:
        assert handle.read() == text  # left as it was


def test_every_member_the_application_runs_code_names_is_declared_and_every_declared_one_is_used():
    """Read in the code of the run's phases: ``self.state[...]``, and the record as begin holds it (``run``, ``earlier``)."""
    import ast
    from ansible_collections.replication.recovery.plugins.plugin_utils import _application_begin
    from ansible_collections.replication.recovery.plugins.plugin_utils._application import RunState

    def is_record(node):
        return (isinstance(node, ast.Name) and node.id in names) or (
            isinstance(node, ast.Attribute) and node.attr == "state" and isinstance(node.value, ast.Name) and node.value.id == "self")

    named = set()
    # begin's names for the record it makes and the one it resumes; the other phases' ``earlier`` is a node's outcome
    for module, names in ((_application_run, ()), (_application_begin, ("run", "earlier"))):
        with open(module.__file__, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and is_record(node.value) and isinstance(node.slice, ast.Constant):
                named.add(node.slice.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_record(node.func.value) \
                    and node.func.attr == "get" and isinstance(node.args[0], ast.Constant):
                named.add(node.args[0].value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "RunState":
                named.update(keyword.arg for keyword in node.keywords)
    assert named - RunState.DECLARED == set()
    assert RunState.DECLARED - named == set()
