"""Machines: listing, launch-time settings, tags, uninstall (stated rule 3), bandwidth,
points in time, replicas, and starting, stopping and pausing replication."""

import pytest

from .conftest import advance


@pytest.fixture
def project(world):
    return world["project"]


def _path(project, suffix=""):
    return "/projects/%s%s" % (project["id"], suffix)


def test_a_machine_has_the_documented_members(api, project):
    machine = api.ok("GET", _path(project, "/machines/" + project["machines"]["m2"]))
    assert set(machine) == {"id", "sourceProperties", "replicationInfo", "lifeCycle", "replicationStatus", "isAgentInstalled",
                            "tags", "restoreServers", "license", "replicationConfiguration"}
    # The machine's replication settings: its project's default configuration.
    config = api.ok("GET", _path(project, "/replicationConfigurations"))["items"][0]
    assert machine["replicationConfiguration"]["subnetId"] == config["subnetId"]
    assert set(machine["replicationConfiguration"]) <= set(config) - {"id", "region", "cloudCredentials"}
    source = machine["sourceProperties"]
    assert source["name"] == "m2" and source["disks"][1] == {"name": "/dev/sdb", "isProtected": False, "size": 500_000_000}
    info = machine["replicationInfo"]
    assert info["totalStorageBytes"] == 2_000_000_000  # protected disks only
    assert [s["name"] for s in info["initiationStates"]["items"][0]["steps"]][0] == "WAITING_TO_INITIATE_REPLICATION"
    assert machine["lifeCycle"]["agentInstallationDateTime"]
    launched = api.ok("GET", _path(project, "/machines/" + project["machines"]["m3"]))
    assert launched["replica"] == project["replicas"]["m3"]
    assert "lastTestLaunchDateTime" in launched["lifeCycle"]


def test_stopped_machines_are_listed_only_with_all(api, project):
    m1 = project["machines"]["m1"]
    api.ok("POST", _path(project, "/stopReplication"), json={"machineIDs": [m1]})
    names = [m["sourceProperties"]["name"] for m in api.ok("GET", _path(project, "/machines"))["items"]]
    assert names == ["m2", "m3"]
    names = [m["sourceProperties"]["name"] for m in api.ok("GET", _path(project, "/machines"), params={"all": "true"})["items"]]
    assert names == ["m1", "m2", "m3"]


def test_patch_launch_time_tags(api, project):
    m1 = project["machines"]["m1"]
    assert api.ok("PATCH", _path(project, "/machines/" + m1), json={"tags": ["a", "b"]})["tags"] == ["a", "b"]
    assert api.ok("GET", _path(project, "/machines/" + m1))["tags"] == ["a", "b"]


@pytest.mark.parametrize("body", [{"replicationStatus": "PAUSED"}, {"sourceProperties": {"name": "x"}}, {"id": "x"}])
def test_patching_anything_but_launch_time_settings_is_422(api, project, body):
    response = api.patch(_path(project, "/machines/" + project["machines"]["m1"]), json=body)
    assert response.status_code == 422


@pytest.mark.parametrize("tags,code", [
    ([""], "tagLengthError"),
    (["x" * 128], "tagLengthError"),
    (["t%d" % i for i in range(51)], "tagLimitReached"),
])
def test_tag_rules(api, project, tags, code):
    single = api.patch(_path(project, "/machines/" + project["machines"]["m1"]), json={"tags": tags})
    assert single.status_code == 400 and single.json()["code"] == code
    batch = api.patch(_path(project, "/machines"), json={"items": [{"id": project["machines"]["m1"], "tags": tags}]})
    assert batch.status_code == 400 and batch.json()["code"] == code


def test_tag_limits_are_inclusive(api, project):
    tags = ["x" * 127] + ["t%d" % i for i in range(49)]
    assert api.ok("PATCH", _path(project, "/machines/" + project["machines"]["m1"]), json={"tags": tags})["tags"] == tags


def test_batch_patch_is_all_or_nothing(api, project):
    m1, m2 = project["machines"]["m1"], project["machines"]["m2"]
    response = api.patch(_path(project, "/machines"), json={"items": [{"id": m1, "tags": ["fine"]}, {"id": m2, "tags": [""]}]})
    assert response.status_code == 400
    assert api.ok("GET", _path(project, "/machines/" + m1))["tags"] == ["web", "prod"]
    response = api.patch(_path(project, "/machines"), json={"items": [{"id": m1, "tags": ["fine"]}, {"id": "nope", "tags": []}]})
    assert response.status_code == 404
    assert api.ok("GET", _path(project, "/machines/" + m1))["tags"] == ["web", "prod"]
    items = api.ok("PATCH", _path(project, "/machines"), json={"items": [{"id": m1, "tags": ["one"]}, {"id": m2, "tags": ["two"]}]})["items"]
    assert [m["tags"] for m in items] == [["one"], ["two"]]


def test_bandwidth_throttling(api, project):
    path = _path(project, "/machines/%s/bandwidthThrottling" % project["machines"]["m1"])
    assert api.ok("GET", path) == {"bandwidthThrottling": 0}
    assert api.ok("PATCH", path, json={"bandwidthThrottling": 25}) == {"bandwidthThrottling": 25}
    assert api.ok("GET", path) == {"bandwidthThrottling": 25}
    assert api.patch(path, json={"bandwidthThrottling": -1}).status_code == 422
    assert api.patch(path, json={"bandwidthThrottling": "fast"}).status_code == 422


def test_points_in_time_are_listed_oldest_first(api, project, client, long_sessions):
    path = _path(project, "/machines/%s/pointsintime" % project["machines"]["m1"])
    assert api.ok("GET", path)["items"] == []
    advance(client, 3 * 3600)
    points = api.ok("GET", path)["items"]
    assert len(points) > 3
    assert [p["dateTime"] for p in points] == sorted(p["dateTime"] for p in points)
    assert all(set(p) == {"id", "dateTime"} for p in points)
    assert api.ok("GET", path)["items"] == points  # stable IDs


def test_get_a_replica(api, project):
    replica = api.ok("GET", _path(project, "/replicas/" + project["replicas"]["m3"]))
    assert replica["machine"] == project["machines"]["m3"] and replica["machineCloudState"] == "running"
    assert replica["publicIps"][0].startswith("203.0.113.")
    assert replica["cloudEndureCreationDateTime"]
    assert api.get(_path(project, "/replicas/nope")).status_code == 404


def test_rule_3_uninstalling_removes_artifacts_but_no_launched_machine(api, project, client, long_sessions):
    advance(client, 3 * 3600)
    m3 = project["machines"]["m3"]

    def artifacts():
        return [a for a in client.get("/_simulator/cloud").json()["replicationArtifacts"] if a["machineId"] == m3]

    assert {a["kind"] for a in artifacts()} == {"replicationServer", "replicationDisk", "snapshots"}
    assert api.delete(_path(project, "/machines/" + m3)).status_code == 204
    assert artifacts() == []
    assert api.get(_path(project, "/machines/" + m3)).status_code == 404
    assert api.get(_path(project, "/machines/%s/pointsintime" % m3)).status_code == 404
    cloud = client.get("/_simulator/cloud").json()["items"]
    assert [m["replicaId"] for m in cloud] == [project["replicas"]["m3"]]
    assert cloud[0]["sourceMachineId"] == m3 and cloud[0]["state"] == "running"
    assert api.delete(_path(project, "/machines/" + m3)).status_code == 404


def test_uninstall_many(api, project):
    m1, m2 = project["machines"]["m1"], project["machines"]["m2"]
    assert api.delete(_path(project, "/machines"), json={"machineIDs": [m1, "nope"]}).status_code == 404
    assert len(api.ok("GET", _path(project, "/machines"))["items"]) == 3  # nothing uninstalled
    assert api.delete(_path(project, "/machines"), json={"machineIDs": [m1, m2]}).status_code == 204
    assert [m["sourceProperties"]["name"] for m in api.ok("GET", _path(project, "/machines"), params={"all": "true"})["items"]] == ["m3"]


def test_start_stop_pause_with_invalid_ids(api, project):
    m1, m2 = project["machines"]["m1"], project["machines"]["m2"]
    paused = api.ok("POST", _path(project, "/pauseReplication"), json={"machineIDs": [m1, "nope"]})
    assert [m["id"] for m in paused["items"]] == [m1] and paused["items"][0]["replicationStatus"] == "PAUSED"
    assert paused["invalidMachineIDs"] == ["nope"]
    assert "job" not in paused
    stopped = api.ok("POST", _path(project, "/stopReplication"), json={"machineIDs": [m2]})
    assert stopped["items"][0]["replicationStatus"] == "STOPPED" and stopped["invalidMachineIDs"] == []
    # A stopped machine can not be paused.
    assert api.ok("POST", _path(project, "/pauseReplication"), json={"machineIDs": [m2]})["invalidMachineIDs"] == [m2]
    started = api.ok("POST", _path(project, "/startReplication"), json={"machineIDs": [m1, m2, m1]})
    assert [m["replicationStatus"] for m in started["items"]] == ["STARTED", "STARTED"]
    # Already started: listed, nothing changes.
    again = api.ok("POST", _path(project, "/startReplication"), json={"machineIDs": [m1]})
    assert again["items"][0]["replicationStatus"] == "STARTED" and again["invalidMachineIDs"] == []
    assert api.post(_path(project, "/startReplication"), json={}).status_code == 422
