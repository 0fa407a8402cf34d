# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._jobs import Jobs, log_tail, same_job
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused


class Failed(Exception):
    pass


class FakeModule:
    """Just what Jobs uses: a client that answers the newest job, lookup, and change with what it needs (a module's own
    failure, fail_json, is what a caller's ``failed`` calls)."""

    change = ServiceModule.change

    def __init__(self, newest, job_states=None, check_mode=False):
        self.newest = list(newest)  # answers to "newest job", in turn; the last repeats
        self.job_states = job_states or {}  # job ID -> statuses it goes through
        self.client = self
        self.requests = []
        self.changed = False
        self.check_mode = check_mode
        self.failure = None

    def record_diff(self, before, after):
        pass

    def lookup(self, kind, value, **scope):
        """ServiceModule.lookup of the project a job is not found in: here the project is there."""
        assert kind == "project"
        return {"id": value}

    def get(self, path, params=None):
        self.requests.append(path)
        if params is not None:
            answer = self.newest.pop(0) if len(self.newest) > 1 else self.newest[0]
            return {"items": [answer] if answer else []}
        job_id = path.rsplit("/", 1)[1]
        states = self.job_states[job_id]
        status = states.pop(0) if len(states) > 1 else states[0]
        return {"id": job_id, "type": "TEST_LAUNCH", "status": status}

    def fail_json(self, msg, **kwargs):
        self.failure = dict(kwargs, msg=msg)
        raise Failed(msg)


def job(job_id, status="STARTED", job_type="TEST_LAUNCH", machines=("m1",)):
    return {"id": job_id, "type": job_type, "status": status, "participatingMachines": list(machines)}


def make(module, timeout=100):
    sleeps = []
    clock = [0.0]

    def sleep(seconds):
        sleeps.append(seconds)
        clock[0] += seconds

    return Jobs(module, "p", timeout, 2, sleep=sleep, clock=lambda: clock[0]), sleeps


MATCH = same_job("TEST_LAUNCH", ["m1"])


def test_an_idle_project_gets_the_job_sent():
    jobs, unused = make(FakeModule([job("old", "COMPLETED")]))
    assert jobs.start(lambda: job("new", "PENDING"), MATCH) == (job("new", "PENDING"), True)


def test_a_running_job_of_the_same_kind_is_adopted_not_sent_again():
    jobs, unused = make(FakeModule([job("running")]))

    def send():
        raise AssertionError("must not send")

    assert jobs.start(send, MATCH) == (job("running"), False)


def test_another_running_job_is_waited_for_first():
    module = FakeModule([job("cleanup", job_type="CLEANUP"), job("cleanup", "COMPLETED", "CLEANUP")],
                        job_states={"cleanup": ["STARTED", "STARTED", "COMPLETED"]})
    jobs, sleeps = make(module)
    assert jobs.start(lambda: job("new", "PENDING"), MATCH)[0]["id"] == "new"
    assert sleeps == [2, 3.0, 4.5]  # backing off


def dropped_write(attempts):
    """A send() whose write gets no answer (it may have been done); counts its calls in ``attempts``."""
    def send():
        attempts.append(1)
        raise ServiceError("POST", "/launch", message="no answer", maybe_done=True)
    return send


def test_after_a_dropped_write_the_job_it_made_is_found():
    module = FakeModule([job("old", "COMPLETED"), job("made-by-us", "PENDING")])
    jobs, unused = make(module)
    sent = []
    send = dropped_write(sent)

    assert jobs.start(send, MATCH) == (job("made-by-us", "PENDING"), True)
    assert len(sent) == 1


def test_a_write_without_an_answer_is_never_sent_again():
    """No job appears within the grace period: the task fails, saying the job may still start."""
    module = FakeModule([job("old", "COMPLETED")])
    jobs, sleeps = make(module)
    attempts = []
    send = dropped_write(attempts)

    with pytest.raises(Refused, match="may still start it: do not start it again by hand") as refused:
        jobs.start(send, MATCH)
    assert refused.value.result == dict(changed=True)  # the task says the request may have changed something
    assert len(attempts) == 1
    assert sum(sleeps) == pytest.approx(60)  # the grace period


def test_a_late_write_is_found_during_the_grace_period():
    """The service carries out the request after the client gave up: its job appears some seconds later."""
    module = FakeModule([job("old", "COMPLETED")] * 4 + [job("late", "PENDING")])
    jobs, sleeps = make(module)
    attempts = []
    send = dropped_write(attempts)

    assert jobs.start(send, MATCH) == (job("late", "PENDING"), True)
    assert len(attempts) == 1 and 0 < sum(sleeps) < 60


def test_a_job_of_another_kind_that_appears_is_not_taken_for_it():
    module = FakeModule([job("old", "COMPLETED"), job("theirs", "PENDING", job_type="CLEANUP")])
    jobs, unused = make(module)
    with pytest.raises(Refused):
        jobs.start(dropped_write([]), MATCH)


@pytest.mark.parametrize("status", [400, 409, 429])
def test_busy_is_recognised_by_status_and_the_jobs_whatever_the_body_says(status):
    """A body unlike the simulator's: the status and a running job decide."""
    module = FakeModule([None, job("cleanup", job_type="CLEANUP"), job("cleanup", job_type="CLEANUP"), job("cleanup", "COMPLETED", "CLEANUP")],
                        job_states={"cleanup": ["COMPLETED"]})
    jobs, unused = make(module)
    attempts = []

    def send():
        attempts.append(1)
        if len(attempts) == 1:
            raise ServiceError("POST", "/launch", status, "E_PROJECT_LOCKED", "Project is locked by another operation.")
        return job("new", "PENDING")

    assert jobs.start(send, MATCH) == (job("new", "PENDING"), True)
    assert len(attempts) == 2


def test_a_refusal_with_no_job_running_is_an_error():
    jobs, unused = make(FakeModule([None]))

    def send():
        raise ServiceError("POST", "/launch", 400, "jobAlreadyRunning", "a job runs")  # whatever the code says

    with pytest.raises(ServiceError):
        jobs.start(send, MATCH)


def test_a_job_the_account_has_no_room_for_is_sent_again_backing_off_within_the_timeout():
    """429 with the project idle: the account runs as many jobs as it allows (the service did not act on the request)."""
    jobs, sleeps = make(FakeModule([job("old", "COMPLETED")]), timeout=30)
    attempts = []

    def send():
        attempts.append(1)
        if len(attempts) < 4:
            raise ServiceError("POST", "/launch", 429, "anything", "Too many jobs.")
        return job("new", "PENDING")

    assert jobs.start(send, MATCH) == (job("new", "PENDING"), True)
    assert len(attempts) == 4 and sleeps == [2, 3.0, 4.5]


def test_no_room_in_the_account_within_the_timeout_fails_with_the_services_refusal_and_sleeps_no_further():
    jobs, sleeps = make(FakeModule([job("old", "COMPLETED")]), timeout=10)

    def send():
        raise ServiceError("POST", "/launch", 429, "anything", "Too many jobs.")

    with pytest.raises(ServiceError) as refused:
        jobs.start(send, MATCH)
    assert refused.value.status == 429 and sleeps == [2, 3.0, 4.5] and sum(sleeps) <= 10


def test_a_stop_refused_while_a_job_runs_is_sent_again_after_it():
    module = FakeModule([job("launch")], job_states={"launch": ["STARTED", "COMPLETED"]})
    jobs, unused = make(module)
    attempts = []

    def send():
        attempts.append(1)
        if len(attempts) == 1:
            raise ServiceError("POST", "/stopReplication", 409, "conflict", "busy")
        return {"items": []}

    assert jobs.retry_when_busy(send) == {"items": []}
    assert len(attempts) == 2


def test_other_errors_are_not_retried():
    jobs, unused = make(FakeModule([None]))

    def send():
        raise ServiceError("POST", "/launch", 402, "licenseExpired", "expired")

    with pytest.raises(ServiceError):
        jobs.start(send, MATCH)


def test_waiting_ends_with_the_timeout():
    module = FakeModule([None], job_states={"slow": ["STARTED"]})
    jobs, sleeps = make(module, timeout=10)
    with pytest.raises(Refused) as failure:
        jobs.wait(job("slow"))
    assert "did not end within 10 seconds" in str(failure.value)
    assert failure.value.result["job"]["status"] == "STARTED"  # the failed task shows the job as it was last seen
    assert sum(sleeps) == pytest.approx(10)


def test_a_wait_can_return_after_a_while_without_failing():
    module = FakeModule([None], job_states={"slow": ["STARTED"] * 20 + ["COMPLETED"]})
    jobs, sleeps = make(module, timeout=1000)
    assert jobs.wait(job("slow"), return_after=10)["status"] == "STARTED"
    assert sum(sleeps) == pytest.approx(10) and sleeps == [2, 3.0, 4.5, 0.5]
    assert jobs.wait(job("slow"), return_after=500)["status"] == "COMPLETED"  # and follows it again later


def test_the_timeout_still_fails_a_wait_that_would_return_later():
    module = FakeModule([None], job_states={"slow": ["STARTED"]})
    jobs, unused = make(module, timeout=10)
    with pytest.raises(Refused):
        jobs.wait(job("slow"), return_after=60)


def test_a_job_that_is_not_there_fails_clearly():
    class Missing(FakeModule):
        def get(self, path, params=None):
            raise ServiceError("GET", path, 404, "notFound", "Job x not found.")

    jobs, unused = make(Missing([None]))
    with pytest.raises(Refused, match="The project has no job x"):
        jobs.get("x")


def test_waiting_backs_off_up_to_thirty_seconds():
    module = FakeModule([None], job_states={"long": ["STARTED"] * 12 + ["COMPLETED"]})
    jobs, sleeps = make(module, timeout=3600)
    assert jobs.wait(job("long"))["status"] == "COMPLETED"
    assert sleeps[:4] == [2, 3.0, 4.5, 6.75] and max(sleeps) == 30.0


def test_settle_waits_for_a_job_that_is_not_ours():
    module = FakeModule([job("cleanup", job_type="CLEANUP")], job_states={"cleanup": ["COMPLETED"]})
    jobs, sleeps = make(module)
    assert jobs.settle(MATCH) == (None, True)
    assert sleeps == [2]


def test_settle_answers_a_running_job_of_ours_without_waiting():
    jobs, sleeps = make(FakeModule([job("ours")]))
    assert jobs.settle(MATCH) == (job("ours"), False)
    assert sleeps == []


def test_settle_on_an_idle_project():
    jobs, sleeps = make(FakeModule([job("old", "COMPLETED")]))
    assert jobs.settle(MATCH) == (None, False)


def test_a_start_after_settle_on_an_idle_project_reads_the_jobs_once():
    module = FakeModule([job("old", "COMPLETED")])
    jobs, unused = make(module)
    assert jobs.settle(MATCH) == (None, False)
    assert jobs.start(lambda: job("new", "PENDING"), MATCH) == (job("new", "PENDING"), True)
    assert module.requests == ["/projects/p/jobs"]


def test_a_job_started_between_settle_and_start_is_waited_for_and_the_write_sent_again():
    module = FakeModule([job("old", "COMPLETED"), job("theirs", job_type="CLEANUP")], job_states={"theirs": ["COMPLETED"]})
    jobs, sleeps = make(module)
    assert jobs.settle(MATCH) == (None, False)
    sent = []

    def send():
        sent.append(True)
        if len(sent) == 1:
            theirs = job("theirs", job_type="CLEANUP")
            module.newest = [theirs, theirs, job("theirs", "COMPLETED", job_type="CLEANUP")]
            raise ServiceError("POST", "/launch", 409, "conflict", "a job runs")
        return job("new", "PENDING")
    assert jobs.start(send, MATCH) == (job("new", "PENDING"), True)
    assert len(sent) == 2 and sleeps == [2]


def test_wait_until_idle_waits_for_any_running_job_even_one_that_looks_like_ours():
    module = FakeModule([job("ours")], job_states={"ours": ["STARTED", "COMPLETED"]})
    jobs, sleeps = make(module)
    assert jobs.wait_until_idle() is True
    assert sleeps == [2, 3.0]
    assert make(FakeModule([job("old", "COMPLETED")]))[0].wait_until_idle() is False


def test_log_tail_quotes_the_last_lines():
    job = {"log": [{"message": "Job started."}, {"message": "db-1: conversion failed."}, {"message": "Job finished with errors."}]}
    assert log_tail(job, 2) == "db-1: conversion failed. Job finished with errors."
    assert log_tail({}) == ""


def test_run_starts_the_job_waits_for_it_and_is_a_change():
    module = FakeModule([job("old", "COMPLETED")], job_states={"new": ["STARTED", "COMPLETED"]})
    jobs, unused = make(module)
    assert jobs.run(lambda: job("new", "PENDING"), MATCH)["status"] == "COMPLETED"
    assert module.changed


def test_run_that_adopts_a_running_job_changed_nothing():
    module = FakeModule([job("running")], job_states={"running": ["COMPLETED"]})
    jobs, unused = make(module)
    assert jobs.run(lambda: pytest.fail("sent again"), MATCH, wait=False)["id"] == "running"
    assert not module.changed


def test_run_in_check_mode_sends_nothing_and_predicts_a_change():
    module = FakeModule([job("old", "COMPLETED")], check_mode=True)
    jobs, unused = make(module)
    assert jobs.run(lambda: pytest.fail("sent in check mode"), MATCH) is None
    assert module.changed and module.requests == []


def test_run_follows_the_running_job_given_without_starting_one():
    module = FakeModule([job("old", "COMPLETED")], job_states={"ours": ["COMPLETED"]})
    jobs, unused = make(module)
    assert jobs.run(lambda: pytest.fail("sent"), MATCH, ours=job("ours"))["status"] == "COMPLETED"
    assert not module.changed


def test_a_job_that_does_not_complete_fails_the_task_with_its_log_and_the_result():
    module = FakeModule([job("old", "COMPLETED")], job_states={"new": ["FAILED"]})
    module.get = lambda path, params=None: (
        {"items": [job("old", "COMPLETED")]} if params else dict(job("new", "FAILED"), log=[{"message": "disk full"}]))
    jobs, unused = make(module)
    with pytest.raises(Refused, match="^TEST_LAUNCH job new FAILED: disk full$") as refused:
        jobs.run(lambda: job("new", "PENDING"), MATCH, result=dict(removed=["r1"]))
    assert refused.value.result["removed"] == ["r1"] and refused.value.result["job"]["status"] == "FAILED" and module.changed


def test_follow_hands_a_failed_job_to_the_modules_own_failure():
    module = FakeModule([job("old", "COMPLETED")], job_states={"j": ["FAILED"]})
    jobs, unused = make(module)
    failed = []
    with pytest.raises(Failed):
        jobs.follow(job("j"), failed=lambda ended: failed.append(ended["status"]) or module.fail_json("launch failed"))
    assert failed == ["FAILED"]
