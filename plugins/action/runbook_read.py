# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Read the run's machines and the project's jobs once, and judge them - the run's phase read_and_judge
(plugin_utils._run_read), in a task of its own. Documented in plugins/modules/runbook_read.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    PHASE = "preflight"

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).read_and_judge()
