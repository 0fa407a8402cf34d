# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The ledger of runs: the chain of SHA-256 hashes, every way to break it named by its entry, appends that
race, a report entered once, and the summary with its RTO forecast computed by hand."""

import json
import os
import threading

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import (
    LedgerError, append, digest, entered, entry_files, last_verified, rto_forecast, summary, verify)
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_evidence import markdown, page as html
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import percentile


def dr_test(project, started, rtos, passed=True, rto_target=240, rpo=60):
    """A DR test report of the machines of ``rtos`` (name: RTO seconds, None when not launched)."""
    machines = [dict(name=name, passed=passed and rto is not None, rto_seconds=rto, rpo_seconds=rpo) for name, rto in sorted(rtos.items())]
    return dict(schema="replication.recovery.dr_test/v1", project=project, started=started, launch_requested=started,
                result="passed" if all(m["passed"] for m in machines) else "failed",
                targets=dict(rto_seconds=rto_target, rpo_seconds=3600),
                measures=dict(rto_seconds=max((m["rto_seconds"] for m in machines if m["rto_seconds"] is not None), default=None), rpo_seconds=rpo),
                machines=machines)


def health(projects, generated):
    return dict(schema="replication.recovery.health/v1", result="passed", generated=generated,
                projects=[dict(name=name, machines=[dict(name=machine) for machine in machines]) for name, machines in sorted(projects.items())])


@pytest.fixture
def ledger(tmp_path):
    """Three DR tests and a health run, in that order."""
    directory = str(tmp_path / "ledger")
    append(directory, "dr_test", dr_test("acme", "2026-10-01T10:00:00Z", dict(db=100, web=50)), recorded="2026-10-01T10:10:00Z")
    append(directory, "dr_test", dr_test("acme", "2026-11-01T10:00:00Z", dict(db=120, web=60)), recorded="2026-11-01T10:10:00Z")
    append(directory, "dr_test", dr_test("beta", "2026-11-02T10:00:00Z", dict(app=None)), recorded="2026-11-02T10:10:00Z")
    append(directory, "health", health(dict(acme=["db", "web", "cache"], beta=["app"]), "2026-11-03T00:00:00Z"), recorded="2026-11-03T00:00:01Z")
    return directory


def path_of(directory, sequence):
    return os.path.join(directory, dict(entry_files(directory))[sequence])


def test_a_whole_ledger_verifies_and_each_entry_names_the_one_before(ledger):
    entries, breaks = verify(ledger)
    assert breaks == []
    assert [entry["sequence"] for entry in entries] == [1, 2, 3, 4]
    assert entries[0]["previous"] is None
    assert [entry["previous"] for entry in entries[1:]] == [entry["sha256"] for entry in entries[:-1]]
    assert all(entry["sha256"] == digest(entry) for entry in entries)
    assert [name for _sequence, name in entry_files(ledger)] == ["00000001.json", "00000002.json", "00000003.json", "00000004.json"]


def test_one_byte_edited_in_the_second_entry_is_named(ledger):
    path = path_of(ledger, 2)
    with open(path, "rb") as handle:
        content = handle.read()
    at = content.index(b'"rto_seconds": 120')
    with open(path, "wb") as handle:
        handle.write(content[:at + 16] + b"0" + content[at + 17:])  # 120 -> 100
    entries, breaks = verify(ledger)
    assert len(breaks) == 1
    assert breaks == ["Entry 2 (00000002.json: dr_test of acme, recorded 2026-11-01T10:10:00Z) was changed after it was written: "
                      "its content does not match its SHA-256."]


def test_the_second_entry_removed_is_named(ledger):
    os.unlink(path_of(ledger, 2))
    entries, breaks = verify(ledger)
    assert breaks == ["Entry 2 is missing: removed from the ledger."]
    assert len(entries) == 3


def test_an_entry_rewritten_with_a_fresh_hash_breaks_the_link_of_the_next(ledger):
    path = path_of(ledger, 2)
    with open(path) as handle:
        entry = json.load(handle)
    entry["result"] = "passed"
    entry["report"]["machines"][0]["rto_seconds"] = 1
    entry["sha256"] = digest(entry)
    with open(path, "w") as handle:
        json.dump(entry, handle)
    unused, breaks = verify(ledger)
    assert len(breaks) == 1 and breaks[0].startswith("Entry 3 ") and "does not follow entry 2" in breaks[0]


def test_two_entries_swapped_are_named(ledger):
    second, third = path_of(ledger, 2), path_of(ledger, 3)
    with open(second) as handle:
        content_of_second = handle.read()
    with open(third) as handle:
        content_of_third = handle.read()
    with open(second, "w") as handle:
        handle.write(content_of_third)
    with open(third, "w") as handle:
        handle.write(content_of_second)
    unused, breaks = verify(ledger)
    assert any(said.startswith("Entry 2 ") and "says it is entry 3" in said for said in breaks)
    assert any(said.startswith("Entry 3 ") and "says it is entry 2" in said for said in breaks)


def test_an_entry_planted_under_a_taken_number_is_named(ledger):
    with open(path_of(ledger, 2)) as handle:
        planted = handle.read()
    with open(os.path.join(ledger, "00000002-extra.json"), "w") as handle:
        handle.write(planted)
    unused, breaks = verify(ledger)
    assert breaks == ["Entry 2 (00000002.json) repeats number 2: another file of the ledger has it."]


def test_the_first_entries_removed_and_an_unreadable_entry_are_named(ledger):
    os.unlink(path_of(ledger, 1))
    with open(path_of(ledger, 3), "w") as handle:
        handle.write("{not json")
    unused, breaks = verify(ledger)
    assert breaks[0] == "Entry 1 is missing: removed from the ledger."
    assert any(said.startswith("Entry 3 (00000003.json) cannot be read") for said in breaks)


def test_entries_removed_from_the_end_are_seen_against_a_kept_head(ledger):
    head = verify(ledger)[0][-1]["sha256"]
    os.unlink(path_of(ledger, 4))
    assert verify(ledger)[1] == []  # a shorter chain is whole
    unused, breaks = verify(ledger, expected_head=head)
    assert breaks == ["No entry has the SHA-256 %s that the ledger's head once was: entries were removed from its end." % head]


def test_a_report_entered_again_is_not_appended_twice(ledger):
    again = append(ledger, "dr_test", dr_test("beta", "2026-11-02T10:00:00Z", dict(app=None)))
    assert again["appended"] is False and again["sequence"] == 3
    assert len(entry_files(ledger)) == 4


def test_what_append_would_do_is_read_without_writing(ledger, tmp_path):
    """ledger_entry under --check: the entry that holds a report already, or none (append would enter it)."""
    report = dr_test("beta", "2026-11-02T10:00:00Z", dict(app=None))
    assert entered(ledger, "dr_test", report) == dict(sequence=3, sha256=append(ledger, "dr_test", report)["sha256"], path=path_of(ledger, 3))
    assert entered(ledger, "dr_test", dr_test("beta", "2026-11-09T10:00:00Z", dict(app=None))) is None
    assert entered(str(tmp_path / "none yet"), "dr_test", report) is None
    assert len(entry_files(ledger)) == 4 and not os.path.exists(str(tmp_path / "none yet"))


def test_runs_that_append_at_once_each_get_an_entry_in_one_chain(tmp_path):
    directory = str(tmp_path / "ledger")

    def run(number):
        append(directory, "dr_test", dr_test("p%02d" % number, "2026-11-01T10:%02d:00Z" % number, dict(m=10)))
    threads = [threading.Thread(target=run, args=(number,)) for number in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries, breaks = verify(directory)
    assert breaks == []
    assert sorted(entry["projects"][0] for entry in entries) == ["p%02d" % number for number in range(16)]
    assert [entry["sequence"] for entry in entries] == list(range(1, 17))
    assert not [name for name in os.listdir(directory) if name.startswith(".")]  # no temporary file left


def test_nothing_follows_an_unreadable_newest_entry(ledger):
    with open(path_of(ledger, 4), "w") as handle:
        handle.write("")
    with pytest.raises(LedgerError, match="newest entry 4 .* cannot be read"):
        append(ledger, "dr_test", dr_test("acme", "2026-11-09T10:00:00Z", dict(db=1)))


def test_a_missing_ledger_is_said(tmp_path):
    with pytest.raises(LedgerError, match="No ledger at"):
        verify(str(tmp_path / "nowhere"))


def test_percentiles_between_the_closest_ranks():
    assert percentile([], 0.5) is None
    assert percentile([7], 0.9) == 7
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert percentile([400, 100, 150, 120, 130], 0.9) == 300  # rank 3.6 of 100 120 130 150 400: 150 + 0.6 * 250


def test_the_rto_forecast_of_five_runs_matches_the_hand_computation(tmp_path):
    directory = str(tmp_path / "ledger")
    db = [100, 120, 130, 150, 400]
    web = [50, 90, 70, 60, 80]
    for number in range(5):
        append(directory, "dr_test", dr_test("acme", "2026-11-%02dT10:00:00Z" % (number + 1), dict(db=db[number], web=web[number])))
    # A failed run does not count: its machines did not pass.
    append(directory, "dr_test", dr_test("acme", "2026-11-09T10:00:00Z", dict(db=9999, web=9999), passed=False))
    forecast = rto_forecast(verify(directory)[0], "acme")
    # By hand: db sorted 100 120 130 150 400: median 130, p90 at rank 0.9 * 4 = 3.6: 150 + 0.6 * (400 - 150) = 300.
    # web sorted 50 60 70 80 90: median 70, p90 80 + 0.6 * 10 = 86. The project: the slowest machine's.
    assert forecast["machines"] == dict(db=dict(runs=5, median_seconds=130, p90_seconds=300), web=dict(runs=5, median_seconds=70, p90_seconds=86))
    assert (forecast["median_seconds"], forecast["p90_seconds"], forecast["target_seconds"], forecast["meets_target"]) == (130, 300, 240, False)


def test_a_backup_projects_last_verified_restore_is_its_newest_passing_restore_test(tmp_path):
    directory = str(tmp_path / "ledger")
    append(directory, "restore_test", dr_test("files", "2026-11-01T10:00:00Z", dict(fs=200)))
    append(directory, "restore_test", dr_test("files", "2026-11-05T10:00:00Z", dict(fs=200), passed=False))
    append(directory, "dr_test", dr_test("files", "2026-11-07T10:00:00Z", dict(fs=200)))
    entries = verify(directory)[0]
    assert last_verified(entries, "files") == dict(time="2026-11-01T10:00:00Z", sequence=1, runbook="restore_test", machines=1)
    assert last_verified(entries, "other") is None
    assert summary(entries, [])["projects"][0]["last_verified"]["sequence"] == 1
    # A restore test proves no DR readiness: the RTO forecast reads the DR test alone.
    assert rto_forecast(entries, "files")["machines"]["fs"]["runs"] == 1


def test_the_summary_per_project_and_period(ledger):
    entries, breaks = verify(ledger)
    report = summary(entries, breaks, period="month")
    assert report["verified"] is True and report["entries"] == 4 and report["head"] == entries[-1]["sha256"]
    periods = dict(((group["project"], group["period"]), group) for group in report["periods"])
    assert sorted(periods) == [("acme", "2026-10"), ("acme", "2026-11"), ("beta", "2026-11")]
    assert periods[("acme", "2026-11")]["drills"] == dict(run=1, passed=1, failed=0)
    assert periods[("acme", "2026-11")]["runs"] == dict(dr_test=dict(run=1, passed=1, failed=0), health=dict(run=1, passed=1, failed=0))
    assert periods[("beta", "2026-11")]["drills"] == dict(run=1, passed=0, failed=1)
    assert periods[("acme", "2026-10")]["worst_rto_seconds"] == 100
    projects = dict((project["name"], project) for project in report["projects"])
    # cache is known from the health run only; app never passed.
    assert projects["acme"]["never_proven"] == ["cache"] and projects["acme"]["machines"] == 3
    assert projects["beta"]["never_proven"] == ["app"]
    assert summary(entries, breaks, period="quarter", after="2026-11-01")["periods"][0]["period"] == "2026-Q4"
    assert [group["entries"] for group in summary(entries, breaks, after="2026-11-02", before="2026-11-02T23:59:59Z")["periods"]] == [[3]]


def failover(project, jobs, started, reached=True, result="passed"):
    report = dict(dr_test(project, started, dict(db=100)), schema="replication.recovery.failover/v1", result=result,
                  reached_service=reached, waves=[dict(number=number, machines=["db"], job=job) for number, job in enumerate(jobs, 1)])
    return report


def test_one_failover_per_launch_job_however_many_runs_followed_it_and_no_project_a_run_never_reached(tmp_path):
    directory = str(tmp_path / "ledger")
    append(directory, "failover", failover("acme", ["j1"], "2026-11-05T10:00:00Z"), recorded="2026-11-05T10:10:00Z")
    # A second run that followed j1; then one with a launch of its own (j2); then a typo's.
    append(directory, "failover", failover("acme", ["j1"], "2026-11-05T10:01:00Z"), recorded="2026-11-05T10:11:00Z")
    append(directory, "failover", failover("acme", ["j1", "j2"], "2026-11-05T10:15:00Z"), recorded="2026-11-05T10:20:00Z")
    append(directory, "failover", failover("acmee", [], "2026-11-05T10:25:00Z", reached=False, result="failed"), recorded="2026-11-05T10:30:00Z")
    report = summary(*verify(directory), period="month")
    assert report["periods"] == [dict(project="acme", period="2026-11", runs=dict(failover=dict(run=2, passed=2, failed=0, followed=1)),
                                      drills=dict(run=0, passed=0, failed=0), worst_rto_seconds=100, worst_rpo_seconds=60, entries=[1, 2, 3])]
    assert [project["name"] for project in report["projects"]] == ["acme"] and report["unreached"] == [4]


def test_the_summary_reads_and_shows_breaks(ledger):
    os.unlink(path_of(ledger, 2))
    report = summary(*verify(ledger))
    said = markdown(report)
    assert said.startswith("# Evidence: THE LEDGER IS BROKEN") and "- Entry 2 is missing" in said
    page = html(report)
    assert "The ledger is broken" in page and "Entry 2 is missing" in page
    assert "http" not in page and "<script" not in page  # self-contained
    assert "| acme | 2026-Q4 |" in markdown(summary(*verify(ledger)))


def test_a_runbook_step_says_its_report_was_written_when_the_ledger_refuses_it(ledger):
    from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, into_ledger
    assert into_ledger(None, dr_test("acme", "2026-11-09T10:00:00Z", dict(db=1)), "/reports/dr_test_acme.json") is None
    entry = into_ledger(ledger, dr_test("acme", "2026-11-09T10:00:00Z", dict(db=1)), "/reports/dr_test_acme.json")
    assert entry == dict(sequence=5, sha256=verify(ledger)[0][-1]["sha256"], path=path_of(ledger, 5))
    with open(path_of(ledger, 5), "w") as handle:
        handle.write("{")
    with pytest.raises(StepFailed, match=r"The report was written \(/reports/dr_test_acme.json\), but not entered in the ledger: .*newest entry 5"):
        into_ledger(ledger, dr_test("acme", "2026-11-10T10:00:00Z", dict(db=1)), "/reports/dr_test_acme.json")
