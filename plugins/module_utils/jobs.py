# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Jobs: starting one safely, and waiting for one to end.

Only one job runs in a project at a time, and it is always the project's newest job, so one
request (the newest job) tells whether the project is busy. Starting a job:

* a running job of the same kind for the same machines is adopted, not started again;
* another running job is waited for, within the timeout, instead of failing at once;
* a request that got no answer may have started the job: the newest job is looked at before
  the request is sent once more, so a launch is never sent twice by accident.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.replication.recovery.plugins.module_utils.client import ServiceError

ACTIVE = ("PENDING", "STARTED")
WAIT_ARGUMENT_SPEC = dict(
    wait=dict(type="bool", default=True),
    wait_timeout=dict(type="int", default=1800),
    poll_interval=dict(type="float", default=5),
)
MAX_INTERVAL = 30.0
BACKOFF = 1.5


def active(job):
    return job is not None and job.get("status") in ACTIVE


def log_tail(job, count=5):
    """The last lines of a job's log, as one text: what a failure message quotes."""
    return " ".join(line["message"] for line in job.get("log", [])[-count:])


class Jobs:
    """The jobs of one project, for one module run; waits are bounded by ``timeout`` in all."""

    @classmethod
    def of(cls, module, project):
        return cls(module, project["id"], module.params["wait_timeout"], module.params["poll_interval"])

    def __init__(self, module, project_id, timeout, interval, sleep=time.sleep, clock=time.monotonic):
        self.module = module
        self.path = "/projects/%s/jobs" % project_id
        self.timeout = timeout
        self.interval = interval
        self._sleep = sleep
        self._clock = clock
        self._deadline = clock() + timeout

    def newest(self):
        items = self.module.client.get(self.path, params=dict(offset=0, limit=1))["items"]
        return items[0] if items else None

    def get(self, job_id):
        """One job of the project, by its ID; the task fails if the project has no such job."""
        try:
            return self.module.client.get("%s/%s" % (self.path, job_id))
        except ServiceError as error:
            if error.status != 404:
                raise
            self.module.fail_json(msg="The project has no job %s." % job_id)

    def wait(self, job, return_after=None):
        """Poll the job until it ends, backing off, within the timeout of this run.

        With ``return_after``, the job is answered as it is once that many seconds have passed,
        so that a playbook can show progress and wait again.
        """
        interval = self.interval
        stop = None if return_after is None else self._clock() + return_after
        while active(job):
            now = self._clock()
            left = self._deadline - now
            if left <= 0:
                self.module.fail_json(msg="Job %s (%s) did not end within %s seconds; it is %s. It goes on in the service."
                                      % (job["id"], job["type"], self.timeout, job["status"]), job=job, changed=self.module.changed)
            if stop is not None:
                if now >= stop:
                    return job
                left = min(left, stop - now)
            self._sleep(min(interval, left))
            interval = min(interval * BACKOFF, MAX_INTERVAL)
            job = self.module.client.get("%s/%s" % (self.path, job["id"]))
        return job

    def settle(self, matches):
        """Wait for a running job that is not ours, so that the state it is changing settles.

        Answers the running job that ``matches`` (one of ours, to follow), else None; and
        whether it waited, in which case what the module read before is out of date.
        """
        newest = self.newest()
        if not active(newest):
            return None, False
        if matches(newest):
            return newest, False
        self.wait(newest)
        return None, True

    def start(self, send, matches):
        """Start a job with ``send()``, safely (see the module docstring).

        Answers the job, and whether this run started it (False when it adopted a running one).
        """
        while True:
            newest = self.newest()
            if active(newest):
                if matches(newest):
                    return newest, False
                self.wait(newest)
                continue
            try:
                return send(), True
            except ServiceError as error:
                if error.code == "jobAlreadyRunning":
                    continue  # another job started meanwhile: wait for it too
                if not error.maybe_done:
                    raise
            # No answer: the service may have started the job. Look before sending again.
            after = self.newest()
            if after is not None and (newest is None or after["id"] != newest["id"]) and matches(after):
                return after, True
            return send(), True


def same_job(job_type, machine_ids):
    """A predicate: a job of this type for exactly these machines."""
    wanted = set(machine_ids)
    return lambda job: job.get("type") == job_type and set(job.get("participatingMachines", [])) == wanted
