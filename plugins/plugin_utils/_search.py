# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The search for the newest clean point in time, as pure functions over its journal; and its
report. The runbook step runbook_search calls them; the unit tests do too.

Damage persists: once a machine's data is damaged, every later point in time carries it. So each
machine's points in the window split into good ones, then bad ones, and the search bisects:
between the newest point known good (``good``, -1 for none) and the oldest known bad (``bad``,
the number of points for none) lie ``bad - good - 1`` untested points, and the answer is one of
``bad - good`` outcomes; testing the point at ``(good + bad + 1) // 2`` halves them. A machine
of n points is decided in at most ceil(log2(n + 1)) <= ceil(log2(n)) + 1 rounds. Consistent
searches bisect the same way over common moments (the times of every machine's points, from the
first moment at which each machine has one): at a moment each machine takes its newest point at
or before it, and the moment is good when every machine is.

The journal is what the search has learnt, kept between rounds and between runs (a run stopped in
a round continues from it): the window, each machine's points in it, the bounds, and each round's
candidates and outcomes. Nothing in it is secret.
"""

import json
import math
import os

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of
from ansible_collections.replication.recovery.plugins.plugin_utils._files import Unreadable, controller_now, read_kept, write_atomically, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, SKIPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import CANCELLED, REFUSED, STOPPED
from ansible_collections.replication.recovery.plugins.plugin_utils._report import watched_over

JOURNAL_SCHEMA = "replication.recovery.clean_point.journal/v1"
REPORT_SCHEMA = BY_NAME["clean_point"].schema
PLANNED, JUDGED = "planned", "judged"
FOUND, NONE_CLEAN, UNDECIDED, NO_POINTS = "found", "no clean point", "undecided", "no point in the window"


def max_rounds(points):
    """The most rounds a search over ``points`` points (or moments) takes: ceil(log2(points)) + 1."""
    return int(math.ceil(math.log(points, 2))) + 1 if points > 0 else 0


def new_journal(project, project_id, inputs, machines, after, before, consistent=False, mode="launch", account=None):
    """A new search. ``machines``: {name: {"id", "points": [{id, dateTime}] oldest first}} (every point the
    service lists); ``after`` and ``before`` epoch seconds (``after`` None for no lower bound). The journal is
    the search of ``account``'s project ``project_id``: a journal of another is never resumed."""
    journal = dict(schema=JOURNAL_SCHEMA, project=project, project_id=project_id, account=account, inputs=inputs, mode=mode, consistent=bool(consistent),
                   window=dict(after=iso_time(after) if after is not None else None, before=iso_time(before)),
                   machines={}, rounds=[], started=controller_now())
    for name, machine in sorted(machines.items()):
        inside = [[point["id"], point["dateTime"]] for point in machine["points"]
                  if (after is None or parse_time(point["dateTime"]) >= after) and parse_time(point["dateTime"]) <= before]
        journal["machines"][name] = dict(id=machine["id"], points=inside, good=-1, bad=len(inside), undecided=None)
    if consistent:
        journal["moments"] = common_moments(journal["machines"])
        journal.update(good=-1, bad=len(journal["moments"]), undecided=None)
    return journal


def common_moments(machines):
    """The moments a consistent search chooses from: every point's time, from the first at which each
    machine has a point in the window; oldest first."""
    if not machines or any(not machine["points"] for machine in machines.values()):
        return []
    first = max(parse_time(machine["points"][0][1]) for machine in machines.values())
    times = sorted(set((parse_time(moment), moment) for machine in machines.values() for unused, moment in machine["points"]))
    moments, seen = [], set()
    for seconds, moment in times:
        if seconds >= first and seconds not in seen:
            seen.add(seconds)
            moments.append(iso_time(seconds))
    return moments


def point_at(machine, moment):
    """The index of the machine's newest point at or before ``moment`` (ISO text) that the service still lists."""
    limit = parse_time(moment)
    gone = set(machine.get("gone") or ())
    index = -1
    for position, (unused, taken) in enumerate(machine["points"]):
        if parse_time(taken) <= limit and position not in gone:
            index = position
    return index


def remaining(machine):
    """The untested points of a machine between its bounds that the service still lists (it thins old points out)."""
    gone = set(machine.get("gone") or ())
    return [index for index in range(machine["good"] + 1, machine["bad"]) if index not in gone]


def candidate_of(machine):
    """The point that halves a machine's untested points; when the service thinned it out, the remaining point closest
    in time to it (the older on a tie). None when no untested point remains."""
    left = remaining(machine)
    if not left:
        return None
    middle = (machine["good"] + machine["bad"] + 1) // 2
    if middle in left:
        return middle
    wanted = parse_time(machine["points"][middle][1])
    return min(left, key=lambda index: (abs(parse_time(machine["points"][index][1]) - wanted), parse_time(machine["points"][index][1])))


def searching(journal):
    """The machines still searched (a consistent search searches all of them, or none)."""
    if journal["consistent"]:
        return sorted(journal["machines"]) if journal["bad"] - journal["good"] > 1 and not journal["undecided"] else []
    return [name for name, machine in sorted(journal["machines"].items()) if remaining(machine) and not machine["undecided"]]


def rounds_at_most(journal):
    """The most rounds the whole search takes."""
    if journal["consistent"]:
        return max_rounds(len(journal.get("moments") or []))
    return max((max_rounds(len(machine["points"])) for machine in journal["machines"].values()), default=0)


def current_round(journal):
    """The round planned and not judged yet (a run stopped in it left it), or None."""
    return journal["rounds"][-1] if journal["rounds"] and journal["rounds"][-1]["status"] == PLANNED else None


def plan_round(journal):
    """The next round, appended to the journal as planned: each searched machine's candidate point; or
    None when the search is done. A round planned and not judged is answered again, as it was planned."""
    current = current_round(journal)
    if current is not None:
        return current
    names = searching(journal)
    if not names:
        return None
    candidates, moment = {}, None
    if journal["consistent"]:
        middle = (journal["good"] + journal["bad"] + 1) // 2
        moment = journal["moments"][middle]
        for name in names:
            machine = journal["machines"][name]
            candidates[name] = [point_at(machine, moment)] + machine["points"][point_at(machine, moment)]
    else:
        for name in names:
            machine = journal["machines"][name]
            middle = candidate_of(machine)
            candidates[name] = [middle] + machine["points"][middle]
    planned = dict(number=len(journal["rounds"]) + 1, status=PLANNED, moment=moment, candidates=candidates, outcomes={}, job=None, cleaned=False)
    journal["rounds"].append(planned)
    return planned


def vanished(journal, planned, listed):
    """The candidates of the round ``planned`` that the service no longer lists (``listed``: {machine name: the IDs of its
    points now}), thinned out by its retention since the search read them: each is replaced by the remaining point
    closest in time to it between the machine's known-clean and known-damaged points (the older on a tie). A machine with
    none left is done: its known-clean point is the answer. Answers what was done, a sentence each."""
    lines = []
    for name, candidate in sorted(planned["candidates"].items()):
        machine, now = journal["machines"][name], listed.get(name)
        if now is None:
            continue
        # Every point no longer listed is gone, the candidate's or not: the later rounds choose among the others.
        gone = set(index for index, (point_id, unused) in enumerate(machine["points"]) if point_id not in now)
        machine["gone"] = sorted(set(machine.get("gone") or []) | gone)
        if candidate[1] in now:
            continue
        index = point_at(machine, planned["moment"]) if journal["consistent"] else candidate_of(machine)
        if index is None or index < 0:
            del planned["candidates"][name]
            if journal["consistent"]:
                journal["undecided"] = "the points of %s at or before %s were thinned out by the service during the search" % (name, planned["moment"])
            lines.append("%s: its candidate point of %s was thinned out by the service, and no untested point remains before its newest "
                         "damaged one: %s" % (name, candidate[2], "its known-clean point is the answer" if machine["good"] >= 0 else
                                              "no point of it is known clean"))
            continue
        planned["candidates"][name] = [index] + machine["points"][index]
        lines.append("%s: its candidate point of %s was thinned out by the service; the remaining point closest to it, %s, is tested "
                     "instead" % (name, candidate[2], machine["points"][index][1]))
    return lines


def judge_round(journal, outcomes, job=None):
    """Learn from the current round's ``outcomes`` ({name: {"passed": True, False or None, "message",
    "checks"}}): a pass moves the bound of clean points up, a failure the bound of damaged ones down.
    None - the machine did not launch or run, or was not checked - is no evidence either way: the
    machine is undecided, and the search of it (of all, when consistent) ends there. A candidate the
    service thinned out before its launch (``thinned``) is no evidence either, and no end: it is gone, and
    the next round plans the machine again from the points that remain."""
    current = current_round(journal)
    if current is None:
        return None
    for name, candidate in current["candidates"].items():
        outcome = outcomes.get(name) or dict(passed=None, message="not checked")
        current["outcomes"][name] = outcome
        machine = journal["machines"][name]
        if outcome.get("thinned"):
            machine["gone"] = sorted(set(machine.get("gone") or []) | set([candidate[0]]))
        if journal["consistent"]:
            continue
        if outcome.get("thinned"):
            continue
        if outcome["passed"] is True:
            machine["good"] = candidate[0]
        elif outcome["passed"] is False:
            machine["bad"] = candidate[0]
        else:
            machine["undecided"] = "round %d, point of %s: %s" % (current["number"], candidate[2], outcome.get("message") or "no outcome")
    if journal["consistent"]:
        _judge_the_moment(journal, current)
    current.update(status=JUDGED, job=job)
    return current


def _judge_the_moment(journal, current):
    """A consistent search's round: every machine passed at the moment moves the common clean bound up, one failed the
    damaged bound down; thinned points plan the moment again, an undecided machine ends the search. Each machine's bounds
    follow the common ones."""
    middle = journal["moments"].index(current["moment"])
    passed = [outcome["passed"] for outcome in current["outcomes"].values() if not outcome.get("thinned")]
    thinned = sorted(name for name, outcome in current["outcomes"].items() if outcome.get("thinned"))
    if False in passed:
        journal["bad"] = middle
    elif thinned and None not in passed:  # the moment is planned again, each machine from its newest point at or before it left
        left = [name for name in thinned if point_at(journal["machines"][name], current["moment"]) < 0]
        if left:
            journal["undecided"] = "the points of %s at or before %s were thinned out by the service during the search" % (
                shown(left), current["moment"])
    elif None in passed:
        journal["undecided"] = "round %d, moment %s: %s" % (current["number"], current["moment"], "; ".join(
            "%s: %s" % (name, outcome.get("message") or "no outcome") for name, outcome in sorted(current["outcomes"].items())
            if outcome["passed"] is None))
    else:
        journal["good"] = middle
    for name, machine in journal["machines"].items():  # each machine's bounds follow the common ones
        machine["good"] = point_at(machine, journal["moments"][journal["good"]]) if journal["good"] >= 0 else -1
        machine["bad"] = point_at(machine, journal["moments"][journal["bad"]]) if journal["bad"] < len(journal["moments"]) \
            else len(machine["points"])
        machine["undecided"] = journal["undecided"]


def not_cleaned(journal):
    """The last round judged, when its cleanup was not proven (a run stopped in it): its machines are cleaned up
    before anything else. None otherwise."""
    judged = [round_ for round_ in journal["rounds"] if round_["status"] == JUDGED]
    return judged[-1] if judged and not judged[-1].get("cleaned") else None


def mark_cleaned(journal):
    """The last round judged was cleaned up, and the cleanup proven."""
    last = not_cleaned(journal)
    if last is not None:
        last["cleaned"] = True
    return last


def judge_by_files(journal, found):
    """A backup project's search: ``found`` is {machine ID: point IDs in which a pattern was found}. A
    machine's clean point is the newest in the window before the first point with a pattern."""
    for machine in journal["machines"].values():
        hits = set(found.get(machine["id"]) or ())
        first = next((index for index, point in enumerate(machine["points"]) if point[0] in hits), len(machine["points"]))
        machine.update(good=first - 1, bad=first)
    return journal


# -- the journal on disk ---------------------------------------------------------------------------


def load_journal(path):
    """The journal at ``path``, or None when there is none; one that cannot be read, or of another version, is refused
    (_files.Unreadable): never taken for none, which would write a new search over it."""
    journal = read_kept(path, "The search's journal")
    if journal is not None and journal.get("schema") != JOURNAL_SCHEMA:
        raise Unreadable("The search's journal", path, "its schema is %s, not %s" % (journal.get("schema"), JOURNAL_SCHEMA))
    return journal


def save_journal(path, journal):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomically(path, json.dumps(journal, indent=1) + "\n")


# -- the result --------------------------------------------------------------------------------------


def _point(machine, index):
    if 0 <= index < len(machine["points"]):
        point_id, taken = machine["points"][index]
        return dict(id=point_id, date_time=taken)
    return None


def result_of(journal, generated, finished=True, stopped=None):
    """The report of a search: per machine its clean point, the newest that failed, the data-loss window,
    and every candidate tested with its outcome; checks in the shape the JUnit writer reads."""
    still = set(searching(journal))
    without = sorted(name for name, machine in journal["machines"].items() if not machine["points"])
    machines = [_machine_result(journal, name, machine, name in still, without) for name, machine in sorted(journal["machines"].items())]
    failures = ["%s: %s" % (machine["name"], machine["message"]) for machine in machines if machine["status"] != FOUND]
    complete = finished and not searching(journal) and not stopped
    result = PASSED if complete and not failures else FAILED
    launches = sum(1 for r in journal["rounds"] if r.get("job"))
    run_checks = [dict(name="search", status=PASSED if complete else FAILED,
                       message="%d rounds, %d launches" % (len(journal["rounds"]), launches)
                       if complete else (stopped or "the search did not end: run it again to continue"))]
    return dict(
        schema=REPORT_SCHEMA, project=journal["project"], project_id=journal["project_id"], started=journal.get("started"), mode=journal["mode"],
        consistent=journal["consistent"], window=journal["window"], result=result, complete=complete,
        # A search that did not end stopped (the next run goes on where it stood); one that ended passed or failed.
        outcome=result if complete else _stopped_as(journal, launches) or STOPPED,
        common_moment=journal["moments"][journal["good"]] if journal["consistent"] and journal["good"] >= 0 else None,
        rounds=[dict(number=r["number"], moment=r.get("moment"), job=r.get("job"), status=r["status"], machines=len(r["candidates"]))
                for r in journal["rounds"]],
        moments=len(journal["moments"]) if journal["consistent"] else None, rounds_at_most=rounds_at_most(journal),
        launches=launches, machines=machines, failures=failures if complete else failures + [run_checks[0]["message"]], checks=run_checks, generated=generated,
        stop_conditions=watched_over(r.get("stop_conditions") for r in journal["rounds"]), game_day=journal.get("game_day"),
    )


def _stopped_as(journal, launches):
    """What a search stopped before its first launch came to: what its round did (refused, cancelled by the safety lever)."""
    last = journal["rounds"][-1] if journal["rounds"] else {}
    return last.get("stopped_as") if last.get("stopped_as") in (REFUSED, CANCELLED) and not launches else None


def _status(machine, undecided, still_searched, clean):
    if not machine["points"]:
        return NO_POINTS
    if undecided:
        return UNDECIDED
    if still_searched:
        return "searching"
    return FOUND if clean else NONE_CLEAN


def _tested(journal, name):
    """Every candidate of the machine tested, round by round, with its outcome."""
    tested = []
    for round_ in journal["rounds"]:
        if name in round_["candidates"] and name in round_["outcomes"]:
            index, point_id, taken = round_["candidates"][name]
            outcome = round_["outcomes"][name]
            tested.append(dict(round=round_["number"], point_in_time=dict(id=point_id, date_time=taken), moment=round_.get("moment"),
                               passed=outcome["passed"], message=outcome.get("message") or "", checks=outcome.get("checks") or []))
    return tested


def _machine_result(journal, name, machine, still_searched, without):
    """One machine's part of the report: its status and what is said of it, its clean point and the newest that failed,
    the data-loss window, the candidates tested and their checks. ``without``: the machines with no point in the window."""
    clean, damaged = _point(machine, machine["good"]), _point(machine, machine["bad"])
    tested = _tested(journal, name)
    if journal["consistent"]:
        # Its own newest failure: at the first bad moment another machine may have been the one that failed.
        failed = [test["point_in_time"] for test in tested if test["passed"] is False]
        damaged = max(failed, key=lambda point: parse_time(point["date_time"])) if failed else None
    no_common = "no common moment: %s %s no point in time in the window" % (", ".join(without), "has" if len(without) == 1 else "have")
    undecided = machine["undecided"] or (no_common if journal["consistent"] and without else None)
    # The service thinned out every point left between the bounds: the known-clean point is the answer.
    thinned = bool(machine.get("gone")) and not remaining(machine) and machine["bad"] - machine["good"] > 1
    status = _status(machine, undecided, still_searched, clean)
    after_it = "; the points after it that were not tested were thinned out by the service during the search, so the known-clean " \
               "point is the answer" if thinned else ""
    message = {FOUND: "clean at %s%s" % ((clean or {}).get("date_time"), after_it),
               NONE_CLEAN: "no point before the newest damaged one remains: the service thinned them out during the search" if thinned
               else "every point in the window fails",
               NO_POINTS: "no point in time in the window", UNDECIDED: undecided or "",
               "searching": "not decided yet: the search goes on"}[status]
    checks = [dict(name="round %d: point of %s" % (test["round"], test["point_in_time"]["date_time"]),
                   status=PASSED if test["passed"] else FAILED if test["passed"] is False else SKIPPED, message=test["message"] or "-")
              for test in tested]
    checks.append(dict(name="clean point", status=PASSED if status == FOUND else FAILED, message=message))
    return dict(
        name=name, id=machine["id"], status=status, message=message, clean_point=clean, newest_failed=damaged,
        data_loss_seconds=_between(clean["date_time"], journal["window"]["before"]) if clean else None,
        damage_began=dict(after=(clean or {}).get("date_time") or journal["window"]["after"], at_or_before=(damaged or {}).get("date_time")),
        points_in_window=len(machine["points"]), tested=tested, checks=checks)


def _between(start, end):
    return round(parse_time(end) - parse_time(start), 3)


def write_report(report, directory, name, began):
    """The report's files (JSON, JUnit XML, Markdown), as _report.write_run writes a run's: their paths."""
    report["run_began"] = began
    return write_run(directory, name, began, files_of(report))


def clean_points_of(path, project=None):
    """The hand-off to a failover: ({machine name: clean point ID}, {machine name: status} of those without one) from a
    clean point report; refused (ValueError) when it is not one, is of another project, or its search did
    not end."""
    try:
        with open(os.path.expanduser(path), encoding="utf-8") as stream:
            report = json.load(stream)
    except (IOError, OSError, ValueError) as error:
        raise ValueError("the clean point report %s cannot be read: %s" % (path, error))
    if not isinstance(report, dict) or report.get("schema") != REPORT_SCHEMA:
        raise ValueError("%s is not a clean point report (schema %s)" % (path, REPORT_SCHEMA))
    if project is not None and project not in (report.get("project"), report.get("project_id")):
        raise ValueError("the clean point report %s is of project %s, not %s" % (path, report.get("project"), project))
    if not report.get("complete"):
        raise ValueError("the clean point search of %s did not end; run it again before failing over from it" % path)
    return (dict((machine["name"], machine["clean_point"]["id"]) for machine in report["machines"] if machine.get("clean_point")),
            dict((machine["name"], machine["status"]) for machine in report["machines"] if not machine.get("clean_point")))
