# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Each phase of a run in a task of its own, for the unit tests that judge one phase at a time: thin steps on
plugin_utils._run.Run, driving the phase that runbook_start, runbook_wave or runbook_finish drives among others."""

from types import SimpleNamespace

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._run_begin import OPTIONS, begin_arguments
from ansible_collections.replication.recovery.plugins.plugin_utils._step import STOPPED_OPTION, RunbookStep

WAVE = dict(wave=dict(type="int", default=1))


def _phase(name, phase, drive, options=None):
    """A step that drives one phase (``drive``: the run and the step's arguments) of the run it is given."""
    class ActionModule(RunbookStep):
        PHASE = phase
        OPTIONS = options or {}

        def step(self, args):
            return drive(self.drive(Run(self, self.path, self.record)), args)

    return SimpleNamespace(__name__=name, ActionModule=ActionModule)


class _Begin(RunbookStep):
    PHASE = "login"
    WITH_RUN = False
    OPTIONS = OPTIONS

    def run(self, tmp=None, task_vars=None):
        self._task.args = begin_arguments(self._task.args)
        return super(_Begin, self).run(tmp, task_vars)

    def step(self, args):
        return self.drive(Run(self)).begin(args)


begin = SimpleNamespace(__name__="begin", ActionModule=_Begin)
read = _phase("read", "preflight", lambda run, args: run.read_and_judge())
resume = _phase("resume", "preflight", lambda run, args: run.resume())
launch = _phase("launch", "launch", lambda run, args: run.launch_wave(args["wave"], args["stopped"]), dict(WAVE, stopped=STOPPED_OPTION))
look = _phase("look", "checks", lambda run, args: run.look_at_wave(args["wave"]), WAVE)
report = _phase("report", "report", lambda run, args: run.write_report(args["report_dir"], args["write_plan"], args["ledger_dir"], args["stopped"]),
                dict(report_dir=dict(type="path"), write_plan=dict(type="bool", default=False), ledger_dir=dict(type="path"), stopped=STOPPED_OPTION))
