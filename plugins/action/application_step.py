# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The application runbook's step on the controller: one phase of the application's run (plugin_utils._application_run)
in each task - begin, level, approve, node, result, cleaned, end. Documented in plugins/modules/application_step.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._application_run import ApplicationRun
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    WITH_RUN = False
    OPTIONS = dict(
        phase=dict(type="str", required=True, choices=["begin", "level", "approve", "node", "result", "cleaned", "end"]),
        name=dict(type="str", default="application"),
        runbook=dict(type="str", default="dr_test"),
        nodes=dict(type="raw"),
        plan=dict(type="path"),
        report_dir=dict(type="path"),
        approve=dict(type="raw"),
        ledger_dir=dict(type="path"),
        state=dict(type="path"),
        level=dict(type="int"),
        node=dict(type="str"),
        report=dict(type="path"),
        attempt=dict(type="int", default=0),
        began=dict(type="str"),
        error=dict(type="str"),
        again=dict(type="bool", default=False),
        removed=dict(type="list", elements="str", default=[]),
        approval_timeout=dict(type="int", default=300),
        game_day=dict(type="str"),
    )

    def step(self, args):
        run = ApplicationRun(self)
        if args["phase"] == "begin":
            return run.begin(args)
        run.take_up(args["state"])  # begun by the playbook's first play
        return getattr(run, args["phase"])(args)
