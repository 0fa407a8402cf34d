# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One way to wait: the options every module and runbook step that waits takes, and the one poll helper.

A wait is declared, not written as a loop: what to look at, when it is done, and what to say while it is
not (a ``Waiter``, in the style of the waiters of cloud SDKs: a job that ended, target machines that run,
machines whose replication caught up). ``Poll`` looks, sleeps and gives up in one place, on a clock and a
sleep that tests replace: nothing else in the collection sleeps.
"""

import time

# The wait options, the same for every module and step that waits: how long in all, and how soon it looks again.
POLL_INTERVAL = 5.0
WAIT_OPTIONS = dict(
    wait_timeout=dict(type="int", default=1800),
    poll_interval=dict(type="float", default=POLL_INTERVAL),
)


def wait_options(timeout):
    """WAIT_OPTIONS for a wait whose natural length is another: ``timeout`` seconds by default."""
    return dict(WAIT_OPTIONS, wait_timeout=dict(WAIT_OPTIONS["wait_timeout"], default=timeout))


# Each look is further from the last, up to MAX_INTERVAL: a long wait costs few requests.
BACKOFF = 1.5
MAX_INTERVAL = 30.0


def monotonic():
    """The clock waits are measured on (seconds, only differences mean anything)."""
    return time.monotonic()


def pause(seconds):
    """Sleep: the one place the collection does."""
    time.sleep(seconds)


class Waiter(object):
    """What a wait looks at: ``look()`` answers the current value, ``done(value)`` whether the wait is over, and
    ``said(value)`` a line of progress (or None) while it is not."""

    def __init__(self, name, look, done, said=None):
        self.name = name
        self.look = look
        self.done = done
        self.said = said or (lambda value: None)


class Poll(object):
    """A bounded wait: ``timeout`` seconds in all, looking again after ``interval`` seconds, then each time
    ``backoff`` times later, up to ``max_interval``. ``clock`` and ``sleep`` are the tests' to replace."""

    def __init__(self, timeout, interval=POLL_INTERVAL, backoff=BACKOFF, max_interval=MAX_INTERVAL, clock=None, sleep=None):
        self.clock = clock or monotonic
        self._sleep = sleep or pause
        self.timeout = timeout
        self.interval = interval
        self.backoff = backoff
        self.max_interval = max(max_interval, interval)
        self.deadline = self.clock() + timeout

    def left(self):
        """Seconds left of the wait (0 once it ran out)."""
        return max(0.0, self.deadline - self.clock())

    def sleep(self, at_most=None):
        """Sleep until the next look - never past the deadline, nor longer than ``at_most`` - and back off. Answers
        False, without sleeping, once the wait ran out."""
        left = self.left()
        if left <= 0:
            return False
        seconds = min(self.interval, left, left if at_most is None else max(0.0, at_most))
        if seconds > 0:
            self._sleep(seconds)
        self.interval = min(self.interval * self.backoff, self.max_interval)
        return True

    def until(self, waiter, value=None, progress_every=None, say=None):
        """Look with ``waiter`` until it is done or the time runs out (``value``: a first look already made). Answers
        the last value and whether the waiter is done. While it is not, every ``progress_every`` seconds ``say`` gets the
        waiter's line."""
        value = waiter.look() if value is None else value
        said_at = self.clock()
        while not waiter.done(value):
            if not self.sleep():
                return value, False
            value = waiter.look()
            if waiter.done(value):
                break
            if say is not None and progress_every is not None and self.clock() - said_at >= progress_every:
                said_at = self.clock()
                line = waiter.said(value)
                if line:
                    say(line)
        return value, True
