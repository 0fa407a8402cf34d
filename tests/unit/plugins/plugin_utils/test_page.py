# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report as one HTML page: the outcome first, charts against the targets, the failures, the timeline and the
ledger entry; nothing loaded from elsewhere; readable at a thousand machines. (The page in a real browser: tests/browser.)"""

import copy
import re
from html.parser import HTMLParser

from ansible_collections.replication.recovery.plugins.plugin_utils._page import BLOCK, FAILED_BANNER, OVER, PASSED_BANNER, WITHIN, page
from ansible_collections.replication.recovery.tests.unit.plugins.plugin_utils.test_report import record, report_from


class Parsed(HTMLParser):
    """The page's tags and text, and whether every tag opened was closed."""

    VOID = {"meta", "rect", "line", "br", "img", "input", "link"}

    def __init__(self, text):
        super(Parsed, self).__init__()
        self.tags, self.open, self.text, self.unbalanced = [], [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.open or self.open.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def self_contained(parsed):
    """No script, and nothing fetched: no src, no external href, no url() in styles."""
    assert not [tag for tag, attrs in parsed.tags if tag in ("script", "img", "iframe", "link", "object")]
    assert not [attrs for tag, attrs in parsed.tags if "src" in attrs or ("href" in attrs and not attrs["href"].startswith("#"))]
    assert "url(" not in "".join(parsed.text)


def test_a_passed_run_leads_with_its_outcome_and_draws_each_machine_against_the_targets():
    report = report_from(record())
    text = page(report, "DR test", ledger=dict(sequence=7, sha256="ab" * 32, path="/ledger/00000007.json"))
    parsed = Parsed(text)
    assert parsed.open == [] and parsed.unbalanced == []
    self_contained(parsed)
    header = next(attrs for tag, attrs in parsed.tags if tag == "header")
    assert PASSED_BANNER in header["style"]
    words = " ".join(parsed.text)
    assert words.index("DR test of production: PASSED") < words.index("RTO and RPO") < words.index("Timeline") < words.index("Ledger")
    assert "Entry 7, SHA-256" in words and "ab" * 32 in words
    # One bar a machine in each chart, within the targets, and the target drawn.
    drawn = [attrs for tag, attrs in parsed.tags if tag == "rect"]
    assert len(drawn) == 4 and {attrs["fill"] for attrs in drawn} == {WITHIN}
    assert len([attrs for tag, attrs in parsed.tags if tag == "line"]) == 2
    assert "RTO (per machine; target 10 min 0 s; 0 of 2 machines over it)" in words
    assert "Failures" not in words


def test_a_failed_run_names_its_failures_and_draws_the_machines_over_target_apart():
    failed = record(targets={"rpo_seconds": 900, "rto_seconds": 60})
    report = report_from(failed)
    parsed = Parsed(page(report, "DR test"))
    header = next(attrs for tag, attrs in parsed.tags if tag == "header")
    assert FAILED_BANNER in header["style"]
    words = " ".join(parsed.text)
    assert "DR test of production: FAILED" in words and "Failures (%d)" % len(report["failures"]) in words
    assert all(failure in words for failure in report["failures"])
    assert OVER in {attrs["fill"] for tag, attrs in parsed.tags if tag == "rect"}
    assert "Not entered in a ledger of runs." in words


def test_a_target_far_beyond_every_machine_is_said_not_drawn():
    report = report_from(record(targets={"rpo_seconds": 86400, "rto_seconds": 86400}))
    parsed = Parsed(page(report, "DR test"))
    assert not [attrs for tag, attrs in parsed.tags if tag == "line"]
    assert "RTO (per machine; target 24 h 0 min; 0 of 2 machines over it, the target beyond the scale)" in " ".join(parsed.text)
    # The bars use the width: the slowest machine's fills it.
    assert max(int(attrs["width"]) for tag, attrs in parsed.tags if tag == "rect") == 900 - 240


def test_names_are_escaped():
    report = report_from(record())
    report["machines"][0]["name"] = "<b>web&1</b>"
    text = page(report, "DR test")
    assert "<b>web&1</b>" not in text and "&lt;b&gt;web&amp;1&lt;/b&gt;" in text


def test_a_thousand_machines_in_histograms_and_folded_blocks():
    report = report_from(record())
    template = report["machines"][0]
    report["machines"] = []
    for number in range(1000):
        machine = copy.deepcopy(template)
        machine.update(name="m-%04d" % number, wave=1 + number // 500, rto_seconds=100 + number % 400, rpo_seconds=30 + number % 50,
                       passed=number % 400 < 390)
        report["machines"].append(machine)
    text = page(report, "DR test")
    parsed = Parsed(text)
    assert parsed.open == [] and parsed.unbalanced == []
    self_contained(parsed)
    # Histograms over the machines' own range: 20 bars a chart, not one a machine; the slowest named; those over target said.
    assert len([tag for tag, attrs in parsed.tags if tag == "rect"]) == 40
    words = " ".join(parsed.text)
    assert "Slowest: m-0399 8 min 19 s" in words
    assert "RTO (machines by RTO; target 10 min 0 s; 0 of 1000 machines over it)" in words
    assert "1 min 40 s to 2 min 0 s" in words  # the first bin: 100 s to 100 + 399 / 20 s
    # Every machine in the timeline, once, in blocks of a hundred per wave, the first of each wave open.
    assert len(re.findall(r'<div class="row"><span>m-\d{4}</span>', text)) == 1000
    blocks = [attrs for tag, attrs in parsed.tags if tag == "details"]
    assert len(blocks) == 1000 // BLOCK and len([attrs for attrs in blocks if "open" in attrs]) == 2
    assert len(text) < 1000 * 1000  # under a megabyte


def test_bins_narrower_than_a_second_are_labelled_to_the_hundredth():
    from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart
    drawn = chart("RPO", [("m-%d" % number, 357.0 + number / 100.0) for number in range(300)], None)
    assert "357.00 to 357.15 s" in drawn and "RPO (machines by RPO; no target)" in drawn
