# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a runbook decides, from what the service shows and from the run's record: which machines
take part and in which waves, whether they are ready (the health gate), what an earlier run of the
same runbook left, what the service shows of the launched machines, and whether a wave failed. Pure
functions: the action plugins of the runbook steps call them, and the unit tests do too."""

import fnmatch
import hashlib
import json
from functools import partial

from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    BEFORE, CLEANUP_JOBS, KINDS, LIFE_CYCLE_MEMBERS, POINT, PRODUCTION_KINDS, active, kind_of, launch_job_type, moment_said, parse_flag, parse_groups,
    parse_list, parse_number, parse_time)
from ansible_collections.replication.recovery.plugins.module_utils._machines import by_id_and_name, launch_type_of_replica, launched_targets, name_of
from ansible_collections.replication.recovery.plugins.module_utils._marks import DRILL, RECOVERED, marks_of
from ansible_collections.replication.recovery.plugins.module_utils._words import sentences, shown, spoken

RUNNING = "running"


class Refused(ValueError):
    """Input, or a state of the service, that stops a run before anything is launched."""


# -- which machines take part -------------------------------------------------------------------


def replication_out(machine, states, max_lag=None, max_backlog=None):
    """The one judgement of whether a machine (as service_machine_info describes it) replicates as allowed - the health
    gate's, the fleet's health, a stop condition's and the readiness report's, each saying it in its own words: which of
    its state (not one of ``states``; none given, any), lag (over ``max_lag`` seconds, or not known yet: no consistent
    point in time) and backlog (over ``max_backlog`` bytes) are out. {state, lag, backlog}: True for each that is out."""
    lag = machine.get("lag_seconds")
    return dict(state=bool(states) and machine.get("replication_state") not in states,
                lag=max_lag is not None and (lag is None or lag > max_lag),
                backlog=max_backlog is not None and (machine.get("backlog_bytes") or 0) > max_backlog)


def health_gate(machines, max_lag=None, no_backlog=False, states=("continuous",)):
    """For each machine (as service_machine_info describes it), whether it may be launched, and why not."""
    if not isinstance(machines, list):
        raise ValueError("the health gate takes the list of machines of service_machine_info, not %s" % type(machines).__name__)
    max_lag = parse_number(max_lag, "the most lag allowed")
    no_backlog = parse_flag(no_backlog, "no_backlog")
    states = parse_list(states, "the states allowed")
    verdicts = []
    for machine in machines:
        reasons = []
        state, lag, backlog = machine.get("replication_state"), machine.get("lag_seconds"), machine.get("backlog_bytes") or 0
        out = replication_out(machine, states, max_lag, 0 if no_backlog else None)
        if out["state"]:
            reasons.append("replication is %s, not %s" % (state, " or ".join(states)))
        if out["lag"]:
            reasons.append("no consistent point in time yet" if lag is None else "lag %d s is over %d s" % (lag, max_lag))
        if out["backlog"]:
            reasons.append("backlog of %d bytes" % backlog)
        verdicts.append(dict(name=machine.get("name") or name_of(machine), id=machine.get("id"), replication_state=state, lag_seconds=lag,
                             backlog_bytes=backlog, passed=not reasons, reasons=reasons))
    return verdicts


def _matching(machines, value, index):
    """The machines a value names: by ID, by name (``index``: _machines.by_id_and_name), or by a glob pattern on names."""
    by_id, by_name = index
    if by_id.get(value) or by_name.get(value) or not any(mark in value for mark in "*?["):
        return list(by_id.get(value) or by_name.get(value) or [])
    return [machine for machine in machines if fnmatch.fnmatchcase(name_of(machine), value)]


def _pattern(value):
    return any(mark in value for mark in "*?[")


def take_part(machines, named=None, exclude=(), waves=None, plan=None):
    """Which of the project's ``machines`` (all of them, as listed) take part in the run, in which waves.

    ``named``: the machines asked for (names or IDs), or None for all; ``waves``: groups of names,
    IDs or patterns, launched one after another; ``plan``: the names of a recovery plan's machines.
    Machines whose replication is stopped are left out unless named one by one (a pattern does not
    name them). ``exclude`` leaves machines out by name, ID or pattern; one that matches none of
    the run's machines is refused, as is a name that matches no machine or, ambiguously, several.
    Answers the machines in order, the waves as lists of names, the names left out, and the names of the machines
    that replicate and that no wave names (``in_no_wave``: waves name their own machines, and these do not take part).
    """
    named = None if named is None else parse_list(named, "the machines")
    exclude = parse_list(exclude, "the machines to exclude")
    waves = parse_groups(waves, "the waves")
    if waves and (named or plan is not None):
        raise Refused("Waves name their own machines: give the waves without the machines to test or a recovery plan.")
    chosen, wave_of, explicit = _grouped(machines, _groups_asked(machines, named, waves, plan), bool(waves))
    every = [machine for wave in chosen for machine in wave]
    left_out, stopped = _left_out(machines, every, exclude, explicit, wave_of, every_machine=not (named or waves or plan is not None))
    return dict(
        machines=[dict(name=name_of(m), id=m["id"]) for m in every if m["id"] not in left_out],
        waves=[[name_of(m) for m in wave if m["id"] not in left_out] for wave in chosen],
        excluded=[name_of(m) for m in every if m["id"] in left_out] + [name_of(m) for m in stopped if m["id"] not in wave_of],
        in_no_wave=[name_of(m) for m in machines if m["id"] not in wave_of and m.get("replicationStatus") != "STOPPED"] if waves else [],
    )


def _left_out(machines, every, exclude, explicit, wave_of, every_machine):
    """The IDs of the machines left out - those ``exclude`` names (each value must name one of ``every``, the run's) and
    those whose replication is stopped, but for those named one by one (``explicit``) - and the stopped machines."""
    index = by_id_and_name(every)
    unknown = [value for value in exclude if not _matching(every, value, index)]
    if unknown:
        raise Refused("The machines to exclude name %s, which %s not among the machines of the run (%d: %s)." % (
            ", ".join(unknown), "is" if len(unknown) == 1 else "are", len(every), shown(sorted(name_of(m) for m in every), 20)))
    left_out = set(machine["id"] for value in exclude for machine in _matching(every, value, index))
    # Stopped machines take part only when named one by one (without names, they were never candidates).
    stopped = [machine for machine in machines if machine.get("replicationStatus") == "STOPPED" and machine["id"] not in explicit
               and (machine["id"] in wave_of or every_machine)]
    left_out.update(machine["id"] for machine in stopped)
    return left_out, stopped


def _groups_asked(machines, named, waves, plan):
    """What the run asks for, as groups of names, IDs or patterns: the plan's machines, those named, the waves, or every
    machine whose replication is not stopped."""
    if plan is not None:
        return [list(plan)]
    if named:
        return [named]
    if waves:
        return waves
    return [[machine["id"] for machine in machines if machine.get("replicationStatus") != "STOPPED"]]


def _grouped(machines, groups, in_waves):
    """The machines each group names, in order, each in one group: the groups (lists of machines), each machine's group by
    its ID, and the IDs named one by one (not by a pattern). A value that names none, a name of several, a machine in two
    groups: refused."""
    known = shown(sorted(name_of(machine) for machine in machines), 20)
    chosen, wave_of, explicit, index = [], {}, set(), by_id_and_name(machines)
    for number, group in enumerate(groups, 1):
        wave = []
        for value in group:
            found = _matching(machines, value, index)
            if not found:
                raise Refused("%s %r, which matches no machine of the project. Known: %s." % (
                    "Wave %d names" % number if in_waves else "The run names", value, known))
            if len(found) > 1 and not _pattern(value):
                raise Refused("The machine name %r is ambiguous: %d machines have it; give the ID (one of %s)." % (
                    value, len(found), ", ".join(sorted(machine["id"] for machine in found))))
            if not _pattern(value):
                explicit.add(found[0]["id"])
            for machine in found:
                if wave_of.get(machine["id"], number) != number:
                    raise Refused("%s is in wave %d and in wave %d; a machine is launched in one wave." % (
                        name_of(machine), wave_of[machine["id"]], number))
                if machine["id"] not in wave_of:
                    wave_of[machine["id"]] = number
                    wave.append(machine)
        chosen.append(wave)
    return chosen, wave_of, explicit


# -- what an earlier run left -------------------------------------------------------------------


def ended_at(job):
    """When ``job`` ended, in epoch seconds; infinity while it has not."""
    return parse_time(job["endDateTime"]) if job.get("endDateTime") else float("inf")


def earlier_run(machines, jobs, username, launch_type="test", plan=False, waves=(), adopt=True, spare=(), keeps=False, parts=None):
    """What an earlier run of the same runbook started and left, and what this run does with it.

    ``machines`` are the run's (as listed, with their ``replica`` and ``lifeCycle``), ``jobs`` the
    project's newest jobs (newest first, read before the machines, so that a launch seen ended has
    its machines in the machines read), ``username`` who runs the runbook, ``waves`` the run's
    waves as lists of machine IDs. A job is the earlier run's when this user started it, it is the
    kind of job the runbook starts (a launch of its launch type, or a run of its recovery plan in
    that mode; or a cleanup) and all its machines are the run's. Each live target machine of the
    run's kind is traced to the job that launched it: the newest launching job of that kind that
    has the machine and was under way when it was launched (began before, ended after, if it has).

    While the earlier run's machines are up and its cleanup has not begun, this run adopts them
    (``adopt``): a wave whose machines are exactly those of an earlier launch of ours - running, or
    ended with its machines up - is followed, checked and measured instead of launched again; only
    a leading run of waves is adopted. A wave sent in several jobs (``parts``: for each wave, the
    machine IDs of each of its jobs) is adopted job by job: the leading jobs found, the others
    launched by this run. Once the earlier run's cleanup has begun, its machines are
    cleaned up (``clean``) and this run is a new one. Target machines launched by anything else
    are someone else's (``foreign``): never touched on their own. Target machines in ``spare`` (IDs)
    are none of the run's business - for a failback, the recovered machines it replicates from.

    A runbook that ``keeps`` what it launches (the failback: its machines are production) has no
    cleanup that ends a run: its launches of ours are adopted whenever their machines are up, and
    machines of ours it does not adopt are never cleaned up but refused, as someone else's are.

    Answers ``running`` (the project's running job, or None), ``running_is`` (``launch``,
    ``cleanup`` - ours - or ``other``), ``adopted`` ({wave index: [the jobs of its leading parts]}), ``launches`` (every launch of ours that is up,
    oldest first: what ``resumed_waves`` makes the leading waves of a run given other waves), ``clean`` (target
    machines of ours to clean up before launching: {id, name, replica}), ``foreign`` (the same,
    of someone else's), and ``ours`` (every target machine traced to an earlier run of ours).
    """
    kind = kind_of(launch_type)
    own_launch = launch_job_type(launch_type, plan=parse_flag(plan))
    ours = partial(_ours, username=username, ids=set(machine["id"] for machine in machines))
    running, running_is = _running(jobs, ours, own_launch)
    launching = [job for job in jobs if job.get("type") in (own_launch, launch_job_type(kind)) + (
        (launch_job_type(kind, plan=True),) if kind in KINDS else ())]
    leftovers = _traced(machines, kind, spare, launching, lambda job: ours(job, (own_launch,)))
    # A wave with a machine whose target machine is spare (production none of the run's) is never adopted - but for a
    # launch of ours still running in a runbook that keeps what it launches (the failback): until it ends, its machines'
    # target machines are those it replaces (the spared recovery machines), and following it launches nothing.
    up = partial(_up, keeps=keeps, spared=set(machine["id"] for machine in machines if machine.get("replica") in spare), leftovers=leftovers)
    # Launches of ours since our last cleanup began are not cleaned up: their machines may be adopted.
    cleanups = [job for job in jobs if ours(job, CLEANUP_JOBS)]
    last_cleanup = parse_time(cleanups[0]["creationDateTime"]) if cleanups and not keeps else None
    uncleaned = [job for job in launching if ours(job, (own_launch,))
                 and (last_cleanup is None or parse_time(job["creationDateTime"]) > last_cleanup)]
    if running_is == "launch" and running not in uncleaned:
        uncleaned.insert(0, running)
    adopting = parse_flag(adopt, "adopt", default=True)
    adopted = _adopted(waves, parts, uncleaned, up) if adopting else {}
    # Every launch of ours that is still up, oldest first: what a run again adopts, whatever waves it was given.
    launches = sorted((job for job in uncleaned if up(job, job.get("participatingMachines") or [])), key=lambda job: parse_time(job["creationDateTime"]))
    return dict(running=running, running_is=running_is, adopted=adopted, launches=launches if adopting else [],
                **_left(leftovers, set(job["id"] for jobs in adopted.values() for job in jobs), keeps))


def _up(job, machine_ids, keeps, spared, leftovers):
    """Whether a launch of ours is up: running, or ended with a machine of it traced to it - and none of ``machine_ids``
    spared, unless it still runs in a runbook that keeps what it launches."""
    if keeps and active(job):
        return True
    return not spared & set(machine_ids) and (active(job) or any(left["ours"] and left["job"]["id"] == job["id"] for left in leftovers))


def _left(leftovers, adopted_jobs, keeps):
    """The target machines an earlier run left: ``clean`` (ours, not adopted, to clean up - none for a runbook that keeps
    what it launches), ``foreign`` (someone else's, or ours not adopted that such a runbook keeps) and ``ours``."""
    return dict(
        clean=[left for left in leftovers if left["ours"] and left["job"]["id"] not in adopted_jobs and not keeps],
        foreign=[left for left in leftovers if not left["ours"] or (keeps and left["job"]["id"] not in adopted_jobs)],
        ours=[left for left in leftovers if left["ours"]],
    )


def _ours(job, types, username, ids):
    """Whether ``job`` is of an earlier run of ours: this user started it, it is of one of ``types`` and every machine in it
    is one of the run's (``ids``)."""
    participants = job.get("participatingMachines") or []
    return bool(username) and job.get("initiatedBy") == username and job.get("type") in types and bool(participants) \
        and set(participants) <= ids


def _running(jobs, ours, own_launch):
    """The project's running job (the newest, if it runs) and what it is: ``launch`` or ``cleanup`` of ours, or ``other``."""
    newest = jobs[0] if jobs else None
    if not active(newest):
        return None, None
    return newest, "launch" if ours(newest, (own_launch,)) else "cleanup" if ours(newest, CLEANUP_JOBS) else "other"


def _traced(machines, kind, spare, launching, ours):
    """Each live target machine of the run's kind but those spared, traced to the job that launched it: the newest of
    ``launching`` that has the machine and was under way when it was launched - {name, id, replica, job, ours}."""
    leftovers = []
    # Each job's machines and span, once: a stopped run's thousand target machines are each traced among them.
    spans = [(job, set(job.get("participatingMachines") or []), parse_time(job["creationDateTime"]), ended_at(job)) for job in launching]
    for machine in machines:
        for replica, launched in launched_targets(machine, kind):
            if replica in spare:
                continue
            launched_at = parse_time(launched) if launched else None
            job = next((job for job, members, began, ended in spans if launched_at is not None and machine["id"] in members
                        and began <= launched_at <= ended), None)
            leftovers.append(dict(name=name_of(machine), id=machine["id"], replica=replica, job=job, ours=job is not None and ours(job)))
    return leftovers


def _adopted(waves, parts, uncleaned, up):
    """The leading waves whose jobs are launches of ours that are up: {wave index: [the jobs of its leading parts]}."""
    adopted = {}
    for index, wave in enumerate(waves):
        found = []
        for part in (parts[index] if parts else [wave]):
            job = next((job for job in uncleaned if part and set(job.get("participatingMachines") or []) == set(part)), None)
            if job is None or not up(job, wave):
                break
            found.append(job)
        if found:
            adopted[index] = found
        if not found or len(found) < len(parts[index] if parts else [wave]):
            break  # a wave stopped between two of its jobs: this run launches the others
    return adopted


def resumed_waves(waves, launches, names, parts=None):
    """The waves of a run that adopts an earlier run's ``launches`` (earlier_run's: oldest first) when they are not the
    leading ``waves`` it was given (lists of names) - the earlier run had other waves, or a wave of it failed: each launch
    is a wave as it was launched, and the waves given follow without their machines (those left empty dropped). None when
    the waves given (or their jobs, ``parts``) lead with the launches already, or there is none to adopt, or a machine is
    in two launches (then each wave stands as given). ``names`` maps machine IDs to names."""
    launched = [[names[machine] for machine in job.get("participatingMachines") or [] if machine in names] for job in launches]
    # The jobs of the waves given (``parts``: the names of each wave's jobs, when a wave is sent in several).
    jobs = [part for wave_parts in parts for part in wave_parts] if parts else waves
    if not launched or [set(wave) for wave in jobs[:len(launched)]] == [set(wave) for wave in launched]:
        return None
    taken = [name for wave in launched for name in wave]
    if len(taken) != len(set(taken)):
        return None
    return launched + [rest for rest in ([name for name in wave if name not in taken] for wave in waves) if rest]


def blocking_machines(machines, kinds):
    """The run's ``machines`` (as listed) whose live target machine is of one of ``kinds`` - for a
    failover, the machines of a DR test that is up: {name, id, replica, kind} each."""
    kinds = parse_list(kinds, "the blocking launch types")
    up = [(machine, launch_type_of_replica(machine)) for machine in machines if machine.get("replica")]
    return [dict(name=name_of(machine), id=machine["id"], replica=machine["replica"], kind=kind) for machine, kind in up if kind in kinds]


# -- production: recovery and cutover machines ---------------------------------------------------

def production_machines(machines):
    """The machines (as listed, with ``replica``, ``lifeCycle`` and ``tags``) whose live target machine is a recovery
    or cutover machine: failed over (or launched back by a failback, or cut over). No read of its own: the machine
    list says it. {name: {name, id, replica, kind, since, committed, drill}}: ``since`` is the launch's moment,
    ``committed`` whether a failover committed this very target machine (module_utils._marks), ``drill`` whether a DR
    test launched it as a drill after its mark."""
    found = {}
    for machine in machines:
        kind = launch_type_of_replica(machine) if machine.get("replica") else None
        if kind not in PRODUCTION_KINDS:
            continue
        since = (machine.get("lifeCycle") or {}).get(dict(LIFE_CYCLE_MEMBERS)[kind])
        marks = marks_of(machine)
        drill = marks.get(DRILL)
        committed = marks.get(RECOVERED) == machine["replica"]
        found[name_of(machine)] = dict(
            name=name_of(machine), id=machine["id"], replica=machine["replica"], kind=kind, since=since, committed=committed,
            drill=bool(drill and since and not committed and _at_or_after(since, drill)))
    return found


def _at_or_after(moment, mark):
    try:
        return parse_time(moment) >= parse_time(mark)
    except ValueError:  # a mark somebody edited: no drill's
        return False


def standing(entry, target=None, point=None, listed=None):
    """What stands of a failed-over machine, as the operator reads it: "failed over since <time>, from <point>,
    <instance>". ``target`` is its target machine as the service describes it, ``point`` its point in time ({id,
    dateTime}) when the service still lists it; ``listed`` whether its points were read (and it is not among them)."""
    target = target or {}
    said = "%s since %s" % ("failed over" if entry["kind"] == "recovery" else "cut over", _said_time(entry.get("since")))
    if point:
        said += ", from the point in time of %s (%s)" % (_said_time(point.get("dateTime")), point["id"])
    elif target.get("pointInTime"):
        said += ", from the point in time %s%s" % (target["pointInTime"], " (no longer listed: thinned out since)" if listed else "")
    return said + ", %s %s" % (entry["kind"] + " machine", target.get("machineCloudId") or entry["replica"])


def _said_time(moment):
    return moment_said(parse_time(moment), whole=True) if moment else "an unknown moment"


def replace_token(project_id, replaced):
    """The token that confirms replacing production machines: derived from the plan's content - the project, the
    machines and their target machines now ({name: target machine ID}) - so that another plan, or a world changed since
    the plan was printed, gives another token. Twelve hexadecimal digits, in groups of four."""
    digest = hashlib.sha256(json.dumps([project_id, sorted(replaced.items())], separators=(",", ":")).encode("utf-8")).hexdigest()
    return "-".join(digest[index:index + 4] for index in (0, 4, 8))


# -- points in time, pinned when the run begins ----------------------------------------------------


def _span(points):
    """A machine's points for a message: its oldest and newest, or that it has none yet."""
    if not points:
        return "it has no point in time yet (initial sync not done)"
    return "its points run from %s to %s" % (_said_time(points[-1]["dateTime"]), _said_time(points[0]["dateTime"]))


def _newest_at_or_before(points, moment):
    return next((point for point in points if parse_time(point["dateTime"]) <= moment), None)


def pin_points(policy, machines, points_of, points=None):
    """Each machine's point in time under ``policy`` (module_utils._domain.parse_point_policy), resolved once when
    the run begins: every wave launches these. ``machines`` are the run's ({name, id}), ``points_of`` each machine's
    points in time newest first, by machine ID; ``points`` ({machine name or ID: point ID}) the points given per
    machine (a policy per machine, a clean point report, a plan), the others following the policy.

    Answers ``(pinned, problems)``: pinned is {name: {id, date_time}}, problems one sentence per machine that has no
    such point - naming its oldest and newest."""
    points = points or {}
    pinned, problems = {}, []
    moment = policy.get("moment")
    if policy["kind"] == POINT:
        owner = next(((machine, point) for machine in machines for point in points_of.get(machine["id"]) or []
                      if point["id"] == policy["id"]), None)
        if owner is None:
            return {}, ["%s is not a point in time of any machine of the run" % policy["id"]]
        points = dict(points, **{owner[0]["id"]: policy["id"]})
        moment = parse_time(owner[1]["dateTime"])
    for machine in machines:
        listed = points_of.get(machine["id"]) or []
        given = points.get(machine["id"]) or points.get(machine["name"])
        if given:
            point = next((point for point in listed if point["id"] == given), None)
            missing = "%s is not a point in time of %s (any more: the service thins old points out); %s" % (given, machine["name"], _span(listed))
        elif moment is not None:
            point = _newest_at_or_before(listed, moment)
            missing = "%s has no point in time at or before %s; %s" % (machine["name"], moment_said(moment), _span(listed))
        else:
            point = listed[0] if listed else None
            missing = "%s has no point in time yet (initial sync not done)" % machine["name"]
        if point is None:
            problems.append(missing)
        else:
            pinned[machine["name"]] = dict(id=point["id"], date_time=point["dateTime"])
    return pinned, problems


def points_refused(problems, runbook, planned=False):
    """The sentence a run is refused with when a machine has no such point in time as it asks (pin_points' problems)."""
    return "%s; nothing was launched. %s" % (sentences(problems, 5), "Plan again with --check." if planned else
                                             "Choose another point in time (%s_point_in_time), or leave those machines out." % runbook)


def launch_settings_refused(problems, machines, region):
    """The sentence a run is refused with when machines cannot launch in ``region`` as their blueprints say ({name: [why]})."""
    lines = ["%s: %s" % (name, "; ".join(messages)) for name, messages in sorted(problems.items())]
    return ("The launch settings check stopped the run; nothing was launched. %d of %d machines cannot launch in %s as their blueprints "
            "say: %s. Mend their blueprints, or exclude them." % (len(problems), machines, region, sentences(lines, 5)))


def later_than_now(policy, now):
    """A moment of ``policy`` later than the service's ``now`` (epoch seconds): a sentence, or None."""
    if policy["kind"] == BEFORE and policy["moment"] > now:
        now = moment_said(now, whole=True)
        return "before:%s is later than the service's now, %s: every point of every machine is before it, and the data-loss " \
               "windows would be negative. Give a moment at or before %s, or latest" % (policy["at"], now, now)
    return None


def thinned(pinned, points_of, names):
    """The pinned points of ``names`` that the service no longer lists (thinned out by its retention since they were
    read), each with its replacement - the newest point before it that remains - and the extra data lost.
    {name: {planned, replacement (or None), extra_seconds}}."""
    found = {}
    for name, machine_id in names:
        point = pinned.get(name)
        listed = points_of.get(machine_id) or []
        if point is None or any(item["id"] == point["id"] for item in listed):
            continue
        planned = parse_time(point["date_time"])
        replacement = next((item for item in listed if parse_time(item["dateTime"]) < planned), None)
        found[name] = dict(planned=point, replacement=dict(id=replacement["id"], date_time=replacement["dateTime"]) if replacement else None,
                           extra_seconds=round(planned - parse_time(replacement["dateTime"]), 3) if replacement else None)
    return found


def thinned_said(name, found, done=False):
    """One machine of ``thinned``, in the words every runbook says it - the run that launches from the replacement, and the
    plan refused for it: the point planned, the newest point before it and the data it costs."""
    planned = "%s: the point of %s (%s)" % (name, moment_said(parse_time(found["planned"]["date_time"]), whole=True), found["planned"]["id"])
    if not found["replacement"]:
        return planned + " has no point before it left"
    return "%s %s by the newest point before it, of %s (%s): %s more data lost" % (
        planned, "replaced" if done else "would be replaced", moment_said(parse_time(found["replacement"]["date_time"]), whole=True),
        found["replacement"]["id"], spoken(found["extra_seconds"]))


# -- the launched machines ----------------------------------------------------------------------


def target_of(target):
    """What the run judges of a target machine, from the service's description of it."""
    target = target or {}
    return dict(id=target.get("id"), cloud_id=target.get("machineCloudId"), state=target.get("machineCloudState"),
                public_ips=list(target.get("publicIps") or []), point_in_time=target.get("pointInTime"),
                created=target.get("cloudEndureCreationDateTime"), region=target.get("regionId"))


def service_view(entries, view=None, job_end=None, seen_at=None):
    """What the service shows of each launched machine: whether its target machine runs, its
    addresses, and its *up* moment - when the service first showed it running.

    ``entries`` are launched machines with their ``target_machine`` as the service describes it (the
    ``launched`` of service_launch, machines of service_machine_info), or the run's record of them
    (with their ``target``). On the first look (``seen_at`` None) a running target machine is up
    since the service created it (its ``cloudEndureCreationDateTime``; the launch job's end,
    ``job_end``, if the service does not say). On a later look a machine that runs for the first
    time is up since that look (``seen_at``, its service time). Machines already up stay as they are.
    """
    view = dict(view or {})
    for entry in entries:
        name = entry.get("machine_name") or entry.get("name")
        if view.get(name, {}).get("running"):
            continue
        target = target_of(entry.get("target_machine") or entry.get("target"))
        running = target["state"] == RUNNING
        up = None
        if running:
            up = seen_at if seen_at is not None else (target["created"] or job_end)
        view[name] = dict(id=entry.get("machine_id") or entry.get("id"), running=running, up=up, state=target["state"],
                          cloud_id=target["cloud_id"], target_id=target["id"], public_ips=target["public_ips"])
    return view


def wave_failure(record, index):
    """Why wave ``index`` failed - a machine that did not launch, does not run, or failed the user's
    checks - or None when it did not. RPO and RTO targets are measured, not reasons to stop."""
    wave = record["waves"][index]
    problems = []
    for name in wave["machines"]:
        if name in (record.get("stands") or {}):
            continue  # failed over already: not this run's to launch
        if name in record["failed_machines"]:
            problems.append("%s did not launch" % name)
        elif name not in record["launched"]:
            problems.append("%s was not launched" % name)
        elif not record["view"].get(name, {}).get("running"):
            problems.append("%s does not run" % name)
        elif record["settings"].get("checks_tasks") and not (record["checked"].get(name) or {}).get("passed"):
            problems.append("%s failed its checks" % name if name in record["checked"] else "%s was not checked" % name)
    if wave.get("status") == "failed" and not problems:
        problems.append(wave.get("message") or "its launch job failed")
    return shown(problems, 5, "; ") if problems else None
