"""The virtual clock: real time multiplied by a scale, plus jumps.

Everything in the simulator that depends on time (replication progress, points in time,
session lifetimes, lockouts) reads this clock, so a test can age the service by hours in one
call instead of waiting.
"""

import time
from datetime import datetime, timezone


class VirtualClock:
    def __init__(self, scale=1.0, start=None, monotonic=time.monotonic):
        self._monotonic = monotonic
        self._scale = float(scale)
        self._origin = start if start is not None else time.time()
        self._mark = monotonic()

    @property
    def scale(self):
        return self._scale

    def now(self):
        """Virtual time in seconds since the epoch."""
        return self._origin + (self._monotonic() - self._mark) * self._scale

    def advance(self, seconds):
        self._origin += seconds
        return self.now()

    def set_scale(self, scale):
        # Re-anchor first, so the change applies from now on and never moves time backwards.
        self._origin = self.now()
        self._mark = self._monotonic()
        self._scale = float(scale)


def iso(seconds):
    """RFC 3339 in UTC with microseconds, as the service writes date-times."""
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="microseconds")


def micros(seconds):
    """Whole microseconds: the precision of the wire, for comparing with a date-time it gave."""
    return int(round(seconds * 1e6))


def parse_iso(text):
    """Parse an RFC 3339 date-time into epoch seconds; a value with no zone is taken as UTC."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.timestamp()
