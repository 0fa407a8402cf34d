# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Launch one wave of the run and follow it to its end - the run's phase launch_wave (plugin_utils._run_launch), in a
task of its own. Documented in plugins/modules/runbook_launch.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import STOPPED_OPTION, RunbookStep


class ActionModule(RunbookStep):
    PHASE = "launch"
    OPTIONS = dict(wave=dict(type="int", default=1), stopped=STOPPED_OPTION)

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).launch_wave(args["wave"], args["stopped"])
