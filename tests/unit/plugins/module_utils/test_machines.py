# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica, pick_point, replication_facts

NOW = parse_time("2026-11-22T12:00:00Z")


def machine(status="STARTED", consistent="2026-11-22T11:59:00Z", seen="2026-11-22T11:59:58Z", steps_done=True, total=100, replicated=100,
            backlog=0):
    info = {"totalStorageBytes": total, "replicatedStorageBytes": replicated, "backloggedStorageBytes": backlog,
            "initiationStates": {"items": [{"startDateTime": "2026-11-22T10:00:00Z", "steps": [
                {"name": "A", "status": "SUCCEEDED"}, {"name": "B", "status": "SUCCEEDED" if steps_done else "STARTED"}]}]}}
    if consistent:
        info["lastConsistencyDateTime"] = consistent
    if seen:
        info["lastSeenDateTime"] = seen
    return {"id": "m", "sourceProperties": {"name": "web-1"}, "replicationStatus": status, "replicationInfo": info}


@pytest.mark.parametrize("kwargs,state", [
    (dict(), "continuous"),
    (dict(consistent="2026-11-22T11:00:00Z"), "lagging"),
    (dict(status="PAUSED", seen=None), "paused"),
    (dict(status="STOPPED", seen=None), "stopped"),
    (dict(seen="2026-11-22T11:00:00Z"), "stale"),
    (dict(seen=None), "stale"),
    (dict(consistent=None, steps_done=False, replicated=0), "initiating"),
    (dict(consistent=None, replicated=40), "initial_sync"),
])
def test_replication_state_rule(kwargs, state):
    assert replication_facts(machine(**kwargs), NOW, lag_threshold=600, stale_after=900)["replication_state"] == state


def test_computed_members():
    facts = replication_facts(machine(consistent="2026-11-22T11:58:00Z", backlog=7), NOW, 600, 900)
    assert facts == {"name": "web-1", "lag_seconds": 120, "backlog_bytes": 7, "sync_percent": 100.0, "last_seen_seconds": 2,
                     "replication_state": "continuous"}
    syncing = replication_facts(machine(consistent=None, total=400, replicated=100), NOW, 600, 900)
    assert syncing["lag_seconds"] is None and syncing["sync_percent"] == 25.0


def test_the_launch_type_of_a_replica_is_that_of_the_latest_launch():
    m = {"lifeCycle": {"lastTestLaunchDateTime": "2026-11-22T10:00:00Z", "lastRecoveryLaunchDateTime": "2026-11-22T11:00:00Z"}}
    assert launch_type_of_replica(m) == "recovery"
    assert launch_type_of_replica({"lifeCycle": {}}) is None


def test_pick_a_point_in_time():
    points = [{"id": "c", "dateTime": "2026-11-22T11:00:00Z"}, {"id": "b", "dateTime": "2026-11-22T10:00:00Z"},
              {"id": "a", "dateTime": "2026-11-22T09:00:00Z"}]
    assert pick_point(points)["id"] == "c"
    assert pick_point(points, parse_time("2026-11-22T10:30:00+00:00"))["id"] == "b"
    assert pick_point(points, parse_time("2026-11-22T10:00:00"))["id"] == "b"  # no offset means UTC; at counts
    assert pick_point(points, parse_time("2026-11-22T08:00:00Z")) is None
