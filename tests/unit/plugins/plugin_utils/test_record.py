# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The run's record has a declared shape: every member a step reads or writes is in the table, and the record
refuses any other - at run time, and in the code of every step (read here with ``ast``)."""

import ast
import json
import os
from unittest.mock import MagicMock

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils import _record
from ansible_collections.replication.recovery.plugins.plugin_utils._record import DECLARED, MEMBERS, Record, UndeclaredMember, as_record, new
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, load, new_run, save

PLUGINS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "plugins"))
BEGUN = dict((name, "given") for name in _record.MADE_BY_BEGIN if name not in _record.EMPTY)


@pytest.fixture(autouse=True)
def runs_in_the_tests_own_directory(monkeypatch, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))


def test_the_table_names_each_member_once_with_who_makes_it_and_what_it_holds():
    names = [name for name, unused_by, unused_what in MEMBERS]
    assert len(names) == len(set(names)) > 40
    steps = set(by for unused_name, by, unused_what in MEMBERS)
    assert steps <= {"begin", "read", "launch", "look", "clean up", "runbook_reverse", "any step"}
    for name, by, what in MEMBERS:
        assert what.endswith((".", ")")) and len(what) > 20, name


def test_a_new_record_has_every_member_the_run_begins_with_and_fresh_empty_parts():
    first, second = new(**BEGUN), new(**BEGUN)
    assert set(first) == set(_record.MADE_BY_BEGIN)
    first["waves"].append({"machines": ["web-1"]})
    assert second["waves"] == []  # the empty parts are each record's own
    with pytest.raises(ValueError, match="made without runbook"):
        new(**dict((name, value) for name, value in BEGUN.items() if name != "runbook"))


@pytest.mark.parametrize("use", [
    lambda record: record["wave_count"],
    lambda record: record.get("wave_count"),
    lambda record: "wave_count" in record,
    lambda record: record.__setitem__("wave_count", 3),
    lambda record: record.setdefault("wave_count", 3),
    lambda record: record.update(wave_count=3),
    lambda record: record.pop("wave_count", None),
])
def test_a_member_the_table_does_not_declare_is_refused(use):
    with pytest.raises(UndeclaredMember, match="The run's record has no member 'wave_count'"):
        use(new(**BEGUN))


def wave_count():
    """A member's name as code may build it - from a variable, which no reading of the code can check."""
    return "_".join(("wave", "count"))


@pytest.mark.parametrize("write", [
    lambda record, name: record.__setitem__(name, 3),
    lambda record, name: record.update({name: 3}),
    lambda record, name: record.update([(name, 3)]),
    lambda record, name: record.update(**{name: 3}),
    lambda record, name: record.__ior__({name: 3}),
    lambda record, name: record.setdefault(name, 3),
], ids=["setitem", "update-dict", "update-pairs", "update-keywords", "ior", "setdefault"])
def test_a_member_named_by_a_variable_is_refused_when_it_is_written(write):
    record = new(**BEGUN)
    with pytest.raises(UndeclaredMember, match="no member 'wave_count'"):
        write(record, wave_count())
    assert "wave_count" not in dict(record)


def test_a_record_written_with_the_operator_is_checked_too():
    record = new(**BEGUN)
    record |= {"started": "2026-11-27T10:00:00Z"}
    assert isinstance(record, Record) and record["started"] == "2026-11-27T10:00:00Z"
    with pytest.raises(UndeclaredMember):
        record |= {wave_count(): 3}


class WritesAMemberByAVariable(RunbookStep):
    def step(self, args):
        self.record[wave_count()] = 3
        return {}


def run_of(step, path, task_vars=None):
    """The step run on the run's record at ``path``, as a task of a play runs it."""
    task = MagicMock(args=dict(run=path), check_mode=False, async_val=0)
    return step(task, MagicMock(), MagicMock(), loader=None, templar=None, shared_loader_obj=None).run(task_vars=task_vars or {})


def test_a_step_that_writes_a_member_by_a_variable_fails(tmp_path):
    path = new_run(new(**BEGUN))
    with pytest.raises(UndeclaredMember, match="wave_count"):
        run_of(WritesAMemberByAVariable, path)
    assert "wave_count" not in dict(load(path))  # the record kept as it was


def test_a_record_written_and_read_back_keeps_its_shape_and_names_its_parts(tmp_path):
    record = new(**dict(BEGUN, runbook="dr_test", settings={"poll_interval": 5}, test_network={"network": None}))
    record["waves"] = [{"machines": ["db-1"]}, {"machines": ["web-1"]}]
    path = new_run(record)
    read = load(path)
    assert isinstance(read, Record) and read == record and read["checked_dir"].endswith("checked")
    assert read.settings == {"poll_interval": 5} and read.test_network == {"network": None}
    assert read.wave(2) == {"machines": ["web-1"]} and read.wave(3) == {} and read.wave(0) == {}
    with open(path, encoding="utf-8") as handle:
        written = json.load(handle)
    written["wave_count"] = 2
    save(path, written)
    with pytest.raises(UndeclaredMember):
        as_record(written)


class ReadsAnUndeclaredMember(RunbookStep):
    def step(self, args):
        return dict(waves=self.record["wave_count"])


def test_a_step_that_reads_an_undeclared_member_fails(tmp_path):
    with pytest.raises(UndeclaredMember, match="wave_count"):
        run_of(ReadsAnUndeclaredMember, new_run(new(**BEGUN)))


class RefusesTheRun(RunbookStep):
    PHASE = "preflight"
    WITH_RUN = True

    def step(self, args):
        raise StepFailed("3 of the machines are failed over")


@pytest.mark.parametrize("rescued", ["true", None])
def test_a_failure_a_rescue_takes_up_is_said_once_and_its_reason_goes_to_the_rescue(tmp_path, rescued):
    """Within a block of the engine's whose rescue notes what stopped the run (runbook_rescued), the step's task says the run
    stops there, and the reason is the record's and the rescue's (the filter stopped_by) to note. Anywhere else (a playbook
    of the user's, without such a rescue) its failure is the whole reason, since no end may follow to say it."""
    path = new_run(new(**BEGUN))
    result = run_of(RefusesTheRun, path, task_vars=dict(runbook_rescued=rescued) if rescued else None)
    assert load(path)["failure"] == {"phase": "preflight", "message": "3 of the machines are failed over"}
    if rescued:
        assert result["failed"] and result["msg"] == "The run stops here (preflight); its outcome, at its end, says why and what to do next."
        assert result["stopped_because"] == "3 of the machines are failed over"
    else:
        assert result["failed"] and result["msg"] == "3 of the machines are failed over" and "stopped_because" not in result


# -- every member the steps' code names ------------------------------------------------------------------------------

def _is_record(node):
    """``record``, or a step's: ``self.record``, ``step.record``."""
    return (isinstance(node, ast.Name) and node.id == "record") or (
        isinstance(node, ast.Attribute) and node.attr == "record" and isinstance(node.value, ast.Name) and node.value.id in ("self", "step"))


def _text(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


# The record's names for the parts many steps touch, and the member each reads.
ACCESSORS = dict(settings="settings", test_network="test_network", wave="waves")


def members_named(tree):
    """The members of the run's record that code names: ``record["x"]``, ``record.get("x")`` (setdefault, pop),
    ``record.update(x=...)``, ``"x" in record``, and the accessors; on ``record``, ``self.record`` or ``step.record``."""
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_record(node.value):
            key = node.slice.value if isinstance(node.slice, ast.Index) else node.slice  # ast.Index: Python before 3.9
            named.add(_text(key))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_record(node.func.value):
            if node.func.attr in ("get", "setdefault", "pop") and node.args:
                named.add(_text(node.args[0]))
            elif node.func.attr == "update":
                named.update(keyword.arg for keyword in node.keywords)
        elif isinstance(node, ast.Attribute) and _is_record(node.value) and node.attr in ACCESSORS:
            named.add(ACCESSORS[node.attr])
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1 and _is_record(node.comparators[0]) \
                and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            named.add(_text(node.left))
    named.discard(None)
    return named


def code_of_the_steps():
    for directory, unused, names in os.walk(PLUGINS):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    yield os.path.relpath(path, PLUGINS), ast.parse(handle.read())


def test_every_member_the_steps_name_is_declared_and_every_declared_one_is_used():
    named = {}
    for path, tree in code_of_the_steps():
        for member in members_named(tree):
            named.setdefault(member, []).append(path)
    undeclared = dict((member, paths) for member, paths in named.items() if member not in DECLARED)
    assert undeclared == {}
    assert sorted(DECLARED - set(named)) == []
    assert len(named["settings"]) >= 5


def test_the_scan_finds_each_way_of_naming_a_member():
    code = ast.parse('record["a"]\nrecord.get("b")\nself.record.setdefault("c", [])\nrecord.update(d=1)\n"e" in record\n'
                     'self.record.pop("f")\nother["g"]\nrecord.settings["h"]\nself.record.wave(2)\nstep.record["i"]\n')
    assert members_named(code) == {"a", "b", "c", "d", "e", "f", "settings", "waves", "i"}
