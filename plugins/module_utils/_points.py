# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A machine's points in time as a module reads them (the service lists them oldest first, one list a machine), the
newest at or before a moment, and a point-in-time option in the runbooks' grammar. Each function takes the module
(module_utils._base), whose reads it shares."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import BEFORE, LATEST, POINT, moment_said, parse_point_policy
from ansible_collections.replication.recovery.plugins.module_utils._fleet import service_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of, pick_point


def points_path(project, machine):
    return "/projects/%s/machines/%s/pointsintime" % (project["id"], machine["id"])


def points_of(module, project, machine):
    """The machine's points in time, newest first."""
    return list(reversed(module.list(points_path(project, machine))))


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
        module.fail_json(msg="%s. Nothing was changed." % error)
    if policy["kind"] not in (LATEST, POINT, BEFORE):
        module.fail_json(msg="%s takes latest, the ID of a point in time, or before:<date-time> here, not %r." % (option, value))
    if policy["kind"] == BEFORE:
        now = service_time(module.client)
        if policy["moment"] > now:
            module.fail_json(msg="%s %s is later than the service's now, %s: give a moment at or before it, or latest. Nothing was changed." % (
                option, policy["at"], moment_said(now)))
    return policy.get("id"), policy.get("moment")
