# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a user reads of each runbook's report does not change unless meant to: every report kept in tests/unit/golden (a
real run's, of each runbook; a plan; the evidence summary) rendered again - its JUnit XML, Markdown and page - is what
was kept beside it. To change what a report says on purpose, write them again: GOLDEN_WRITE=1 and run this test."""

import json
import os

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import plan_markdown, plan_page
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import forms_of, page_of

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
REPORTS = sorted(name[:-len(".json")] for name in os.listdir(GOLDEN) if name.endswith(".json"))


def rendered(name, report):
    """Every form of a kept report, as the runbook writes it (the page without a ledger entry)."""
    if name.endswith(".plan"):
        return {".md": plan_markdown(report), ".html": plan_page(report)}
    return dict(forms_of(report), **{".html": page_of(report, None)})


def test_every_runbook_that_writes_a_report_has_one_kept():
    assert set(REPORTS) >= set(runbook.name for runbook in BY_NAME.values() if runbook.shape) | {"failover.plan"}


@pytest.mark.parametrize("name", REPORTS)
def test_a_kept_report_reads_as_it_did(name):
    with open(os.path.join(GOLDEN, name + ".json"), encoding="utf-8") as handle:
        report = json.load(handle)
    for suffix, text in sorted(rendered(name, report).items()):
        path = os.path.join(GOLDEN, name + suffix)
        if os.environ.get("GOLDEN_WRITE"):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        with open(path, encoding="utf-8") as handle:
            assert text == handle.read(), "%s%s reads otherwise than it did" % (name, suffix)
