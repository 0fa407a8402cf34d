"""The control interface under /_simulator/: reset, seed, clock, statistics, faults, cloud."""

import time
from email.utils import parsedate_to_datetime

import pytest
import requests

from replication_service_simulator.seed import DEMO_PASSWORD
from .conftest import Api, advance


def test_reset_empties_the_state(api, client):
    api.get("/me")
    assert client.post("/_simulator/reset").status_code == 200
    assert client.get("/_simulator/stats").json()["total"] == 0
    assert client.get("/_simulator/cloud").json() == {"items": [], "replicationArtifacts": []}
    assert api.get("/me").status_code == 401  # sessions went too
    assert Api(client).login().status_code == 401  # and the users


def test_seed_answers_the_ids_it_created(client, world):
    assert set(world) >= {"id", "users", "apiTokens", "licenses", "cloudCredentials", "projects"}
    api = Api(client)
    api.login()
    projects = {p["name"]: p["id"] for p in api.ok("GET", "/projects")["items"]}
    assert projects == {name: p["id"] for name, p in world["projects"].items()}
    machines = {m["sourceProperties"]["name"]: m["id"] for m in api.ok("GET", "/projects/%s/machines" % projects["dr"])["items"]}
    assert machines == world["project"]["machines"]


def test_the_demo_preset(client):
    seeded = client.post("/_simulator/seed", json={"preset": "demo"}).json()["accounts"][0]
    demo = Api(client)
    assert demo.login("demo@example.com", DEMO_PASSWORD).status_code == 200
    token_login = Api(client).login(userApiToken=seeded["apiTokens"]["demo@example.com"])
    assert token_login.json()["username"] == "demo@example.com"
    reader = Api(client)
    assert reader.login("readonly@example.com", DEMO_PASSWORD).json()["roles"] == ["GLOBAL_READONLY"]
    project = demo.ok("GET", "/projects")["items"][0]
    assert project["name"] == "demo" and project["type"] == "DR" and project["replicationConfiguration"]
    machines = demo.ok("GET", "/projects/%s/machines" % project["id"])["items"]
    assert sorted(m["sourceProperties"]["name"] for m in machines) == ["app-1", "db-1", "db-2", "web-1", "web-2"]
    assert not any("lastConsistencyDateTime" in m["replicationInfo"] for m in machines)
    advance(client, 5 * 60)  # a few simulated minutes
    machines = demo.ok("GET", "/projects/%s/machines" % project["id"])["items"]
    assert all("lastConsistencyDateTime" in m["replicationInfo"] for m in machines)


@pytest.mark.parametrize("body", [{"preset": "nope"}, {"accounts": [{"projects": [{"type": "DR"}]}]}])
def test_a_bad_seed_is_422(client, body):
    response = client.post("/_simulator/seed", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "invalidInput"


def test_the_clock_jumps_and_can_change_speed(client):
    start = client.get("/_simulator/clock").json()
    assert start["timeScale"] == 0
    moved = client.post("/_simulator/clock", json={"advanceSeconds": 90}).json()
    assert moved["now"] > start["now"]
    assert client.post("/_simulator/clock", json={"advanceSeconds": -1}).status_code == 422
    fast = client.post("/_simulator/clock", json={"timeScale": 3600}).json()
    time.sleep(0.05)
    assert client.get("/_simulator/clock").json()["now"] > fast["now"]


def test_stats_count_per_method_and_route_template(api, world, client):
    client.delete("/_simulator/stats")
    project = world["project"]["id"]
    api.get("/projects/" + project)
    api.get("/projects/" + world["projects"]["hidden"]["id"])
    api.get("/projects/%s/machines" % project)
    api.patch("/projects/" + project, json={"name": "x"})
    api.post("/logout")
    Api(client).login()
    stats = client.get("/_simulator/stats").json()
    assert stats["total"] == 6
    assert stats["writes"] == 1  # login and logout are not writes
    counts = {(r["method"], r["route"]): r["count"] for r in stats["requests"]}
    assert counts == {("GET", "/projects/{projectId}"): 2, ("GET", "/projects/{projectId}/machines"): 1,
                      ("PATCH", "/projects/{projectId}"): 1, ("POST", "/logout"): 1, ("POST", "/login"): 1}
    # When each route was first asked, on the host's clock: in the order they were asked.
    first = {(r["method"], r["route"]): r["first"] for r in stats["requests"]}
    assert first[("GET", "/projects/{projectId}")] <= first[("PATCH", "/projects/{projectId}")] <= first[("POST", "/login")] <= time.time()
    assert client.delete("/_simulator/stats").status_code == 204
    assert client.get("/_simulator/stats").json() == {"total": 0, "writes": 0, "requests": [], "refused": {}}


def test_stats_count_requests_that_fail(client, world):
    client.delete("/_simulator/stats")
    client.get("/api/latest/projects")  # 401
    assert [dict(method=row["method"], route=row["route"], count=row["count"]) for row in client.get("/_simulator/stats").json()["requests"]] == [
        {"method": "GET", "route": "/projects", "count": 1}]


def _fault(client, **rule):
    response = client.post("/_simulator/faults", json={"rules": [rule]})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_status_fault_with_a_count(api, client):
    _fault(client, method="GET", route="/projects", status=503, count=2)
    assert [api.get("/projects").status_code for attempt in range(3)] == [503, 503, 200]
    assert api.get("/me").status_code == 200  # other routes are untouched


def test_a_status_fault_with_a_rate(api, client):
    _fault(client, route="/projects", status=502, rate=1.0)
    assert {api.get("/projects").status_code for attempt in range(5)} == {502}
    assert api.get("/projects").json()["code"] == "internalError"
    client.delete("/_simulator/faults")
    _fault(client, route="/projects", status=502, rate=0.0)
    assert {api.get("/projects").status_code for attempt in range(5)} == {200}


def test_a_rate_fault_hits_some_requests(api, client):
    _fault(client, route="/me", status=500, rate=0.5)
    codes = [api.get("/me").status_code for attempt in range(200)]
    assert 50 < codes.count(500) < 150


def test_429_with_retry_after(api, client):
    _fault(client, method="*", route="/projects/{projectId}", status=429, retryAfter=7, count=1)
    response = api.get("/projects/anything")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "7"
    assert response.json()["code"] == "tooManyRequests"


def test_503_with_retry_after_as_an_http_date(api, client):
    _fault(client, route="/projects", status=503, retryAfter=30, retryAfterDate=True, count=1)
    response = api.get("/projects")
    assert response.status_code == 503 and response.json()["code"] == "unavailable"
    ahead = parsedate_to_datetime(response.headers["Retry-After"]).timestamp() - time.time()
    assert 28 <= ahead <= 30
    assert api.get("/projects").status_code == 200


def test_latency(api, client):
    _fault(client, route="/me", latencyMs=300)
    started = time.monotonic()
    assert api.get("/me").status_code == 200
    assert time.monotonic() - started >= 0.3


def test_faults_are_listed_and_removed(client):
    _fault(client, route="/me", status=500)
    assert len(client.get("/_simulator/faults").json()["rules"]) == 1
    assert client.delete("/_simulator/faults").status_code == 204
    assert client.get("/_simulator/faults").json()["rules"] == []


@pytest.mark.parametrize("rule", [{"route": "/me"}, {"status": 200}, {"status": 500, "rate": 0.5, "count": 1},
                                  {"status": 500, "dropAfterWrite": True}])
def test_a_fault_rule_that_makes_no_sense_is_422(client, rule):
    assert client.post("/_simulator/faults", json={"rules": [rule]}).status_code == 422


def test_drop_after_write_does_the_work_and_sends_no_answer(live, world):
    session = requests.Session()
    assert session.post(live.url + "/login", json={"username": "owner@acme.test", "password": "secret-pass"}).status_code == 200
    xsrf = {"X-XSRF-TOKEN": session.cookies["XSRF-TOKEN"]}
    requests.post(live.root + "/_simulator/faults", json={"rules": [{"method": "POST", "route": "/projects", "dropAfterWrite": True, "count": 1}]})
    with pytest.raises(requests.ConnectionError):
        session.post(live.url + "/projects", json={"name": "dropped"}, headers=xsrf, timeout=5)
    names = [p["name"] for p in session.get(live.url + "/projects").json()["items"]]
    assert names.count("dropped") == 1  # the work was done, once
    # The next request is answered as usual.
    assert session.post(live.url + "/projects", json={"name": "answered"}, headers=xsrf).status_code == 201


def test_the_target_cloud_lists_launched_machines(client, world):
    cloud = client.get("/_simulator/cloud").json()
    assert [m["sourceMachineName"] for m in cloud["items"]] == ["m3"]
    machine = cloud["items"][0]
    assert machine["launchType"] == "TEST" and machine["projectName"] == "dr" and machine["id"].startswith("i-")


def test_the_ransomware_preset_has_two_machines_hit_at_two_moments(sim):
    from replication_service_simulator.seed import PRESETS, seed
    seed(sim, PRESETS["ransomware"])
    project = next(iter(sim.projects.values()))
    damaged = dict((m.name, None if m.damaged_from is None else round(sim.now() - m.damaged_from)) for m in project.machines.values())
    assert damaged == {"web-1": None, "app-1": 7 * 3600, "db-1": 20 * 3600}
