"""Backup projects (files, restore servers), reverse replication, moving machines, blueprints."""

import pytest

from replication_service_simulator.seed import seed

from .conftest import PASSWORD, Api, advance, cloud, follow

BACKUP = {"accounts": [{
    "name": "backup",
    "licenses": [{"type": "BACKUP", "count": 10, "expiresInDays": 365}],
    "users": [{"username": "backup@acme.test", "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
    "cloudCredentials": [{"name": "aws", "cloud": "AWS", "accountIdentifier": "555566667777"}],
    "projects": [{
        "name": "files", "type": "BACKUP", "cloudCredentials": ["aws"],
        "replicationConfiguration": {"cloudCredentials": "aws", "region": "eu-west-1", "subnet": "private-a"},
        "machines": [{"name": "fs-1", "os": "Ubuntu 22.04", "disks": [{"name": "/dev/sda", "size": 1000000000}]},
                     {"name": "win-1", "os": "Microsoft Windows Server 2022", "disks": [{"name": "C:", "size": 1000000000}]}],
    }],
}]}


@pytest.fixture
def backup(client, sim, long_sessions):
    """A backup project three days into replication, and an API logged in to it."""
    account = seed(sim, BACKUP)["accounts"][0]
    advance(client, 3 * 86400)
    api = Api(client)
    assert api.login("backup@acme.test").status_code == 200
    return api, account["projects"]["files"]


def test_find_files_is_deterministic_and_says_where_each_file_exists(backup):
    api, project = backup
    path = "/projects/%s/findFiles" % project["id"]
    body = {"query": "app-", "machineIDs": [project["machines"]["fs-1"], "nope"]}
    found = api.ok("POST", path, json=body)
    assert found == api.ok("POST", path, json=body)
    assert found["query"] == "app-" and found["invalidMachineIDs"] == ["nope"] and found["count"] == len(found["items"])
    logs = [item["filePath"] for item in found["items"]]
    assert logs and all(p.startswith("/var/log/app/app-") for p in logs)
    # Today's log exists only in today's points; the oldest log only in the oldest ones.
    newest = max(found["items"], key=lambda item: item["filePath"])
    oldest = min(found["items"], key=lambda item: item["filePath"])
    assert len(newest["pointsInTime"]) < len(oldest["pointsInTime"]) or len(found["items"]) == 1
    everywhere = api.ok("POST", path, json={"query": "/etc/hosts", "machineIDs": [project["machines"]["fs-1"]]})["items"][0]
    points = api.ok("GET", "/projects/%s/machines/%s/pointsintime" % (project["id"], project["machines"]["fs-1"]))["items"]
    assert [p["id"] for p in everywhere["pointsInTime"]] == [p["id"] for p in points]


def test_find_files_takes_globs_and_knows_windows(backup):
    api, project = backup
    found = api.ok("POST", "/projects/%s/findFiles" % project["id"], json={"query": "*\\exports\\*.csv", "machineIDs": [project["machines"]["win-1"]]})
    assert found["count"] >= 1 and all(i["filePath"].startswith("C:\\app\\exports\\export-w") for i in found["items"])


def test_restore_two_files_from_different_points_in_time(backup, client):
    api, project = backup
    fs1 = project["machines"]["fs-1"]
    hosts = api.ok("POST", "/projects/%s/findFiles" % project["id"], json={"query": "/etc/hosts", "machineIDs": [fs1]})["items"][0]
    config = api.ok("POST", "/projects/%s/findFiles" % project["id"], json={"query": "config.yml", "machineIDs": [fs1]})["items"][0]
    body = {"items": [{"machineId": fs1, "filePath": hosts["filePath"], "pointInTimeId": hosts["pointsInTime"][0]["id"]},
                      {"machineId": fs1, "filePath": config["filePath"], "pointInTimeId": config["pointsInTime"][-1]["id"]}]}
    job = api.ok("POST", "/projects/%s/restoreFiles" % project["id"], json=body, status=202)
    assert job["type"] == "FILE_RESTORE"
    job = follow(api, client, project["id"], job)
    messages = [line["message"] for line in job["log"]]
    assert job["status"] == "COMPLETED"
    assert "fs-1: restored /etc/hosts." in messages and "fs-1: restored /opt/app/config.yml." in messages


def test_a_file_that_did_not_exist_then_cannot_be_restored(backup):
    api, project = backup
    fs1 = project["machines"]["fs-1"]
    points = api.ok("GET", "/projects/%s/machines/%s/pointsintime" % (project["id"], fs1))["items"]
    body = {"items": [{"machineId": fs1, "filePath": "/etc/shadow", "pointInTimeId": points[0]["id"]}]}
    response = api.post("/projects/%s/restoreFiles" % project["id"], json=body)
    assert response.status_code == 400 and "did not exist" in response.json()["message"]


def test_restore_servers(backup, client):
    api, project = backup
    fs1 = project["machines"]["fs-1"]
    job = api.ok("POST", "/projects/%s/launchRestoreServers" % project["id"], json={"launchType": "TEST", "items": [{"machineId": fs1}]}, status=202)
    assert follow(api, client, project["id"], job)["type"] == "RESTORE_LAUNCH"
    machine = api.ok("GET", "/projects/%s/machines/%s" % (project["id"], fs1))
    assert len(machine["restoreServers"]) == 1 and "replica" not in machine
    assert [m["launchType"] for m in cloud(client)] == ["RESTORE"]


def test_backup_calls_answer_422_in_other_projects(api, replicating):
    project = replicating["project"]
    m1 = project["machines"]["m1"]
    for path, body in (("/findFiles", {"query": "x", "machineIDs": [m1]}),
                       ("/restoreFiles", {"items": [{"machineId": m1, "filePath": "/etc/hosts", "pointInTimeId": "x"}]}),
                       ("/launchRestoreServers", {"launchType": "TEST", "items": [{"machineId": m1}]})):
        response = api.post("/projects/%s%s" % (project["id"], path), json=body)
        assert response.status_code == 422, path


def test_reverse_replication_after_a_recovery_and_back(api, client, replicating):
    project = replicating["project"]
    path = "/projects/%s" % project["id"]
    response = api.post(path + "/reverseReplication")
    assert response.status_code == 422 and response.json()["code"] == "cannotReverse"
    follow(api, client, project["id"], api.ok("POST", path + "/launchMachines", status=202,
                                              json={"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"]}]}))
    assert api.post(path + "/reverseReplication").status_code == 422  # a test launch is not enough
    follow(api, client, project["id"], api.ok("POST", path + "/launchMachines", status=202,
                                              json={"launchType": "CUTOVER", "items": [{"machineId": project["machines"]["m1"]}]}))
    reversed_project = api.ok("POST", path + "/reverseReplication")
    assert reversed_project["replicationReversed"] is True
    machines = api.ok("GET", path + "/machines")["items"]
    assert not any("lastConsistencyDateTime" in m["replicationInfo"] for m in machines)  # initial sync the other way
    assert api.post(path + "/reverseReplication").status_code == 422  # failing back needs a launch the other way first
    advance(client, 3600)
    follow(api, client, project["id"], api.ok("POST", path + "/launchMachines", status=202,
                                              json={"launchType": "RECOVERY", "items": [{"machineId": project["machines"]["m1"]}]}))
    assert api.ok("POST", path + "/reverseReplication")["replicationReversed"] is False
    assert api.ok("GET", path + "/auditLog")["items"][-1]["eventName"] == "REPLICATION_REVERSED"


def test_a_failover_and_a_failback_in_the_published_interface(api, client, replicating):
    """Recovered machines replicate back; a launch reversed lands in the original region and leaves them
    up; the second reverse returns to the original direction; a recovered machine that is gone stalls."""
    project, machines = replicating["project"], replicating["project"]["machines"]
    path = "/projects/%s" % project["id"]
    everyone = [{"machineId": machines[name]} for name in ("m1", "m2")]
    follow(api, client, project["id"], api.ok("POST", path + "/launchMachines", status=202, json={"launchType": "RECOVERY", "items": everyone}))
    recovered = dict((m["sourceMachineName"], m) for m in cloud(client))
    original_region = api.ok("GET", path)["sourceRegion"]
    assert {m["regionId"] for m in recovered.values()} == {api.ok("GET", path + "/replicationConfigurations")["items"][0]["region"]}

    api.ok("POST", path + "/reverseReplication")
    api.ok("DELETE", path + "/replicas", status=202, json={"replicaIDs": [recovered["m2"]["replicaId"]]})  # m2's recovered machine goes
    advance(client, 3600)
    by_name = dict((m["sourceProperties"]["name"], m) for m in api.ok("GET", path + "/machines")["items"])
    assert "lastConsistencyDateTime" in by_name["m1"]["replicationInfo"]  # replicated back from its recovered machine
    assert "lastConsistencyDateTime" not in by_name["m2"]["replicationInfo"]  # nothing to replicate from

    launched = follow(api, client, project["id"], api.ok("POST", path + "/launchMachines", status=202,
                                                         json={"launchType": "CUTOVER", "items": [everyone[0]]}))
    assert launched["status"] == "COMPLETED"
    live = [m for m in cloud(client) if m["sourceMachineName"] == "m1"]
    assert sorted((m["launchType"], m["regionId"]) for m in live) == sorted([("RECOVERY", recovered["m1"]["regionId"]), ("CUTOVER", original_region)])
    machine = api.ok("GET", path + "/machines/%s" % machines["m1"])
    assert api.ok("GET", path + "/replicas/%s" % machine["replica"])["regionId"] == original_region

    assert api.ok("POST", path + "/reverseReplication")["replicationReversed"] is False


def test_move_machines(api, client, replicating):
    project = replicating["project"]
    other = api.ok("POST", "/projects", json={"name": "other-dr", "type": "DR"}, status=201)
    migration = api.ok("POST", "/projects", json={"name": "migration", "type": "MIGRATION"}, status=201)
    m3 = project["machines"]["m3"]

    def move(body):
        return api.post("/projects/%s/moveMachines" % project["id"], json=body)

    assert move({"machineIDs": [m3], "destinationProjectId": "nope"}).status_code == 404
    assert move({"machineIDs": ["nope"], "destinationProjectId": other["id"]}).status_code == 404
    assert move({"machineIDs": [m3], "destinationProjectId": project["id"]}).status_code == 409
    assert move({"machineIDs": [m3], "destinationProjectId": migration["id"]}).status_code == 409
    assert move({"machineIDs": [m3], "destinationProjectId": other["id"]}).status_code == 204
    assert [m["id"] for m in api.ok("GET", "/projects/%s/machines" % other["id"])["items"]] == [m3]
    assert api.get("/projects/%s/machines/%s" % (project["id"], m3)).status_code == 404
    assert api.ok("GET", "/projects/%s/replicas/%s" % (other["id"], project["replicas"]["m3"]))["machine"] == m3
    assert [m["projectName"] for m in cloud(client)] == ["other-dr"]


@pytest.fixture
def east(api, replicating):
    creds = replicating["cloudCredentials"]["aws-main"]
    return next(r for r in api.ok("GET", "/cloudCredentials/%s/regions" % creds)["items"] if r["name"] == "us-east-1")


@pytest.fixture
def west(api, replicating):
    creds = replicating["cloudCredentials"]["aws-main"]
    return next(r for r in api.ok("GET", "/cloudCredentials/%s/regions" % creds)["items"] if r["name"] == "us-west-2")


def test_blueprints(api, client, replicating, east, west):
    project = replicating["project"]
    path = "/projects/%s/blueprints" % project["id"]
    m1 = project["machines"]["m1"]
    # Every machine has a blueprint for the region its project replicates into, from the start.
    listed = api.ok("GET", path)["items"]
    assert sorted((b["machineName"], b["region"]) for b in listed) == [("m1", east["id"]), ("m2", east["id"]), ("m3", east["id"])]
    blueprint = next(b for b in listed if b["machineId"] == m1)
    assert blueprint["recommendedInstanceType"] and blueprint["privateIPAction"] == "CREATE_NEW"
    assert api.post(path, json={"machineId": m1, "region": east["id"]}).status_code == 409
    # Another region's is created; read-only members equal to what the service computes are accepted.
    other = api.ok("POST", path, json={"machineId": m1, "region": west["id"], "instanceType": "t3.small",
                                       "machineName": "m1", "recommendedInstanceType": blueprint["recommendedInstanceType"]}, status=201)
    assert other["machineName"] == "m1" and other["instanceType"] == "t3.small"
    assert api.post(path, json={"machineId": m1, "region": west["id"]}).status_code == 409
    assert api.post(path, json={"machineId": project["machines"]["m2"], "region": west["id"], "machineName": "m1"}).status_code == 422
    # The whole object back, with one change: read-only members equal to the stored ones are ignored.
    whole = dict(blueprint, instanceType="t3.small", publicIPAction="DONT_ALLOCATE", privateIPAction="CUSTOM_IP", privateIPs=["10.9.8.7"])
    patched = api.ok("PATCH", path + "/" + blueprint["id"], json=whole)
    assert patched == whole
    assert api.ok("PATCH", path + "/" + blueprint["id"], json={"tenancy": "DEDICATED"})["tenancy"] == "DEDICATED"
    assert api.patch(path + "/" + blueprint["id"], json={"recommendedInstanceType": "x"}).status_code == 422
    assert api.patch(path + "/" + blueprint["id"], json={"instanceType": "x9.huge"}).status_code == 400
    assert api.patch(path + "/" + blueprint["id"], json={"subnetIDs": ["subnet-0"]}).status_code == 400
    assert api.patch(path + "/" + blueprint["id"], json={"privateIPs": ["not-an-ip"]}).status_code == 400
    assert api.patch(path + "/" + blueprint["id"], json={"color": "red"}).status_code == 422
    # A launch follows the blueprint.
    follow(api, client, project["id"], api.ok("POST", "/projects/%s/launchMachines" % project["id"], status=202,
                                              json={"launchType": "TEST", "items": [{"machineId": m1}]}))
    launched = next(m for m in cloud(client) if m["sourceMachineId"] == m1)
    assert launched["instanceType"] == "t3.small" and launched["publicIps"] == [] and launched["privateIp"] == "10.9.8.7"


def test_a_blueprint_needs_a_machine_and_a_region_of_the_project(api, replicating, east):
    path = "/projects/%s/blueprints" % replicating["project"]["id"]
    assert api.post(path, json={"machineId": "nope", "region": east["id"]}).status_code == 400
    assert api.post(path, json={"machineId": replicating["project"]["machines"]["m1"], "region": "nope"}).status_code == 400


def test_damage_shows_in_the_file_search_from_its_moment_on(backup, client):
    api, project = backup
    fs1 = project["machines"]["fs-1"]
    points = api.ok("GET", "/projects/%s/machines/%s/pointsintime" % (project["id"], fs1))["items"]
    moment = points[-5]["dateTime"]
    damaged = client.post("/_simulator/damage", json={"machines": ["fs-1"], "from": moment, "project": "files"})
    assert damaged.status_code == 200 and damaged.json()["items"][0]["id"] == fs1
    path = "/projects/%s/findFiles" % project["id"]
    notes = api.ok("POST", path, json={"query": "*README_DECRYPT*", "machineIDs": [fs1, project["machines"]["win-1"]]})["items"]
    assert [item["machineId"] for item in notes] == [fs1]
    assert [p["id"] for p in notes[0]["pointsInTime"]] == [p["id"] for p in points[-5:]]
    locked = api.ok("POST", path, json={"query": "*.locked", "machineIDs": [fs1]})["items"]
    assert locked and all(p["id"] in [q["id"] for q in points[-5:]] for item in locked for p in item["pointsInTime"])
    # The encrypted files are gone under their own names from those points on.
    config = api.ok("POST", path, json={"query": "/opt/app/config.yml", "machineIDs": [fs1]})["items"]
    assert [p["id"] for p in next(i for i in config if i["filePath"] == "/opt/app/config.yml")["pointsInTime"]] == [p["id"] for p in points[:-5]]
    # Healed: nothing found any more.
    client.post("/_simulator/damage", json={"machines": [fs1], "from": None})
    assert api.ok("POST", path, json={"query": "*README_DECRYPT*", "machineIDs": [fs1]})["items"] == []


def test_damage_of_an_unknown_machine_or_at_no_moment_is_refused(backup, client):
    assert client.post("/_simulator/damage", json={"machines": ["nope"], "from": "2026-11-20T00:00:00Z"}).status_code == 404
    assert client.post("/_simulator/damage", json={"machines": ["fs-1"], "from": "yesterday"}).status_code == 422
    assert client.post("/_simulator/damage", json={"machines": [], "from": "2026-11-20T00:00:00Z"}).status_code == 422
