# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The ledger of runs: every runbook's report, one file an entry, chained by SHA-256.

An entry is ``<directory>/<sequence, 8 digits>.json``. It holds the report and
two hashes: ``sha256``, of its own canonical content (every member but ``sha256``, as JSON with
sorted keys and no spaces, UTF-8), and ``previous``, the ``sha256`` of the entry before it. So an
entry edited, removed or moved to another place in the order breaks the chain where it was, and
``verify`` names it. Removing the newest entries leaves a shorter chain that is still whole: that
is seen against a head an auditor kept (each run answers the ledger's new head), not by the chain.

Appending needs no lock: an entry file is created only if its name, its number, is free
(``os.link``), so two runs that append at once take two numbers, the second one chained to the
first. A run stopped while it appends leaves no entry, and no gap.
"""

import hashlib
import json
import os
import re

from ansible.module_utils.common.text.converters import to_text
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, write_new
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import percentile
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, PROVING, VERIFYING


SCHEMA = "replication.recovery.ledger/v1"
SUMMARY_SCHEMA = BY_NAME["evidence"].schema
# What the collection writes is <number>.json; a file named like <number>-anything.json is read too, so that one
# planted beside an entry of the same number is found.
ENTRY_FILE = re.compile(r"^(\d{8})(-[^/]*)?\.json$")
APPEND_ATTEMPTS = 100
# The runbooks whose reports prove recovery of the machines they passed.
RECENT_RUNS = 10  # passing runs of a machine that its RTO forecast reads


class LedgerError(Exception):
    pass


def default_directory():
    """The ledger every runbook on this controller shares when none is named (replication_recovery_ledger_dir):
    ``replication.recovery/ledger`` in the user's data directory - ``$XDG_DATA_HOME``, else ``~/.local/share``. Under
    AWX, where a job's home does not outlive it, the variable must name a lasting path."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "replication.recovery", "ledger")


def directory_of(given):
    """The ledger to enter a run in: (directory, whether it is the default)."""
    return (os.path.realpath(os.path.expanduser(given)), False) if given else (default_directory(), True)


def to_read(given):
    """The ledger to read proofs and forecasts from: the one named, else the default one once a run made it; None for
    none (a controller where no run entered a report yet)."""
    directory, by_default = directory_of(given)
    return directory if not by_default or os.path.isdir(directory) else None


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(entry):
    """The SHA-256 of an entry's canonical content: every member but its own hash."""
    return hashlib.sha256(canonical(dict((key, value) for key, value in entry.items() if key != "sha256"))).hexdigest()


def entry_files(directory):
    """The ledger's entry files as (sequence, file name), in order; other files are not entries."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    found = [(int(match.group(1)), name) for name, match in ((name, ENTRY_FILE.match(name)) for name in names) if match]
    return sorted(found)


def _read(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8") as handle:
        return json.load(handle)


def read_entry(directory, name):
    """One entry of the ledger, by its file's name; None when it cannot be read (replication.recovery.evidence is what
    verifies the ledger)."""
    try:
        entry = _read(directory, name)
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) else None


def run_key(report):
    """What names one run, so that a run whose report is written again (a rerun after a stop between the report and
    the run's end) is not appended twice."""
    key = "%s/%s" % (report.get("started") or report.get("generated"), report.get("launch_requested") or "")
    # A game day's rehearsal is named by its report too: a clean point search continued over several game days keeps its start.
    rehearsed = (report.get("rehearsal") or {}).get("generated") if isinstance(report.get("rehearsal"), dict) else None
    return key + "/" + rehearsed if rehearsed else key


def projects_of(report):
    if report.get("project"):
        return [report["project"]]
    return [project.get("name") for project in report.get("projects") or [] if project.get("name")]


def append(directory, runbook, report, recorded=None, run=None):
    """Append a report to the ledger in ``directory`` (made if missing): the new entry, without its report. A report
    already in one of the newest entries (the same runbook, projects and run - ``run``, else the report's run_key) is not
    appended again: that entry is answered, with ``appended`` false."""
    directory = os.path.realpath(os.path.expanduser(directory))
    os.makedirs(directory, exist_ok=True)
    projects = projects_of(report)
    key = run or run_key(report)
    for _attempt in range(APPEND_ATTEMPTS):
        entered, previous = _entered(directory, runbook, projects, key)
        if entered:
            return dict(entered, appended=False)
        entry = dict(schema=SCHEMA, sequence=(previous["sequence"] + 1) if previous else 1, runbook=runbook, projects=projects, run=key,
                     result=report.get("result"), recorded=recorded or controller_now(), previous=previous["sha256"] if previous else None,
                     report=report)
        entry["sha256"] = digest(entry)
        name = "%08d.json" % entry["sequence"]
        if write_new(os.path.join(directory, name), json.dumps(entry, indent=1, sort_keys=True, ensure_ascii=False) + "\n"):
            return dict(_head(entry, directory, name), appended=True)
        # Another run took this number meanwhile: chain to its entry.
    raise LedgerError("Another run took each number this run tried (%d times): too many runs append at once." % APPEND_ATTEMPTS)


def entered(directory, runbook, report, run=None):
    """The entry of the ledger in ``directory`` that holds ``report`` (as append finds it, without writing): its head, or
    None when append would enter the report."""
    directory = os.path.realpath(os.path.expanduser(directory))
    return _entered(directory, runbook, projects_of(report), run or run_key(report))[0]


def _entered(directory, runbook, projects, key):
    """Of the ledger's newest entries: the head of the one of this run (runbook, projects, key), if any, and the newest one."""
    previous = None
    for position, (sequence, name) in enumerate(reversed(entry_files(directory)[-5:])):
        try:
            earlier = _read(directory, name)
        except (OSError, ValueError) as error:
            if position == 0:
                raise LedgerError("The ledger's newest entry %d (%s) cannot be read (%s): nothing can follow it. Run "
                                  "replication.recovery.evidence to see what broke." % (sequence, name, to_text(error)))
            continue
        previous = previous or earlier
        if earlier.get("runbook") == runbook and earlier.get("projects") == projects and earlier.get("run") == key:
            return _head(earlier, directory, name), previous
    return None, previous


def newest_first(directory):
    """The ledger's entries, from the newest back, read one at a time as they are asked for - so that a reader of recent
    runs reads a ledger of years only as far as it must. An entry that cannot be read is passed over:
    replication.recovery.evidence is what verifies the ledger."""
    for unused, name in reversed(entry_files(directory) if directory else []):
        entry = read_entry(directory, name)
        if entry is not None:
            yield entry


def newest_reports(directory, runbook, matches, count):
    """The reports of the newest ``count`` entries of ``runbook`` in the ledger whose report ``matches``, oldest first
    (read as newest_first reads them)."""
    found = []
    for entry in newest_first(directory):
        report = entry.get("report")
        if entry.get("runbook") == runbook and isinstance(report, dict) and matches(report):
            found.append(report)
            if len(found) >= count:
                break
    return found[::-1]


def newest_entries(directory, runbook, project=None, after=0, count=1):
    """The newest ``count`` entries of ``runbook`` in the ledger (of ``project``, when given; after the entry ``after``),
    oldest first - read from the newest entry back, and no further back than ``after``. An entry that cannot be read is
    passed over, as in newest_reports."""
    found = []
    for sequence, name in reversed(entry_files(directory) if directory else []):
        if sequence <= after or len(found) >= count:
            break
        entry = read_entry(directory, name) or {}
        if entry.get("runbook") == runbook and isinstance(entry.get("report"), dict) and (project is None or project in (entry.get("projects") or [])):
            found.append(dict(_head(entry, directory, name), recorded=entry.get("recorded"), report=entry["report"]))
    return found[::-1]


def _head(entry, directory, name):
    return dict(sequence=entry["sequence"], sha256=entry["sha256"], path=os.path.join(directory, name))


def _said(entry):
    return "%s of %s, recorded %s" % (entry.get("runbook"), ", ".join(entry.get("projects") or []) or "-", entry.get("recorded"))


def verify(directory, expected_head=None):
    """Every entry of the ledger read and checked: (entries, breaks). Each break is a sentence that names the entry."""
    directory = os.path.realpath(os.path.expanduser(directory))
    if not os.path.isdir(directory):
        raise LedgerError("No ledger at %s: the directory does not exist." % directory)
    entries, breaks = [], []
    expected_sequence, previous_hash = 1, None
    for sequence, name in entry_files(directory):
        where = "Entry %d (%s)" % (sequence, name)
        if sequence > expected_sequence:
            missing = list(range(expected_sequence, sequence))
            breaks.append("%s missing: removed from the ledger." % (
                "Entry %d is" % missing[0] if len(missing) == 1 else "Entries %d to %d are" % (missing[0], missing[-1])))
            previous_hash = None  # said once: the gap, not also the link across it
        elif sequence < expected_sequence:
            breaks.append("%s repeats number %d: another file of the ledger has it." % (where, sequence))
            continue
        expected_sequence = sequence + 1
        try:
            entry = _read(directory, name)
            if not isinstance(entry, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as error:
            breaks.append("%s cannot be read: %s." % (where, to_text(error)))
            previous_hash = None
            continue
        where = "Entry %d (%s: %s)" % (sequence, name, _said(entry))
        if entry.get("schema") != SCHEMA:
            breaks.append("%s is not a ledger entry of %s." % (where, SCHEMA))
        if entry.get("sequence") != sequence:
            breaks.append("%s says it is entry %s: moved or renamed." % (where, entry.get("sequence")))
        if entry.get("sha256") != digest(entry):
            breaks.append("%s was changed after it was written: its content does not match its SHA-256." % where)
        if sequence == 1 and entry.get("previous") is not None:
            breaks.append("%s follows an entry the ledger does not have: the entries before it were removed." % where)
        elif sequence > 1 and previous_hash is not None and entry.get("previous") != previous_hash:
            breaks.append("%s does not follow entry %d: the entry before it was replaced, removed or moved." % (where, sequence - 1))
        previous_hash = entry.get("sha256")
        entries.append(entry)
    if expected_head and not any(entry.get("sha256") == expected_head for entry in entries):
        breaks.append("No entry has the SHA-256 %s that the ledger's head once was: entries were removed from its end." % expected_head)
    return entries, breaks


def verified(directory, by_default, expected_head=None):
    """The ledger read and checked (verify) for the evidence: the default ledger is made by the first run that enters a
    report, so none there yet is an empty ledger, not a broken one."""
    if by_default and not os.path.isdir(directory):
        return [], []
    return verify(directory, expected_head=expected_head)


# -- the summary --------------------------------------------------------------------------------


def period_of(moment, period):
    """The period a recorded moment falls in: ``2026``, ``2026-Q4`` or ``2026-11``."""
    year, month = moment[:4], int(moment[5:7])
    if period == "year":
        return year
    if period == "quarter":
        return "%s-Q%d" % (year, (month - 1) // 3 + 1)
    return "%s-%02d" % (year, month)


def rto_forecast(entries, project, recent=RECENT_RUNS):
    """The RTO a full recovery of a project would take, from its recent passing DR tests and failovers in the ledger:
    each machine's median and 90th percentile over its last ``recent`` passing runs, and the project's forecast, the
    slowest machine's (all machines are launched together, and the recovery ends with the last)."""
    measured = {}
    target = None
    for entry in entries:
        report = entry.get("report") or {}
        if entry.get("runbook") not in PROVING or report.get("project") != project:
            continue
        target = (report.get("targets") or {}).get("rto_seconds", target)
        for machine in report.get("machines") or []:
            if machine.get("passed") and machine.get("rto_seconds") is not None:
                measured.setdefault(machine["name"], []).append(machine["rto_seconds"])
    machines = dict((name, dict(runs=len(values[-recent:]), median_seconds=percentile(values[-recent:], 0.5),
                                p90_seconds=percentile(values[-recent:], 0.9)))
                    for name, values in sorted(measured.items()))
    median = max((m["median_seconds"] for m in machines.values()), default=None)
    p90 = max((m["p90_seconds"] for m in machines.values()), default=None)
    return dict(median_seconds=median, p90_seconds=p90, target_seconds=target,
                meets_target=None if p90 is None or target is None else p90 <= target, machines=machines)


def last_verified(entries, project):
    """The project's newest passing restore test in the ledger (a runbook that verifies backups): when it restored (its
    launch request, on the service's clock), its entry and report; None when none passed."""
    for entry in reversed(entries):
        report = entry.get("report") or {}
        if entry.get("runbook") in VERIFYING and report.get("project") == project and entry.get("result") == "passed":
            return dict(time=report.get("launch_requested") or report.get("started"), sequence=entry.get("sequence"), runbook=entry["runbook"],
                        machines=len(report.get("machines") or []))
    return None


def summary(entries, breaks, period="quarter", after=None, before=None, generated=None):
    """Per project and period: the runs of each runbook, passed and failed; the DR tests (drills); the machines the
    ledger knows that no passing DR test or failover ever proved; the worst RTO and RPO; the RTO forecast; and, for a backup
    project, its last verified restore."""
    # The audit programme's own entries (waivers, sign-offs: plugin_utils._programme) are no runs.
    chosen = [entry for entry in entries if entry.get("runbook") in BY_NAME and (not after or entry.get("recorded", "") >= after)
              and (not before or entry.get("recorded", "") <= before)]
    known, proven = _machines_known_and_proven(entries)
    groups, followed, unreached = {}, {}, []
    for entry in chosen:
        report = entry.get("report") or {}
        if report.get("reached_service") is False:  # refused before it read its project: no project of the service's, maybe a typo
            unreached.append(entry.get("sequence"))
            continue
        # A run that launched nothing of its own - it followed launch jobs an earlier entry named (two runs of one failover, a
        # run again) - is no run more of its runbook: one failover per launch job, however many runs followed it.
        jobs = launch_jobs(report)
        seen = followed.setdefault((entry.get("runbook"), report.get("project")), set())
        again = bool(jobs) and jobs <= seen
        seen |= jobs
        for project in entry.get("projects") or []:
            when = period_of(entry.get("recorded") or "0000-01", period)
            group = groups.setdefault((project, when), dict(
                project=project, period=when, runs={}, drills=dict(run=0, passed=0, failed=0), worst_rto_seconds=None, worst_rpo_seconds=None,
                entries=[]))
            _count_in(group, entry, again)
    projects = sorted(set(project for project, _period in groups))
    return dict(
        schema=SUMMARY_SCHEMA,
        verified=not breaks,
        breaks=breaks,
        entries=len(entries),
        head=entries[-1]["sha256"] if entries else None,
        period=period, after=after, before=before,
        periods=[groups[key] for key in sorted(groups)],
        unreached=unreached,
        projects=[dict(name=project, machines=len(known.get(project, ())),
                       never_proven=sorted(known.get(project, set()) - proven.get(project, set())),
                       rto_forecast=rto_forecast(entries, project), last_verified=last_verified(entries, project)) for project in projects],
        generated=generated or controller_now(),
    )


def _machines_known_and_proven(entries):
    """By project: the machines any report names, and those a passing DR test or failover proved."""
    known, proven = {}, {}
    for entry in entries:
        report = entry.get("report") or {}
        for project in _project_machines(report):
            known.setdefault(project["name"], set()).update(project["machines"])
        if entry.get("runbook") in PROVING:
            for machine in report.get("machines") or []:
                if machine.get("passed"):
                    proven.setdefault(report.get("project"), set()).add(machine["name"])
    return known, proven


def _count_in(group, entry, again):
    """An entry counted in its project's period: a run of its runbook (or one that followed an earlier run's launch), a drill,
    and its worst RTO and RPO when its runbook proves machines."""
    report = entry.get("report") or {}
    runs = group["runs"].setdefault(entry.get("runbook"), dict(run=0, passed=0, failed=0))
    group["entries"].append(entry.get("sequence"))
    if again:
        runs["followed"] = runs.get("followed", 0) + 1
        return
    outcome = "passed" if entry.get("result") == "passed" else "failed"
    runs["run"] += 1
    runs[outcome] += 1
    if entry.get("runbook") == "dr_test":
        group["drills"]["run"] += 1
        group["drills"][outcome] += 1
    if entry.get("runbook") in PROVING:
        measures = report.get("measures") or {}
        group["worst_rto_seconds"] = _larger(group["worst_rto_seconds"], measures.get("rto_seconds"))
        group["worst_rpo_seconds"] = _larger(group["worst_rpo_seconds"], measures.get("rpo_seconds"))


def launch_jobs(report):
    """The launch jobs a run's report names (its waves'): those it started and those it adopted."""
    # A wave larger than a job may take names each of its jobs (``jobs``); a report before that, its one job.
    return set(job for wave in report.get("waves") or [] if isinstance(wave, dict)
               for job in (wave.get("jobs") or ([wave["job"]] if wave.get("job") else [])))


def _larger(current, value):
    if value is None:
        return current
    return value if current is None else max(current, value)


def _project_machines(report):
    """The machines a report names, per project: a runbook's (one project) or the health role's (several)."""
    if report.get("project"):
        return [dict(name=report["project"], machines=[m["name"] for m in report.get("machines") or [] if m.get("name")])]
    return [dict(name=project["name"], machines=[m["name"] for m in project.get("machines") or [] if m.get("name")])
            for project in report.get("projects") or [] if project.get("name")]
