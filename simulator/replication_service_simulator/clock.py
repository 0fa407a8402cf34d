"""The virtual clock: real time multiplied by a scale, plus jumps.

Everything in the simulator that depends on time (replication progress, points in time,
session lifetimes, lockouts) reads this clock, so a test can age the service by hours in one
call instead of waiting.
"""

import re
import time
from datetime import datetime, timedelta, timezone


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


EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)


def micros(seconds):
    """Whole microseconds, the precision of the wire. Every conversion goes through here, so a
    date-time the simulator wrote compares equal to the moment it was written from."""
    return int(round(seconds * 1e6))


def iso(seconds):
    """RFC 3339 in UTC with microseconds, as the service writes date-times."""
    return (EPOCH + micros(seconds) * MICROSECOND).isoformat(timespec="microseconds")


def parse_micros(text):
    """An RFC 3339 date-time as whole microseconds since the epoch; no zone means UTC."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return (value - EPOCH) // MICROSECOND


_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def parse_duration(text):
    """Seconds in an ISO 8601 duration of days, hours, minutes and seconds (``PT10M``, ``P1DT2H``)."""
    match = _DURATION.match(text or "")
    if not match or text in ("P", "PT") or text.endswith("T"):
        raise ValueError("%r is not an ISO 8601 duration such as PT10M" % text)
    days, hours, minutes, seconds = match.groups()
    return int(days or 0) * 86400 + int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds or 0)
