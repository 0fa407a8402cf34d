"""Jobs: launches, cleanups, recovery plan runs, file restores, as timelines on the virtual clock.

When a job is created its whole course is planned: events at given virtual times, each with a
log line and, for some, an effect on the state (a target machine starts, another terminates).
``advance(now)`` fires the events that are due, in order, so a job read after a clock jump of
any size has done exactly what it would have done by then. Whether a machine succeeds is
decided when the job is planned, from the machine's state and the fault rules in force.

Status: PENDING until the job starts, STARTED while events remain, then COMPLETED, or FAILED
when the job or any of its machines failed (the log says which).
"""

import heapq
import itertools

LAUNCH_JOB_TYPES = {"TEST": "TEST_LAUNCH", "DEBUG": "TEST_LAUNCH", "RECOVERY": "RECOVERY_LAUNCH", "CUTOVER": "CUTOVER_LAUNCH"}
PLAN_JOB_TYPES = {"TEST": "RECOVERY_PLAN_TEST", "RECOVERY": "RECOVERY_PLAN_RECOVERY", "CUTOVER": "RECOVERY_PLAN_CUTOVER",
                  "CLEANUP": "RECOVERY_PLAN_CLEANUP"}
RUNNING = ("PENDING", "STARTED")

# Virtual seconds each stage takes; slow-job faults multiply them.
TIMINGS = {
    "start": 5,        # PENDING -> STARTED
    "snapshot": 30,    # taking the point in time's snapshot
    "convert": 120,    # converting disks for the target cloud
    "boot": 90,        # starting the target machine
    "terminate": 30,   # terminating a target machine
    "restore": 45,     # restoring one file
    "finish": 5,       # the last log line after the work
}


class Job:
    def __init__(self, job_id, project_id, job_type, initiated_by, created, machine_ids, slow=1.0):
        self.id = job_id
        self.project_id = project_id
        self.type = job_type
        self.initiated_by = initiated_by
        self.created = created
        self.machine_ids = list(dict.fromkeys(machine_ids))
        self.slow = slow
        self.status = "PENDING"
        self.ended = None
        self.log = []
        self.failed_machines = []
        self.doomed = False  # failed as a whole by a fault: it does no work
        self.fault_rules = []  # the job fault rules in force when it was created
        self._events = []
        self._order = itertools.count()

    @property
    def running(self):
        return self.status in RUNNING

    def seconds(self, stage):
        return TIMINGS[stage] * self.slow

    def at(self, when, message, effect=None):
        """Plan an event. ``effect(time)`` changes the state and may return the log line instead."""
        heapq.heappush(self._events, (when, next(self._order), message, effect))

    def start_at(self, when):
        self.at(when, "Job started.", self._start)

    def end_at(self, when):
        self.at(when, None, self._end)

    def fail_machine(self, machine_id):
        if machine_id not in self.failed_machines:
            self.failed_machines.append(machine_id)

    def _start(self, when):
        self.status = "STARTED"

    def _end(self, when):
        self.status = "FAILED" if self.failed_machines or self.status == "FAILED" else "COMPLETED"
        self.ended = when
        failed = len(self.failed_machines)
        if self.status == "COMPLETED":
            return "Job finished successfully."
        return "Job finished with errors: %d of %d machines failed." % (failed, len(self.machine_ids)) if failed else "Job failed."

    def fail_whole(self, when, reason):
        """The job fails at ``when`` and does nothing else."""
        self.doomed = True
        self._events = []
        self.start_at(when)
        self.at(when, "Job failed: %s" % reason, self._mark_failed)
        self.end_at(when)

    def _mark_failed(self, when):
        self.status = "FAILED"

    def advance(self, now):
        while self._events and self._events[0][0] <= now:
            when, unused_order, message, effect = heapq.heappop(self._events)
            if effect is not None:
                message = effect(when) or message
            if message:
                self.log.append((when, message))
