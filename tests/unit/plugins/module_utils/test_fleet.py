# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reading the fleet: which projects, what it costs, and the target machines of a project."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import (
    UnknownProject, last_launches, read_fleet, read_targets, select_projects)
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import ClockedClient, PathClient

NOW = "2026-11-22T10:00:00+00:00"
PROJECTS = [{"id": "p1", "name": "prod-web"}, {"id": "p2", "name": "prod-db"}, {"id": "p3", "name": "staging"}]


def machine(name, consistent="2026-11-22T09:59:00+00:00", seen="2026-11-22T09:59:30+00:00", replica=None, **life_cycle):
    return {"id": name + "-id", "sourceProperties": {"name": name}, "replicationStatus": "STARTED", "replica": replica,
            "replicationInfo": {"lastConsistencyDateTime": consistent, "lastSeenDateTime": seen, "backloggedStorageBytes": 0,
                                "totalStorageBytes": 10, "replicatedStorageBytes": 10},
            "lifeCycle": life_cycle}


def test_all_projects_when_none_are_named():
    assert select_projects(PROJECTS, []) == PROJECTS


def test_projects_by_name_id_and_pattern_in_the_services_order_without_repeats():
    chosen = select_projects(PROJECTS, ["staging", "prod-*", "p1"])
    assert [p["name"] for p in chosen] == ["prod-web", "prod-db", "staging"]


def test_a_pattern_matches_whole_names_only():
    assert [p["name"] for p in select_projects(PROJECTS, ["prod-d?"])] == ["prod-db"]
    with pytest.raises(UnknownProject):
        select_projects(PROJECTS, ["prod"])


def test_a_name_that_matches_nothing_fails_naming_the_known_projects():
    with pytest.raises(UnknownProject, match=r"'nope' matches no project\. Known: prod-db, prod-web, staging\."):
        select_projects(PROJECTS, ["prod-*", "nope"])


def test_the_fleet_costs_a_list_of_projects_the_clock_and_a_list_of_machines_per_project():
    client = PathClient({
        "/projects": PROJECTS,
        "/extendedAccountInfo": {"dateTime": {"dateTime": NOW}},
        "/projects/p1/machines": [machine("web-1"), machine("web-2", consistent="2026-11-22T09:40:00+00:00")],
        "/projects/p2/machines": [machine("db-1", consistent=None)],
    })
    fleet = read_fleet(client, ["prod-*"], lag_threshold=600, stale_after=900)
    assert client.requests == ["/projects", "/extendedAccountInfo", "/projects/p1/machines", "/projects/p2/machines"]
    assert fleet["service_time"] == "2026-11-22T10:00:00.000000+00:00"
    web_1, web_2 = fleet["projects"][0]["machines"]
    assert (web_1["name"], web_1["lag_seconds"], web_1["replication_state"]) == ("web-1", 60, "continuous")
    assert (web_2["lag_seconds"], web_2["replication_state"]) == (1200, "lagging")
    assert fleet["projects"][1]["machines"][0]["replication_state"] == "initiating"


def test_the_fleet_reuses_a_list_of_projects_already_read():
    client = PathClient({"/extendedAccountInfo": {"dateTime": {"dateTime": NOW}}, "/projects/p3/machines": []})
    fleet = read_fleet(client, ["staging"], projects=PROJECTS)
    assert client.requests == ["/extendedAccountInfo", "/projects/p3/machines"]
    assert fleet["projects"] == [dict(PROJECTS[2], service_time="2026-11-22T10:00:00.000000+00:00", machines=[])]


def replicating(name, lag=60):
    """A machine that replicates on while the service's time goes by: consistent ``lag`` seconds before any read."""
    return lambda now: machine(name, consistent=iso_time(now - lag), seen=iso_time(now - 5))


def stalled(name, since):
    """A machine that has not replicated (nor been seen) since the service time ``since``."""
    return lambda now: machine(name, consistent=iso_time(since), seen=iso_time(since))


def test_a_clock_read_retried_longer_than_stale_after_leaves_a_healthy_machine_continuous():
    client = ClockedClient({"/projects": PROJECTS, "/projects/p1/machines": lambda now: [replicating("web-1")(now)]},
                           now=parse_time(NOW), slow={"/extendedAccountInfo": 1200})
    fleet = read_fleet(client, ["prod-web"], lag_threshold=600, stale_after=900)
    web_1 = fleet["projects"][0]["machines"][0]
    assert (web_1["replication_state"], web_1["lag_seconds"], web_1["last_seen_seconds"]) == ("continuous", 60, 5)
    assert fleet["service_time"] == fleet["projects"][0]["service_time"] == "2026-11-22T10:20:00.000000+00:00"


def test_machines_read_again_are_measured_against_the_clock_read_again_next_to_them():
    # The first read of prod-web's machines is answered 20 minutes late: against the clock before it, db-1, silent for
    # 10 minutes, would look fresh. Read again next to a new clock, its silence shows; prod-db needs no second clock.
    client = ClockedClient({"/projects": PROJECTS,
                            "/projects/p1/machines": lambda now: [replicating("web-1")(now), stalled("db-1", now - 600)(now)],
                            "/projects/p2/machines": lambda now: [stalled("db-2", now - 1000)(now)]},
                           now=parse_time(NOW), slow={"/projects/p1/machines": 1200})
    fleet = read_fleet(client, ["prod-*"], lag_threshold=300, stale_after=900)
    assert client.requests == ["/projects", "/extendedAccountInfo", "/projects/p1/machines", "/extendedAccountInfo", "/projects/p1/machines",
                               "/projects/p2/machines"]
    web, db = fleet["projects"]
    assert [(m["name"], m["replication_state"], m["lag_seconds"]) for m in web["machines"]] == [("web-1", "continuous", 60), ("db-1", "lagging", 600)]
    assert db["machines"][0]["replication_state"] == "stale"
    assert fleet["service_time"] == "2026-11-22T10:00:00.000000+00:00"
    assert web["service_time"] == db["service_time"] == "2026-11-22T10:20:00.000000+00:00"


def test_target_machines_are_read_one_by_one_skipping_terminated_ones_and_other_launch_types():
    project = {"id": "p1", "machines": [
        machine("web-1", replica="t1", lastTestLaunchDateTime="2026-11-22T09:00:00+00:00"),
        machine("web-2", replica="t2", lastTestLaunchDateTime="2026-11-21T09:00:00+00:00",
                lastRecoveryLaunchDateTime="2026-11-22T09:00:00+00:00"),
        machine("web-3", replica="t3", lastTestLaunchDateTime="2026-11-22T09:00:00+00:00"),
        machine("web-4"),
    ]}
    client = PathClient({
        "/projects/p1/replicas/t1": {"id": "t1", "machineCloudState": "running", "regionId": "r1"},
        "/projects/p1/replicas/t2": {"id": "t2", "machineCloudState": "running", "regionId": "r1"},
        "/projects/p1/replicas/t3": {"id": "t3", "machineCloudState": "terminated", "regionId": "r1"},
        "/projects/p1/blueprints": [
            {"machineId": "web-1-id", "region": "r1", "privateIPAction": "CUSTOM_IP", "privateIPs": ["10.0.0.5"]},
            {"machineId": "web-2-id", "region": "r1", "privateIPAction": "CREATE_NEW", "privateIPs": ["10.0.0.6"]},
        ],
    })
    found = read_targets(client, project)
    assert [(m["id"], t["id"], t["launch_type"], ips) for m, t, ips in found] == [
        ("web-1-id", "t1", "test", ["10.0.0.5"]), ("web-2-id", "t2", "recovery", [])]
    assert len(client.requests) == 4

    client.requests = []
    assert [t["id"] for m, t, ips in read_targets(client, project, ["recovery"])] == ["t2"]
    assert "/projects/p1/replicas/t1" not in client.requests


def test_no_blueprints_are_read_when_there_is_no_target_machine():
    client = PathClient({})
    assert read_targets(client, {"id": "p1", "machines": [machine("web-1")]}) == []
    assert client.requests == []


def test_last_launches_by_type():
    launches = last_launches(machine("web-1", lastTestLaunchDateTime="2026-11-20T09:00:00+00:00"))
    assert launches == {"test": "2026-11-20T09:00:00+00:00", "recovery": None, "cutover": None}
