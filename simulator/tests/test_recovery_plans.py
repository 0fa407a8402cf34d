"""Recovery plans: create, read, patch, delete, and runs whose steps follow each other with waits."""

from datetime import datetime

import pytest

from .conftest import cloud, follow


@pytest.fixture
def project(replicating):
    return replicating["project"]


def _path(project, suffix=""):
    return "/projects/%s%s" % (project["id"], suffix)


def _steps(project, *steps):
    return {"items": [{"name": name, "machineIDs": [project["machines"][m] for m in machines], "waitBefore": wait}
                      for name, machines, wait in steps]}


def run(api, client, project, plan, mode):
    """Run the plan and follow its job to the end."""
    job = api.ok("POST", _path(project, "/runRecoveryPlan"), json={"recoveryPlanID": plan["id"], "executionMode": mode}, status=202)
    return follow(api, client, project["id"], job)


def seconds(text):
    return datetime.fromisoformat(text).timestamp()


THREE_STEPS = (("databases", ["m2"], "PT0S"), ("applications", ["m3"], "PT2M"), ("web", ["m1"], "PT5M"))


def test_create_read_patch_delete(api, project):
    plan = api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "full", "steps": _steps(project, *THREE_STEPS)}, status=202)
    assert plan["name"] == "full" and [s["name"] for s in plan["steps"]["items"]] == ["databases", "applications", "web"]
    assert api.ok("GET", _path(project, "/recoveryPlans/" + plan["id"])) == plan
    assert api.ok("GET", _path(project, "/recoveryPlans")) == {"items": [plan]}  # not paged: items only
    patched = api.ok("PATCH", _path(project, "/recoveryPlans/" + plan["id"]), json={"name": "renamed"})
    assert patched["name"] == "renamed" and patched["steps"] == plan["steps"]
    patched = api.ok("PATCH", _path(project, "/recoveryPlans/" + plan["id"]), json={"steps": _steps(project, ("all", ["m1", "m2"], None))})
    assert patched["steps"]["items"] == [{"name": "all", "machineIDs": [project["machines"]["m1"], project["machines"]["m2"]]}]
    assert api.delete(_path(project, "/recoveryPlans/" + plan["id"])).status_code == 204
    assert api.get(_path(project, "/recoveryPlans/" + plan["id"])).status_code == 404


@pytest.mark.parametrize("steps,status", [
    ((("s", ["nope"], None),), 400),
    ((("s", ["m1"], "ten minutes"),), 400),
    ((("", ["m1"], None),), 422),
])
def test_bad_plans(api, project, steps, status):
    body = {"name": "bad", "steps": _steps(project, *[(n, [m for m in ms if m != "nope"], w) for n, ms, w in steps])}
    if steps[0][1] == ["nope"]:
        body["steps"]["items"][0]["machineIDs"] = ["nope"]
    assert api.post(_path(project, "/recoveryPlans"), json=body).status_code == status


def test_plan_names_are_unique(api, project):
    api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "one", "steps": {"items": []}}, status=202)
    assert api.post(_path(project, "/recoveryPlans"), json={"name": "one", "steps": {"items": []}}).status_code == 409


def test_a_run_takes_the_steps_in_order_with_their_waits(api, client, project):
    plan = api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "full", "steps": _steps(project, *THREE_STEPS)}, status=202)
    job = api.ok("POST", _path(project, "/runRecoveryPlan"), json={"recoveryPlanID": plan["id"], "executionMode": "TEST"}, status=202)
    assert job["type"] == "RECOVERY_PLAN_TEST"
    job = follow(api, client, project["id"], job)
    assert job["status"] == "COMPLETED"
    lines = {line["message"]: seconds(line["logDateTime"]) for line in job["log"]}
    started = [lines[next(m for m in lines if m.startswith("Step %d (" % n) and "started" in m)] for n in (1, 2, 3)]
    finished = [lines[next(m for m in lines if m.startswith("Step %d (" % n) and m.endswith("finished."))] for n in (1, 2, 3)]
    assert started[1] - finished[0] == 120 and started[2] - finished[1] == 300
    assert "Step 2 (applications): waiting PT2M before it starts." in lines

    def launched_at(name):
        replica = api.ok("GET", _path(project, "/machines/" + project["machines"][name]))["replica"]
        return seconds(api.ok("GET", _path(project, "/replicas/" + replica))["cloudEndureCreationDateTime"])

    launched = {name: launched_at(name) for name in ("m1", "m2", "m3")}
    assert launched["m2"] < launched["m3"] < launched["m1"]  # databases, applications, web


def test_a_cleanup_run_empties_the_cloud(api, client, project):
    plan = api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "full", "steps": _steps(project, *THREE_STEPS)}, status=202)
    run(api, client, project, plan, "TEST")
    assert len(cloud(client)) == 3
    job = api.ok("POST", _path(project, "/runRecoveryPlan"), json={"recoveryPlanID": plan["id"], "executionMode": "CLEANUP"}, status=202)
    job = follow(api, client, project["id"], job)
    assert job["type"] == "RECOVERY_PLAN_CLEANUP" and job["status"] == "COMPLETED"
    assert cloud(client) == []


def test_a_failed_step_stops_the_run(api, client, project):
    client.post("/_simulator/faults", json={"rules": [{"failMachines": ["m2"]}]})
    plan = api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "full", "steps": _steps(project, *THREE_STEPS)}, status=202)
    job = run(api, client, project, plan, "RECOVERY")
    messages = [line["message"] for line in job["log"]]
    assert job["status"] == "FAILED"
    assert "Step 1 (databases): failed." in messages
    assert "Step 2 (applications): skipped because step 1 failed." in messages and "Step 3 (web): skipped because step 1 failed." in messages
    assert not [m for m in cloud(client) if m["launchType"] == "RECOVERY"]


def test_a_run_from_a_point_in_time(api, client, project):
    m1 = project["machines"]["m1"]
    points = api.ok("GET", _path(project, "/machines/%s/pointsintime" % m1))["items"]
    plan = api.ok("POST", _path(project, "/recoveryPlans"), json={"name": "web", "steps": _steps(project, ("web", ["m1"], None))}, status=202)
    body = {"recoveryPlanID": plan["id"], "executionMode": "TEST", "pointInTimeID": points[1]["id"]}
    follow(api, client, project["id"], api.ok("POST", _path(project, "/runRecoveryPlan"), json=body, status=202))
    replica = api.ok("GET", _path(project, "/machines/" + m1))["replica"]
    assert api.ok("GET", _path(project, "/replicas/" + replica))["pointInTime"] == points[1]["id"]
    body["pointInTimeID"] = "nope"
    assert api.post(_path(project, "/runRecoveryPlan"), json=body).status_code == 400
    body = {"recoveryPlanID": "nope", "executionMode": "TEST"}
    assert api.post(_path(project, "/runRecoveryPlan"), json=body).status_code == 400
