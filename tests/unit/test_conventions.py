# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The conventions every runbook keeps (docs/developing.md), held for each runbook role and playbook: first all that its row
in the table of runbooks (plugins/plugin_utils/_runbooks.py) implies, then those of the runbooks on the engine of steps.
tests/unit/test_conventions_breaks.py makes a break of each in a scratch copy of the collection and sees this test fail."""

import ast
import json
import os
import re

import jinja2
import jsonschema
import pytest
import yaml

from ansible_collections.replication.recovery.plugins.filter.runbook import MOST_WAVE_PLAYS
from ansible_collections.replication.recovery.plugins.plugin_utils._application import MAX_LEVELS
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import OUTCOMES
from ansible_collections.replication.recovery.plugins.plugin_utils._record import MEMBERS
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, RUN, RUNBOOKS, SEARCH, runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import forms_of, page_of, shape
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, into_ledger

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ENGINE = "replication.recovery.runbook"
ON_THE_ENGINE = [runbook for runbook in RUNBOOKS if runbook.on_the_engine]
WAVES = 12


def read(*path):
    with open(os.path.join(COLLECTION, *path), encoding="utf-8") as handle:
        return handle.read()


def tasks(role, name):
    return yaml.safe_load(read("roles", role, "tasks", name + ".yml")) or []


def every_task(items):
    """The tasks of a task list, those in blocks, rescues and always too."""
    for task in items:
        yield task
        for part in ("block", "rescue", "always"):
            yield from every_task(task.get(part) or [])


def engine_includes(items, entry):
    """The tasks that include or import the engine's entry point ``entry``."""
    return [task for task in every_task(items) for action in ROLE_ACTIONS if (task.get(action) or {}).get("name") == ENGINE
            and task[action].get("tasks_from") == entry]


def yaml_files(*top):
    for directory, unused, names in os.walk(os.path.join(COLLECTION, *top)):
        for name in sorted(names):
            if name.endswith(".yml"):
                yield os.path.join(directory, name)


def without_comments(text):
    return "\n".join(line.split(" #")[0] for line in text.split("\n") if not line.lstrip().startswith("#"))


# -- the table: every runbook, and all its row implies ------------------------------------------------------------------

# The variables a runbook's role may set or read besides its own (its row's prefix): the only exceptions, and why.
SHARED_VARIABLES = (
    ("runbook_", "the engine of steps' (roles/runbook): the runbooks on it give them and read what it answers"),
    ("replication_service_", "the connection's, which every playbook gives the modules (module_defaults)"),
    ("replication_recovery_ledger_dir", "the ledger of runs, which every runbook that enters a report enters it in"),
    ("replication_recovery_options_given", "the options a runbook gives another it runs (a game day, its scenario's), by their full names"),
    ("application_reported", "what an application (which runs outside the engine) came to, as runbook_reported says it, "
                             "for the runbook that ran it (a game day)"),
    ("agent_machine_name", "a source host's machine name as the agent registers it: launch_policy's source hosts are matched by it"),
)
ROLES = sorted(name for name in os.listdir(os.path.join(COLLECTION, "roles")) if name != "runbook")
BY_ID = dict(ids=lambda runbook: runbook.name)
# The steps that write a report's files, each naming the entry point of the report: the ledger - page - set_stats - fail order.
WRITERS = ("replication.recovery.report_write", "replication.recovery.runbook_finish",
           "replication.recovery.runbook_search",
           "replication.recovery.application_step", "replication.recovery.game_day_step", "replication.recovery.ledger_evidence",
           "replication.recovery.ledger_programme")
ROLE_ACTIONS = ("ansible.builtin.include_role", "ansible.builtin.import_role")


def role_files(role, parts=("tasks", "defaults", "vars")):
    return [path for part in parts for path in yaml_files("roles", role, part)]


def argument_specs(role):
    return yaml.safe_load(read("roles", role, "meta", "argument_specs.yml"))["argument_specs"]


def options_named(role):
    """The options of ``role`` as runbook_options names them: without the role's prefix."""
    return set(name[len(role) + 1:] if name.startswith(role + "_") else name for entry_point in argument_specs(role).values()
               for name in entry_point.get("options") or {})


def rendered(name, given):
    """A role's name as the variables a play gives make it (parts/runbook_start.yml runs replication.recovery.{{ runbook }}), or as
    written when they do not."""
    try:
        return jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(name).render(**given)
    except jinja2.TemplateError:
        return name


def roles_of_tasks(items, given):
    return set(rendered(task[action]["name"], given) for task in every_task(items) for action in ROLE_ACTIONS if task.get(action))


# What each filter (or option) that decides the plays a playbook reads answers at the most.
# A template's alternatives, by what it holds (the first that matches): every one that adds plays.
MOST_PLAYS = {"game_day_plays": ["game_day_application"], "application_level_plays": [str(MAX_LEVELS)],
              "application_plays_after": ["application_again"], "'planned_wave' if ansible_check_mode": ["planned_wave", "waves/%d" % WAVES],
              "launch_policy_address_hosts": ["launch_policy_addresses"], "ansible_check_mode": ["application"],
              "application_runbook | default(none) == 'failover'": ["application_cleanup"]}


def roles_run(path, given=None):
    """The roles a playbook runs - its plays' roles, the roles their tasks include, in the playbooks it imports - by name."""
    given, names = dict(given or {}), set()
    for play in yaml.safe_load(read(path)) or []:
        if play.get("ansible.builtin.import_playbook"):
            # Plays as many as the extra variables say (replication.recovery.wave_plays and the like): the most here - and
            # each of a template's alternatives (under --check, the one play that plans the waves).
            imported = play["ansible.builtin.import_playbook"].replace("\n", " ")
            template = re.search(r"\{\{.*\}\}", imported)
            for alternative in next(most for name, most in MOST_PLAYS.items() if name in template.group(0)) if template else [None]:
                names |= roles_run(os.path.join(os.path.dirname(path), imported.replace(template.group(0), alternative) if template else imported),
                                   dict(given, **(play.get("vars") or {})))
            continue
        names |= set(rendered(role if isinstance(role, str) else role["role"], given) for role in play.get("roles") or [])
        names |= roles_of_tasks([task for part in ("pre_tasks", "tasks", "post_tasks") for task in play.get(part) or []], given)
    return names


def variables_set(role):
    """(file, name) of every variable the role makes: its defaults, vars and argument specs, and in its tasks set_fact,
    register, vars and loop_var."""
    found = [("meta/argument_specs.yml", name) for entry_point in argument_specs(role).values() for name in entry_point.get("options") or {}]
    for path in role_files(role):
        where = os.path.relpath(path, os.path.join(COLLECTION, "roles", role))
        loaded = yaml.safe_load(read(path))
        if os.sep + "tasks" + os.sep not in path:
            found += [(where, name) for name in loaded or {}]
            continue
        for task in every_task(loaded or []):
            names = list(task.get("ansible.builtin.set_fact") or {}) + list(task.get("vars") or {}) + [
                task.get("register"), (task.get("loop_control") or {}).get("loop_var")]
            found += [(where, name) for name in names if name and name != "cacheable"]
    return found


def shared(name):
    return any(name.startswith(prefix) for prefix, unused in SHARED_VARIABLES)


# The runbooks that run in no one project (an application: each of its nodes has its own), whose roles a project is never
# given to (the game day sets <runbook>_project only for a runbook of one project).
WITHOUT_A_PROJECT = ("application",)


def an_option_of_a_runbook_it_uses(runbook, name):
    """A variable named by a template, ``{{ application_options.runbook }}_machines``: an option of each runbook it can be."""
    suffix = re.sub(r"^\{\{.*?\}\}", "", name)
    return bool(runbook.uses) and "{{" not in suffix and all(
        any(option == used + suffix for entry_point in argument_specs(used).values() for option in entry_point.get("options") or {})
        for used in runbook.uses if not (suffix == "_project" and used in WITHOUT_A_PROJECT))


def test_every_role_has_a_row_and_each_row_its_own_role_playbook_prefix_and_kind():
    assert sorted(runbook.role for runbook in RUNBOOKS) == ROLES, "every role under roles/ but the engine's has a row in _runbooks.RUNBOOKS"
    for runbook in RUNBOOKS:
        assert os.path.isfile(os.path.join(COLLECTION, "playbooks", runbook.playbook + ".yml")), runbook.name
        assert runbook.prefix == runbook.role + "_" and runbook.title and runbook.title[0].isupper(), runbook.name
        assert runbook.ledger in (None, runbook.name), "%s enters its reports under its own name, or enters none" % runbook.name
        assert runbook.ledger is None or runbook.shape, "%s enters in the ledger a report it does not write" % runbook.name
        assert set(runbook.uses) <= set(BY_NAME) - {runbook.name}, runbook.name
        assert not (runbook.proves or runbook.verifies) or (runbook.launches and runbook.ledger), runbook.name
    assert len(BY_NAME) == len(RUNBOOKS) == len(set(runbook.playbook for runbook in RUNBOOKS))


@pytest.mark.parametrize("runbook", RUNBOOKS, **BY_ID)
def test_its_playbook_runs_its_role_and_only_the_runbooks_its_row_uses(runbook):
    ran = roles_run(os.path.join(COLLECTION, "playbooks", runbook.playbook + ".yml"))
    assert "replication.recovery." + runbook.role in ran
    allowed = set("replication.recovery." + name for name in (runbook.role,) + runbook.uses + (("runbook",) if runbook.on_the_engine else ()))
    assert ran - allowed == set()
    included = roles_of_tasks([task for path in role_files(runbook.role, ("tasks",)) for task in yaml.safe_load(read(path)) or []], {})
    templated = set(name for name in included if "{{" in name)
    assert included - templated - allowed == set()
    assert not templated or runbook.uses, "%s includes a role by a template, and its row uses no runbook" % runbook.name


@pytest.mark.parametrize("runbook", RUNBOOKS, **BY_ID)
def test_every_variable_its_role_makes_carries_its_prefix(runbook):
    strays = ["%s: %s" % (where, name) for where, name in variables_set(runbook.role)
              if not str(name).startswith(runbook.prefix) and not shared(str(name)) and not an_option_of_a_runbook_it_uses(runbook, str(name))]
    assert strays == [], "roles/%s makes variables without its prefix %s" % (runbook.role, runbook.prefix)


def test_no_role_reads_another_runbooks_variables():
    """In its tasks and variables (its documentation may name another runbook's variable, to say how they go together),
    but a variable the table lists as shared."""
    found = []
    for runbook in RUNBOOKS:
        others = re.compile(r"\b((%s)[a-z_]+)" % "|".join(other.prefix for other in RUNBOOKS if other is not runbook))
        for path in role_files(runbook.role):
            for number, line in enumerate(without_comments(read(path)).split("\n"), 1):
                found += ["%s:%d: %s" % (os.path.relpath(path, COLLECTION), number, name) for name, unused in others.findall(line)
                          if not shared(name) and not name.startswith(runbook.prefix)]
    assert found == []


@pytest.mark.parametrize("runbook", [runbook for runbook in RUNBOOKS if runbook.shape], **BY_ID)
def test_its_report_is_its_own_follows_its_shapes_schema_and_is_entered_under_its_kind(runbook, tmp_path):
    """Its report as a real run wrote it (tests/unit/golden) is its runbook's, follows its shape's schema, renders in every
    form, and is entered in the ledger under the row's kind - or refused there, for a runbook that enters none."""
    report = json.loads(read("tests", "unit", "golden", runbook.name + ".json"))
    assert runbook_of(report) is runbook
    module = shape(runbook.shape)
    jsonschema.validate(report, json.loads(read(*module.SCHEMA)))
    assert set(forms_of(report)) == {".junit.xml", ".md"} and page_of(report).startswith("<!DOCTYPE html>")
    if runbook.ledger:
        entry = into_ledger(str(tmp_path), report, "/reports/%s.json" % runbook.name)
        assert json.loads((tmp_path / ("%08d.json" % entry["sequence"])).read_text())["runbook"] == runbook.ledger
    else:
        with pytest.raises(StepFailed, match="enters no report in the ledger"):
            into_ledger(str(tmp_path), report, "/reports/%s.json" % runbook.name)


def every_shape_has_a_schema_of_its_runbooks():
    return sorted(set(runbook.shape for runbook in RUNBOOKS if runbook.shape))


@pytest.mark.parametrize("name", every_shape_has_a_schema_of_its_runbooks())
def test_each_shapes_schema_names_the_runbooks_of_that_shape(name):
    schema = json.loads(read(*shape(name).SCHEMA))
    named = schema["properties"]["schema"]
    assert sorted(named.get("enum") or [named.get("const")]) == sorted(runbook.schema for runbook in RUNBOOKS if runbook.shape == name)


def writing_tasks(runbook):
    """The task files of its role (and of the engine, for a runbook on it) with a step that writes a report: each as the
    actions of its tasks, in order."""
    roles = (runbook.role, "runbook") if runbook.on_the_engine else (runbook.role,)
    for path in [path for role in roles for path in role_files(role, ("tasks",))]:
        actions = [next((key for key in task if "." in key and key not in ("ansible.builtin.include_tasks",)), None)
                   for task in every_task(yaml.safe_load(read(path)) or [])]
        if any(action in WRITERS for action in actions):
            yield os.path.relpath(path, COLLECTION), actions


@pytest.mark.parametrize("runbook", [runbook for runbook in RUNBOOKS if runbook.shape], **BY_ID)
def test_it_writes_and_enters_its_report_then_publishes_it_then_fails(runbook):
    """The ledger entry and the page (one step), then set_stats, then the failing task: a run that fails has written its
    report and told AWX first. Where its report files are named, they are its own (<runbook>_...) or its report_name option's."""
    written = list(writing_tasks(runbook))
    assert written, "roles/%s has no task that writes its report" % runbook.role
    for path, actions in written:
        wrote = max(index for index, action in enumerate(actions) if action in WRITERS)
        published = [index for index, action in enumerate(actions) if action == "ansible.builtin.set_stats"]
        failed = [index for index, action in enumerate(actions) if action == "ansible.builtin.fail"]
        assert all(wrote < index for index in published), "%s: set_stats before the report is written" % path
        assert all(index > max(published or [-1]) for index in failed if index > wrote), "%s: fails before set_stats" % path
    for path in role_files(runbook.role, ("tasks",)):
        for task in every_task(yaml.safe_load(read(path)) or []):
            name = (task.get("replication.recovery.report_write") or {}).get("name")
            if name is not None:
                assert name == "{{ %soptions.report_name }}" % runbook.prefix or name.startswith(runbook.name + "_"), (
                    "%s names its report %r: <runbook>_<project>, or its report_name option" % (os.path.relpath(path, COLLECTION), name))


@pytest.mark.parametrize("runbook", RUNBOOKS, **BY_ID)
def test_each_runbook_is_a_role_and_a_playbook_of_its_name(runbook):
    entry_points = argument_specs(runbook.role)
    assert "main" in entry_points
    if runbook.on_the_engine:
        assert {"main", "start", "finish"} <= set(entry_points)
        assert yaml.safe_load(read("roles", runbook.role, "defaults", "main.yml"))


@pytest.mark.parametrize("runbook", ON_THE_ENGINE, ids=lambda runbook: runbook.name)
def test_its_start_tells_the_engine_what_it_is_and_what_it_was_asked(runbook):
    begun = engine_includes(tasks(runbook.name, "start"), "start" if runbook.shape == RUN else "forget")
    assert len(begun) == 1, "%s's start includes the engine's %s once" % (runbook.name, "start" if runbook.shape == RUN else "forget")
    own = begun[0]["vars"]["runbook_own"]
    assert own["name"] == runbook.name and own["title"] and own["group"] == "{{ %s_options.group }}" % runbook.name
    assert set(own.get("hooks") or {}) <= {"before", "before_said", "after_wave", "after_wave_said", "after", "after_said"}
    if own.get("before_read"):
        assert tasks(runbook.name, own["before_read"])
    if runbook.shape == RUN:
        # Its options whole, as runbook_options typed them: no option of its role is named again on the way to the engine.
        assert begun[0]["vars"]["runbook_given"] == "{{ %s_options }}" % runbook.name
        inputs = begun[0]["vars"].get("runbook_inputs") or {}
        assert not set(inputs) & set(options_named(runbook.role)), "%s sets inputs of its own options' names" % runbook.name


@pytest.mark.parametrize("runbook", [runbook for runbook in RUNBOOKS if runbook.shape == RUN], ids=lambda runbook: runbook.name)
def test_its_finish_and_its_whole_run_in_one_play_are_the_engines(runbook):
    [finished] = engine_includes(tasks(runbook.name, "finish"), "finish")
    assert finished["vars"]["runbook_project"] == "{{ %s_options.project }}" % runbook.name
    assert finished["vars"]["runbook_report_dir"] == "{{ %s_options.report_dir }}" % runbook.name
    main = tasks(runbook.name, "main")
    assert [task.get("ansible.builtin.include_tasks") for task in main] == ["start.yml", None, "finish.yml"]
    [waves] = engine_includes(main, "wave_here")  # each wave checked on this host, in one play
    assert waves["loop_control"]["loop_var"] == "runbook_wave" and "runbook_run.waves" in waves["loop"]
    assert not waves.get("vars")


@pytest.mark.parametrize("runbook", ON_THE_ENGINE, ids=lambda runbook: runbook.name)
def test_its_playbook_is_the_engines_plays(runbook):
    start, waves, finish = yaml.safe_load(read("playbooks", runbook.name + ".yml"))
    assert start["ansible.builtin.import_playbook"] == "parts/runbook_start.yml"
    assert finish["ansible.builtin.import_playbook"] == "parts/runbook_finish.yml"
    assert start["vars"] == waves["vars"] == finish["vars"]
    assert start["vars"]["runbook"] == runbook.name and start["vars"]["runbook_title"]
    if runbook.shape == SEARCH:  # how many rounds a search takes is known only as it goes; under --check, one play plans it
        assert waves["ansible.builtin.import_playbook"] == "parts/{{ 'planned_wave' if ansible_check_mode | default(false) else 'waves/%d' }}.yml" % WAVES
        assert start["vars"]["runbook_steps"] == runbook.name
        assert tasks(runbook.name, "wave") and tasks(runbook.name, "wave_end")
        return
    # As many waves' plays as the extra variables say, read by the options of the runbook's that decide its waves; under --check,
    # which launches nothing, the one play that plans them all.
    counted = re.fullmatch(r"parts/\{\{ 'planned_wave' if ansible_check_mode \| default\(false\) else 'waves/%s' % \((.*) \| "
                           r"replication\.recovery\.wave_plays\((.*)\)\) \}\}\.yml", " ".join(waves["ansible.builtin.import_playbook"].split()))
    assert counted, waves["ansible.builtin.import_playbook"]
    given = re.findall(r"(\w+) \| default\(none\)", counted.group(1) + ", " + counted.group(2))
    options = options_named(runbook.name)
    assert [name for name in given if name[len(runbook.name) + 1:] not in options] == []
    assert set(given) == set("%s_%s" % (runbook.name, name) for name in ("waves", "recovery_plan", "plan", "hosts") if name in options)


def test_the_game_days_playbook_reads_an_applications_plays_only_for_a_game_day_that_may_be_one():
    """replication.recovery.game_day_plays names one of two files: the game day's play alone, or it and then the plays of an
    application's run (which match no host for a game day of another runbook)."""
    [imported] = yaml.safe_load(read("playbooks", "game_day.yml"))
    assert " ".join(imported["ansible.builtin.import_playbook"].split()) == (
        "parts/{{ game_day_scenario | default(none) | replication.recovery.game_day_plays(game_day_lever | default(none), "
        "game_day_dry_run | default(none), ansible_check_mode | default(false)) }}.yml")
    [alone] = yaml.safe_load(read("playbooks", "parts", "game_day.yml"))
    assert alone["hosts"] == "localhost" and alone["roles"] == [{"role": "replication.recovery.game_day"}]
    first, levels, after, end = yaml.safe_load(read("playbooks", "parts", "game_day_application.yml"))
    assert first["ansible.builtin.import_playbook"] == "game_day.yml"
    # application_run.yml's plays, counted by the application's own filters over the nodes the scenario gives its run
    nodes = "game_day_scenario | default(none) | replication.recovery.game_day_nodes"
    assert " ".join(levels["ansible.builtin.import_playbook"].split()) == (
        "application_levels/{{ %s | replication.recovery.application_level_plays('dr_test') }}.yml" % nodes)
    assert " ".join(after["ansible.builtin.import_playbook"].split()) == (
        "{{ %s | replication.recovery.application_plays_after('dr_test') }}.yml" % nodes)
    assert levels["vars"] == after["vars"] and set(levels["vars"]) == {"replication_recovery_options_given", "runbook_game_day"}
    assert "game_day_application_runs" in end["hosts"] and end["tasks"][0]["ansible.builtin.include_role"]["tasks_from"] == "end"


def test_the_launch_policys_playbook_reads_the_play_of_the_source_addresses_only_when_their_hosts_are_given():
    [imported] = yaml.safe_load(read("playbooks", "launch_policy.yml"))
    assert imported["ansible.builtin.import_playbook"] == (
        "parts/{{ 'launch_policy_addresses' if launch_policy_address_hosts | default('', true) else 'launch_policy' }}.yml")
    addresses, policy = yaml.safe_load(read("playbooks", "parts", "launch_policy_addresses.yml"))
    assert "launch_policy_address_hosts" in addresses["hosts"] and policy["ansible.builtin.import_playbook"] == "launch_policy.yml"
    [alone] = yaml.safe_load(read("playbooks", "parts", "launch_policy.yml"))
    assert alone["roles"] == ["replication.recovery.launch_policy"]


def test_the_applications_playbook_reads_its_begin_alone_under_check():
    """Under --check an application plans in its begin's play, and no play after it would match a host."""
    [imported] = yaml.safe_load(read("playbooks", "application.yml"))
    assert imported["ansible.builtin.import_playbook"] == "parts/{{ 'application_begin' if ansible_check_mode | default(false) else 'application' }}.yml"
    [begin] = yaml.safe_load(read("playbooks", "parts", "application_begin.yml"))
    assert begin["hosts"] == "localhost" and begin["tasks"][0]["ansible.builtin.include_role"] == {"name": "replication.recovery.application"}
    assert [entry["ansible.builtin.import_playbook"] for entry in yaml.safe_load(read("playbooks", "parts", "application.yml"))] == [
        "application_begin.yml", "application_run.yml"]


def levels_read(path):
    """The levels an application's levels file reads, in order, following its imports."""
    found = []
    for entry in yaml.safe_load(read(path)):
        imported = entry["ansible.builtin.import_playbook"]
        if imported == "../application_level.yml":
            found.append(entry["vars"]["application_level"])
        else:
            found += levels_read(os.path.join(os.path.dirname(path), imported))
    return found


def test_the_applications_playbook_reads_its_levels_and_the_approvals_only_when_they_may_be_asked():
    """replication.recovery.application_level_plays names the file of levels 1 to N; application_plays_after the approvals,
    the levels again and the end, or the end alone. Read from the same options, in the same order, in both places."""
    deciding = ("{{ application_nodes | default(none) | replication.recovery.%s( application_runbook | default(none), "
                "application_plan | default(none)) }}")
    levels, after = yaml.safe_load(read("playbooks", "parts", "application_run.yml"))
    assert levels["ansible.builtin.import_playbook"] == "application_levels/%s.yml" % (deciding % "application_level_plays")
    assert after["ansible.builtin.import_playbook"] == "%s.yml" % (deciding % "application_plays_after")
    approvals, again, end = yaml.safe_load(read("playbooks", "parts", "application_again.yml"))
    assert approvals["tasks"][0]["ansible.builtin.include_role"]["tasks_from"] == "approve"
    assert again["ansible.builtin.import_playbook"] == levels["ansible.builtin.import_playbook"] and again["vars"] == {"application_again": True}
    assert end["ansible.builtin.import_playbook"] == "application_end.yml"
    result, ending = yaml.safe_load(read("playbooks", "parts", "application_end.yml"))
    assert result["name"] == "What the application's run came to"
    # A failover's nodes keep no test machines: no cleanup play when the runbook is known to be one as the playbook is read.
    assert ending["ansible.builtin.import_playbook"] == (
        "{{ 'application_finish' if application_runbook | default(none) == 'failover' else 'application_cleanup' }}.yml")
    cleanup, finish = yaml.safe_load(read("playbooks", "parts", "application_cleanup.yml"))
    assert cleanup["name"] == "Clean up the test machines the nodes kept" and finish["ansible.builtin.import_playbook"] == "application_finish.yml"
    assert [play["name"] for play in yaml.safe_load(read("playbooks", "parts", "application_finish.yml"))] == ["End of the application's run"]
    chain = os.path.join(COLLECTION, "playbooks", "parts", "application_levels")
    assert sorted(os.listdir(chain)) == ["%d.yml" % number for number in range(1, MAX_LEVELS + 1)]
    for number in range(1, MAX_LEVELS + 1):
        assert levels_read(os.path.join(chain, "%d.yml" % number)) == list(range(1, number + 1))


def wave_plays_read(path, given=None):
    """The plays a waves file reads, each as (runbook_wave, runbook_wave_plays) - the variables of the imports around a play
    over its own, as ansible-core gives them."""
    read_here = []
    for entry in yaml.safe_load(read(path)):
        given_here = dict(entry.get("vars") or {}, **(given or {}))
        if entry["ansible.builtin.import_playbook"] == "../runbook_wave.yml":
            read_here.append((given_here["runbook_wave"], given_here["runbook_wave_plays"]))
        else:
            read_here += wave_plays_read(os.path.join(os.path.dirname(path), entry["ansible.builtin.import_playbook"]), given_here)
    return read_here


@pytest.mark.parametrize("plays", range(1, WAVES + 1))
def test_a_waves_file_reads_its_waves_in_turn_and_each_knows_how_many_were_read(plays):
    """The last wave's play runs the waves beyond those read (roles/runbook/tasks/waves_left.yml): it knows it is the last."""
    assert wave_plays_read(os.path.join("playbooks", "parts", "waves", "%d.yml" % plays)) == [(wave, plays) for wave in range(1, plays + 1)]


def test_the_plays_unroll_at_most_twelve_waves_and_the_run_is_told_so():
    assert sorted(os.listdir(os.path.join(COLLECTION, "playbooks", "parts", "waves"))) == sorted("%d.yml" % plays for plays in range(1, WAVES + 1))
    assert yaml.safe_load(read("playbooks", "parts", "runbook_start.yml"))[0]["vars"]["runbook_max_waves"] == WAVES == MOST_WAVE_PLAYS


def test_what_stopped_a_run_is_noted_by_one_rule_and_no_runbook_role_sets_the_engines_variables():
    setters, noted = {}, []
    for path in yaml_files("roles"):
        if os.sep + "tasks" + os.sep not in path:
            continue
        for task in every_task(yaml.safe_load(read(path)) or []):
            facts = task.get("ansible.builtin.set_fact") or {}
            for name in list(facts) + ([task["register"]] if task.get("register") else []):
                if str(name).startswith("runbook_") or str(name).endswith("_stopped"):
                    setters.setdefault(name, set()).add(os.path.relpath(path, COLLECTION))
            if "runbook_stopped" in facts:
                noted.append((os.path.relpath(path, COLLECTION), facts["runbook_stopped"]))
    # Forgotten as a run begins; else noted by the filter stopped_by, in the engine's own tasks only.
    assert setters.pop("runbook_stopped") == {"roles/runbook/tasks/" + name for name in ("forget.yml", "stopped.yml", "start.yml", "wave.yml",
                                                                                         "wave_here.yml", "hook.yml")}
    assert all(value is None or "| replication.recovery.stopped_by(ansible_failed_result" in value
               for path, value in noted if path != "roles/runbook/tasks/forget.yml"), noted
    assert all(path.startswith("roles/runbook/") for paths in setters.values() for path in paths), setters


def test_the_maintainers_guide_lists_the_shared_variables_the_only_exceptions_to_a_runbooks_prefix():
    listed = re.findall(r"^   \| `([a-z_]+)\*?` \| .+ \|$", read("docs", "developing.md"), re.M)
    assert listed == [prefix for prefix, unused in SHARED_VARIABLES]


def test_the_maintainers_guide_shows_every_outcome_word_with_its_return_code_and_meaning():
    guide = read("docs", "developing.md")
    listed = re.findall(r"^\| `([a-z ]+)` \| (\d) \| (.+) \|$", guide, re.M)
    assert [(outcome.word, str(outcome.rc), outcome.meaning) for outcome in OUTCOMES] == listed


def test_the_maintainers_guide_shows_every_member_of_the_record():
    guide = read("docs", "developing.md")
    listed = re.findall(r"^\| `([a-z_]+)` \| ([a-z_ ]+) \|", guide, re.M)
    assert [(name, by) for name, by, unused in MEMBERS] == listed


def documented_options(name):
    """The options a module's documentation gives: its own, and those of the fragments it extends."""
    from ansible_collections.replication.recovery.plugins.doc_fragments import connection, jobs, project, runbook
    fragments = dict(connection=connection.ModuleDocFragment, jobs=jobs.ModuleDocFragment, project=project.ModuleDocFragment,
                     runbook=runbook.ModuleDocFragment)
    source = read("plugins", "modules", name + ".py")
    doc = yaml.safe_load(source.split('DOCUMENTATION = r"""', 1)[1].split('"""', 1)[0])
    options = set(doc.get("options") or {})
    for fragment in doc.get("extends_documentation_fragment") or []:
        owner, unused, part = fragment.split(".", 2)[2].partition(".")
        options |= set((yaml.safe_load(getattr(fragments[owner], part or "DOCUMENTATION")) or {}).get("options") or {})
    return options


STEPS = sorted(name[:-3] for name in os.listdir(os.path.join(COLLECTION, "plugins", "action")) if name.endswith(".py"))


@pytest.mark.parametrize("step", STEPS)
def test_each_steps_documentation_gives_every_option_it_takes(step):
    module = __import__("ansible_collections.replication.recovery.plugins.action." + step, fromlist=["ActionModule"])
    taken = set(getattr(module.ActionModule, "OPTIONS", {}))
    if getattr(module.ActionModule, "WITH_RUN", False):
        taken.add("run")
    assert taken - documented_options(step) == set()


PLUGIN_SOURCES = sorted(os.path.join(folder, name) for folder in ("modules", "action") for name in os.listdir(os.path.join(COLLECTION, "plugins", folder))
                        if name.endswith(".py"))


@pytest.mark.parametrize("source", PLUGIN_SOURCES)
def test_no_module_or_action_answers_skipped(source):
    """ansible-core's roadmap deprecates modules and actions that return ``skipped``: check mode says what would be done."""
    code = "\n".join(ast.unparse(unit) for unit in ast.parse(read("plugins", source)).body if not isinstance(unit, ast.Assign) or
                     not any(getattr(target, "id", None) in ("DOCUMENTATION", "EXAMPLES", "RETURN") for target in unit.targets))
    assert not re.search(r"\bskipped\s*=\s*True|[\"']skipped[\"']\s*:\s*True", code)
