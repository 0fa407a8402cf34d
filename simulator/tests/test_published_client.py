"""The simulator, started as a user starts it, answers a client written only from docs/wire.md."""

import os
import subprocess
import sys

import pytest
import requests

from replication_service_simulator.seed import DEMO_PASSWORD
from .published_client import PublishedClient, ServiceError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MACHINE_MEMBERS = {"id", "sourceProperties", "replicationInfo", "lifeCycle", "replicationStatus", "isAgentInstalled", "tags"}
INFO_MEMBERS = {"lastSeenDateTime", "totalStorageBytes", "replicatedStorageBytes", "backloggedStorageBytes", "initiationStates"}


@pytest.fixture(scope="module")
def simulator():
    """``python -m replication_service_simulator`` on a free port; its first line is the base URL."""
    process = subprocess.Popen([sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", "0", "--seed", "demo",
                                "--time-scale", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        tokens = {}
        for line in range(2):
            words = process.stdout.readline().split()
            tokens[words[1]] = words[-1]
        yield url, tokens
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_it_prints_the_base_url_and_serves_the_openapi_document(simulator):
    url, tokens = simulator
    assert url.startswith("http://127.0.0.1:") and url.endswith("/api/latest")
    assert set(tokens) == {"demo@example.com", "readonly@example.com"}
    root = url[: -len("/api/latest")]
    document = requests.get(root + "/openapi.json", timeout=5).json()
    assert document["openapi"].startswith("3.")
    assert "/api/latest/projects/{projectId}/machines" in document["paths"]
    assert requests.get(root + "/api/v5/projects", timeout=5).status_code == 401


def test_password_and_token_logins(simulator):
    url, tokens = simulator
    assert PublishedClient(url).login("demo@example.com", DEMO_PASSWORD)["username"] == "demo@example.com"
    assert PublishedClient(url).login(api_token=tokens["demo@example.com"])["username"] == "demo@example.com"
    with pytest.raises(ServiceError) as failure:
        PublishedClient(url).login("demo@example.com", "nope")
    assert failure.value.status == 401 and failure.value.code == "unauthenticated"


def test_projects_and_replication_configurations(simulator):
    url, unused_tokens = simulator
    client = PublishedClient(url)
    client.login("demo@example.com", DEMO_PASSWORD)
    credentials = client.list("/cloudCredentials")[0]
    regions = {r["name"]: r for r in client.list("/cloudCredentials/%s/regions" % credentials["id"], limit=2)}
    west = regions["us-west-2"]
    project = client.post("/projects", {"name": "published", "type": "DR", "cloudCredentialsIDs": [credentials["id"]]})
    assert "published" in [p["name"] for p in client.list("/projects", limit=1)]
    project = client.patch("/projects/" + project["id"], {"name": "published-2"})
    assert client.get("/projects/" + project["id"])["name"] == "published-2"
    config = client.post("/projects/%s/replicationConfigurations" % project["id"], {
        "region": west["id"], "cloudCredentials": credentials["id"], "subnetId": west["subnets"][0]["subnetId"],
        "replicatorSecurityGroupIDs": [west["securityGroups"][0]["securityGroupId"]], "replicationServerType": "t3.small",
        "replicationTags": [{"key": "owner", "value": "dr"}]})
    config = client.patch("/projects/%s/replicationConfigurations/%s" % (project["id"], config["id"]), {"bandwidthThrottling": 40})
    assert config["bandwidthThrottling"] == 40
    assert client.patch("/projects/" + project["id"], {"replicationConfiguration": config["id"]})["replicationConfiguration"] == config["id"]
    with pytest.raises(ServiceError) as failure:
        client.post("/projects/%s/replicationConfigurations" % project["id"], {"region": west["id"], "cloudCredentials": credentials["id"]})
    assert failure.value.status == 409
    client.delete("/projects/" + project["id"])


def test_machines_and_points_in_time(simulator):
    url, unused_tokens = simulator
    client = PublishedClient(url)
    client.login("demo@example.com", DEMO_PASSWORD)
    project = [p for p in client.list("/projects") if p["name"] == "demo"][0]
    requests.post(url[: -len("/api/latest")] + "/_simulator/clock", json={"advanceSeconds": 2 * 3600}, timeout=5)
    client.login("demo@example.com", DEMO_PASSWORD)  # two idle hours ended the session
    machines = client.list("/projects/%s/machines" % project["id"], limit=2)
    assert len(machines) == 5
    for machine in machines:
        assert MACHINE_MEMBERS <= set(machine)
        assert INFO_MEMBERS <= set(machine["replicationInfo"])
        assert "lastConsistencyDateTime" in machine["replicationInfo"]  # initial sync done
        points = client.list("/projects/%s/machines/%s/pointsintime" % (project["id"], machine["id"]))
        assert points and all(set(p) == {"id", "dateTime"} for p in points)


def _follow(client, control, project_id, job):
    """Poll the job until it ends, moving the simulator's clock between polls."""
    for unused_poll in range(200):
        if job["status"] not in ("PENDING", "STARTED"):
            return job
        requests.post(control + "/_simulator/clock", json={"advanceSeconds": 15}, timeout=5)
        job = client.get("/projects/%s/jobs/%s" % (project_id, job["id"]))
    raise AssertionError("job %s did not end" % job["id"])


def test_a_full_test_launch_and_cleanup(simulator):
    url, unused_tokens = simulator
    control = url[: -len("/api/latest")]
    requests.post(control + "/_simulator/clock", json={"advanceSeconds": 3600}, timeout=5)  # every machine replicating
    client = PublishedClient(url)
    client.login("demo@example.com", DEMO_PASSWORD)
    project = [p for p in client.list("/projects") if p["name"] == "demo"][0]
    machines = client.list("/projects/%s/machines" % project["id"])
    launched = client.post("/projects/%s/launchMachines" % project["id"],
                           {"launchType": "TEST", "items": [{"machineId": m["id"]} for m in machines]})
    assert launched["type"] == "TEST_LAUNCH" and launched["status"] == "PENDING"
    job = _follow(client, control, project["id"], launched)
    assert job["status"] == "COMPLETED", job["log"]
    assert sorted(job["participatingMachines"]) == sorted(m["id"] for m in machines)
    replicas = [client.get("/projects/%s/replicas/%s" % (project["id"], m["replica"]))
                for m in client.list("/projects/%s/machines" % project["id"])]
    assert len(replicas) == 5 and {r["machineCloudState"] for r in replicas} == {"running"}
    cleanup = client.delete("/projects/%s/replicas" % project["id"], {"replicaIDs": [r["id"] for r in replicas]})
    assert _follow(client, control, project["id"], cleanup)["status"] == "COMPLETED"
    assert not any("replica" in m for m in client.list("/projects/%s/machines" % project["id"]))
    assert requests.get(control + "/_simulator/cloud", timeout=5).json()["items"] == []
