# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report shapes, looked up by name: the shape a runbook's row names (plugin_utils._runbooks) is the module
plugin_utils._shape_<shape>, which gives the report's

- ``SCHEMA``: the path of its JSON schema in the collection (a tuple of parts),
- ``junit(report)``: its JUnit XML, ``markdown(report)``: its Markdown,
- ``page(report, ledger=None)``: its HTML page, naming its ledger entry when there is one;

and, for a runbook that launches nothing and judges in Python what its role read, ``report(facts, generated)``: its
judgement, a pure function that makes the report (``report_write`` with ``runbook`` and ``facts`` calls it). A shape
that judges a run against earlier runs of its kind (a game day's regression) has ``EARLIER_RUNS``, how many it reads, and
``alike(report, facts)``, whether an earlier report in the ledger is of the same kind of run: ``report_write`` gives it
those reports, oldest first, as ``facts["earlier"]`` (``made`` reads them).

The one place a report is rendered by its kind: a report of a runbook without a shape, or of a shape without its module,
is refused by name - never rendered as another."""

import importlib
import re

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import newest_reports
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import runbook_of

PACKAGE = "ansible_collections.replication.recovery.plugins.plugin_utils"
PARTS = ("SCHEMA", "junit", "markdown", "page")


def shape(name):
    """The module of the report shape ``name``; a ValueError naming it when there is none."""
    if not isinstance(name, str) or not re.match(r"^[a-z][a-z0-9_]*$", name):
        raise ValueError("no report shape is named %r" % (name,))
    try:
        module = importlib.import_module("%s._shape_%s" % (PACKAGE, name))
    except ImportError as error:
        if getattr(error, "name", None) != "%s._shape_%s" % (PACKAGE, name):
            raise  # the shape's module is there, and broken: a bug to see, not a shape to deny
        raise ValueError("no report shape is named %r (plugins/plugin_utils/_shape_%s.py is missing)" % (name, name))
    missing = [part for part in PARTS if not hasattr(module, part)]
    if missing:
        raise ValueError("the report shape %r lacks %s" % (name, ", ".join(missing)))
    return module


def shape_of(report):
    """The shape module of ``report``, by its runbook (its schema); a ValueError for a report of no runbook, or of one
    that writes no report."""
    runbook = runbook_of(report)
    if not runbook.shape:
        raise ValueError("the %s runbook writes no report" % runbook.name)
    return shape(runbook.shape)


def made(runbook, facts, generated, ledger=None):
    """The report the shape of ``runbook`` (a row of plugin_utils._runbooks) makes of ``facts``, what its role read - judged
    against the earlier runs of its kind in ``ledger`` (a directory to read, or None) when its shape judges so; a
    ValueError naming the shape when it makes none."""
    module = shape(runbook.shape) if runbook.shape else None
    if module is None or not hasattr(module, "report"):
        raise ValueError("the %s runbook's report shape (%s) makes no report of facts: its role makes the report" % (runbook.name, runbook.shape))
    if getattr(module, "EARLIER_RUNS", None):
        earlier = newest_reports(ledger, runbook.ledger, lambda report: module.alike(report, facts), module.EARLIER_RUNS)
        facts = dict(facts, earlier=earlier)
    return module.report(facts, generated)


def files_of(report):
    """The forms of ``report`` as write_run (plugin_utils._files) writes them: its JSON first, then its JUnit XML and
    Markdown, each of the report as written (with its ``run``). The page comes after, once the report is in the ledger."""
    module = shape_of(report)
    return [(".json", report), (".junit.xml", module.junit), (".md", module.markdown)]


def forms_of(report):
    """The JUnit XML and Markdown of any report of the collection: {".junit.xml": ..., ".md": ...}."""
    module = shape_of(report)
    return {".junit.xml": module.junit(report), ".md": module.markdown(report)}


def page_of(report, ledger=None):
    """The page of any report of the collection, naming its ledger entry when there is one."""
    return shape_of(report).page(report, ledger)
