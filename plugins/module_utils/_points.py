# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A machine's points in time as a module reads them (the service lists them oldest first, one list a machine), the
newest at or before a moment, and a point-in-time option in the runbooks' grammar. Each function takes a session
(module_utils._session), or a module, which reads through its own, and refuses (Refused) what it cannot answer: a module
fails its task with the words."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import BEFORE, LATEST, POINT, moment_said, parse_point_policy, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import service_time
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._machines import by_id_and_name, name_of, pick_point
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused


def points_path(project, machine):
    return "/projects/%s/machines/%s/pointsintime" % (project["id"], machine["id"])


def points_of(module, project, machine):
    """The machine's points in time, newest first."""
    return list(reversed(module.list(points_path(project, machine))))


def points_of_each(module, project, values, moment=None):
    """Each machine ``values`` name (names or IDs, in their order, without repeats) with its points in time, newest first,
    read a few machines at a time - and the newest at or before ``moment`` (epoch seconds) when given: the answer of
    service_point_in_time_info for its machines, which a runbook step reads too."""
    machines = resolve_machines(module, project, values)
    module.read_ahead(lists=[points_path(project, machine) for machine in machines])
    return [dict(machine_id=machine["id"], machine_name=name_of(machine), **points_picked(module, project, machine, moment))
            for machine in machines]


def points_picked(module, project, machine, moment=None):
    """The machine's points in time, newest first, and the newest at or before ``moment`` when there is one."""
    points = points_of(module, project, machine)
    picked = pick_point(points, moment)
    return dict(points_in_time=points, **(dict(point_in_time=picked) if picked else {}))


def points_at(module, project, machines, moment):
    """For each machine its newest point in time at or before ``moment`` ({machine ID: point}), and the names of machines
    that have none."""
    chosen, missing = {}, []
    for machine in machines:
        point = pick_point(points_of(module, project, machine), moment)
        if point is None:
            missing.append(name_of(machine))
        else:
            chosen[machine["id"]] = point
    return chosen, missing


def point_in_time_option(module, option, value):
    """A point-in-time option in the grammar of every runbook (module_utils._domain.parse_point_policy): (None, None) for
    latest, (the ID, None) for the ID of a point in time, (None, epoch seconds) for before:<date-time> (or a bare
    date-time) - the newest point at or before it. A moment later than the service's now fails the task, with that now."""
    try:
        policy = parse_point_policy(value, option)
    except ValueError as error:
        raise Refused("%s. Nothing was changed." % error)
    if policy["kind"] not in (LATEST, POINT, BEFORE):
        raise Refused("%s takes latest, the ID of a point in time, or before:<date-time> here, not %r." % (option, value))
    if policy["kind"] == BEFORE:
        now = service_time(module.client)
        if policy["moment"] > now:
            raise Refused("%s %s is later than the service's now, %s: give a moment at or before it, or latest. Nothing was changed." % (
                option, policy["at"], moment_said(now)))
    return policy.get("id"), policy.get("moment")


def points_asked(module, project, machines, point_in_time, given=None, check=True):
    """{machine ID: point} for the points a launch asks for; empty for the latest (the service's default). ``point_in_time``
    (module_utils._domain.parse_point_policy): the ID of a point in time picks it for its machine, and for the others their
    newest at or before it; a moment, each one's newest at or before it. A machine given a point of its own (``given``,
    {name or ID: point ID}) takes that one - checked among its points unless ``check`` is false (its caller read them
    just before). The task fails, naming it, on a point or a machine that is not there."""
    point_id, moment = point_in_time_option(module, "point_in_time", point_in_time)
    chosen, (by_id, by_name) = {}, by_id_and_name(machines)
    for named, given_id in (given or {}).items():
        machine = (by_id.get(named) or by_name.get(named) or [None])[0]
        if machine is None:
            raise Refused("points_in_time names %s, which is not among the machines to launch (%s); nothing was launched." % (
                named, ", ".join(sorted(name_of(m) for m in machines))))
        point = next((p for p in points_of(module, project, machine) if p["id"] == given_id), None) if check else dict(id=given_id)
        if point is None:
            raise Refused("%s is not a point in time of %s; nothing was launched." % (given_id, name_of(machine)))
        chosen[machine["id"]] = point
    if point_id is not None:
        found = next(((m["id"], p) for m in machines for p in points_of(module, project, m) if p["id"] == point_id), None)
        if found is None:
            raise Refused("%s is not a point in time of any of the machines." % point_id)
        chosen.setdefault(found[0], found[1])
        moment = parse_time(found[1]["dateTime"])
    if moment is None:
        return chosen
    others, missing = points_at(module, project, [m for m in machines if m["id"] not in chosen], moment)
    if missing:
        raise Refused("No point in time at or before %s for %s; nothing was launched." % (point_in_time, ", ".join(missing)))
    return dict(chosen, **others)


def one_point_asked(module, project, machines, point_in_time):
    """The one point in time a recovery plan's run takes for all its machines: the ID given, or the newest of the machines'
    points at or before the moment asked; None for the latest."""
    point_id, moment = point_in_time_option(module, "point_in_time", point_in_time)
    if moment is None:
        return point_id
    picks = points_at(module, project, machines, moment)[0].values()
    if not picks:
        raise Refused("None of the plan's machines has a point in time at or before %s; nothing ran." % point_in_time)
    return max(picks, key=lambda p: parse_time(p["dateTime"]))["id"]
