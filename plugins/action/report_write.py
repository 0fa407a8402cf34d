# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Write a runbook's report that a role made (the fleet's health, a launch policy) in every form, as each run's own files
beside the plain names of the newest; enter it in the ledger; then its page, which names the entry. Documented in
plugins/modules/report_write.py."""

import re

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, where_started, write_also, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of
from ansible_collections.replication.recovery.plugins.plugin_utils._page import page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import forms_of
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, into_ledger


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        report=dict(type="dict", required=True),
        report_dir=dict(type="path", required=True),
        name=dict(type="str", required=True),
        ledger_dir=dict(type="path"),
    )

    def step(self, args):
        report = args["report"]
        try:
            runbook = runbook_of(report)
            forms = forms_of(report)
        except (ValueError, KeyError) as error:
            raise StepFailed("The report is no report of the collection's runbooks: %s." % to_text(error))
        directory = where_started(args["report_dir"], "the report directory")
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", args["name"])
        ledger_dir, by_default = directory_of(args["ledger_dir"])
        if self.check_mode:
            return dict(lines=["Check mode: no report is written, and nothing is entered in the ledger (%s%s)." % (
                ledger_dir, ", the default" if by_default else "")])
        began = report.get("run_began") or report.get("generated") or controller_now()
        try:
            files = write_run(directory, name, began, [(".json", report), (".junit.xml", forms[".junit.xml"]), (".md", forms[".md"])])
        except OSError as error:
            raise StepFailed("The report could not be written in %s: %s" % (directory, to_text(error)))
        ledger = None
        try:
            ledger = into_ledger(ledger_dir, runbook.name, report, files["own"][".json"])
        finally:
            write_also(files, ".html", page_of(report, ledger))
        own = files["own"]
        return dict(changed=True, report=dict(json=own[".json"], junit=own[".junit.xml"], markdown=own[".md"], html=own[".html"]),
                    newest=files["plain"][".json"] if files["newest"] else None, ledger=ledger,
                    lines=self.files_said(files, ledger, ledger_dir, by_default))
