# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""make bench's own callback: how long the controller spends in each phase of a playbook, written
as JSON to $BENCH_PHASES. A task's time runs from its start to the next task's (or play's) start,
so it includes everything the controller does for it; phases group tasks by their names. A step of
the engine that drives several of a run's phases in one task says how long each took (phase_seconds):
its time is theirs, and what is left of it its name's phase. (The start's result is hidden - it holds
the session - so its whole time is the read's.)"""

import json
import os
import re
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
name: phase_times
type: aggregate
short_description: Times each phase of a playbook, for make bench
description:
  - Writes, to the file E(BENCH_PHASES) names, the seconds spent in each phase of the playbook (tasks grouped by their names)
    and in each task.
options: {}
"""

# The phases of the DR test playbook (and of the uri playbook beside it), by the names of their tasks.
PHASES = (
    ("sign in", r"Begin the run's record|^Log in$"),
    ("read", r"Begin the run, sign in, read and judge|Read the machines and the jobs|The projects$|The project's machines$"),
    ("resume", r"Finish what an earlier run"),
    ("launch", r"Launch and follow the wave|Launch and follow wave|Launch every machine|Wait for the launch job"),
    ("look", r"Look at the machines of wave|The machines and their target machines"),
    ("hosts", r"Add the machines to the inventory"),
    ("checks", r"Check the launched machine|Note when the checks|Your checks|Record how the checks"),
    ("cleanup", r"Clean up|Wait for the cleanup job"),
    ("report", r"Write the report|write the report, publish it and sign out"),
    ("sign out", r"Sign out|^Log out$"),
)


def phase_of(name):
    """The phase a task's time counts to: by its name - or a phase itself, a step's share (phase_seconds)."""
    if name in dict(PHASES):
        return name
    return next((phase for phase, pattern in PHASES if re.search(pattern, name)), "other")


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "phase_times"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super(CallbackModule, self).__init__()
        self.began = time.monotonic()
        self.current = None
        self.split = {}
        self.tasks = {}

    def _close(self):
        if self.current is not None:
            name, started = self.current
            spent = time.monotonic() - started
            for phase, seconds in self.split.items():
                self.tasks[phase] = self.tasks.get(phase, 0.0) + seconds
                spent -= seconds
            self.tasks[name] = self.tasks.get(name, 0.0) + max(spent, 0.0)
            self.current, self.split = None, {}

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._close()
        self.current = (task.get_name(), time.monotonic())

    def v2_runner_on_ok(self, result):
        # The slowest host's phases stand for the task's (hosts run side by side).
        for phase, seconds in (result._result.get("phase_seconds") or {}).items():
            self.split[phase] = max(self.split.get(phase, 0.0), seconds)

    def v2_playbook_on_play_start(self, play):
        self._close()

    def v2_playbook_on_stats(self, stats):
        self._close()
        path = os.environ.get("BENCH_PHASES")
        if not path:
            return
        phases = {}
        for name, seconds in self.tasks.items():
            phases[phase_of(name)] = phases.get(phase_of(name), 0.0) + seconds
        with open(path, "w") as handle:
            json.dump(dict(total=round(time.monotonic() - self.began, 3), phases=dict((k, round(v, 3)) for k, v in phases.items()),
                           tasks=dict((k, round(v, 3)) for k, v in sorted(self.tasks.items(), key=lambda item: -item[1]))), handle, indent=1)
