# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""End the run: its report written, entered in the ledger and answered - the run's phase write_report
(plugin_utils._run_report), in a task of its own. Documented in plugins/modules/runbook_report.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import STOPPED_OPTION, RunbookStep


class ActionModule(RunbookStep):
    PHASE = "report"
    OPTIONS = dict(
        report_dir=dict(type="path"),
        write_plan=dict(type="bool", default=False),
        ledger_dir=dict(type="path"),
        stopped=STOPPED_OPTION,
    )

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).write_report(args["report_dir"], args["write_plan"], args["ledger_dir"], args["stopped"])
