# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The collection's modules run in the controller's process by a runbook step: the same validation, check mode and hidden
secrets as in a process of their own, and only where the module would run on the controller anyway."""

import importlib
import json
import os
import re
import sys
from unittest.mock import MagicMock

import pytest
from ansible.module_utils.common.parameters import remove_values
from ansible.plugins.action.normal import ActionModule as NormalAction

from ansible_collections.replication.recovery.plugins.action import runbook_wave
from ansible_collections.replication.recovery.plugins.module_utils import _in_process
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION
from ansible_collections.replication.recovery.plugins.plugin_utils._modules_here import MODULES, ModuleHere, can_run_here, internal_arguments, run_here
from ansible_collections.replication.recovery.plugins.plugin_utils._step import SERVICES

PROJECT_ID = "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f"


def action(check_mode=False, transport="local", become=False, environment=()):
    task = MagicMock()
    task.check_mode, task.no_log, task.diff, task.async_val, task.environment = check_mode, False, False, 0, list(environment)
    connection = MagicMock()
    connection.transport, connection.socket_path, connection._shell.tmpdir = transport, None, None
    play_context = MagicMock()
    play_context.become, play_context.executable = become, "/bin/sh"
    step = runbook_wave.ActionModule(task, connection, play_context, loader=None, templar=None, shared_loader_obj=None)
    return step


@pytest.mark.parametrize("changed, expected", [
    (dict(), True),
    (dict(transport="ssh"), False),        # the module runs on another host
    (dict(become=True), False),            # as another user
    (dict(environment=[{"PROXY": "x"}]), False),  # in an environment of the task's own
    (dict(environment=[{}, None]), True),  # none set
])
def test_a_module_runs_here_only_where_it_would_run_on_the_controller_anyway(changed, expected):
    assert can_run_here(action(**changed), "replication.recovery.service_machine_info") is expected


def test_a_module_of_another_collection_never_runs_here():
    assert not can_run_here(action(), "ansible.builtin.command")


@pytest.mark.parametrize("check_mode, no_log, diff", [(False, False, False), (True, True, True)])
def test_a_module_run_here_is_told_how_the_task_runs_as_ansible_core_tells_a_module_of_its_own_process(check_mode, no_log, diff):
    made = action(check_mode=check_mode)
    made._task.no_log, made._task.diff = no_log, diff
    made.get_shell_option = lambda option, default=None: default
    core = {}
    made._update_module_args("replication.recovery.service_machine_info", core, {})  # what ansible-core gives: here to compare only
    ours = internal_arguments(made, "replication.recovery.service_machine_info", {})
    assert ours == dict((name, core[name]) for name in ours) and ours["_ansible_check_mode"] is check_mode


def test_arguments_are_validated_as_in_a_process_of_its_own():
    result = run_here(action(), "replication.recovery.service_machine_info", dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test"), {})
    assert result["failed"] and result["msg"] == "missing required arguments: project"
    assert not _in_process.here()  # the hand-off ends with the module


def test_a_secret_in_a_failure_is_hidden():
    result = run_here(action(), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password="not-a-state", project="p", states=["not-a-state"]), {})
    assert result["failed"] and "states" in result["msg"]
    assert "not-a-state" not in str(result) and "********" in result["msg"]


def test_check_mode_reaches_the_module(monkeypatch):
    seen = {}
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info

    def work(module):
        seen["check_mode"] = module.check_mode
        return dict(machines=[("a", "tuple")])
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", work)
    result = run_here(action(check_mode=True), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", project="p"), {})
    assert seen == {"check_mode": True}
    # As JSON gives it from a process of its own: lists, not tuples.
    assert result["machines"] == [["a", "tuple"]] and result["changed"] is False


def test_an_error_of_the_module_fails_it_with_its_traceback(monkeypatch):
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", lambda module: {}["missing"])
    result = run_here(action(), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", project="p"), {})
    assert result["failed"] and "KeyError" in result["exception"] and not _in_process.here()


@pytest.mark.parametrize("password, answered", [
    # A secret in a successful result: a value, inside a longer text, escaped as JSON escapes it, a number.
    ("pw-\"of\u00e9-the-test", dict(machines=[{"note": "pw-\"of\u00e9-the-test"}])),
    ("pw-\"of\u00e9-the-test", dict(machines=[{"note": "before pw-\"of\u00e9-the-test after"}])),
    ("4711", dict(machines=[{"count": 4711}], other="4711")),
])
def test_a_secret_in_a_result_is_hidden_as_ansible_module_hides_it(monkeypatch, password, answered):
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", lambda module: answered)
    result = run_here(action(), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password=password, project="p"), {})
    assert password not in str(result) and password not in json.dumps(result)
    expected = remove_values(answered, {password})
    assert dict((key, result[key]) for key in expected) == expected


def test_a_result_holding_no_secret_comes_back_whole_and_apart_from_the_modules_own(monkeypatch):
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info
    answered = dict(machines=[{"name": "web-%d" % number, "points_in_time": [{"id": "p", "dateTime": "t"}]} for number in range(3)])
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", lambda module: answered)
    result = run_here(action(), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", project="p"), {})
    assert result["machines"] == answered["machines"] and result["machines"][0] is not answered["machines"][0]


def module_action(name, transport="local", async_val=0, environment=()):
    """The action Ansible would make for a task of the service module ``name``."""
    task = MagicMock()
    task.check_mode, task.no_log, task.diff, task.async_val, task.environment = False, False, False, async_val, list(environment)
    task.action = task.resolved_action = "replication.recovery." + name
    task.args = dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test")
    connection = MagicMock()
    connection.transport, connection.socket_path, connection._shell.tmpdir, connection.has_native_async = transport, None, None, False
    play_context = MagicMock()
    play_context.become, play_context.executable = False, "/bin/sh"
    code = importlib.import_module("ansible_collections.replication.recovery.plugins.action." + name)
    made = code.ActionModule(task, connection, play_context, loader=None, templar=None, shared_loader_obj=None)
    return made


SERVICE_MODULES = sorted(name[:-3] for name in os.listdir(os.path.join(COLLECTION, "plugins", "modules")) if name.startswith("service_"))


@pytest.mark.parametrize("name", SERVICE_MODULES)
def test_every_service_module_runs_here_where_it_would_run_on_the_controller_anyway(name):
    assert issubclass(importlib.import_module("ansible_collections.replication.recovery.plugins.action." + name).ActionModule, ModuleHere)


def test_a_service_module_task_runs_in_the_tasks_own_process(monkeypatch):
    ran = {}
    monkeypatch.setattr(NormalAction, "_execute_module", lambda *unused, **kwargs: ran.setdefault("own process", True) and {})
    result = module_action("service_machine_info")._execute_module(task_vars={})
    # The module itself answered, here: its arguments validated as in a process of its own.
    assert not ran and result["failed"] and result["msg"] == "missing required arguments: project"
    assert "pw-of-the-test" not in json.dumps(result) and not _in_process.here()


@pytest.mark.parametrize("changed", [dict(transport="ssh"), dict(async_val=30), dict(environment=[{"PROXY": "x"}])])
def test_a_service_module_task_runs_as_any_module_where_it_would_not_run_here(monkeypatch, changed):
    seen = []
    monkeypatch.setattr(NormalAction, "_execute_module", lambda self, **kwargs: seen.append(kwargs) or dict(ran="own process"))
    made = module_action("service_machine_info", **changed)
    wrap_async = bool(made._task.async_val)
    assert made._execute_module(task_vars={}, wrap_async=wrap_async) == dict(ran="own process")
    assert seen[0]["wrap_async"] is wrap_async and seen[0]["module_name"] is None


class TaggedList(list):
    """A list as Ansible's template engine gives it (ansible-core 2.19 tags what it templated)."""


def test_the_module_reads_its_arguments_as_plain_as_a_process_of_its_own_does():
    result = run_here(action(), "replication.recovery.service_launch",
                      dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", project="p", launch_type="debug",
                           debug_scripts=TaggedList([1, 2])), {})
    assert result["failed"] and result["msg"] == "debug_scripts must be a dictionary, not list [1, 2]."


@pytest.mark.parametrize("kept_for_the_result", [True, False])
def test_a_warning_of_the_module_reaches_the_task_as_from_a_process_of_its_own(monkeypatch, kept_for_the_result):
    from ansible_collections.replication.recovery.plugins.module_utils import _base
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info

    def work(module):
        module.warn("Check mode: project 'p' does not exist yet")
        return {}
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", work)
    # ansible-core before 2.19 keeps it for the result; 2.19 shows it at once in the controller's process, and keeps none.
    monkeypatch.setattr(_base, "get_warning_messages", lambda: ("Check mode: project 'p' does not exist yet",) if kept_for_the_result else ())
    result = run_here(action(), "replication.recovery.service_machine_info",
                      dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", project="p"), {})
    assert result.get("warnings") == (["Check mode: project 'p' does not exist yet"] if kept_for_the_result else None)


def test_a_service_modules_action_loads_its_module_with_it(monkeypatch):
    # Loaded in the controller's process before a task's fork, the module is not compiled again in every fork (preload).
    name = "ansible_collections.replication.recovery.plugins.modules.service_user"
    monkeypatch.delitem(sys.modules, name, raising=False)
    type("ActionModule", (ModuleHere,), dict(__module__="ansible_collections.replication.recovery.plugins.action.service_user"))
    assert name in sys.modules


def test_the_steps_load_every_module_they_run_with_them():
    run = set()
    for folder in ("action", "plugin_utils"):
        for name in [name for name in os.listdir(os.path.join(COLLECTION, "plugins", folder)) if name.endswith(".py")]:
            with open(os.path.join(COLLECTION, "plugins", folder, name), encoding="utf-8") as code:
                text = code.read()
            run.update(re.findall(r'(?:service|as_node)\([^"\n]*"(service_\w+)"', text))
            run.update(re.findall(r'module_name="replication\.recovery\.(service_\w+)"', text))
    assert run and run <= set(SERVICES), sorted(run - set(SERVICES))
    assert set(SERVICES) <= set(SERVICE_MODULES)
    assert all(MODULES + name in sys.modules for name in SERVICES)


@pytest.mark.parametrize("module, args, reads", [
    ("service_machine_info", {}, True),
    ("service_safety_lever", {}, True),  # given no state, it reads the lever
    ("service_safety_lever", dict(state="engaged", reason="r"), False),
    ("service_machine_tags", dict(tags=dict(a="b")), False),
])
def test_a_step_runs_what_only_reads_under_check_as_in_the_real_run(monkeypatch, module, args, reads):
    # A project missing is refused by --check in the real run's words, not taken for one an earlier task creates.
    step = action(check_mode=True, transport="ssh")  # the module runs in a process of its own (here, the step reads: below)
    step.connection, step.task_vars = {}, {}
    seen = []
    monkeypatch.setattr(step, "_execute_module", lambda **kwargs: seen.append(step._task.check_mode) or {})
    step.service(module, project="p", **args)
    assert seen == [not reads] and step._task.check_mode is True


def test_a_steps_modules_read_a_project_once_for_each_connection(monkeypatch):
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info
    from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient
    client = PathClient({"/projects": [{"id": PROJECT_ID, "name": "p"}], "/projects/" + PROJECT_ID: {"id": PROJECT_ID, "name": "p"}})
    client.close = lambda: None

    def work(module):
        module.session._client = client
        module.forget("/projects/%s/machines" % PROJECT_ID)  # a write under the project forgets what is under it, not the project
        return dict(machines=[], project=module.lookup("project", module.params["project"])["id"])
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", work)

    def run(step, username="u", project="p"):
        return run_here(step, "replication.recovery.service_machine_info",
                        dict(api_url="http://127.0.0.1:9", username=username, password="pw-of-the-test", project=project), {})
    step = action()
    step.shared_reads = {}
    assert [run(step)["project"], run(step)["project"], run(step, project=PROJECT_ID)["project"], run(step, project=PROJECT_ID)["project"]] == [PROJECT_ID] * 4
    assert client.requests == ["/projects", "/projects/" + PROJECT_ID]
    assert "pw-of-the-test" not in str(step.shared_reads)  # kept by a digest of the connection, not by its secrets
    run(step, username="another")  # another account sees projects of its own
    assert client.requests == ["/projects", "/projects/" + PROJECT_ID, "/projects"]
    on_its_own = action()  # a module's own action (ModuleHere), no step: its reads are its own
    run(on_its_own)
    run(on_its_own)
    assert client.requests == ["/projects", "/projects/" + PROJECT_ID, "/projects", "/projects", "/projects"]


def test_a_step_reads_points_in_time_itself_where_the_module_would_run_here_and_shares_the_project_with_its_modules(monkeypatch):
    from ansible_collections.replication.recovery.plugins.module_utils import _session
    from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed
    from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient
    machines, points = "/projects/%s/machines" % PROJECT_ID, "/projects/%s/machines/m-1/pointsintime" % PROJECT_ID
    older, newer = {"id": "p-1", "dateTime": "2026-12-01T08:00:00Z"}, {"id": "p-2", "dateTime": "2026-12-01T09:00:00Z"}
    client = PathClient({"/projects/" + PROJECT_ID: {"id": PROJECT_ID, "name": "p"}, machines: [{"id": "m-1", "sourceProperties": {"name": "web-1"}}],
                         points: [older, newer]})
    client.close = lambda: None
    monkeypatch.setattr(_session, "make_client", lambda settings, check_mode=False: client)
    step = action()
    step.shared_reads, step.connection = {}, dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", session="s")
    step._execute_module = lambda *unused, **ignored: pytest.fail("a module ran for a read")
    expected = [dict(machine_id="m-1", machine_name="web-1", points_in_time=[newer, older], point_in_time=newer)]
    assert step.points_in_time(PROJECT_ID, ["m-1"]) == expected
    assert step.points_in_time(PROJECT_ID, ["web-1"]) == expected  # the project once a step; its machines and points anew, as a module reads them
    assert client.requests == ["/projects/" + PROJECT_ID, machines, machines]
    assert [len(batch) for batch in client.batches] == [1, 1]  # the points read a few machines at a time
    from ansible_collections.replication.recovery.plugins.modules import service_machine_info
    monkeypatch.setattr(service_machine_info.MachineInfoModule, "work", lambda module: dict(project=module.lookup("project", PROJECT_ID)["name"]))
    assert run_here(step, "replication.recovery.service_machine_info", dict(step.connection, project=PROJECT_ID), {})["project"] == "p"
    assert client.requests == ["/projects/" + PROJECT_ID, machines, machines]  # the step's modules find the project it read
    with pytest.raises(StepFailed, match=r"^Project 'p' has no machine 'm-2'. Known: web-1.$"):
        step.points_in_time(PROJECT_ID, ["m-1", "m-2"])
    elsewhere = action(transport="ssh")  # where the module would run on another host, it does
    elsewhere.connection, elsewhere.task_vars, ran = step.connection, {}, []
    elsewhere._execute_module = lambda module_name=None, module_args=None, **unused: ran.append((module_name, module_args)) or dict(machines=expected)
    assert elsewhere.points_in_time(PROJECT_ID, ["m-1"]) == expected
    assert ran == [("replication.recovery.service_point_in_time_info", dict(step.connection, project=PROJECT_ID, machines=["m-1"]))]


def test_a_step_reads_the_machines_itself_and_answers_what_the_module_answers_without_the_projects_secret(monkeypatch):
    from ansible_collections.replication.recovery.plugins.module_utils import _session
    from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed
    from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import ClockedClient
    from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
    project = {"id": PROJECT_ID, "name": "p", "type": "DR", "agentInstallationToken": "t0k3n-of-the-agent"}
    web = {"id": "m-1", "sourceProperties": {"name": "web-1"}, "replicationStatus": "STARTED", "replica": "r-1",
           "replicationInfo": {"lastConsistencyDateTime": "2026-12-01T08:59:00Z", "lastSeenDateTime": "2026-12-01T08:59:50Z"}}
    points = "/projects/%s/machines/m-1/pointsintime" % PROJECT_ID

    def client():
        made = ClockedClient({"/projects/" + PROJECT_ID: project, "/projects/%s/machines" % PROJECT_ID: [web],
                              "/projects/%s/replicas/r-1" % PROJECT_ID: {"id": "r-1", "machineCloudState": "running"},
                              points: [{"id": "p-1", "dateTime": "2026-12-01T08:59:00Z"}]}, now=parse_time("2026-12-01T09:00:00Z"))
        made.close = lambda: None
        return made
    monkeypatch.setattr(_session, "make_client", lambda settings, check_mode=False: client())
    step = action()
    step.shared_reads, step.task_vars = {}, {}
    step.connection = dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test", session="s3ss10n-of-the-test")
    options = dict(project=PROJECT_ID, lag_threshold=120, include_target=True, include_points_in_time=True, points_in_time_limit=1)
    by_the_module = run_here(step, "replication.recovery.service_machine_info", dict(step.connection, **options), {})
    step._execute_module = lambda *unused, **ignored: pytest.fail("a module ran for a read")
    by_the_step = step.machines(**options)
    assert dict(by_the_step, changed=False) == by_the_module and by_the_step["machines"][0]["target_machine"]["id"] == "r-1"
    assert by_the_step["machines"][0]["replication_state"] == "continuous" and by_the_step["project"] == {"id": PROJECT_ID, "name": "p", "type": "DR"}
    assert "t0k3n-of-the-agent" not in json.dumps(by_the_step)
    with pytest.raises(StepFailed, match="points_in_time_limit is a number of points"):
        step.machines(project=PROJECT_ID, points_in_time_limit=1)
    with pytest.raises(StepFailed, match="Bug in the step: its read service_machine_info: .*lag_threshold"):
        step.machines(project=PROJECT_ID, lag_threshold="soon")


def test_a_step_answers_every_read_itself_under_check_as_in_the_real_run_and_no_module_runs(monkeypatch):
    """Every reader a step calls (READS) is read through a session of its connection where its module would run here: the
    answer the module gives, read as in the real run under --check, a project's secret left out, a failure as the
    module's."""
    from ansible_collections.replication.recovery.plugins.module_utils import _session
    from ansible_collections.replication.recovery.plugins.module_utils._lever import LEVER_PLAN, lever_steps
    from ansible_collections.replication.recovery.plugins.plugin_utils._step import READS, StepFailed
    from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient
    project = {"id": PROJECT_ID, "name": "p", "agentInstallationToken": "t0k3n-of-the-agent"}
    jobs = "/projects/%s/jobs" % PROJECT_ID
    job = {"id": "j-1", "type": "CLEANUP", "status": "COMPLETED", "participatingMachines": ["m-1"], "creationDateTime": "2026-12-01T08:00:00Z"}
    lever = {"id": "rp-1", "name": LEVER_PLAN, "steps": lever_steps("engaged", "ops", "2026-12-01T08:00:00Z", "storm")}
    web = {"id": "rp-2", "name": "web first", "steps": {"items": [{"name": "web", "machineIDs": ["m-1"]}]}}
    client = PathClient({"/projects": [project], "/projects/" + PROJECT_ID: project, jobs: [job], jobs + "/j-1": job,
                         "/projects/%s/machines" % PROJECT_ID: [{"id": "m-1", "sourceProperties": {"name": "web-1"}}],
                         "/projects/%s/recoveryPlans" % PROJECT_ID: {"items": [lever, web]}})
    sessions = []

    def made(settings, check_mode=False):
        sessions.append(check_mode)
        return client
    monkeypatch.setattr(_session, "make_client", made)
    step = action(check_mode=True)
    step.shared_reads, step.task_vars, step.connection = {}, {}, dict(api_url="http://127.0.0.1:9", username="u", password="pw-of-the-test")
    step._execute_module = lambda *unused, **ignored: pytest.fail("a module ran for a read")
    assert step.service("service_job_info", project=PROJECT_ID, job="j-1", progress=True) == dict(
        job=job, jobs=[job], progress=dict(machines=1, done=1, running=0, failed=0), changed=False)
    assert step.service("service_job_info", project="p", limit=1)["jobs"] == [job]
    assert step.service("service_project_info", name="p")["projects"] == [{"id": PROJECT_ID, "name": "p"}]  # no agent's token
    assert project["agentInstallationToken"] == "t0k3n-of-the-agent"  # the session's own read untouched
    assert step.service("service_safety_lever", project=PROJECT_ID)["lever"] == dict(state="engaged", by="ops", at="2026-12-01T08:00:00Z", reason="storm")
    assert step.service("service_recovery_plan_info", project="p", name="web first")["recovery_plans"][0]["steps"]["items"][0]["machine_names"] == ["web-1"]
    assert sessions and not any(sessions)  # under --check, read as in the real run
    assert step.service("service_job_info", project=PROJECT_ID, job="j-2", failed_ok=True) == dict(
        failed=True, changed=False, msg="The project has no job j-2.")
    with pytest.raises(StepFailed, match="^The project has no job j-2.$"):
        step.service("service_job_info", project=PROJECT_ID, job="j-2")
    # A pull of the lever writes: the lever's module pulls it (the game day's step does), under --check as --check says.
    pulled = []
    step._execute_module = lambda module_name=None, **unused: pulled.append((module_name, step._task.check_mode)) or dict(changed=True)
    assert step.service("service_safety_lever", project=PROJECT_ID, state="engaged", reason="storm")["changed"]
    assert pulled == [("replication.recovery.service_safety_lever", True)]
    assert set(READS) <= set(SERVICES)
