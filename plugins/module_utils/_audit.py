# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reading a project's audit log, which the service pages by time rather than by offset, and the
changes to machines it holds."""

import json

from ansible_collections.replication.recovery.plugins.module_utils._client import PAGE_LIMIT
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._marks import without_marks
from ansible_collections.replication.recovery.plugins.module_utils._test_network import STASH_KEY


def read_audit_log(client, path, since=None, until=None, now=None):
    """Every entry in the window, oldest first.

    A page says ``hasMoreResults`` when the window holds more than it: the next page starts at
    the last entry's moment, and entries seen on both pages are kept once. ``now`` (a callable)
    gives the service's time, for a window with a start and no end.
    """
    query = dict(limit=PAGE_LIMIT)
    if since is not None or until is not None:
        query.update(fromDateTime=iso_time(since or 0), toDateTime=iso_time(until if until is not None else now()))
    entries, seen = [], set()
    while True:
        page = client.get(path, params=dict(query))
        for entry in page["items"]:
            key = (entry.get("timestamp"), entry.get("eventName"), entry.get("description"), entry.get("jobId"))
            if key not in seen:
                seen.add(key)
                entries.append(entry)
        if not page.get("hasMoreResults") or not page["items"]:
            return entries
        if query.get("fromDateTime") == page["items"][-1]["timestamp"]:
            return entries  # a whole page at one moment: the window cannot move on
        query["fromDateTime"] = page["items"][-1]["timestamp"]
        query.setdefault("toDateTime", iso_time(now()))


def _test_network_write(entry):
    """Whether the entry is the switch of a blueprint to a test network, or its restore (module_utils._test_network): both
    write the tags that keep the production settings, and a restore puts back exactly what the switch replaced."""
    for field in entry.get("changedFields") or []:
        if field.get("fieldName") == "tags":
            for value in (field.get("oldValue"), field.get("newValue")):
                if STASH_KEY in (value if isinstance(value, str) else json.dumps(value)):
                    return True
    return False


def _tag_list(value):
    """A list of tags as an audit entry writes it: a list, its JSON, or None when unset."""
    if value is None or isinstance(value, list):
        return value or []
    try:
        value = json.loads(value)
    except ValueError:
        return None
    return value if isinstance(value, list) else None


def _marks_only(entry):
    """Whether the entry writes nothing but the runbooks' marks in a machine's tags (module_utils._marks): which recovery
    machine a failover committed is no change to how the machine recovers."""
    fields = entry.get("changedFields") or []
    if not fields or any(field.get("fieldName") != "tags" for field in fields):
        return False
    for field in fields:
        old, new = _tag_list(field.get("oldValue")), _tag_list(field.get("newValue"))
        if old is None or new is None or sorted(map(str, without_marks(old))) != sorted(map(str, without_marks(new))):
            return False
    return True


PROJECT_WIDE = "*"  # the key of machine_changes under which the writes that name no machine are


def machine_changes(entries, ignore_events=()):
    """The writes in ``entries`` (audit log entries) that can change how each machine recovers, by machine ID, oldest
    first: every entry that names the machine and is not a job's. Launches, cleanups and file restores are jobs (their
    entries carry a jobId) and change nothing the next launch uses. The service publishes no list of its event names, so
    none is assumed: a blueprint or launch settings changed, replication paused, stopped or restarted, the machine moved
    all count, as does any write the service adds later. A write that names no machine (the project's replication
    configuration changed, its settings, a recovery plan) may change how any of its machines recovers: it is under
    PROJECT_WIDE, with ``scope`` project. The test network's own switch and restore do not count, nor the events named
    in ``ignore_events``, nor the runbooks' own marks in machines' tags."""
    changes = {}
    for entry in entries:
        if entry.get("jobId") or entry.get("eventName") in ignore_events or _test_network_write(entry) or _marks_only(entry):
            continue
        change = dict(time=entry.get("timestamp"), event=entry.get("eventName"), description=entry.get("description"),
                      username=entry.get("username"), fields=[field.get("fieldName") for field in entry.get("changedFields") or []])
        named = [machine["machineCloudEndureId"] for machine in entry.get("participatingMachines") or [] if machine.get("machineCloudEndureId")]
        for machine_id in named:
            changes.setdefault(machine_id, []).append(change)
        if not named:
            changes.setdefault(PROJECT_WIDE, []).append(dict(change, scope="project"))
    for found in changes.values():
        found.sort(key=lambda change: parse_time(change["time"]) if change["time"] else 0)
    return changes
