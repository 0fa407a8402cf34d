# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What the service says of a machine, and what a DR engineer wants to know from it.

The service has no lag or state member: lag is the service's now minus
``lastConsistencyDateTime``, and initial sync is done once that member is present.
"""

from ansible_collections.replication.recovery.plugins.module_utils._domain import LIFE_CYCLE_MEMBERS, PRODUCTION_KINDS, RESTORE, kind_of, parse_time


def name_of(machine):
    return machine.get("sourceProperties", {}).get("name", machine["id"])


def by_id_and_name(items, name=name_of, id_key="id"):
    """The items (machines, unless ``name`` and ``id_key`` say how another kind is named) by ID and by name, each a list in
    their order: a thousand of them named one by one cost one pass over them, not one each."""
    by_id, by_name = {}, {}
    for item in items:
        if isinstance(item, dict):
            by_id.setdefault(item.get(id_key), []).append(item)
            by_name.setdefault(name(item), []).append(item)
    return by_id, by_name


def replication_facts(machine, now, lag_threshold, stale_after):
    """The computed members of a machine, by the rule in service_machine_info's documentation."""
    info = machine.get("replicationInfo", {})
    consistent = info.get("lastConsistencyDateTime")
    seen = info.get("lastSeenDateTime")
    total = info.get("totalStorageBytes") or 0
    replicated = info.get("replicatedStorageBytes") or 0
    facts = dict(
        name=name_of(machine),
        lag_seconds=max(0, int(now - parse_time(consistent))) if consistent else None,
        backlog_bytes=info.get("backloggedStorageBytes", 0),
        sync_percent=100.0 if consistent else (round(100.0 * replicated / total, 1) if total else 0.0),
        last_seen_seconds=max(0, int(now - parse_time(seen))) if seen else None,
    )
    facts["replication_state"] = _state(machine, info, facts, lag_threshold, stale_after)
    return facts


def _state(machine, info, facts, lag_threshold, stale_after):
    status = machine.get("replicationStatus")
    if status == "STOPPED":
        return "stopped"
    if status == "PAUSED":
        return "paused"
    if facts["last_seen_seconds"] is None or facts["last_seen_seconds"] > stale_after:
        return "stale"
    if facts["lag_seconds"] is None:
        attempts = info.get("initiationStates", {}).get("items", [])
        steps = attempts[-1]["steps"] if attempts else []
        done = steps and all(step.get("status") in ("SUCCEEDED", "SKIPPED") for step in steps)
        return "initial_sync" if done else "initiating"
    return "lagging" if facts["lag_seconds"] > lag_threshold else "continuous"


def launch_type_of_replica(machine):
    """The launch type of the machine's current target machine: that of its latest launch."""
    life_cycle = machine.get("lifeCycle", {})
    launched = [(parse_time(life_cycle[member]), kind) for kind, member in LIFE_CYCLE_MEMBERS if life_cycle.get(member)]
    return max(launched)[1] if launched else None


def has_targets_of(machine, kind):
    """Whether the machine, as listed, has a live target machine of ``kind``: its replica of that kind, or a restore server."""
    if kind == RESTORE:
        return bool(machine.get("restoreServers"))
    return bool(machine.get("replica")) and launch_type_of_replica(machine) == kind


def live_targets(machines, launch_types=None):
    """(target machine ID, machine) for every live target machine and restore server of ``machines``, of the launch types
    given (all if None): what a cleanup terminates."""
    kinds = set(kind_of(kind) for kind in launch_types or [])
    found = []
    for machine in machines:
        if machine.get("replica") and (not kinds or launch_type_of_replica(machine) in kinds):
            found.append((machine["replica"], machine))
        if not kinds or RESTORE in kinds:
            found.extend((server, machine) for server in machine.get("restoreServers", []))
    return found


def runs_production(replica, machine):
    """Whether the target machine ``replica`` of ``machine`` runs production: a recovery or cutover machine."""
    if replica in machine.get("restoreServers", []):
        return False
    if machine.get("replica") != replica:
        return True  # no longer its machine's target machine: a failback's recovery machine, as far as anyone can tell
    return launch_type_of_replica(machine) in PRODUCTION_KINDS


def launched_targets(machine, kind):
    """The machine's target machines of ``kind`` and when each was launched, newest last: [(ID, date-time)]. A restore
    server's from the restore servers a reader added to the machine (``restore_servers``, as the service describes them:
    the machine list names them only); a replica's from the machine's lifeCycle."""
    if kind == RESTORE:
        return sorted(((server["id"], server.get("cloudEndureCreationDateTime")) for server in machine.get("restore_servers") or []
                       if server.get("machineCloudState") != "terminated"), key=lambda target: parse_time(target[1]) if target[1] else 0)
    if not has_targets_of(machine, kind):
        return []
    return [(machine["replica"], (machine.get("lifeCycle") or {}).get(dict(LIFE_CYCLE_MEMBERS)[kind]))]


def pick_point(points, at_or_before=None):
    """The newest of ``points`` (newest first), or the newest at or before a moment; None if none."""
    for point in points:
        if at_or_before is None or parse_time(point["dateTime"]) <= at_or_before:
            return point
    return None
