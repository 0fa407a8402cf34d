# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one rule by which every rescue of a runbook notes what stopped its run."""

import pytest

from ansible_collections.replication.recovery.plugins.filter.runbook import FilterModule, stopped_by


def test_a_step_that_records_its_failure_gives_its_reason_not_its_failing_line():
    result = {"failed": True, "msg": "The run stops here (preflight); its outcome, at its end, says why and what to do next.",
              "stopped_because": "3 of the machines are failed over"}
    assert stopped_by({"name": "Begin the run, read and judge"}, result) == {
        "task": "Begin the run, read and judge", "message": "3 of the machines are failed over"}


@pytest.mark.parametrize("result,message", [
    ({"msg": "Project 'cache' was not found"}, "Project 'cache' was not found"),
    ({"reason": "Could not find or access 'checks.yml'"}, "Could not find or access 'checks.yml'"),  # an include that failed
    ({"msg": ""}, "failed"),
    ({}, "failed"),
    (None, "failed"),
])
def test_any_other_failure_gives_its_message_or_its_reason(result, message):
    assert stopped_by({"name": "Launch and follow wave 2"}, result)["message"] == message


def test_a_failure_in_the_users_tasks_names_them_before_the_task():
    noted = stopped_by({"name": "Drain the load balancer"}, {"msg": "HTTP 500"}, "your tasks after wave 1")
    assert noted == {"task": "your tasks after wave 1 (Drain the load balancer)", "message": "HTTP 500"}


@pytest.mark.parametrize("task", [None, {}, {"name": ""}])
def test_a_task_without_a_name_is_a_question_mark(task):
    assert stopped_by(task, {"msg": "failed"})["task"] == "?"
    assert stopped_by(task, {"msg": "failed"}, "your checks")["task"] == "your checks (?)"


def test_the_filter_is_named_as_its_documentation():
    assert FilterModule().filters() == {"stopped_by": stopped_by}
