"""The service's limits, as PATCH /_simulator/settings sets them: none by default (the published interface states none),
none again after a reset; each refusal with the status code and code of the services of the family."""

import pytest

from replication_service_simulator.seed import seed

from .conftest import PASSWORD, Api, advance, follow

# Two projects of one account, a machine in each: jobs that may run at once, but for the account's limits.
TWO_PROJECTS = {"accounts": [{
    "name": "limits",
    "licenses": [{"type": "DR", "count": 100, "expiresInDays": 365}],
    "users": [{"username": "owner@limits.test", "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]}],
    "cloudCredentials": [{"name": "aws", "cloud": "AWS", "publicKey": "AKIALIMITS", "accountIdentifier": "111122223333"}],
    "projects": [
        {"name": name, "type": "DR", "cloudCredentials": ["aws"],
         "replicationConfiguration": {"cloudCredentials": "aws", "region": "us-east-1", "subnet": "private-a"},
         "machines": [{"name": "%s-%d" % (name, n), "disks": [{"name": "/dev/sda", "size": 1_000_000_000}]} for n in (1, 2, 3)]}
        for name in ("one", "two")],
}]}


@pytest.fixture
def account(sim, client, long_sessions):
    seeded = seed(sim, TWO_PROJECTS)["accounts"][0]
    advance(client, 3600)  # replicated, with points in time
    api = Api(client)
    assert api.login("owner@limits.test").status_code == 200
    return api, seeded["projects"]


def settings(client, **limits):
    answer = client.patch("/_simulator/settings", json=limits)
    assert answer.status_code == 200, answer.text
    return answer.json()


def launch(api, project, count):
    items = [{"machineId": machine_id} for machine_id in list(project["machines"].values())[:count]]
    return api.post("/projects/%s/launchMachines" % project["id"], json={"launchType": "TEST", "items": items})


def jobs(api, project):
    return api.ok("GET", "/projects/%s/jobs" % project["id"])["items"]


def test_no_limits_by_default_and_none_after_a_reset(client, world):
    unset = {"requestsPerSecond": None, "serversPerJob": None, "concurrentJobs": None, "serversInActiveJobs": None,
             "failedLoginsBeforeLockout": 5}
    assert {name: client.get("/_simulator/settings").json()[name] for name in unset} == unset
    settings(client, requestsPerSecond=10, serversPerJob=100, concurrentJobs=2, serversInActiveJobs=500, failedLoginsBeforeLockout=3)
    client.post("/_simulator/reset")
    assert {name: client.get("/_simulator/settings").json()[name] for name in unset} == unset


def test_a_limit_set_to_zero_or_null_is_off_again(client, world):
    settings(client, serversPerJob=100, concurrentJobs=2)
    changed = settings(client, serversPerJob=0, concurrentJobs=None)
    assert changed["serversPerJob"] is None and changed["concurrentJobs"] is None


def test_a_job_of_more_machines_than_a_job_takes_is_refused_before_anything_starts(client, account):
    api, projects = account
    settings(client, serversPerJob=2)
    refused = launch(api, projects["one"], 3)
    assert refused.status_code == 400 and refused.json()["code"] == "tooManyMachines"
    assert jobs(api, projects["one"]) == [] and client.get("/_simulator/cloud").json()["items"] == []
    assert launch(api, projects["one"], 2).status_code == 202


def test_the_account_runs_at_most_its_concurrent_jobs_across_its_projects(client, account):
    api, projects = account
    settings(client, concurrentJobs=1)
    first = launch(api, projects["one"], 1)
    assert first.status_code == 202
    refused = launch(api, projects["two"], 1)
    assert refused.status_code == 429 and refused.json()["code"] == "tooManyJobs"
    assert jobs(api, projects["two"]) == []
    follow(api, client, projects["one"]["id"], first.json())
    assert launch(api, projects["two"], 1).status_code == 202


def test_the_account_takes_at_most_its_machines_in_active_jobs(client, account):
    api, projects = account
    settings(client, serversInActiveJobs=4)
    assert launch(api, projects["one"], 3).status_code == 202
    refused = launch(api, projects["two"], 2)
    assert refused.status_code == 429 and refused.json()["code"] == "tooManyJobs"
    assert launch(api, projects["two"], 1).status_code == 202  # 3 + 1: within the limit


def test_a_session_past_its_requests_a_second_is_answered_429_with_retry_after(client, account):
    api, projects = account
    settings(client, requestsPerSecond=3)
    answers = [api.get("/projects") for unused in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["code"] == "tooManyRequests" and answers[-1].headers["Retry-After"] == "1"
    # The statistics count the refusals by status, the job limits' too.
    settings(client, requestsPerSecond=None, serversPerJob=1)
    assert launch(api, projects["one"], 2).status_code == 400
    assert client.get("/_simulator/stats").json()["refused"] == {"400": 1, "429": 1}
    # Another session has its own count.
    settings(client, requestsPerSecond=3)
    other = Api(client.__class__(client.app))
    assert other.login("owner@limits.test").status_code == 200 and other.get("/projects").status_code == 200


def test_the_failed_sign_ins_before_a_lockout_are_a_setting(client, world):
    settings(client, failedLoginsBeforeLockout=2)
    api = Api(client)
    assert [api.login(password="wrong").status_code for unused in range(2)] == [401, 401]
    locked = api.login()
    assert locked.status_code == 429 and locked.json()["code"] == "tooManyRequests" and int(locked.headers["Retry-After"]) > 0
