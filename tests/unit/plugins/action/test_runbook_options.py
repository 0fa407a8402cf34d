# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""runbook_options as a role's first task runs it: the role's own argument specs read, every option typed from the text
given, a bad one refused by name, paths from where ansible-playbook started, and AWX's relative directories warned of."""

import os
from unittest.mock import MagicMock

import pytest

from ansible_collections.replication.recovery.plugins.action import runbook_options
from ansible_collections.replication.recovery.plugins.plugin_utils import _step
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION

HEALTH = dict(health_projects=[], health_states=["continuous"], health_max_lag=900, health_max_backlog=None, health_tested_within_days=30,
              health_exclude_stopped=True, health_proven=True, health_require_proven=False, health_restore_verified_within_days=None,
              health_ignore_events=[], health_fail=True, health_report_dir="health_report", health_report_name="health")


def run(task_vars, entry_point="main"):
    task = MagicMock()
    task.args = {}
    task.check_mode = False
    task.async_val = 0
    task._role.get_name.return_value = "health"
    task._role.get_role_path.return_value = os.path.join(COLLECTION, "roles", "health")
    task._role._from_files = {"tasks": entry_point} if entry_point != "main" else {}
    templar = MagicMock()
    templar.template.side_effect = lambda value: value
    action = runbook_options.ActionModule(task, MagicMock(), templar, loader=None, templar=templar, shared_loader_obj=None)
    action._load_name = "replication.recovery.runbook_options"
    return action.run(task_vars=dict(task_vars, inventory_hostname="localhost"))


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


def test_a_value_of_no_such_type_is_refused_naming_the_option(warnings):
    answer = run(dict(HEALTH, health_max_lag="a lot"))
    assert answer["failed"] and answer["msg"] == "health_max_lag must be a number, not 'a lot' (the role health): nothing was done."


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
