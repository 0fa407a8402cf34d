# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Record how the user's checks of one launched machine went: when they began and ended (on the
controller's clock: only their duration counts) and whether they passed. Each machine writes a file
of its own beside the run's record, so that hundreds of hosts checked side by side never write the
same file; the next wave and the report read them. Documented in plugins/modules/runbook_checked.py."""

import os

from ansible_collections.replication.recovery.plugins.plugin_utils._files import write_json
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, checked_file, now_iso


class ActionModule(RunbookStep):
    PHASE = "checks"
    WITH_RUN = False
    OPTIONS = dict(
        checked_dir=dict(type="path", required=True),
        machine=dict(type="str", required=True),
        machine_id=dict(type="str", required=True),
        began=dict(type="str", required=True),
        passed=dict(type="bool", required=True),
        message=dict(type="str", default=""),
    )

    def step(self, args):
        if not os.path.isdir(args["checked_dir"]):
            raise StepFailed("The run's record is gone (%s): its report was written already, or it was never begun." % args["checked_dir"])
        result = dict(machine=args["machine"], began=args["began"], ended=now_iso(), passed=args["passed"], message=args["message"])
        write_json(checked_file(args["checked_dir"], args["machine_id"]), result)
        return dict(checked=result)
