"""Faults of jobs: failing machines (by name, by rate), failing jobs, slow jobs; and a dropped launch."""

from datetime import datetime

import time

import pytest
import requests

from .conftest import cloud, follow


@pytest.fixture
def project(replicating):
    return replicating["project"]


def _fault(client, **rule):
    response = client.post("/_simulator/faults", json={"rules": [rule]})
    assert response.status_code == 200, response.text


def launch(api, project, names, launch_type="TEST"):
    body = {"launchType": launch_type, "items": [{"machineId": project["machines"][n]} for n in names]}
    return api.ok("POST", "/projects/%s/launchMachines" % project["id"], json=body, status=202)


def seconds(text):
    return datetime.fromisoformat(text).timestamp()


def test_a_machine_named_in_a_fault_fails_and_the_others_launch(api, client, project):
    _fault(client, failMachines=["m2"])
    job = follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))
    assert job["status"] == "FAILED"
    assert "m2: conversion failed (simulated failure)." in [line["message"] for line in job["log"]]
    assert sorted(m["sourceMachineName"] for m in cloud(client)) == ["m1", "m3"]  # m3 was launched by the seed


def test_a_machine_fault_with_a_count_hits_that_many_jobs(api, client, project):
    _fault(client, failMachines=["m1"], count=1)
    assert follow(api, client, project["id"], launch(api, project, ["m1"]))["status"] == "FAILED"
    assert follow(api, client, project["id"], launch(api, project, ["m1"]))["status"] == "COMPLETED"


def test_a_failure_rate(api, client, project):
    _fault(client, failRate=1.0)
    job = follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))
    assert job["status"] == "FAILED" and "2 of 2 machines failed" in job["log"][-1]["message"]
    client.delete("/_simulator/faults")
    _fault(client, failRate=0.0)
    assert follow(api, client, project["id"], launch(api, project, ["m1", "m2"]))["status"] == "COMPLETED"


def test_a_whole_job_fails(api, client, project):
    _fault(client, failJob=True, count=1)
    failed = follow(api, client, project["id"], launch(api, project, ["m1"]))
    assert failed["status"] == "FAILED"
    assert [line["message"] for line in failed["log"]] == ["Job started.", "Job failed: simulated failure of the whole job.", "Job failed."]
    assert [m["sourceMachineName"] for m in cloud(client)] == ["m3"]
    # The count is spent: the next job runs.
    assert follow(api, client, project["id"], launch(api, project, ["m1"]))["status"] == "COMPLETED"


def test_slow_jobs(api, client, project):
    normal = follow(api, client, project["id"], launch(api, project, ["m1"]), step=5)
    _fault(client, slowFactor=3)
    slow = follow(api, client, project["id"], launch(api, project, ["m1"]), step=5)

    def duration(job):
        return seconds(job["endDateTime"]) - seconds(job["creationDateTime"])

    assert duration(slow) == pytest.approx(3 * duration(normal), rel=0.05)


def test_a_job_fault_applies_to_the_job_types_it_names(api, client, project):
    _fault(client, failJob=True, jobTypes=["CLEANUP"])
    assert follow(api, client, project["id"], launch(api, project, ["m1"]))["status"] == "COMPLETED"
    job = api.ok("DELETE", "/projects/%s/replicas" % project["id"], json={"replicaIDs": [project["replicas"]["m3"]]}, status=202)
    assert follow(api, client, project["id"], job)["status"] == "FAILED"


def test_request_faults_do_not_touch_jobs_nor_job_faults_requests(api, client, project):
    _fault(client, failMachines=["m1"])
    assert api.get("/projects/%s" % project["id"]).status_code == 200
    assert client.get("/_simulator/faults").json()["rules"][0]["failMachines"] == ["m1"]


def test_a_dropped_launch_creates_exactly_one_job(live, replicating):
    project = replicating["project"]
    session = requests.Session()
    assert session.post(live.url + "/login", json={"username": "owner@acme.test", "password": "secret-pass"}).status_code == 200
    requests.post(live.root + "/_simulator/faults", json={"rules": [
        {"method": "POST", "route": "/projects/{projectId}/launchMachines", "dropAfterWrite": True, "count": 1}]})
    body = {"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"]}]}
    with pytest.raises(requests.ConnectionError):
        session.post(live.url + "/projects/%s/launchMachines" % project["id"], json=body,
                     headers={"X-XSRF-TOKEN": session.cookies["XSRF-TOKEN"]}, timeout=5)
    jobs = session.get(live.url + "/projects/%s/jobs" % project["id"]).json()["items"]
    assert len(jobs) == 1 and jobs[0]["type"] == "TEST_LAUNCH"


def test_a_late_write_is_done_after_the_client_gave_up(live, replicating):
    """latencyMs comes before the work: a client with a shorter timeout gets no answer, and the service
    still launches, later. With count, only the next request is slow."""
    project = replicating["project"]
    session = requests.Session()
    assert session.post(live.url + "/login", json={"username": "owner@acme.test", "password": "secret-pass"}).status_code == 200
    requests.post(live.root + "/_simulator/faults", json={"rules": [
        {"method": "POST", "route": "/projects/{projectId}/launchMachines", "latencyMs": 1500, "count": 1}]})
    jobs_url = live.url + "/projects/%s/jobs" % project["id"]
    body = {"launchType": "TEST", "items": [{"machineId": project["machines"]["m1"]}]}
    with pytest.raises(requests.Timeout):
        session.post(live.url + "/projects/%s/launchMachines" % project["id"], json=body,
                     headers={"X-XSRF-TOKEN": session.cookies["XSRF-TOKEN"]}, timeout=0.3)
    assert session.get(jobs_url).json()["items"] == []  # not yet
    deadline = time.monotonic() + 10
    while not session.get(jobs_url).json()["items"]:
        assert time.monotonic() < deadline, "the late write never happened"
        time.sleep(0.1)
    jobs = session.get(jobs_url).json()["items"]
    assert len(jobs) == 1 and jobs[0]["type"] == "TEST_LAUNCH"
    assert requests.get(live.root + "/_simulator/faults").json()["rules"][0]["count"] == 0  # spent
