# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""How far a job is with its machines, from one list of them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._launches import TargetMachines, job_progress, launched_since

CREATED = "2026-11-22T10:00:00+00:00"


def machine(name, launched_at=None, replica=True):
    found = {"id": name, "lifeCycle": {}}
    if launched_at:
        found["lifeCycle"]["lastTestLaunchDateTime"] = launched_at
    if replica and launched_at:
        found["replica"] = name + "-target"
    return found


class Module(TargetMachines):
    def __init__(self, machines):
        self.listed = machines

    def items_of(self, kind, **scope):  # the module's one read of the project's machines
        assert kind == "machine" and scope["project"] is not None
        return self.listed


def job(job_type="TEST_LAUNCH", status="STARTED", machines=("a", "b", "c", "d")):
    return {"type": job_type, "status": status, "creationDateTime": CREATED, "participatingMachines": list(machines)}


MACHINES = [machine("a", "2026-11-22T10:04:00+00:00"), machine("b", "2026-11-22T10:05:00+00:00"),
            machine("c", "2026-11-21T09:00:00+00:00"),  # its target machine is from an earlier launch
            machine("d"), machine("other", "2026-11-22T10:04:00+00:00")]


def test_a_machine_is_launched_by_a_job_once_it_has_a_target_machine_from_since_the_job_began():
    assert [launched_since(job(), m) for m in MACHINES[:4]] == [True, True, False, False]


def test_a_running_launch_counts_what_it_has_launched():
    assert job_progress(Module(MACHINES), {}, job()) == {"machines": 4, "done": 2, "running": 2, "failed": 0}


@pytest.mark.parametrize("status", ["FAILED", "COMPLETED"])
def test_an_ended_launch_counts_the_rest_as_failed(status):
    assert job_progress(Module(MACHINES), {}, job(status=status)) == {"machines": 4, "done": 2, "running": 0, "failed": 2}


def test_a_recovery_plan_run_counts_like_a_launch():
    assert job_progress(Module(MACHINES), {}, job("RECOVERY_PLAN_TEST"))["done"] == 2


def test_a_cleanup_is_done_with_a_machine_once_it_has_no_target_machine():
    assert job_progress(Module(MACHINES), {}, job("CLEANUP")) == {"machines": 4, "done": 1, "running": 3, "failed": 0}


@pytest.mark.parametrize("status,done,failed", [("STARTED", 0, 0), ("COMPLETED", 4, 0), ("FAILED", 0, 4)])
def test_other_jobs_say_nothing_per_machine_until_they_end(status, done, failed):
    progress = job_progress(Module(MACHINES), {}, job("FILE_RESTORE", status))
    assert (progress["done"], progress["failed"]) == (done, failed)


class Refusing(Module):
    def __init__(self, machines, replace=None):
        super(Refusing, self).__init__(machines)
        self.params = dict(replace_production=replace)

    def fail_json(self, msg, **kwargs):
        raise AssertionError(msg)


def production(name, kind="lastRecoveryLaunchDateTime"):
    return {"id": name + "-id", "sourceProperties": {"name": name}, "replica": name + "-target", "lifeCycle": {kind: CREATED}}


def test_a_launch_refuses_to_replace_production_that_was_not_named():
    machines = [production("web-1"), production("db-1", "lastCutoverDateTime"), machine("a", CREATED)]
    assert [m["id"] for m in Refusing(machines).production_in_the_way(machines)] == ["web-1-id", "db-1-id"]  # a test machine is not
    with pytest.raises(AssertionError, match=r"^web-1, db-1 have a cutover or recovery machine that runs production \(launched web-1 "
                                             r"2026-11-22T10:00:00\+00:00, db-1 2026-11-22T10:00:00\+00:00\): a launch terminates a machine's "
                                             r"target machine first. Name them in replace_production to replace them; nothing was launched.$"):
        Refusing(machines).refuse_to_replace_production(None, machines)
    Refusing(machines, replace=["web-1", "db-1-id"]).refuse_to_replace_production(None, machines)  # named: by name or ID
