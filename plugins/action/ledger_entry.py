# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Enter a report written by a playbook (the health role's) in the ledger of runs, on the controller where the
reports are. Documented in plugins/modules/ledger_entry.py."""

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import LedgerError, append, directory_of, entered
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, read_report


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        ledger_dir=dict(type="path"),
        runbook=dict(type="str", required=True),
        report=dict(type="path", required=True),
    )

    def step(self, args):
        report = read_report(args["report"])
        directory, unused = directory_of(args["ledger_dir"])
        try:
            if self.check_mode:  # what a run would do, nothing written: an entry of the report, or none again
                entry = entered(directory, args["runbook"], report)
                return dict(changed=entry is None, msg="Check mode: the report %s." % (
                    "would be entered in the ledger" if entry is None else "is in the ledger already (entry %d)" % entry["sequence"]))
            entry = append(directory, args["runbook"], report)
        except (LedgerError, OSError) as error:
            raise StepFailed("The report %s was not entered in the ledger: %s" % (args["report"], to_text(error)))
        return dict(changed=entry.pop("appended"), ledger=entry)
