# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every runbook's options as AWX and extra variables give them - text - with the effect of their native form.

The walk: every option of every role's argument specs that takes a boolean, a number, a list, a mapping or a path (and
the engine's text options that runbook_start parses), given in its native form and in its text form; the text passes
the role's own argument validation (Ansible's, at the role's start) and runbook_options reads it as the same value.
The rule that makes that the whole effect: no role reads an option by its variable, only from what runbook_options
answered (``<role>_options``) - held for every task file and variable of every role.
"""

import json
import os
import re

import pytest
import yaml
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.replication.recovery.plugins.module_utils._domain import LAUNCH_TYPES, parse_groups, parse_point_policy, parse_test_network
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION
from ansible_collections.replication.recovery.plugins.plugin_utils import _run_begin
from ansible_collections.replication.recovery.plugins.plugin_utils._options import TYPED, OptionRefused, choices_of, documented, options_of, required, typed
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, RUN, SEARCH
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed

ROLES = sorted(name for name in os.listdir(os.path.join(COLLECTION, "roles")) if name != "runbook")
# Variables every runbook shares, read by their own names: the ledger, and the engine's.
SHARED = re.compile(r"^(replication_recovery_ledger_dir|runbook_.*)$")
# The engine's text options (type raw in the specs): runbook_start reads them by these parsers.
PARSED = dict(waves=parse_groups, network=parse_test_network, point_in_time=parse_point_policy)
# Keys whose value is a Jinja expression without braces.
CONDITIONS = ("when", "failed_when", "changed_when", "until")


@pytest.fixture(autouse=True)
def started_elsewhere(tmp_path, monkeypatch):
    """ansible-playbook started in a directory of the user's (ansible-test runs units in the collection, where a relative path
    would be refused)."""
    monkeypatch.chdir(tmp_path)


def specs(role):
    with open(os.path.join(COLLECTION, "roles", role, "meta", "argument_specs.yml"), encoding="utf-8") as handle:
        return yaml.safe_load(handle)["argument_specs"]


def options(role):
    found = {}
    for entry_point in specs(role).values():
        for name, spec in (entry_point.get("options") or {}).items():
            found.setdefault(name, spec)
    return found


def native_and_text(name, spec):
    """An option's value as a playbook gives it, and as text - the forms an extra variable and an AWX survey give: JSON
    text for a list of mappings, or of choices, included (plugin_utils._options: their specs are such that ansible-core's
    validation, which cuts a list's text at its commas, lets it through)."""
    kind = spec.get("type")
    if kind == "bool":
        native = not spec.get("default", False)
        return [(native, text) for text in (str(native).lower(), "yes" if native else "no", "1" if native else "0")]
    if kind == "int":
        return [(7, "7")]
    if kind == "float":
        return [(2.5, "2.5"), (3, "3")]
    if kind == "path":
        return [("reports/%s" % name, "reports/%s" % name), ("~/%s" % name, "~/%s" % name)]
    if kind == "dict" or (kind == "list" and spec.get("options")):
        if spec.get("options"):
            native = dict((key, "%s-value" % key) for key, sub in spec["options"].items() if sub.get("type", "str") == "str")
        else:
            native = {"web-1": {"instance_type": "m5.large", "tags": {"owner": "dr"}}, "count": 3}
        native = [native, dict(native, more={"a, b": [1, 2]})] if kind == "list" else native
        return [(native, json.dumps(native))]
    if kind == "list":
        native = list(choices_of(name, spec) or ["web-1", "db-1"])[:2]
        return [(native, ",".join(native)), (native, json.dumps(native)), (native, ", ".join(native))]
    raise AssertionError("no sample for %s of type %s" % (name, kind))


WALKED = [(role, name, spec, native, text) for role in ROLES for name, spec in sorted(options(role).items())
          if spec.get("type") in TYPED for native, text in native_and_text(name, spec)]


def test_the_walk_covers_every_typed_option_of_every_role():
    walked = set((role, name) for role, name, unused, unused, unused in WALKED)
    assert len(walked) >= 100 and set(role for role, unused in walked) == set(ROLES)
    lists = set(name for unused, name, spec, unused, unused in WALKED if spec["type"] == "list" and (spec.get("options") or choices_of(name, spec)))
    assert len(lists) == 10 and "dr_test_stop_when" in lists and "readiness_states" in lists and "launch_policy_subnet_map" in lists


@pytest.mark.parametrize("role, name, spec, native, text", WALKED, ids=lambda value: value if isinstance(value, str) else "")
def test_an_option_given_as_text_has_the_effect_of_its_native_form(role, name, spec, native, text):
    spec = dict(spec, required=False)
    checked = ArgumentSpecValidator({name: spec}).validate({name: text}, validate_role_argument_spec=True)
    assert not checked.error_messages, "the role's own validation refuses %s=%r: %s" % (name, text, checked.error_messages)
    as_given, as_text = options_of({name: spec}, {name: native}, role + "_"), options_of({name: spec}, {name: text}, role + "_")
    assert as_text == as_given
    value = as_given[name[len(role) + 1:] if name.startswith(role + "_") else name]
    if spec["type"] == "path":
        assert os.path.isabs(value) and value.endswith(name) and "~" not in value
    else:
        assert value == native


@pytest.mark.parametrize("role, name", [(role, name) for role in ROLES for name, spec in sorted(options(role).items())
                                        if spec.get("type") == "raw" and name[len(role) + 1:] in PARSED])
def test_a_text_option_the_engine_parses_has_the_effect_of_its_native_form(role, name):
    native = dict(waves=[["db-*"], ["app-1", "app-2"], ["web-*"]], network={"subnets": ["isolated-a"], "public_ip_action": "DONT_ALLOCATE"},
                  point_in_time={"db-1": "f1e2d3c4-0000-4000-8000-000000000001"})[name[len(role) + 1:]]
    parse = PARSED[name[len(role) + 1:]]
    assert parse(json.dumps(native)) == parse(native)
    assert options_of({name: {"type": "raw"}}, {name: json.dumps(native)}, role + "_")[name[len(role) + 1:]] == json.dumps(native)


@pytest.mark.parametrize("kind, text", [("bool", "maybe"), ("int", "seven"), ("int", "7.5"), ("float", "fast"), ("dict", "[1, 2]"),
                                        ("dict", "{web-1: [unclosed"), ("list", "[\"a\", "), ("path", "x")])
def test_text_that_is_no_value_of_the_type_is_refused_naming_the_option(kind, text, monkeypatch):
    if kind == "path":  # the one path refused: inside the installed collection
        text = os.path.join(COLLECTION, "playbooks", "reports")
    with pytest.raises(OptionRefused) as refused:
        typed("failover_option", dict(type=kind), text)
    assert "failover_option" in str(refused.value)


def test_of_the_collection_a_path_may_name_only_its_roles_own_task_files():
    """A game day gives the DR test it runs its own hook (roles/game_day/tasks/between.yml); nothing else inside it."""
    own = os.path.join(COLLECTION, "roles", "game_day", "tasks", "between.yml")
    assert typed("dr_test_after_wave_tasks", dict(type="path"), own) == os.path.realpath(own)
    for elsewhere in (os.path.join("roles", "game_day", "tasks"), os.path.join("roles", "game_day", "tasks", "missing.yml"),
                      os.path.join("roles", "game_day", "README.md"), os.path.join("roles", "game_day", "files", "report.schema.json")):
        with pytest.raises(OptionRefused, match="inside the installed collection"):
            typed("dr_test_after_wave_tasks", dict(type="path"), os.path.join(COLLECTION, elsewhere))


@pytest.mark.parametrize("kind, default, expected", [("bool", True, True), ("int", 300, 300), ("list", [], []), ("dict", {}, {}),
                                                     ("int", None, None), ("path", "report", "report")])
def test_text_that_says_no_value_is_the_options_default(kind, default, expected):
    if kind == "path":
        expected = os.path.join(os.getcwd(), expected)
    for text in ("", "none", "null"):
        assert typed("an_option", dict(type=kind, default=default), text) == expected


def test_a_choice_is_checked_after_the_text_is_read():
    spec = dict(type="list", elements="str", choices=["continuous", "lagging"])
    assert options_of({"health_states": spec}, {"health_states": "continuous,lagging"}, "health_") == {"states": ["continuous", "lagging"]}
    with pytest.raises(OptionRefused, match="health_states must be one of continuous, lagging, not \"paused\""):
        options_of({"health_states": spec}, {"health_states": "continuous,paused"}, "health_")


@pytest.mark.parametrize("name, text, said", [
    ("readiness_states", '["continuous", "lagged"]',
     'readiness_states must be one of initiating, initial_sync, continuous, lagging, paused, stopped, stale, not "lagged"'),
    ("dr_test_stop_when", '["shop"]', r"dr_test_stop_when \(an item\) must be a mapping"),
    ("dr_test_stop_when", '[{"url": "http://shop.example/health"}]', r"dr_test_stop_when \(an item\).name is required"),
    ("launch_policy_subnet_map", '[[1, 2]]', r"launch_policy_subnet_map \(an item\) must be a mapping"),
])
def test_a_list_of_states_or_of_mappings_given_wrong_as_json_text_is_refused_by_name(name, text, said):
    role = next(role for role in ROLES if name.startswith(role + "_"))
    spec = options(role)[name]
    assert not ArgumentSpecValidator({name: spec}).validate({name: text}, validate_role_argument_spec=True).error_messages
    with pytest.raises(OptionRefused, match=said):
        options_of({name: spec}, {name: text}, role + "_")


@pytest.mark.parametrize("role", ROLES)
def test_no_list_option_has_a_spec_that_refuses_its_json_text_and_each_list_of_states_names_them(role):
    for name, spec in options(role).items():
        if spec.get("type") == "list":
            assert spec.get("elements") != "dict" and not spec.get("choices"), "%s: ansible-core would refuse its JSON text" % name
        if name.endswith("_states"):
            said = " ".join(spec["description"])
            assert spec["type"] == "list" and all("V(%s)" % state for state in choices_of(name, spec)), name
            assert all("V(%s)" % state in said for state in choices_of(name, spec)), name


# -- the rule: a role reads its options from runbook_options only -----------------------------------------------------------


def expressions(value, key=None):
    """The Jinja expressions of a task file's value: what is between braces, and whole conditions."""
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            yield from expressions(inner, inner_key)
    elif isinstance(value, list):
        for item in value:
            yield from expressions(item, key)
    elif isinstance(value, str):
        if key in CONDITIONS:
            yield value
        else:
            yield from re.findall(r"\{\{(.*?)\}\}", value, re.S)


def role_files(role):
    for part in ("tasks", "vars", "handlers"):
        directory = os.path.join(COLLECTION, "roles", role, part)
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            if name.endswith(".yml"):
                yield os.path.join(directory, name)


def loaded(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.mark.parametrize("role", ROLES)
def test_a_role_reads_its_options_only_from_what_runbook_options_answered(role):
    names = [name for name in options(role) if not SHARED.match(name)]
    read_raw = []
    for path in role_files(role):
        for expression in expressions(loaded(path)):
            read_raw += ["%s: %s" % (os.path.relpath(path, COLLECTION), name) for name in names if re.search(r"(?<![\w.'\"])%s\b" % name, expression)]
    assert read_raw == []


def included(role, path):
    """The task files of the role that ``path`` includes, and those they include (a templated name: each file it can be)."""
    found, todo = [], [path]
    while todo:
        for task in every_task(loaded(todo.pop()) or []):
            name = task.get("ansible.builtin.include_tasks") or task.get("ansible.builtin.import_tasks")
            if isinstance(name, str):
                pattern = re.compile("^%s$" % re.sub(r"\\\{\\\{.*?\\\}\\\}", ".*", re.escape(name)))
                for candidate in role_files(role):
                    if pattern.match(os.path.basename(candidate)) and candidate not in found:
                        found.append(candidate)
                        todo.append(candidate)
    return found


def every_task(items):
    for task in items:
        yield task
        for part in ("block", "rescue", "always"):
            yield from every_task(task.get(part) or [])


def reads_options(role, path):
    return any(role + "_options" in expression for expression in expressions(loaded(path)))


def registers_first(role, path):
    """The first task registers the options - after one that only refuses what was not meant (answer: false), where the
    options are hidden (they hold secrets) and a refusal must be shown."""
    tasks = loaded(path) or []
    if tasks and (tasks[0].get("replication.recovery.runbook_options") or {}).get("answer") is False:
        tasks = tasks[1:]
    return bool(tasks) and "replication.recovery.runbook_options" in tasks[0] and tasks[0].get("register") == role + "_options"


# The entry points a run begins with: their first task refuses what the user cannot have meant (runbook_options' begins).
BEGINNINGS = ("main", "start", "source", "cleanup")


@pytest.mark.parametrize("role", ROLES)
def test_a_run_begins_by_refusing_what_was_not_meant_and_nothing_later_does(role):
    """The first task of each entry point a run begins with judges what the user gave (begins: true); no later one does, so
    that a finish, a wave or a cleanup the run needs is never refused part-way."""
    for entry_point in specs(role):
        path = os.path.join(COLLECTION, "roles", role, "tasks", entry_point + ".yml")
        if not os.path.exists(path):
            continue
        tasks = loaded(path) or []
        first = tasks[0].get("replication.recovery.runbook_options") if tasks else None
        if entry_point in BEGINNINGS and any("replication.recovery.runbook_options" in task for task in every_task(tasks)):
            assert (first or {}).get("begins") is True, "%s: %s" % (role, entry_point)
        elif entry_point not in BEGINNINGS:
            assert not any((task.get("replication.recovery.runbook_options") or {}).get("begins") for task in every_task(tasks)), (
                "%s: %s" % (role, entry_point))


@pytest.mark.parametrize("role", ROLES)
def test_an_entry_point_that_reads_the_options_reads_them_first(role):
    """Each entry point (its task file and those it includes) that reads the options runs runbook_options as its first task:
    its play may run on other hosts than the play before (the agent's source hosts, an application's nodes). But the finish
    of a runbook on the engine's run (the shape run), which runs on the hosts its start ran on: it takes the options its
    start read, and reads them in no task of its own."""
    checked = 0
    for entry_point in specs(role):
        path = os.path.join(COLLECTION, "roles", role, "tasks", entry_point + ".yml")
        if entry_point == "finish" and role in BY_NAME and BY_NAME[role].shape == RUN:
            assert registers_first(role, os.path.join(COLLECTION, "roles", role, "tasks", "start.yml")), role
            assert not any("replication.recovery.runbook_options" in task for task in every_task(loaded(path))), role
        elif any(reads_options(role, candidate) for candidate in [path] + included(role, path)):
            checked += 1
            assert registers_first(role, path) or (entry_point == "main" and any(
                registers_first(role, candidate) for candidate in included(role, path)[:1])), "%s: %s" % (role, entry_point)
    assert checked


def every_spec(options, where=""):
    """Each option and sub-option of ``options``, by its dotted name."""
    for name, spec in (options or {}).items():
        yield where + name, spec
        yield from every_spec(spec.get("options"), where + name + ".")


@pytest.mark.parametrize("role", ROLES + ["runbook"])
def test_no_option_is_required_by_the_spec_and_a_required_one_missing_is_refused_in_one_line(role):
    """ansible-core's own validation of a missing required option prints the whole argument spec (15 KB on one line, never
    naming the word misspelt): a required option says so in its description, and runbook_options refuses it, naming it."""
    for entry_point, spec in specs(role).items():
        for name, option in every_spec(spec.get("options")):
            assert option.get("required") is not True, "%s: %s: %s says required: true" % (role, entry_point, name)
        if role == "runbook":
            continue  # the engine's options are the collection's own, given by its runbooks
        own = spec.get("options") or {}
        for name, option in own.items():
            if not required(option):
                continue
            given = dict((other, "x") for other, other_spec in own.items() if required(other_spec) and other != name)
            with pytest.raises(OptionRefused) as refused:
                options_of(dict((other, dict(type="raw")) for other in own), given, role + "_", own)
            assert str(refused.value) == "%s is required, and was not given" % name


DOCUMENTED = r"""
options:
  launch_type:
    description: What to launch.
    type: str
    choices: [test, recovery]
    default: test
  password:
    description: A secret.
    type: str
    no_log: true
    aliases: [secret]
  gate:
    description: A mapping.
    type: dict
    default: {}
    suboptions:
      states:
        description: Its states.
        type: list
        elements: str
        default: [continuous]
      name:
        description: Required. Its name.
        type: str
        required: true
"""


def test_a_steps_options_read_from_its_documentation_keep_what_validates_them_and_nothing_of_the_prose():
    assert documented(DOCUMENTED) == dict(
        launch_type=dict(type="str", choices=["test", "recovery"], default="test"),
        password=dict(type="str", no_log=True, aliases=["secret"]),
        gate=dict(type="dict", default={}, options=dict(states=dict(type="list", elements="str", default=["continuous"]),
                                                        name=dict(type="str", required=True))))


def test_the_engines_inputs_take_every_launch_type_and_what_a_runbook_sets_as_text_and_refuse_one_not_of_its_type():
    """What a run begins with: runbook_start's own options and the engine's inputs (INPUTS). A restore test's launch type is
    taken (the table once lacked it), a runbook's input written as text (ansible-core before 2.19 templates a Jinja
    expression into text) typed, and one that is not of its type refused by its name."""
    spec = dict(_run_begin.OPTIONS)
    assert spec["launch_type"]["choices"] == list(LAUNCH_TYPES) and {"runbook", "title", "project", "max_waves"} <= set(spec)
    given = _run_begin.begin_arguments(dict(runbook="restore_test", project="backups", inputs=dict(
        launch_type="restore", roll_back="False", gate=dict(enforce="True", max_lag=None), recovery_plan=None)))
    checked = ArgumentSpecValidator(spec).validate(given)
    assert checked.error_messages == []
    args = checked.validated_parameters
    assert (args["roll_back"], args["gate"]["enforce"], args["gate"]["states"], args["recovery_plan"]) == (False, True, ["continuous"], None)
    errors = ArgumentSpecValidator(spec).validate(dict(given, launch_type="holiday")).error_messages
    assert errors == ["value of launch_type must be one of: test, recovery, cutover, debug, restore, got: holiday"]
    with pytest.raises(StepFailed, match="^Bug in the runbook: argument 'roll_back' is of type .* unable to convert to bool"):
        _run_begin.begun_with(dict(runbook="restore_test", options=dict(project="backups"), inputs=dict(roll_back="maybe")))


@pytest.mark.parametrize("role", sorted(row.role for row in BY_NAME.values() if row.shape in (RUN, SEARCH)))
def test_a_runbook_roles_option_that_is_an_input_of_the_engine_is_of_the_inputs_type(role):
    """A role's option reaches the engine's input of its name typed by the role (runbook_options); the input's spec takes it
    as it is: the same type, or text the engine's parsers read (raw)."""
    prefix = role + "_"
    for name, option in options(role).items():
        input_spec = _run_begin.INPUTS.get(name[len(prefix):] if name.startswith(prefix) else name)
        if input_spec and input_spec["type"] != "raw":
            assert input_spec["type"] == option.get("type", "str") or (input_spec["type"], option.get("type")) == ("str", "path"), name
