# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The failback's own step: its run's phase fail_back (plugin_utils._run_reverse) - replicate back before the launch,
return to the original direction after it. Documented in plugins/modules/runbook_reverse.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._run_reverse import DIRECTIONS
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep


class ActionModule(RunbookStep):
    PHASE = "reverse"
    OPTIONS = dict(
        direction=dict(type="str", choices=list(DIRECTIONS), required=True),
        memo_dir=dict(type="path"),
        remove_recovery=dict(type="raw", default=False),
        plan=dict(type="path"),
    )

    def step(self, args):
        return self.drive(Run(self, self.path, self.record)).fail_back(args)
