# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Write a runbook's report that a role made (the fleet's health, a launch policy) - or that its shape makes of what the role
read - in every form, as each run's own files beside the plain names of the newest; enter it in the ledger; then its
page, which names the entry. Documented in plugins/modules/report_write.py."""

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import made
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        report=dict(type="dict"),
        runbook=dict(type="str"),
        facts=dict(type="dict"),
        report_dir=dict(type="path", required=True),
        name=dict(type="str"),
        ledger_dir=dict(type="path"),
    )

    def step(self, args):
        report = self.report_of(args)
        answer = self.report_written(report, args["report_dir"], args["name"], args["ledger_dir"])
        return dict(answer, made=report) if args["facts"] is not None else answer

    def report_of(self, args):
        """The report given, or the one the runbook's shape makes of the facts its role read."""
        if (args["report"] is None) == (args["facts"] is None) or (args["facts"] is None) != (args["runbook"] is None):
            raise StepFailed("Give report_write either the report, or the runbook and the facts its report is made of.")
        if args["report"] is not None:
            return args["report"]
        if args["runbook"] not in BY_NAME:
            raise StepFailed("No runbook is named %s (the collection's runbooks: %s)." % (args["runbook"], ", ".join(sorted(BY_NAME))))
        try:
            # A shape that judges a run against the same kind's earlier runs (a game day's regression) reads them in the ledger.
            return made(BY_NAME[args["runbook"]], args["facts"], controller_now(), to_read(args["ledger_dir"]))
        except ValueError as error:
            raise StepFailed("The report cannot be made: %s." % to_text(error))
