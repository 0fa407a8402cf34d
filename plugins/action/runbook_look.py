# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Look at the target machines a wave launched, and answer the hosts they become - the run's phase look_at_wave
(plugin_utils._run_look), in a task of its own. Documented in plugins/modules/runbook_look.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    PHASE = "checks"
    OPTIONS = dict(wave=dict(type="int", default=1))

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).look_at_wave(args["wave"])
