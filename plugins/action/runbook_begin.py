# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Begin a run of a runbook: its record and one session for every later step - the run's phase begin
(plugin_utils._run_begin), in a task of its own. Documented in plugins/modules/runbook_begin.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._run_begin import OPTIONS, begin_arguments
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    PHASE = "login"
    WITH_RUN = False
    OPTIONS = OPTIONS

    def run(self, tmp=None, task_vars=None):
        self._task.args = begin_arguments(self._task.args)
        return super(ActionModule, self).run(tmp, task_vars)

    def step(self, args):
        return self.drive(Run(self)).begin(args)
