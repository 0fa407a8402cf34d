# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The search for the newest clean point in time: bisection per machine and over common moments, the
round bound, evidence that is none, the file search, the report and the hand-off to a failover."""

import json
import os
import re
from xml.etree import ElementTree

import jsonschema
import pytest

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils._files import Unreadable
from ansible_collections.replication.recovery.plugins.plugin_utils._search import (
    FOUND, JUDGED, NONE_CLEAN, NO_POINTS, PLANNED, UNDECIDED, clean_points_of, judge_by_files, judge_round, load_journal, mark_cleaned,
    max_rounds, new_journal, not_cleaned, plan_round, result_of, save_journal, searching, write_report)

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "clean_point", "files", "report.schema.json")
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)

START = parse_time("2026-11-01T00:00:00Z")
HOUR = 3600


def points(name, count, every=HOUR, offset=0):
    return [dict(id="%s-%03d" % (name, index), dateTime=iso_time(START + offset + index * every)) for index in range(count)]


def machines(**counts):
    return dict((name, dict(id="id-" + name, points=points(name, count))) for name, count in counts.items())


def run(journal, damaged_from, launches=None):
    """Play the search to its end: a candidate passes when its point is older than its machine's damage."""
    rounds = 0
    while True:
        planned = plan_round(journal)
        if planned is None:
            return rounds
        rounds += 1
        outcomes = {}
        for name, (unused, point_id, taken) in planned["candidates"].items():
            damage = damaged_from.get(name)
            outcomes[name] = dict(passed=damage is None or parse_time(taken) < damage, message="checked")
        judge_round(journal, outcomes, job="job-%d" % rounds)
        if launches is not None:
            launches.append(sorted(planned["candidates"]))


@pytest.mark.parametrize("count", [1, 2, 3, 7, 8, 60, 100, 1000])
@pytest.mark.parametrize("damaged_at", [0, 1, "middle", "last", None])
def test_bisection_finds_the_newest_point_before_the_damage_within_the_bound(count, damaged_at):
    index = {"middle": count // 2, "last": count - 1}.get(damaged_at, damaged_at)
    if index is not None and index >= count:
        return
    journal = new_journal("p", "pid", {}, machines(m=count), None, START + count * HOUR)
    damage = {"m": START + index * HOUR} if index is not None else {}
    rounds = run(journal, damage)
    assert rounds <= max_rounds(count)
    report = result_of(journal, "now")
    machine = report["machines"][0]
    if index == 0:
        assert machine["status"] == NONE_CLEAN and machine["clean_point"] is None and machine["newest_failed"]["id"] == "m-000"
    else:
        newest_good = (count if index is None else index) - 1
        assert machine["status"] == FOUND and machine["clean_point"]["id"] == "m-%03d" % newest_good
        assert machine["newest_failed"] == (None if index is None else dict(id="m-%03d" % index, date_time=iso_time(START + index * HOUR)))


def test_three_machines_damaged_at_three_moments_are_searched_in_the_same_rounds():
    journal = new_journal("p", "pid", {}, machines(a=100, b=100, c=100), None, START + 100 * HOUR)
    launches = []
    rounds = run(journal, {"a": START + 20 * HOUR, "b": START + 55 * HOUR, "c": START + 90.5 * HOUR}, launches)
    assert rounds <= max_rounds(100) == 8
    assert launches[0] == ["a", "b", "c"]  # one launch a round, every machine still searched in it
    found = dict((m["name"], m["clean_point"]["id"]) for m in result_of(journal, "now")["machines"])
    assert found == {"a": "a-019", "b": "b-054", "c": "c-090"}


def test_the_window_bounds_the_points_searched():
    journal = new_journal("p", "pid", {}, machines(m=100), START + 10 * HOUR, START + 19 * HOUR)
    assert [point[0] for point in journal["machines"]["m"]["points"]] == ["m-%03d" % i for i in range(10, 20)]
    run(journal, {"m": START + 15 * HOUR})
    report = result_of(journal, "now")
    assert report["machines"][0]["clean_point"]["id"] == "m-014" and report["machines"][0]["data_loss_seconds"] == 5 * HOUR
    assert report["machines"][0]["damage_began"] == dict(after=iso_time(START + 14 * HOUR), at_or_before=iso_time(START + 15 * HOUR))


def test_a_machine_with_no_point_in_the_window_is_named():
    journal = new_journal("p", "pid", {}, machines(m=10, n=10), START + 50 * HOUR, START + 60 * HOUR)
    assert plan_round(journal) is None
    report = result_of(journal, "now")
    assert [m["status"] for m in report["machines"]] == [NO_POINTS, NO_POINTS] and report["result"] == "failed"


def test_a_machine_that_does_not_launch_is_undecided_and_no_longer_searched():
    journal = new_journal("p", "pid", {}, machines(a=16, b=16), None, START + 16 * HOUR)
    planned = plan_round(journal)
    judge_round(journal, {"a": dict(passed=None, message="a did not launch"), "b": dict(passed=True)})
    assert searching(journal) == ["b"] and planned["status"] == JUDGED
    run(journal, {})
    machine = result_of(journal, "now")["machines"][0]
    assert machine["status"] == UNDECIDED and "a did not launch" in machine["message"]


@pytest.mark.parametrize("consistent", [False, True])
def test_a_candidate_thinned_out_before_its_launch_is_no_evidence_and_its_machine_is_planned_again_from_the_points_left(consistent):
    pts = dict(a=dict(id="id-a", points=points("a", 16)), b=dict(id="id-b", points=points("b", 16)))
    journal = new_journal("p", "pid", {}, pts, None, START + 16 * HOUR, consistent=consistent)
    first = plan_round(journal)
    thinned = first["candidates"]["a"]
    judge_round(journal, {"a": dict(passed=None, thinned=True, message="did not launch: thinned out"), "b": dict(passed=True)})
    assert searching(journal) == ["a", "b"] and not journal["machines"]["a"]["undecided"] and not journal.get("undecided")
    assert thinned[0] in journal["machines"]["a"]["gone"]
    second = plan_round(journal)
    assert second["candidates"]["a"][1] != thinned[1]
    if consistent:  # the same moment again (nothing was learnt of it), a from the point before the one thinned out
        assert second["moment"] == first["moment"] and second["candidates"]["a"][0] == thinned[0] - 1
    run(journal, {})
    assert all(machine["status"] == FOUND for machine in result_of(journal, "now")["machines"])


def test_a_round_planned_and_not_judged_is_planned_again_as_it_was():
    journal = new_journal("p", "pid", {}, machines(a=16), None, START + 16 * HOUR)
    first = plan_round(journal)
    again = plan_round(json.loads(json.dumps(journal)))
    assert again["candidates"] == first["candidates"] and again["number"] == 1 and first["status"] == PLANNED


@pytest.mark.parametrize("damage,moment", [
    ({"a": 20, "b": 55, "c": 90.5}, 19.5),  # the earliest damage decides
    ({"b": 3}, 3),  # b takes its point of 2:30 up to the moment of 3:00
    ({}, 99.5),
])
def test_a_consistent_search_finds_the_newest_common_moment_before_the_earliest_damage(damage, moment):
    # Three machines whose points are half an hour apart from each other's.
    pts = dict(a=dict(id="id-a", points=points("a", 100)), b=dict(id="id-b", points=points("b", 100, offset=1800)),
               c=dict(id="id-c", points=points("c", 100)))
    journal = new_journal("p", "pid", {}, pts, None, START + 200 * HOUR, consistent=True)
    launches = []
    rounds = run(journal, dict((name, START + hours * HOUR) for name, hours in damage.items()), launches)
    assert rounds <= max_rounds(len(journal["moments"]))
    assert all(launched == ["a", "b", "c"] for launched in launches)
    report = result_of(journal, "now")
    assert report["common_moment"] == iso_time(START + moment * HOUR)
    common = parse_time(report["common_moment"])
    for machine in report["machines"]:  # each from its newest point at or before the common moment
        assert parse_time(machine["clean_point"]["date_time"]) <= common < parse_time(machine["clean_point"]["date_time"]) + HOUR


def test_the_file_search_of_a_backup_project():
    journal = new_journal("p", "pid", {}, machines(a=10, b=10), None, START + 10 * HOUR, mode="files")
    judge_by_files(journal, {"id-a": ["a-006", "a-007", "a-009"], "id-b": []})
    report = result_of(journal, "now")
    assert [(m["name"], (m["clean_point"] or {}).get("id")) for m in report["machines"]] == [("a", "a-005"), ("b", "b-009")]
    assert report["launches"] == 0 and report["result"] == "passed"


def test_the_report_its_files_and_the_hand_off(tmp_path):
    journal = new_journal("p", "pid", {}, machines(a=8, b=8), None, START + 8 * HOUR)
    run(journal, {"a": START + 4 * HOUR, "b": START})
    report = result_of(journal, "2026-11-24T00:00:00Z")
    jsonschema.validate(report, SCHEMA)
    assert report["result"] == "failed" and report["failures"] == ["b: every point in the window fails"]
    written = write_report(report, str(tmp_path), "clean_point_p", "2026-11-24T00:00:00Z")
    files = dict(json=written["own"][".json"], junit=written["own"][".junit.xml"], markdown=written["own"][".md"])
    assert files["json"].endswith("clean_point_p.20261124T000000Z.json") and os.path.exists(str(tmp_path / "clean_point_p.json"))
    suites = ElementTree.parse(files["junit"]).getroot()
    assert int(suites.get("failures")) >= 1 and suites.find("testsuite[@name='clean_point.p.a']") is not None
    assert "| a | found |" in open(files["markdown"]).read()
    points_of, without = clean_points_of(files["json"], project="p")
    assert points_of == {"a": "a-003"} and without == {"b": "no clean point"}
    with pytest.raises(ValueError, match="of project p, not q"):
        clean_points_of(files["json"], project="q")
    report["complete"] = False
    with open(files["json"], "w") as stream:
        json.dump(report, stream)
    with pytest.raises(ValueError, match="did not end"):
        clean_points_of(files["json"])
    with pytest.raises(ValueError, match="cannot be read"):
        clean_points_of(str(tmp_path / "nope.json"))


def test_the_journal_round_trips(tmp_path):
    path = str(tmp_path / "d" / "journal.json")
    assert load_journal(path) is None
    journal = new_journal("p", "pid", {"x": 1}, machines(a=4), None, START + 4 * HOUR)
    plan_round(journal)
    save_journal(path, journal)
    assert load_journal(path) == journal
    with open(path, "w") as handle:
        handle.write(json.dumps(journal)[:-9])
    with pytest.raises(Unreadable, match="The search's journal %s cannot be read" % re.escape(path)):
        load_journal(path)


def test_a_round_judged_and_not_cleaned_is_named_until_its_cleanup_is_proven():
    journal = new_journal("p", "pid", {}, machines(a=16, b=16), None, START + 16 * HOUR)
    assert not_cleaned(journal) is None
    plan_round(journal)
    judge_round(journal, {"a": dict(passed=True), "b": dict(passed=False)})
    assert not_cleaned(journal)["number"] == 1  # a run stopped in its cleanup
    plan_round(journal)  # the next round is planned meanwhile; the first is still to be cleaned up
    assert not_cleaned(journal)["number"] == 1
    assert mark_cleaned(journal)["number"] == 1 and not_cleaned(journal) is None and mark_cleaned(journal) is None


# -- the service thins points out while the search runs -----------------------------------------------

from ansible_collections.replication.recovery.plugins.plugin_utils._search import candidate_of, vanished  # noqa: E402


def listed_now(journal, name, gone):
    return set(point_id for point_id, unused in journal["machines"][name]["points"]) - set(gone)


def test_a_thinned_candidate_is_replaced_by_the_remaining_point_closest_to_it_the_older_on_a_tie():
    journal = new_journal("p", "pid", {}, machines(m=9), None, START + 9 * HOUR)
    planned = plan_round(journal)
    assert planned["candidates"]["m"][1] == "m-004"
    # Its neighbours m-003 and m-005 are as close: the older is taken.
    lines = vanished(journal, planned, {"m": listed_now(journal, "m", ["m-004"])})
    assert planned["candidates"]["m"][:2] == [3, "m-003"] and journal["machines"]["m"]["gone"] == [4]
    assert lines == ["m: its candidate point of %s was thinned out by the service; the remaining point closest to it, %s, is tested instead" % (
        points("m", 9)[4]["dateTime"], points("m", 9)[3]["dateTime"])]
    # Gone with its older neighbour: the newer one.
    journal = new_journal("p", "pid", {}, machines(m=9), None, START + 9 * HOUR)
    planned = plan_round(journal)
    vanished(journal, planned, {"m": listed_now(journal, "m", ["m-004", "m-003"])})
    assert planned["candidates"]["m"][1] == "m-005"


def test_a_search_whose_untested_points_are_all_thinned_out_answers_its_known_clean_point():
    journal = new_journal("p", "pid", {}, machines(m=9), None, START + 9 * HOUR)
    damage = {"m": START + 6 * HOUR}
    planned = plan_round(journal)
    judge_round(journal, {"m": dict(passed=True, message="clean")}, job="j1")  # m-004 clean: m-005 to m-008 left
    planned = plan_round(journal)
    assert planned["candidates"]["m"][1] == "m-007"
    lines = vanished(journal, planned, {"m": listed_now(journal, "m", ["m-005", "m-006", "m-007", "m-008"])})
    assert planned["candidates"] == {} and "no untested point remains before its newest damaged one: its known-clean point is the answer" in lines[0]
    assert searching(journal) == [] and candidate_of(journal["machines"]["m"]) is None
    journal["rounds"].remove(planned)
    report = result_of(journal, "2026-11-24T00:00:00Z")
    [found] = report["machines"]
    assert report["complete"] and found["status"] == FOUND and found["clean_point"]["id"] == "m-004"
    assert "were thinned out by the service during the search, so the known-clean point is the answer" in found["message"]
    assert damage  # the damage the outcome stands for: from m-006 on


def test_with_points_thinned_out_between_rounds_the_search_still_ends_at_the_newest_clean_point_left():
    journal = new_journal("p", "pid", {}, machines(m=40), None, START + 40 * HOUR)
    damaged_from = START + 30 * HOUR
    gone = set("m-%03d" % index for index in range(1, 40, 2))  # every other point, once the first round ran
    rounds = 0
    while True:
        planned = plan_round(journal)
        if planned is None:
            break
        if rounds >= 1:  # read again before every round but the first, as the search does
            vanished(journal, planned, {"m": listed_now(journal, "m", gone)})
        rounds += 1
        taken = planned["candidates"]["m"][2]
        judge_round(journal, {"m": dict(passed=parse_time(taken) < damaged_from, message="checked")}, job="j%d" % rounds)
    [found] = result_of(journal, "2026-11-24T00:00:00Z")["machines"]
    # The newest clean point the service still lists; every point tested after the thinning is one it lists.
    assert found["clean_point"]["id"] == "m-028" and found["newest_failed"]["id"] == "m-030"
    assert all(test["point_in_time"]["id"] not in gone for test in found["tested"][1:])
    assert rounds <= max_rounds(40) + 1
