# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The conventions every runbook keeps (docs/developing.md, "A runbook"), held for each runbook role and playbook."""

import json
import os
import re

import pytest
import yaml

from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import OUTCOMES
from ansible_collections.replication.recovery.plugins.plugin_utils._record import MEMBERS
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import RUN, RUNBOOKS, SEARCH

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ENGINE = "replication.recovery.runbook"
ON_THE_ENGINE = [runbook for runbook in RUNBOOKS if runbook.shape in (RUN, SEARCH)]
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
    """The tasks that include the engine's entry point ``entry``."""
    return [task for task in every_task(items) if (task.get("ansible.builtin.include_role") or {}).get("name") == ENGINE
            and task["ansible.builtin.include_role"].get("tasks_from") == entry]


def yaml_files(*top):
    for directory, unused, names in os.walk(os.path.join(COLLECTION, *top)):
        for name in sorted(names):
            if name.endswith(".yml"):
                yield os.path.join(directory, name)


def without_comments(text):
    return "\n".join(line.split(" #")[0] for line in text.split("\n") if not line.lstrip().startswith("#"))


@pytest.mark.parametrize("runbook", RUNBOOKS, ids=lambda runbook: runbook.name)
def test_each_runbook_is_a_role_and_a_playbook_of_its_name(runbook):
    assert os.path.isdir(os.path.join(COLLECTION, "roles", runbook.name))
    assert os.path.isfile(os.path.join(COLLECTION, "playbooks", runbook.name + ".yml"))
    entry_points = yaml.safe_load(read("roles", runbook.name, "meta", "argument_specs.yml"))["argument_specs"]
    assert "main" in entry_points
    if runbook.shape in (RUN, SEARCH):  # on the engine; the fleet's health and a launch policy launch nothing
        assert {"main", "start", "finish"} <= set(entry_points)
        assert yaml.safe_load(read("roles", runbook.name, "defaults", "main.yml"))


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
        inputs = begun[0]["vars"]["runbook_inputs"]
        assert inputs["project"] == "{{ %s_options.project }}" % runbook.name


@pytest.mark.parametrize("runbook", [runbook for runbook in RUNBOOKS if runbook.shape == RUN], ids=lambda runbook: runbook.name)
def test_its_finish_and_its_whole_run_in_one_play_are_the_engines(runbook):
    [finished] = engine_includes(tasks(runbook.name, "finish"), "finish")
    assert finished["vars"]["runbook_project"] == "{{ %s_options.project }}" % runbook.name
    assert finished["vars"]["runbook_report_dir"] == "{{ %s_options.report_dir }}" % runbook.name
    main = tasks(runbook.name, "main")
    assert [task.get("ansible.builtin.include_tasks") for task in main] == ["start.yml", None, "finish.yml"]
    assert engine_includes(main, "waves")


@pytest.mark.parametrize("runbook", ON_THE_ENGINE, ids=lambda runbook: runbook.name)
def test_its_playbook_is_the_engines_plays(runbook):
    [imported] = yaml.safe_load(read("playbooks", runbook.name + ".yml"))
    assert imported["ansible.builtin.import_playbook"] == "parts/runbook.yml"
    assert imported["vars"]["runbook"] == runbook.name and imported["vars"]["runbook_title"]
    if runbook.shape == SEARCH:
        assert imported["vars"]["runbook_steps"] == runbook.name
        assert tasks(runbook.name, "wave") and tasks(runbook.name, "wave_end")


def test_the_plays_unroll_twelve_waves_and_the_run_is_told_so():
    plays = yaml.safe_load(read("playbooks", "parts", "runbook.yml"))
    four = yaml.safe_load(read("playbooks", "parts", "runbook_waves.yml"))
    offsets = [play["vars"]["runbook_waves_after"] for play in plays if play.get("ansible.builtin.import_playbook") == "runbook_waves.yml"]
    steps = [int(re.search(r"\+ (\d+) }}$", play["vars"]["runbook_wave"]).group(1)) for play in four
             if play.get("ansible.builtin.import_playbook") == "runbook_wave.yml"]
    assert sorted(offset + step for offset in offsets for step in steps) == list(range(1, WAVES + 1))
    assert plays[0]["vars"]["runbook_max_waves"] == WAVES


def test_what_stopped_a_run_is_noted_in_one_place_and_no_runbook_role_sets_the_engines_variables():
    setters = {}
    for path in yaml_files("roles"):
        if os.sep + "tasks" + os.sep not in path:
            continue
        for task in every_task(yaml.safe_load(read(path)) or []):
            names = list((task.get("ansible.builtin.set_fact") or {})) + ([task["register"]] if task.get("register") else [])
            for name in names:
                if str(name).startswith("runbook_") or str(name).endswith("_stopped"):
                    setters.setdefault(name, set()).add(os.path.relpath(path, COLLECTION))
    assert setters.pop("runbook_stopped") == {"roles/runbook/tasks/stopped.yml", "roles/runbook/tasks/forget.yml"}
    assert all(path.startswith("roles/runbook/") for paths in setters.values() for path in paths), setters


def test_no_runbook_role_reads_another_runbooks_variables():
    """In its tasks and variables; its documentation may name another runbook's variable, to say how they go together."""
    names = [runbook.name for runbook in RUNBOOKS]
    found = []
    for role in names:
        others = re.compile(r"\b(%s)_[a-z]" % "|".join(name for name in names if name != role))
        for path in [path for part in ("tasks", "defaults", "vars") for path in yaml_files("roles", role, part)]:
            for number, line in enumerate(without_comments(read(path)).split("\n"), 1):
                if others.search(line):
                    found.append("%s:%d: %s" % (os.path.relpath(path, COLLECTION), number, line.strip()))
    assert found == []


def test_the_report_schema_of_the_engines_runs_names_each_runbook_of_that_shape():
    schema = json.loads(read("roles", "runbook", "files", "report.schema.json"))
    assert sorted(schema["properties"]["schema"]["enum"]) == sorted(runbook.schema for runbook in RUNBOOKS if runbook.shape == RUN)


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
