# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Write a report of the collection's runbooks (the health role's, or any kept in a ledger) as one HTML page - and, when
asked, as JUnit XML and Markdown - on the controller where the reports are. Documented in plugins/modules/report_page.py."""

import os

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import SCHEMA as LEDGER_SCHEMA
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import forms_of, page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, read_report
from ansible_collections.replication.recovery.plugins.plugin_utils._files import write_atomically


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    OPTIONS = dict(
        report=dict(type="path", required=True),
        page=dict(type="path"),
        junit=dict(type="path"),
        markdown=dict(type="path"),
        ledger=dict(type="dict"),
    )

    def step(self, args):
        path = args["page"] or os.path.splitext(args["report"])[0] + ".html"
        report = read_report(args["report"])
        ledger = args["ledger"]
        if report.get("schema") == LEDGER_SCHEMA:  # an entry of the ledger: its report, and where it stands in the ledger
            report, ledger = report.get("report") or {}, dict(sequence=report.get("sequence"), sha256=report.get("sha256"))
        if ledger and not (isinstance(ledger.get("sequence"), int) and isinstance(ledger.get("sha256"), str)):
            raise StepFailed("The ledger entry must be as replication.recovery.ledger_entry or runbook_finish answer it, with its sequence and sha256.")
        try:
            texts = [(path, page_of(report, ledger))]
            forms = forms_of(report) if args["junit"] or args["markdown"] else {}
        except ValueError as error:
            raise StepFailed("The report %s has no page: %s." % (args["report"], to_text(error)))
        except (KeyError, TypeError, AttributeError) as error:
            raise StepFailed("The report %s is not a whole report of its runbook (%s %s): it has no page." % (
                args["report"], "it lacks" if isinstance(error, KeyError) else "a member is not as its schema says:", to_text(error)))
        texts += [(args[option], forms[suffix]) for option, suffix in (("junit", ".junit.xml"), ("markdown", ".md")) if args[option]]
        changed = [written for written, text in texts if self.write(written, text)]
        return dict(changed=bool(changed), page=path, **dict((option, args[option]) for option in ("junit", "markdown") if args[option]))

    def write(self, path, text):
        """Write ``text`` to ``path`` unless it holds it already (nothing in check mode): whether it is (or would be) written."""
        try:
            with open(path, encoding="utf-8") as handle:
                if handle.read() == text:
                    return False
        except (OSError, ValueError):
            pass
        if not self.check_mode:
            try:
                write_atomically(path, text)
            except OSError as error:
                raise StepFailed("Cannot write %s: %s" % (path, to_text(error)))
        return True
