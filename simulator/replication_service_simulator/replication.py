"""Replication of one source machine, derived from the virtual clock.

There are no background threads: ``advance(now, ...)`` integrates the state from the last time
it was brought up to date to ``now``. The owner calls it before every read and before every
change that alters the rate or the status, so each stretch of time is integrated under the
settings that were really in force during it.

Phases: the initiation steps (``step_seconds`` each), the initial sync of ``total`` bytes at the
bandwidth limit, then continuous replication, where the source writes ``write_rate`` bytes per
second and replication drains them at the bandwidth limit. ``lastConsistencyDateTime`` is the
last moment the backlog was empty; points in time are taken every ten minutes while the machine
replicates continuously, and thinned out with age (see ``points_in_time``).
"""

import math
import uuid

STEP_NAMES = (
    "WAITING_TO_INITIATE_REPLICATION",
    "CREATING_FIREWALL_RULES",
    "CREATING_REPLICATION_SERVER",
    "BOOTING_REPLICATION_SERVER",
    "RESOLVING_MANAGEMENT_SERVER_ADDRESS",
    "AUTHENTICATING_WITH_MANAGEMENT_SERVER",
    "DOWNLOADING_REPLICATION_SOFTWARE",
    "CREATING_REPLICATION_DISKS",
    "ATTACHING_REPLICATION_DISKS",
    "PAIRING_REPLICATION_SERVER_WITH_AGENT",
    "ESTABLISHING_AGENT_REPLICATOR_COMMUNICATION",
)
DISKS_STEP = STEP_NAMES.index("CREATING_REPLICATION_DISKS")
SERVER_STEP = STEP_NAMES.index("CREATING_REPLICATION_SERVER")

INITIATING, SYNCING, CONTINUOUS = "initiating", "syncing", "continuous"

MBPS = 1000 * 1000 / 8  # bytes per second in one megabit per second
POINT_EVERY = 600
HOUR = 3600
DAY = 86400
RETENTION = 30 * DAY
POINTS_NAMESPACE = uuid.UUID("6f1c6a52-3c8e-4b53-9d0c-2f4c1b7b0a11")


class Attempt:
    """One walk through the initiation steps; a restart of replication begins a new one."""

    def __init__(self, start):
        self.start = start
        self.elapsed = 0.0
        self.interrupted = False


class Replication:
    def __init__(self, now, total, step_seconds=60.0, write_rate=0.0, keep_every_point=HOUR):
        self.status = "STARTED"
        self.phase = INITIATING
        self.attempts = [Attempt(now)]
        self.total = total
        self.step_seconds = float(step_seconds)
        self.write_rate = float(write_rate)
        self.keep_every_point = float(keep_every_point)  # seconds during which no point is thinned out
        self.replicated = 0.0
        self.backlog = 0.0
        self.last_consistency = None
        self.scan_start = None
        self.established = None
        self.connected = True
        self.last_seen = now
        self.rate = 0.0
        self.intervals = []  # [start, end or None]: stretches of continuous replication
        self.updated = now

    # -- integration ----------------------------------------------------------------------

    def moving(self, ready):
        return self.status == "STARTED" and self.connected and ready

    def advance(self, now, rate, ready):
        """Integrate from ``self.updated`` to ``now`` at ``rate`` bytes/s.

        ``ready`` is false while the project has no replication configuration: replication
        then waits at its first step.
        """
        moving = self.moving(ready)
        self.rate = rate
        self._mark_interval(moving, self.updated)
        t = self.updated
        if now <= t:
            return
        if self.connected:
            self.last_seen = now
        if not moving:
            if self.phase == CONTINUOUS and self.connected and self.status == "PAUSED":
                # The source keeps writing; nothing is sent, so the backlog grows, up to the whole
                # protected storage (it is changed blocks not yet sent).
                self.backlog = min(self.total, self.backlog + self.write_rate * (now - t))
            self.updated = now
            return
        while t < now:
            t = self._step(t, now, rate)
        self.updated = now

    def _step(self, t, now, rate):
        span = now - t
        if self.phase == INITIATING:
            attempt = self.attempts[-1]
            used = min(len(STEP_NAMES) * self.step_seconds - attempt.elapsed, span)
            attempt.elapsed += used
            t += used
            if attempt.elapsed >= len(STEP_NAMES) * self.step_seconds:
                self.phase = SYNCING
                self.scan_start = t
                if self.established is None:
                    self.established = t
            return t
        if self.phase == SYNCING:
            used = min((self.total - self.replicated) / rate, span)
            self.replicated += used * rate
            t += used
            if self.replicated >= self.total - 1e-6:
                self.replicated = float(self.total)
                self.phase = CONTINUOUS
                self.last_consistency = t
                self.intervals.append([t, None])
            return t
        net = self.write_rate - rate
        if self.backlog > 0 and net < 0:
            used = min(self.backlog / -net, span)
            self.backlog = max(0.0, self.backlog + net * used)
            t += used
            if self.backlog <= 1e-6:
                self.backlog = 0.0
                self.last_consistency = t
            return t
        if net > 0:
            self.backlog = min(self.total, self.backlog + net * span)
        else:
            self.last_consistency = now
        return now

    def _mark_interval(self, moving, at):
        """Open or close the stretch of continuous replication at the last change."""
        open_interval = self.intervals and self.intervals[-1][1] is None
        if open_interval and not moving:
            self.intervals[-1][1] = at
        elif moving and not open_interval and self.phase == CONTINUOUS:
            self.intervals.append([at, None])

    # -- changes (the owner calls ``advance`` first) ----------------------------------------

    def restart(self, now):
        """Start again from the first initiation step and a full initial sync."""
        if self.intervals and self.intervals[-1][1] is None:
            self.intervals[-1][1] = now
        if self.phase == INITIATING:
            self.attempts[-1].interrupted = True
        self.attempts.append(Attempt(now))
        self.phase = INITIATING
        self.replicated = 0.0
        self.backlog = 0.0
        self.last_consistency = None
        self.scan_start = None

    def set_status(self, status, now):
        if status == "STARTED" and self.status == "STOPPED":
            # Stopping tore down the replication server and disks: it begins anew.
            self.restart(now)
        self.status = status

    # -- derived views ----------------------------------------------------------------------

    def has_server(self):
        """A replication server exists from its creation step on, unless replication stopped."""
        return self.status != "STOPPED" and self._reached(SERVER_STEP)

    def has_disks(self):
        return self._reached(DISKS_STEP)

    def _reached(self, step):
        return self.phase != INITIATING or self.attempts[-1].elapsed > step * self.step_seconds

    def next_consistency(self, now, ready):
        """Estimated moment of the next consistent state, or None when it cannot be said."""
        if not self.moving(ready) or self.rate <= 0:
            return None
        if self.phase == INITIATING:
            left = len(STEP_NAMES) * self.step_seconds - self.attempts[-1].elapsed
            return now + left + self.total / self.rate
        if self.phase == SYNCING:
            return now + (self.total - self.replicated) / self.rate
        if self.backlog > 0 and self.rate > self.write_rate:
            return now + self.backlog / (self.rate - self.write_rate)
        return None

    def initiation_states(self, ready):
        items = []
        for attempt in self.attempts:
            done = min(int(attempt.elapsed // self.step_seconds), len(STEP_NAMES))
            steps = []
            for index, name in enumerate(STEP_NAMES):
                step = {"name": name}
                if index < done:
                    step["status"] = "SUCCEEDED"
                elif index == done:
                    step["status"] = "FAILED" if attempt.interrupted else "STARTED"
                    if attempt.interrupted:
                        step["message"] = "Replication was restarted."
                    elif index == 0 and not ready:
                        step["message"] = "Waiting for a replication configuration in the project."
                else:
                    step["status"] = "NOT_STARTED"
                steps.append(step)
            items.append({"startDateTime": attempt.start, "steps": steps})
        return items

    def points_in_time(self, now, machine_id):
        """Points in time that still exist at ``now``, oldest first, as (id, time) pairs.

        Taken every ten minutes of continuous replication; the service keeps all of the last
        hour (``keep_every_point``), the newest of each hour for a day and the newest of each
        day for thirty days.
        "Newest" is among every point taken, not only the old ones, so that a point once
        thinned out never comes back later as the newest of what remains.
        """
        horizon = now - RETENTION
        taken = []
        for start, end in self.intervals:
            end = now if end is None else min(end, now)
            k = max(0, math.ceil((horizon - start) / POINT_EVERY))
            moment = start + k * POINT_EVERY
            while moment <= end:
                taken.append(moment)
                moment += POINT_EVERY
        # Taken in order, so the last one seen of an hour (a day) is its newest.
        newest_of_hour, newest_of_day = {}, {}
        for moment in taken:
            newest_of_hour[moment // HOUR] = moment
            newest_of_day[moment // DAY] = moment
        kept = [
            moment for moment in taken
            if now - moment <= self.keep_every_point
            or (now - moment <= DAY and newest_of_hour[moment // HOUR] == moment)
            or newest_of_day[moment // DAY] == moment
        ]
        return [(point_id(machine_id, moment), moment) for moment in sorted(set(kept))]

    def newest_point_in_time(self, now, machine_id):
        """The newest point in time at ``now`` as an (id, time) pair, or None: the last one
        taken, which thinning always keeps. The same as ``points_in_time(...)[-1]``, without
        working out every point (a launch of many machines needs only this)."""
        for start, end in reversed(self.intervals):
            end = now if end is None else min(end, now)
            if end < start:
                continue
            moment = start + math.floor((end - start) / POINT_EVERY) * POINT_EVERY
            return (point_id(machine_id, moment), moment) if moment >= now - RETENTION else None
        return None


def point_id(machine_id, taken):
    return str(uuid.uuid5(POINTS_NAMESPACE, "%s/%d" % (machine_id, round(taken * 1e6))))
