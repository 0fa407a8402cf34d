# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Write a runbook's report that a role made (the fleet's health, a launch policy) - or that its shape makes of what the role
read - in every form, as each run's own files beside the plain names of the newest; enter it in the ledger; then its
page, which names the entry. Documented in plugins/modules/report_write.py."""

import re

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, where_started, write_also, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of, newest_reports, to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of, made, page_of, shape
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, into_ledger


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
        try:
            forms = files_of(report)
        except (ValueError, KeyError) as error:
            raise StepFailed("The report is no report of the collection's runbooks: %s." % to_text(error))
        directory = where_started(args["report_dir"], "the report directory")
        # Named after its runbook (and its project), unless the role names it (the health role's report_name).
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", args["name"] or "_".join([runbook_of(report).name] + ([report["project"]] if report.get("project") else [])))
        ledger_dir, by_default = directory_of(args["ledger_dir"])
        if self.check_mode:
            answer = dict(lines=["Check mode: no report is written, and nothing is entered in the ledger (%s%s)." % (
                ledger_dir, ", the default" if by_default else "")])
            return dict(answer, made=report) if args["facts"] is not None else answer
        began = report.get("run_began") or report.get("generated") or controller_now()
        try:
            files = write_run(directory, name, began, forms)
        except OSError as error:
            raise StepFailed("The report could not be written in %s: %s" % (directory, to_text(error)))
        ledger = None
        try:
            ledger = into_ledger(ledger_dir, report, files["own"][".json"])
        finally:
            write_also(files, ".html", page_of(report, ledger))
        own = files["own"]
        answer = dict(changed=True, report=dict(json=own[".json"], junit=own[".junit.xml"], markdown=own[".md"], html=own[".html"]),
                      newest=files["plain"][".json"] if files["newest"] else None, ledger=ledger,
                      lines=self.files_said(files, ledger, ledger_dir, by_default))
        return dict(answer, made=report) if args["facts"] is not None else answer

    def report_of(self, args):
        """The report given, or the one the runbook's shape makes of the facts its role read."""
        if (args["report"] is None) == (args["facts"] is None) or (args["facts"] is None) != (args["runbook"] is None):
            raise StepFailed("Give report_write either the report, or the runbook and the facts its report is made of.")
        if args["report"] is not None:
            return args["report"]
        if args["runbook"] not in BY_NAME:
            raise StepFailed("No runbook is named %s (the collection's runbooks: %s)." % (args["runbook"], ", ".join(sorted(BY_NAME))))
        runbook, facts = BY_NAME[args["runbook"]], args["facts"]
        try:
            module = shape(runbook.shape) if runbook.shape else None
            if getattr(module, "EARLIER_RUNS", None):
                # A shape that judges a run against the same kind's earlier runs (a game day's regression) reads them here.
                facts = dict(facts, earlier=newest_reports(to_read(args["ledger_dir"]), runbook.ledger,
                                                           lambda report: module.alike(report, args["facts"]), module.EARLIER_RUNS))
            return made(runbook, facts, controller_now())
        except ValueError as error:
            raise StepFailed("The report cannot be made: %s." % to_text(error))
