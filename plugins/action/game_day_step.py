# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The game day runbook's step on the controller: its begin or its end (plugin_utils._game_day_run), around the rehearsal
the role includes - or the safety lever it pulls instead. Documented in plugins/modules/game_day_step.py."""

from ansible_collections.replication.recovery.plugins.module_utils._lever import STATES
from ansible_collections.replication.recovery.plugins.plugin_utils._game_day_run import GameDayRun
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed


class ActionModule(RunbookStep):
    WITH_RUN = False
    OPTIONS = dict(
        phase=dict(type="str", required=True, choices=["begin", "end", "lever"]),
        scenario=dict(type="raw"),
        dry_run=dict(type="bool", default=False),
        ledger_dir=dict(type="path"),
        plan=dict(type="dict"),
        unreported=dict(type="dict"),
        reported=dict(type="dict", default={}),
        error=dict(type="str"),
        lever=dict(type="str", choices=list(STATES)),
        reason=dict(type="str"),
        by=dict(type="str"),
        projects=dict(type="list", elements="str", default=[]),
    )

    def step(self, args):
        run = GameDayRun(self, args["dry_run"], args["ledger_dir"])
        if args["phase"] == "begin":
            return run.begin(args["scenario"])
        if args["phase"] == "lever":
            if args["lever"] is None:
                raise StepFailed("game_day_step's lever takes the state to pull it to (lever).")
            return run.pull_lever(args["lever"], args["reason"], args["by"], args["projects"], args["scenario"])
        if args["plan"] is None:
            raise StepFailed("game_day_step's end takes the plan its begin answered (plan).")
        return run.end(args["plan"], args["unreported"], args["reported"] or {}, args["error"])
