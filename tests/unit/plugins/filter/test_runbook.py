# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one rule by which every rescue of a runbook notes what stopped its run; how many waves' plays a runbook's playbook
reads."""

import pytest

from ansible_collections.replication.recovery.plugins.filter.runbook import MOST_WAVE_PLAYS, FilterModule, stopped_by, wave_plays


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


def test_a_rescue_of_an_include_ansible_gives_neither_is_said_so():
    """ansible_failed_task and ansible_failed_result are undefined in the rescue of an include_tasks that failed (a file gone):
    the rescues give none for them - the rescue failed on the undefined variable, and the run stopped with nothing noted."""
    assert stopped_by(None, None, "your tasks after wave 1") == {
        "task": "your tasks after wave 1 (an include)", "message": "Ansible could not include its tasks (its output before says why)"}


@pytest.mark.parametrize("task", [None, {}, {"name": ""}])
def test_a_task_without_a_name_is_a_question_mark(task):
    assert stopped_by(task, {"msg": "failed"})["task"] == "?"
    assert stopped_by(task, {"msg": "failed"}, "your checks")["task"] == "your checks (?)"


def test_the_filter_is_named_as_its_documentation():
    assert FilterModule().filters() == {"stopped_by": stopped_by, "wave_plays": wave_plays}


@pytest.mark.parametrize("waves,plays", [
    (None, 1), ("", 1), ("none", 1), ([], 1),  # all the machines in one wave
    ([["db-1"], ["app-*", "web-*"]], 2),
    ("db-*; app-1, app-2; web-*", 3),  # an AWX survey's text
    ('[["db-1"], ["app-1"], ["web-1"], ["web-2"]]', 4),  # JSON, as -e gives it
    ("\n".join("w%d" % wave for wave in range(12)), 12),
    ([["w%d" % wave] for wave in range(13)], MOST_WAVE_PLAYS),  # the run refuses more than it unrolls, by name
    ('[["db-1"], 7]', MOST_WAVE_PLAYS), ("[not json", MOST_WAVE_PLAYS),  # waves the run refuses by name, as it does today
])
def test_a_playbook_reads_as_many_waves_plays_as_the_waves_given(waves, plays):
    assert wave_plays(waves) == plays
    assert wave_plays(waves, None, "", "None") == plays  # the options that decide the waves, not given


@pytest.mark.parametrize("deciding", [("shop-recovery",), (None, "plans/failover.json"), (None, None, "dr_projects")])
def test_without_waves_an_option_that_decides_them_as_the_run_reads_them_reads_the_most(deciding):
    """A recovery plan's steps, a plan file's waves, each project's own waves are known only as the run reads them."""
    assert wave_plays(None, *deciding) == wave_plays("", *deciding) == MOST_WAVE_PLAYS


def test_waves_given_are_every_projects_and_are_read_as_given():
    """An extra variable is above every project's own; a recovery plan or a plan file with waves, the run refuses."""
    assert wave_plays("db-*; web-*", None, None, "dr_projects") == 2
    assert wave_plays("db-*; web-*", "shop-recovery", "plans/failover.json") == 2
