# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report as one HTML page: the outcome first, charts against the targets, the failures, the timeline and the
ledger entry; nothing loaded from elsewhere; readable at a thousand machines. (The page in a real browser: tests/browser.)"""

import copy
import re
from html.parser import HTMLParser

import pytest

from ansible_collections.replication.recovery.plugins.filter.health import fleet_health
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils import _proof
from ansible_collections.replication.recovery.plugins.plugin_utils._page import BLOCK, CLEANING, FAILED_BANNER, LAUNCHING, OVER, PASSED_BANNER, WITHIN
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import page
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._search import judge_round, new_journal, plan_round, result_of
from ansible_collections.replication.recovery.tests.unit.plugins.filter.test_health import fleet, machine
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


def whole(text, banner):
    """The page parsed, once every tag is closed, nothing is fetched from elsewhere, and its banner has that colour."""
    parsed = Parsed(text)
    assert parsed.open == [] and parsed.unbalanced == []
    self_contained(parsed)
    assert banner in next(attrs for tag, attrs in parsed.tags if tag == "header")["style"]
    return parsed


def test_a_passed_run_leads_with_its_outcome_and_draws_each_machine_against_the_targets():
    report = report_from(record())
    text = page(report, ledger=dict(sequence=7, sha256="ab" * 32, path="/ledger/00000007.json"))
    parsed = whole(text, PASSED_BANNER)
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
    parsed = Parsed(page(report))
    header = next(attrs for tag, attrs in parsed.tags if tag == "header")
    assert FAILED_BANNER in header["style"]
    words = " ".join(parsed.text)
    assert "DR test of production: FAILED" in words and "Failures (%d)" % len(report["failures"]) in words
    assert all(failure in words for failure in report["failures"])
    assert OVER in {attrs["fill"] for tag, attrs in parsed.tags if tag == "rect"}
    assert "Not entered in a ledger of runs." in words


def test_a_target_far_beyond_every_machine_is_said_not_drawn():
    report = report_from(record(targets={"rpo_seconds": 86400, "rto_seconds": 86400}))
    parsed = Parsed(page(report))
    assert not [attrs for tag, attrs in parsed.tags if tag == "line"]
    assert "RTO (per machine; target 24 h 0 min; 0 of 2 machines over it, the target beyond the scale)" in " ".join(parsed.text)
    # The bars use the width: the slowest machine's fills it.
    assert max(int(attrs["width"]) for tag, attrs in parsed.tags if tag == "rect") == 900 - 240


def test_names_are_escaped():
    report = report_from(record())
    report["machines"][0]["name"] = "<b>web&1</b>"
    text = page(report)
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
    text = page(report)
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
    # ... and in the table of machines, in blocks of a hundred too, the first open.
    blocks = [attrs for tag, attrs in parsed.tags if tag == "details"]
    assert len(blocks) == 2 * 1000 // BLOCK and len([attrs for attrs in blocks if "open" in attrs]) == 3
    assert len(text) < 1000 * 1000  # under a megabyte


def test_bins_narrower_than_a_second_are_labelled_to_the_hundredth():
    from ansible_collections.replication.recovery.plugins.plugin_utils._page import chart
    drawn = chart("RPO", [("m-%d" % number, 357.0 + number / 100.0) for number in range(300)], None)
    assert "357.00 to 357.15 s" in drawn and "RPO (machines by RPO; no target)" in drawn


def bars(text, colour):
    """The timeline's spans of a colour: (left, width) in percent of the axis."""
    return [(float(left), float(width)) for left, width in re.findall(
        r'<div class="bar" style="left:([\d.]+)%%;width:([\d.]+)%%;background:%s"' % re.escape(colour), text)]


def test_the_timeline_draws_each_machines_launch_its_checks_and_the_cleanup_job():
    # Launch requested 10:00, both up at 10:04; web-1 checked in 2 min, db-1 in 3 min 30; the cleanup job 10:10 to 10:12.
    cleanup = {"status": "passed", "removed_machines": ["web-1", "db-1"], "message": "terminated 2 target machines",
               "job": {"id": "job-9", "status": "COMPLETED", "created": "2026-11-22T10:10:00+00:00", "ended": "2026-11-22T10:12:00+00:00"}}
    report = report_from(record(cleanup=cleanup))
    assert report["cleanup_job"] == cleanup["job"]
    web = next(m for m in report["machines"] if m["name"] == "web-1")
    assert (web["launch_requested"], web["running"], web["recovered"]) == (
        "2026-11-22T10:00:00+00:00", "2026-11-22T10:04:00+00:00", "2026-11-22T10:06:00.000000+00:00")
    text = page(report)
    # The axis runs 12 minutes, to the cleanup's end: launch 0 to 4 min, checks to 6 (web-1) and 7.5 (db-1), cleanup 10 to 12.
    assert "the axis runs to 12 min 0 s after it" in text
    assert bars(text, LAUNCHING) == [(0.0, 33.33), (0.0, 33.33)]
    assert sorted(bars(text, WITHIN)) == [(33.33, 16.67), (33.33, 29.17)]
    assert bars(text, CLEANING) == [(83.33, 16.67), (83.33, 16.67)]


def test_a_machine_kept_or_never_running_has_no_cleanup_or_checks_drawn():
    report = report_from(record(cleanup={"status": "skipped", "kept": ["web-1", "db-1"], "message": "kept, as asked"}))
    assert report["cleanup_job"] is None
    text = page(report)
    assert bars(text, CLEANING) == [] and len(bars(text, LAUNCHING)) == 2
    report["machines"][0].update(running=None, recovered=None, passed=False)
    text = page(report)
    assert len(bars(text, LAUNCHING)) == 1 and len(bars(text, OVER)) == 0


NOW = "2026-11-22T10:00:00+00:00"


def health_report(count=3, proofs=None, lagging=True):
    machines = [machine("web-%d" % number, lag=60 + number % 600, lastTestLaunchDateTime="2026-11-20T10:00:00+00:00") for number in range(count)]
    if lagging:
        machines[-1]["lag_seconds"] = 7200  # over the threshold
    forecast = dict(median_seconds=300, p90_seconds=420, target_seconds=600, meets_target=True,
                    machines={"web-0": dict(runs=5, median_seconds=300, p90_seconds=420)})
    forecasts = [dict(name="prod", rto_forecast=forecast)]
    report = fleet_health(fleet(("prod", machines)), NOW, max_lag=900, rto_forecasts=forecasts, proofs=proofs)
    return dict(report, generated=NOW)


def test_the_health_page_leads_with_the_outcome_and_charts_lag_and_the_rto_forecast_against_their_targets():
    change = {"timestamp": "2026-11-21T10:00:00+00:00", "eventName": "BLUEPRINT_UPDATED", "description": "Blueprint of web-0 updated.",
              "username": "ops@example.com", "participatingMachines": [{"machineCloudEndureId": "web-0-id"}]}
    ledger = [{"sequence": 3, "runbook": "dr_test", "report": {"project": "prod", "launch_requested": "2026-11-20T10:00:00+00:00",
                                                               "machines": [{"id": "web-0-id", "name": "web-0", "passed": True}]}}]
    machines = [machine("web-%d" % number) for number in range(3)]
    proofs = [dict(name="prod", id="p0", source="ledger", machines=_proof.judge(machines, _proof.ledger_proofs(ledger, {"name": "prod", "id": "p0"}),
                                                                                [change]))]
    report = health_report(proofs=proofs)
    text = page_of(report, dict(sequence=4, sha256="cd" * 32))
    parsed = whole(text, FAILED_BANNER)
    words = " ".join(parsed.text)
    assert words.index("Fleet health: FAILED") < words.index("Failures (1)") < words.index("prod: FAILED") < words.index("Ledger")
    assert "prod/web-2: lag: 7200 s (at most 900 s)" in words
    assert "RTO forecast (per machine; target 10 min 0 s; 0 of 1 machines over it)" in words
    assert "Replication lag (per machine; target 15 min 0 s; 1 of 3 machines over it)" in words
    fills = [attrs["fill"] for tag, attrs in parsed.tags if tag == "rect"]
    assert fills.count(WITHIN) == 3 and fills.count(OVER) == 1
    # The failed machine first; the changed machine with its change; the ledger entry.
    rows = re.findall(r"<tr><td>(web-\d)</td>", text)
    assert rows[:3] == ["web-2", "web-0", "web-1"]
    assert "Changed since last proven (by the ledger of runs)" in words and "Blueprint of web-0 updated." in words
    assert "Entry 4, SHA-256" in words and "cd" * 32 in words


def test_a_healthy_fleet_of_a_thousand_machines_stays_light():
    report = health_report(count=1000, lagging=False)
    text = page_of(report)
    parsed = whole(text, PASSED_BANNER)
    # A histogram, and the machines in folded blocks of a hundred, the first open.
    assert "Replication lag (machines by Replication lag" in " ".join(parsed.text)
    blocks = [attrs for tag, attrs in parsed.tags if tag == "details"]
    assert len(blocks) == 1000 // BLOCK and len([attrs for attrs in blocks if "open" in attrs]) == 1
    assert len(re.findall(r"<tr><td>web-\d+</td>", text)) == 1000
    assert len(text) < 1000 * 1000


def test_the_clean_point_page_shows_each_machines_clean_point_and_the_data_it_gives_up():
    start = parse_time("2026-11-01T00:00:00Z")
    points = dict((name, [dict(id="%s-%d" % (name, index), dateTime=iso_time(start + index * 3600)) for index in range(8)]) for name in ("web-1", "db-1"))
    machines = dict((name, dict(id="id-" + name, points=points[name])) for name in points)
    journal = new_journal("prod", "pid", {}, machines, None, start + 8 * 3600)
    damage = {"web-1": start + 5 * 3600, "db-1": start + 2 * 3600}
    rounds = 0
    while True:
        planned = plan_round(journal)
        if planned is None:
            break
        rounds += 1
        judge_round(journal, dict((name, dict(passed=parse_time(taken) < damage[name], message="checked"))
                                  for name, (unused, unused_id, taken) in planned["candidates"].items()), job="job-%d" % rounds)
    report = result_of(journal, NOW)
    text = page_of(report, dict(sequence=2, sha256="ef" * 32))
    parsed = whole(text, PASSED_BANNER)
    words = " ".join(parsed.text)
    assert words.index("Clean point search of prod: PASSED") < words.index("Data given up")
    assert text.index("Data given up") < text.index("<h2>Rounds</h2>") < text.index("<h2>Machines</h2>") < text.index("<h2>Ledger</h2>")
    assert "Clean point found 2 of 2" in words and "Rounds %d (at most" % rounds in words
    # web-1 is clean at 04:00 and gives up 4 hours; db-1 at 01:00, 7 hours.
    assert iso_time(start + 4 * 3600) in words and iso_time(start + 3600) in words
    assert "Data given up (per machine; no target)" in words and "7 h 0 min" in words and "4 h 0 min" in words
    assert "Entry 2, SHA-256" in words


def test_a_report_of_no_runbook_or_of_one_that_writes_none_has_no_page():
    with pytest.raises(ValueError, match="schema is replication.recovery.nothing/v1"):
        page_of({"schema": "replication.recovery.nothing/v1"})
    with pytest.raises(ValueError, match="the agent runbook writes no report"):
        page_of({"schema": "replication.recovery.agent/v1"})
    with pytest.raises(ValueError, match="schema is missing"):
        page_of({})
    assert "Failover of production: PASSED" in page_of(dict(report_from(record()), schema="replication.recovery.failover/v1"))


def test_the_first_failures_are_in_the_open_and_the_others_folded():
    report = health_report(count=150)
    for project in report["projects"]:
        project["machines"] = []
    report["failures"] = ["prod/web-%d: lag: too long" % number for number in range(150)]
    text = page_of(report)
    opened = text[:text.index("<details>")]
    assert "prod/web-9: lag" in opened and "prod/web-10: lag" not in opened
    assert "<summary>90 more</summary>" in text and "prod/web-99: lag" in text and "prod/web-100: lag" not in text
    assert "... 50 more in the JSON report." in text
