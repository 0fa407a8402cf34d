"""Jobs: the state machine on the clock, the one-job rule, launches, relaunch, cleanup."""

import pytest

from .conftest import advance, cloud, follow


@pytest.fixture
def project(replicating):
    return replicating["project"]


def _path(project, suffix=""):
    return "/projects/%s%s" % (project["id"], suffix)


def launch(api, project, names, launch_type="TEST", **extra):
    body = {"launchType": launch_type, "items": [{"machineId": project["machines"][n]} for n in names]}
    body.update(extra)
    return api.ok("POST", _path(project, "/launchMachines"), json=body, status=202)


def test_a_job_walks_pending_started_completed_on_the_clock(api, client, project):
    job = launch(api, project, ["m1"])
    assert job["type"] == "TEST_LAUNCH" and job["status"] == "PENDING" and job["log"] == []
    assert job["initiatedBy"] == "owner@acme.test" and job["participatingMachines"] == [project["machines"]["m1"]]
    assert "endDateTime" not in job
    advance(client, 10)
    job = api.ok("GET", _path(project, "/jobs/" + job["id"]))
    assert job["status"] == "STARTED" and job["log"][0]["message"] == "Job started."
    advance(client, 100)
    middle = api.ok("GET", _path(project, "/jobs/" + job["id"]))
    assert middle["status"] == "STARTED" and any("converting" in line["message"] for line in middle["log"])
    done = follow(api, client, project["id"], middle)
    assert done["status"] == "COMPLETED" and done["endDateTime"] >= done["creationDateTime"]
    assert done["log"][: len(middle["log"])] == middle["log"]  # the log only grows
    stamps = [line["logDateTime"] for line in done["log"]]
    assert stamps == sorted(stamps)
    assert done["log"][-1]["message"] == "Job finished successfully."


def test_one_jump_gives_the_same_job_as_many_small_ones(api, client, project, sim):
    first = launch(api, project, ["m1", "m2"])
    stepwise = follow(api, client, project["id"], first, step=7)
    # The same launch again, read once after one jump.
    second = launch(api, project, ["m1", "m2"])
    advance(client, 3600)
    jumped = api.ok("GET", _path(project, "/jobs/" + second["id"]))

    def shape(job):
        return [line["message"].split(" target machine i-")[0] for line in job["log"]]

    assert jumped["status"] == stepwise["status"] == "COMPLETED"
    assert len(jumped["log"]) == len(stepwise["log"]) + 2  # plus the termination of the first launch's machines
    assert shape(jumped)[-1] == shape(stepwise)[-1]


def test_a_launch_makes_replicas(api, client, project):
    points = api.ok("GET", _path(project, "/machines/%s/pointsintime" % project["machines"]["m1"]))["items"]
    job = follow(api, client, project["id"], launch(api, project, ["m1"]))
    machine = api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))
    replica = api.ok("GET", _path(project, "/replicas/" + machine["replica"]))
    assert replica["machine"] == project["machines"]["m1"] and replica["machineCloudState"] == "running"
    assert replica["publicIps"][0].startswith("203.0.113.") and replica["machineCloudId"].startswith("i-")
    assert replica["pointInTime"] == points[-1]["id"]  # the latest, since none was given
    assert replica["regionId"] == api.ok("GET", _path(project, "/replicationConfigurations"))["items"][0]["region"]
    assert machine["lifeCycle"]["lastTestLaunchDateTime"] <= job["endDateTime"]
    assert any(m["replicaId"] == replica["id"] and m["launchType"] == "TEST" for m in cloud(client))


def test_launch_types_set_their_life_cycle_member(api, client, project):
    for launch_type, member in (("RECOVERY", "lastRecoveryLaunchDateTime"), ("CUTOVER", "lastCutoverDateTime")):
        job = follow(api, client, project["id"], launch(api, project, ["m1"], launch_type))
        assert job["type"] == launch_type + "_LAUNCH"
        assert member in api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))["lifeCycle"]


def test_a_debug_launch_runs_as_a_test_launch(api, client, project):
    job = launch(api, project, ["m1"], "DEBUG", debugScripts={"preboot": ["echo a"], "postboot": ["echo b", "echo c"]})
    job = follow(api, client, project["id"], job)
    assert job["type"] == "TEST_LAUNCH"
    assert any("1 preboot and 2 postboot debug scripts" in line["message"] for line in job["log"])


def test_a_launch_from_a_given_point_in_time(api, client, project):
    points = api.ok("GET", _path(project, "/machines/%s/pointsintime" % project["machines"]["m1"]))["items"]
    body = {"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"], "pointInTimeId": points[0]["id"]}]}
    follow(api, client, project["id"], api.ok("POST", _path(project, "/launchMachines"), json=body, status=202))
    machine = api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))
    assert api.ok("GET", _path(project, "/replicas/" + machine["replica"]))["pointInTime"] == points[0]["id"]


def test_target_machines_launched_from_damaged_points_show_it_in_the_cloud(api, client, project):
    """Damage from a moment on: machines launched from points taken at or after it are damaged, earlier ones not."""
    points = api.ok("GET", _path(project, "/machines/%s/pointsintime" % project["machines"]["m1"]))["items"]
    client.post("/_simulator/damage", json={"machines": ["m1"], "from": points[2]["dateTime"]})
    seen = {}
    for point in (points[1], points[2]):
        body = {"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"], "pointInTimeId": point["id"]}]}
        follow(api, client, project["id"], api.ok("POST", _path(project, "/launchMachines"), json=body, status=202))
        target = next(m for m in cloud(client) if m["sourceMachineName"] == "m1")
        seen[point["id"]] = (target["pointInTimeId"], target["pointInTimeDateTime"], target["damaged"])
    assert seen == {points[1]["id"]: (points[1]["id"], points[1]["dateTime"], False), points[2]["id"]: (points[2]["id"], points[2]["dateTime"], True)}


@pytest.mark.parametrize("body,status", [
    ({"launchType": "TEST", "items": [{"machineId": "nope"}]}, 400),
    ({"launchType": "TEST", "items": [{"machineId": "M1", "pointInTimeId": "nope"}]}, 400),
    ({"launchType": "TEST", "items": []}, 422),
    ({"launchType": "HOLIDAY", "items": [{"machineId": "M1"}]}, 422),
])
def test_bad_launch_requests(api, project, body, status):
    for item in body["items"]:
        if item["machineId"] == "M1":
            item["machineId"] = project["machines"]["m1"]
    assert api.post(_path(project, "/launchMachines"), json=body).status_code == status
    assert api.ok("GET", _path(project, "/jobs"))["items"] == []


def test_relaunch_replaces_the_old_target_machine(api, client, project):
    follow(api, client, project["id"], launch(api, project, ["m1"]))
    first = api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))["replica"]
    job = follow(api, client, project["id"], launch(api, project, ["m1"]))
    second = api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))["replica"]
    assert second != first
    assert any("terminating the previous target machine" in line["message"] for line in job["log"])
    live = [m["replicaId"] for m in cloud(client) if m["sourceMachineId"] == project["machines"]["m1"]]
    assert live == [second]
    assert api.ok("GET", _path(project, "/replicas/" + first))["machineCloudState"] == "terminated"


def test_a_machine_in_initial_sync_cannot_be_launched(api, client, sim, world, long_sessions):
    project = world["project"]
    advance(client, 800)  # m1 (1 GB) is consistent after 740 s, m2 (2 GB) only after 820 s
    job = follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))
    assert job["status"] == "FAILED"
    assert any("m2: cannot launch; initial sync has not finished" in line["message"] for line in job["log"])
    assert "1 of 2 machines failed" in job["log"][-1]["message"]
    assert "replica" not in api.ok("GET", _path(project, "/machines/" + project["machines"]["m2"]))
    assert "replica" in api.ok("GET", _path(project, "/machines/" + project["machines"]["m1"]))


def test_an_expired_license_answers_402(api, client, project, sim):
    for lic in sim.licenses.values():
        lic.expiration = sim.now() - 1
    response = api.post(_path(project, "/launchMachines"), json={"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"]}]})
    assert response.status_code == 402 and response.json()["code"] == "licenseExpired"


def test_one_job_at_a_time(api, client, project):
    job = launch(api, project, ["m1"])
    m1 = project["machines"]["m1"]
    replica = project["replicas"]["m3"]
    refusals = [
        api.post(_path(project, "/launchMachines"), json={"launchType": "TEST", "items": [{"machineId": m1}]}),
        api.delete(_path(project, "/replicas"), json={"replicaIDs": [replica]}),
        api.post(_path(project, "/reverseReplication")),
    ]
    for response in refusals:
        assert response.status_code == 400 and response.json()["code"] == "jobAlreadyRunning"
    # The machines a job works on cannot stop replicating or lose their agent meanwhile, nor the project go.
    assert api.post(_path(project, "/stopReplication"), json={"machineIDs": [m1]}).status_code == 409
    assert api.delete(_path(project, "/machines/" + m1)).status_code == 409
    assert api.delete(_path(project)).status_code == 409
    follow(api, client, project["id"], job)
    assert api.post(_path(project, "/launchMachines"), json={"launchType": "TEST", "items": [{"machineId": m1}]}).status_code == 202


def test_cleanup_terminates_target_machines(api, client, project):
    follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))
    replicas = [api.ok("GET", _path(project, "/machines/" + project["machines"][n]))["replica"] for n in ("m1", "m2", "m3")]
    job = api.ok("DELETE", _path(project, "/replicas"), json={"replicaIDs": replicas}, status=202)
    assert job["type"] == "CLEANUP"
    job = follow(api, client, project["id"], job)
    assert job["status"] == "COMPLETED"
    assert cloud(client) == []
    for name in ("m1", "m2", "m3"):
        assert "replica" not in api.ok("GET", _path(project, "/machines/" + project["machines"][name]))
    response = api.delete(_path(project, "/replicas"), json={"replicaIDs": replicas[:1]})
    assert response.status_code == 400  # already terminated


def test_jobs_are_listed_newest_first_and_paged(api, client, project):
    ids = []
    for name in ("m1", "m2", "m3"):
        ids.append(follow(api, client, project["id"], launch(api, project, [name]))["id"])
    assert [j["id"] for j in api.ok("GET", _path(project, "/jobs"))["items"]] == ids[::-1]
    assert [j["id"] for j in api.ok("GET", _path(project, "/jobs"), params={"offset": 1, "limit": 1})["items"]] == [ids[1]]
    assert api.get(_path(project, "/jobs/nope")).status_code == 404


def test_every_action_is_in_the_audit_log_with_its_job(api, client, project):
    job = follow(api, client, project["id"], launch(api, project, ["m1"]))
    entry = api.ok("GET", _path(project, "/auditLog"))["items"][-1]
    assert entry["eventName"] == "MACHINES_LAUNCHED" and entry["jobId"] == job["id"]
    assert [machine["machineCloudEndureId"] for machine in entry["participatingMachines"]] == [project["machines"]["m1"]]
    assert entry["participatingMachines"][0]["machineCloudName"] == "m1" and entry["participatingMachines"][0]["machineCloudId"]


def test_rules_3_and_4_leave_launched_machines_in_the_cloud(api, client, project):
    follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))
    launched = {m["replicaId"] for m in cloud(client)}
    assert api.delete(_path(project, "/machines/" + project["machines"]["m1"])).status_code == 204
    assert {m["replicaId"] for m in cloud(client)} == launched
    assert api.delete(_path(project)).status_code == 204
    survivors = cloud(client)
    assert {m["replicaId"] for m in survivors} == launched and {m["state"] for m in survivors} == {"running"}
    assert {m["sourceMachineName"] for m in survivors} == {"m1", "m2", "m3"}
