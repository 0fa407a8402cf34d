# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What service_machine_info answers: a project's machines measured against the service's clock read next to them, and what
is asked of them besides - target machines, restore servers, points in time, launch settings proven. The module answers it,
and a runbook step reads it itself through a session of its connection (plugin_utils._step): one definition of the read."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import REPLICATION_STATES, iso_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import read_next_to_the_clock, service_time
from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import (
    defaults_by_machine, private_ips_by_machine, problems_by_machine, unchecked_by_machine)
from ansible_collections.replication.recovery.plugins.module_utils._machines import replication_facts
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines, restore_servers_of, target_machine_of
from ansible_collections.replication.recovery.plugins.module_utils._points import points_of, points_path
from ansible_collections.replication.recovery.plugins.module_utils._regions import blueprints_proven
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused

# The read's options (the module's, its documentation says each): AnsibleModule's argument spec.
OPTIONS = dict(
    project=dict(type="str", required=True),
    machines=dict(type="list", elements="str"),
    states=dict(type="list", elements="str", choices=list(REPLICATION_STATES)),
    tags=dict(type="list", elements="str"),
    lag_threshold=dict(type="int", default=600),
    stale_after=dict(type="int", default=900),
    include_target_machine=dict(type="bool", default=False, aliases=["include_target"]),
    include_restore_servers=dict(type="bool", default=False),
    include_points_in_time=dict(type="bool", default=False),
    points_in_time_limit=dict(type="int"),
    prove_launch_settings=dict(type="bool", default=False),
)

# Machines whose points are read together: enough to keep the client's reads at once busy, few enough to hold.
POINTS_READ_AT_ONCE = 100


def machine_info(reader, params):
    """The answer of service_machine_info to ``params`` (its options, validated): ``reader`` is a session
    (module_utils._session) or a module. What cannot be answered is refused (Refused)."""
    if params["points_in_time_limit"] is not None and (params["points_in_time_limit"] < 1 or not params["include_points_in_time"]):
        raise Refused("points_in_time_limit is a number of points, 1 or more, and is given with include_points_in_time=true; "
                      "it was %s%s." % (params["points_in_time_limit"], "" if params["include_points_in_time"] else " and include_points_in_time false"))
    project = reader.lookup("project", params["project"])
    now, machines = read_next_to_the_clock(reader.client, lambda: _machines_anew(reader, project, params["machines"]), lambda: service_time(reader.client))
    result = list(_chosen(machines, now, params))
    # What the service has no list of, read for every machine first, a few at a time.
    if params["include_restore_servers"]:
        reader.read_ahead(ones=["/projects/%s/replicas/%s" % (project["id"], server) for machine in result for server in machine.get("restoreServers") or []])
    for machine in result:
        if params["include_target_machine"] and machine.get("replica"):
            machine["target_machine"] = target_machine_of(reader, project, machine)
        if params["include_restore_servers"]:
            machine["restore_servers"] = restore_servers_of(reader, project, machine)
    if params["include_points_in_time"]:
        _add_points(reader, project, result, params["points_in_time_limit"])
    answer = dict(machines=result, project=dict(id=project["id"], name=project["name"], type=project.get("type")), service_time=iso_time(now))
    if params["prove_launch_settings"]:
        region, blueprints = blueprints_proven(reader, project, machine_ids=set(machine["id"] for machine in machines))
        answer["launch_settings"] = dict(region=dict(id=region["id"], name=region.get("name")), problems=problems_by_machine(blueprints),
                                         defaults=defaults_by_machine(blueprints), private_ips=private_ips_by_machine(blueprints),
                                         unchecked=unchecked_by_machine(blueprints),
                                         switched=sorted(b.get("machineName") or b["machineId"] for b in blueprints if b.get("switched")),
                                         switched_to=dict((b.get("machineName") or b["machineId"], b["switched_to"])
                                                          for b in blueprints if b.get("switched_to")))
    return answer


def _add_points(reader, project, machines, limit):
    """Each machine's points in time, read a batch of machines at a time: with a limit, what a batch read and the limit
    leaves out is let go before the next batch is read."""
    for start in range(0, len(machines), POINTS_READ_AT_ONCE):
        batch = machines[start:start + POINTS_READ_AT_ONCE]
        reader.read_ahead(lists=[points_path(project, machine) for machine in batch])
        for machine in batch:
            machine["points_in_time"] = points_of(reader, project, machine)[:limit]
            if limit:
                reader.forget(points_path(project, machine))


def _chosen(machines, now, params):
    """The machines asked for, each with its replication facts."""
    for machine in machines:
        machine = dict(machine, **replication_facts(machine, now, params["lag_threshold"], params["stale_after"]))
        if params["states"] and machine["replication_state"] not in params["states"]:
            continue
        if params["tags"] and not set(params["tags"]) <= set(machine.get("tags", [])):
            continue
        yield machine


def _machines_anew(reader, project, values):
    """The machines as the service has them now: read again, not what an earlier attempt kept."""
    reader.forget("/projects/%s/machines" % project["id"])
    return resolve_machines(reader, project, values)
