# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The newest reports of a runbook in the ledger of runs, on the controller where it is. Documented in
plugins/modules/ledger_report_info.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import newest_entries, to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        ledger_dir=dict(type="path"),
        runbook=dict(type="str", required=True),
        project=dict(type="str"),
        after=dict(type="int", default=0),
        count=dict(type="int", default=1),
    )

    def step(self, args):
        if args["count"] < 1 or args["after"] < 0:
            raise StepFailed("count is 1 or more, and after 0 or more (count %d, after %d): nothing was read." % (args["count"], args["after"]))
        ledger = to_read(args["ledger_dir"])
        entries = newest_entries(ledger, args["runbook"], args["project"], args["after"], args["count"]) if ledger else []
        return dict(changed=False, ledger_dir=ledger, entries=entries)
