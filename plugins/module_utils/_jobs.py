# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Jobs: starting one safely, and waiting for one to end.

Only one job runs in a project at a time, and it is always the project's newest job, so one
request (the newest job) tells whether the project is busy. Starting a job:

* a running job of the same kind for the same machines is adopted, not started again;
* another running job is waited for, within the timeout, instead of failing at once;
* "busy" is recognised by what the interface documents - 400 (a job runs), 409 and 429 - and by
  looking at the project's jobs, whatever the error's body says;
* a 429 while the project runs nothing says the account has no room for another job now (its jobs,
  or machines in jobs, at once): the service did not act on it, so it is sent again, backing off,
  within the timeout - never more jobs at once than the account allows, whatever runs beside;
* a request that got no answer may have started the job, now or a little later: the job is
  looked for during a grace period, and the request is never sent again.
"""

from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._domain import active
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused
from ansible_collections.replication.recovery.plugins.module_utils._wait import WAIT_OPTIONS, Poll, Waiter, monotonic

# Statuses with which the service may refuse a write because a job is running (the project's jobs decide).
BUSY_STATUSES = (400, 409, 429)
# How long a job that a request without an answer may have started is looked for (at least twice the request timeout).
LATE_WRITE_GRACE = 60.0
WAIT_ARGUMENT_SPEC = dict(wait=dict(type="bool", default=True), **WAIT_OPTIONS)
# Modules whose writes wait for a job that blocks them (stop, pause, uninstall, move), without waiting for a job of their own.
BLOCKED_ARGUMENT_SPEC = WAIT_OPTIONS


def log_tail(job, count=5):
    """The last lines of a job's log, as one text: what a failure message quotes."""
    return " ".join(line["message"] for line in job.get("log", [])[-count:])


class Jobs:
    """The jobs of one project, for one module run or one read of a session (``module``: either; only a start needs a module,
    for its change); waits are bounded by ``timeout`` in all. What does not end as it must is ``Refused``, with the job."""

    @classmethod
    def of(cls, module, project, params=None):
        """The jobs of ``project``, waited for as ``params`` say (WAIT_OPTIONS; by default, the module's)."""
        params = module.params if params is None else params
        return cls(module, project["id"], params["wait_timeout"], params["poll_interval"],
                   grace=max(LATE_WRITE_GRACE, 2 * (params.get("timeout") or 0)))

    def __init__(self, module, project_id, timeout, interval, sleep=None, clock=None, grace=LATE_WRITE_GRACE):
        self.module = module
        self.project_id = project_id
        self.path = "/projects/%s/jobs" % project_id
        self.timeout = timeout
        self.interval = interval
        self.grace = grace
        self._sleep = sleep
        self._clock = clock or monotonic
        self._deadline = self._clock() + timeout
        # [the newest job, ended (or None: no job yet)] as settle() last read it: what start() looks at first, once.
        self._idle = None
        # The backing-off wait for room in the account (no_room_yet), made at its first refusal.
        self._room = None

    def poll(self, seconds):
        return Poll(seconds, self.interval, clock=self._clock, sleep=self._sleep)

    def ended(self, job):
        """The waiter of ``job``: it ended (COMPLETED or FAILED)."""
        path = "%s/%s" % (self.path, job["id"])
        return Waiter("job %s ended" % job["id"], look=lambda: self.module.client.get(path), done=lambda looked: not active(looked))

    def newest(self):
        items = self.module.client.get(self.path, params=dict(offset=0, limit=1))["items"]
        return items[0] if items else None

    def get(self, job_id):
        """One job of the project, by its ID; refused if the project has no such job."""
        try:
            return self.module.client.get("%s/%s" % (self.path, job_id))
        except ServiceError as error:
            if error.status != 404:
                raise
            self.module.lookup("project", self.project_id)  # refused when the service has no such project
            raise Refused("The project has no job %s." % job_id)

    def wait(self, job, return_after=None):
        """Look at the job until it ends, backing off, within the timeout of this run.

        With ``return_after``, the job is answered as it is once that many seconds have passed,
        so that a playbook can show progress and wait again.
        """
        left = self._deadline - self._clock()
        job, ended = self.poll(left if return_after is None else min(left, return_after)).until(self.ended(job), value=job)
        if not ended and self._clock() >= self._deadline:
            raise Refused("Job %s (%s) did not end within %s seconds; it is %s. It goes on in the service."
                          % (job["id"], job["type"], self.timeout, job["status"]), job=job)
        return job

    def run(self, send, matches, wait=True, ours=None, failed=None, result=None):
        """Start a job with ``send()`` (see ``start``), or follow ``ours``, the one that runs already;
        then, when ``wait``, wait for it and fail unless it COMPLETED (see ``follow``). The start is a
        change of the module: in check mode nothing is sent, and the answer is None."""
        if ours is None:
            started = self.module.change(lambda: self.start(send, matches), wrote=lambda started: started[1])
            if started is None:
                return None
            ours = started[0]
        return self.follow(ours, failed, result) if wait else ours

    def follow(self, job, failed=None, result=None):
        """Wait for the job to end. Unless it COMPLETED the task fails: with ``failed(job)`` when given,
        else refused with the job's log, the job and ``result``."""
        job = self.wait(job)
        if job["status"] == "COMPLETED":
            return job
        if failed is not None:
            failed(job)
        raise Refused("%s job %s %s: %s" % (job["type"], job["id"], job["status"], log_tail(job)), job=job, **(result or {}))

    def settle(self, matches):
        """Wait for a running job that is not ours, so that the state it is changing settles.

        Answers the running job that ``matches`` (one of ours, to follow), else None; and
        whether it waited, in which case what the module read before is out of date.
        """
        newest = self.newest()
        if not active(newest):
            self._idle = [newest]
            return None, False
        if matches(newest):
            return newest, False
        self.wait(newest)
        return None, True

    def wait_until_idle(self):
        """Wait for the project's running job, if any, to end. Answers whether it waited, in which
        case what the module read before is out of date."""
        return self.settle(lambda job: False)[1]

    def start(self, send, matches):
        """Start a job with ``send()``, safely (see the module docstring).

        Answers the job, and whether this run started it (False when it adopted a running one).
        """
        while True:
            # What settle() just read stands in for the first look: a job started since makes the service refuse the
            # write as busy, and the loop then reads the jobs again.
            newest = self._idle.pop() if self._idle else self.newest()
            if active(newest):
                if matches(newest):
                    return newest, False
                self.wait(newest)
                continue
            try:
                return send(), True
            except ServiceError as error:
                if error.maybe_done:
                    return self.made_late(newest, matches), True
                if not self.busy(error) and not self.no_room_yet(error):
                    raise
            # Another job started meanwhile: the loop waits for it too (or adopts it, if it is ours). Or the account had no
            # room for it: the loop sends it again once it waited.

    def busy(self, error):
        """Whether a refused write was refused because a job runs: by status, and by the project's jobs."""
        return error.status in BUSY_STATUSES and active(self.newest())

    def no_room_yet(self, error):
        """Whether a write refused with 429 (the service did not act on it) while the project is idle is to be sent again:
        after a wait that backs off, while the timeout leaves room for one."""
        if error.status != 429:
            return False
        if self._room is None:
            self._room = self.poll(self._deadline - self._clock())
        if self._clock() + self._room.interval >= self._deadline:
            return False
        self._room.sleep()
        return True

    def retry_when_busy(self, send):
        """Send a write that the service refuses while a job runs (stop, pause, uninstall): when it is
        refused and a job runs, wait for that job and send it again, within the timeout."""
        while True:
            try:
                return send()
            except ServiceError as error:
                if not self.busy(error):
                    raise
            self.wait(self.newest())

    def made_late(self, before, matches):
        """A request to start a job got no answer. The service may have started the job, or start it
        a little later (a late write): look for it during the grace period, and never send the
        request again. No job: refused, saying that a rerun follows what started."""
        appeared = Waiter("the job appeared", look=self.newest,
                          done=lambda after: after is not None and (before is None or after["id"] != before["id"]) and matches(after))
        after, found = self.poll(self.grace).until(appeared)
        if not found:
            raise Refused(changed=True, message=(
                "The request to start the job got no answer, and no job for it appeared within %d seconds. The service may "
                "still start it: do not start it again by hand. Run the task again: it follows a job that runs, or finds what "
                "the job did." % self.grace))
        return after


def same_job(job_type, machine_ids):
    """A predicate: a job of this type for exactly these machines."""
    wanted = set(machine_ids)
    return lambda job: job.get("type") == job_type and set(job.get("participatingMachines", [])) == wanted
