# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

import os
import re

from ansible_collections.replication.recovery.plugins.module_utils._wait import WAIT_OPTIONS, Poll, Waiter, wait_options

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


class FakeTime(object):
    """A clock that moves only when the poll sleeps (or a look takes time)."""

    def __init__(self):
        self.now = 100.0
        self.sleeps = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def counting(values, time=None, takes=0):
    """A look that answers ``values`` one after another (the last one for ever), each taking ``takes`` seconds."""
    looks = []

    def look():
        looks.append(1)
        if time is not None:
            time.now += takes
        return values[min(len(looks), len(values)) - 1]
    return look, looks


def test_it_looks_until_done_backing_off_up_to_the_longest_interval():
    time = FakeTime()
    look, looks = counting([False] * 9 + [True])
    value, done = Poll(3600, 2, clock=time.clock, sleep=time.sleep).until(Waiter("it", look, bool))
    assert (value, done) == (True, True) and len(looks) == 10
    assert time.sleeps == [2, 3.0, 4.5, 6.75, 10.125, 15.1875, 22.78125, 30.0, 30.0]


def test_it_never_sleeps_past_its_deadline_and_answers_the_last_value_when_the_time_ran_out():
    time = FakeTime()
    look, looks = counting(["not yet"])
    value, done = Poll(10, 2, clock=time.clock, sleep=time.sleep).until(Waiter("it", look, lambda value: value == "there"))
    assert (value, done) == ("not yet", False)
    assert time.sleeps == [2, 3.0, 4.5, 0.5] and time.now == 110.0 and len(looks) == 5


def test_a_first_value_already_read_is_not_read_again_and_a_done_one_needs_no_look():
    time = FakeTime()
    look, looks = counting([True])
    assert Poll(10, 2, clock=time.clock, sleep=time.sleep).until(Waiter("it", look, bool), value=True) == (True, True)
    assert looks == [] and time.sleeps == []
    assert Poll(10, 2, clock=time.clock, sleep=time.sleep).until(Waiter("it", look, bool), value=False) == (True, True)
    assert len(looks) == 1 and time.sleeps == [2]


def test_an_even_pace_without_backoff_and_progress_only_while_it_waits():
    time = FakeTime()
    look, looks = counting([3, 2, 2, 1, 1, 0], time=time, takes=1)
    said = []
    waiter = Waiter("machines run", look, lambda left: left == 0, said=lambda left: "%d left" % left)
    assert Poll(100, 5, backoff=1, clock=time.clock, sleep=time.sleep).until(waiter, progress_every=10, say=said.append) == (0, True)
    assert time.sleeps == [5, 5, 5, 5, 5]
    # Looks end at 101, 107, 113, 119, 125 and 131 (each takes a second); a line once ten seconds passed since the last, none
    # at the end.
    assert said == ["2 left", "1 left"]


def test_an_interval_of_zero_looks_again_at_once_and_the_deadline_still_holds():
    time = FakeTime()
    look, looks = counting([False], time=time, takes=4)
    assert Poll(10, interval=0, clock=time.clock, sleep=time.sleep).until(Waiter("it", look, bool), value=False) == (False, False)
    assert time.sleeps == [] and len(looks) == 3  # looks end at 104, 108 and 112: the last is past the deadline
    poll = Poll(10, 2, clock=time.clock, sleep=time.sleep)
    assert poll.left() == 10
    time.now += 11
    assert poll.left() == 0 and poll.sleep() is False


def test_one_spelling_of_the_wait_options():
    assert WAIT_OPTIONS == dict(wait_timeout=dict(type="int", default=1800), poll_interval=dict(type="float", default=5.0))
    assert wait_options(7200) == dict(wait_timeout=dict(type="int", default=7200), poll_interval=dict(type="float", default=5.0))
    assert WAIT_OPTIONS["wait_timeout"]["default"] == 1800  # not changed by wait_options


def python_files():
    for top in ("plugins", os.path.join("extensions", "eda", "plugins")):
        for directory, unused, names in os.walk(os.path.join(COLLECTION, top)):
            for name in names:
                if name.endswith(".py"):
                    yield os.path.join(directory, name)


def test_nothing_sleeps_outside_the_poll_helper():
    sleeping = re.compile(r"\btime\.sleep\b|\bfrom time import\b.*\bsleep\b")
    found = []
    for path in python_files():
        if path.endswith(os.path.join("module_utils", "_wait.py")):
            continue
        with open(path, encoding="utf-8") as handle:
            found.extend("%s:%d" % (os.path.relpath(path, COLLECTION), number) for number, line in enumerate(handle, 1) if sleeping.search(line))
    assert len(list(python_files())) > 40 and found == []
