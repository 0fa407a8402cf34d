# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Finish what an earlier run of the same runbook left - the run's phase resume (plugin_utils._run_resume), in a task of
its own. Documented in plugins/modules/runbook_resume.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    PHASE = "preflight"

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).resume()
