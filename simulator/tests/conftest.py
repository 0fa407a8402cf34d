"""Fixtures for the simulator's own tests.

Most tests drive the application in-process (starlette's TestClient) on a stopped clock, so
time moves only when a test moves it. Tests that need a real socket (dropped connections, the
published-interface client) use ``live``, a server on a free port of 127.0.0.1.
"""

import pytest
from fastapi.testclient import TestClient

from replication_service_simulator import Simulator, create_app
from replication_service_simulator.clock import VirtualClock
from replication_service_simulator.seed import seed
from replication_service_simulator.server import BackgroundServer

BASE = "/api/latest"
START = 1795000000.0  # 2026-11-18T11:06:40Z: a fixed start, so every run sees the same clock
PASSWORD = "secret-pass"
GIB = 1024 ** 3

# A world with every role, two cloud accounts (one with two keys), and a DR project whose
# machines are small enough to replicate in minutes.
WORLD = {"accounts": [{
    "name": "acme",
    "maxProjectsAllowed": 5,
    "licenses": [{"type": "DR", "count": 100, "expiresInDays": 365}, {"type": "DR_TRIAL", "count": 10, "expiresInDays": 30}],
    "users": [
        {"username": "owner@acme.test", "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]},
        {"username": "admin@acme.test", "password": PASSWORD, "roles": ["ACCOUNT_ADMIN"]},
        {"username": "user@acme.test", "password": PASSWORD, "roles": ["USER"]},
        {"username": "reader@acme.test", "password": PASSWORD, "roles": ["GLOBAL_READONLY"]},
    ],
    "cloudCredentials": [
        {"name": "aws-main", "cloud": "AWS", "publicKey": "AKIAMAIN", "accountIdentifier": "111122223333"},
        {"name": "aws-main-rotated", "cloud": "AWS", "publicKey": "AKIAROTATED", "accountIdentifier": "111122223333"},
        {"name": "aws-other", "cloud": "AWS", "publicKey": "AKIAOTHER", "accountIdentifier": "999988887777"},
    ],
    "projects": [
        {
            "name": "dr", "type": "DR", "cloudCredentials": ["aws-main"], "users": ["user@acme.test"],
            "replicationConfiguration": {"cloudCredentials": "aws-main", "region": "us-east-1", "subnet": "private-a"},
            "machines": [
                {"name": "m1", "disks": [{"name": "/dev/sda", "size": 1_000_000_000}], "tags": ["web", "prod"]},
                {"name": "m2", "tags": ["db"], "disks": [{"name": "/dev/sda", "size": 2_000_000_000},
                                                         {"name": "/dev/sdb", "size": 500_000_000, "isProtected": False}]},
                {"name": "m3", "disks": [{"name": "/dev/sda", "size": 1_000_000_000}], "launched": "TEST"},
            ],
        },
        {"name": "hidden", "type": "DR", "cloudCredentials": ["aws-main"]},
    ],
}]}


class Api:
    """Speaks the wire contract: session cookie, XSRF header on writes, JSON bodies."""

    def __init__(self, client, prefix=BASE):
        self.client = client
        self.prefix = prefix
        self.xsrf = None

    def login(self, username="owner@acme.test", password=PASSWORD, **body):
        body = body or {"username": username, "password": password}
        response = self.client.post(self.prefix + "/login", json=body)
        if response.status_code == 200:
            self.xsrf = self.client.cookies.get("XSRF-TOKEN")
        return response

    def request(self, method, path, json=None, params=None, xsrf=True, **kwargs):
        headers = kwargs.pop("headers", {})
        if xsrf and method not in ("GET", "HEAD") and self.xsrf is not None:
            headers.setdefault("X-XSRF-TOKEN", self.xsrf)
        return self.client.request(method, self.prefix + path, json=json, params=params, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json=json, **kwargs)

    def patch(self, path, json=None, **kwargs):
        return self.request("PATCH", path, json=json, **kwargs)

    def delete(self, path, json=None, **kwargs):
        return self.request("DELETE", path, json=json, **kwargs)

    def ok(self, method, path, json=None, status=200, **kwargs):
        """The response body, after checking the status."""
        response = self.request(method, path, json=json, **kwargs)
        assert response.status_code == status, (method, path, response.status_code, response.text)
        return response.json() if response.content else None


def assert_no_nulls(value, where="body"):
    """docs/wire.md: a member with no value is left out, never sent as null."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert item is not None, "%s.%s is null" % (where, key)
            assert_no_nulls(item, "%s.%s" % (where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            assert item is not None, "%s[%d] is null" % (where, index)
            assert_no_nulls(item, "%s[%d]" % (where, index))


@pytest.fixture
def sim():
    return Simulator(seed="tests", clock=VirtualClock(scale=0, start=START), check_answers=True)


@pytest.fixture
def app(sim):
    return create_app(sim)


@pytest.fixture
def client(app):
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def world(sim):
    """IDs of the seeded WORLD, by name."""
    account = seed(sim, WORLD)["accounts"][0]
    account["project"] = account["projects"]["dr"]
    return account


@pytest.fixture
def api(client, world):
    """Logged in as the account owner."""
    api = Api(client)
    assert api.login().status_code == 200
    return api


@pytest.fixture
def login_as(client, world):
    """A factory of APIs logged in as other users of WORLD, each with its own cookies."""
    def factory(username):
        api = Api(TestClient(client.app))
        assert api.login(username).status_code == 200
        return api
    return factory


def advance(client, seconds):
    return client.post("/_simulator/clock", json={"advanceSeconds": seconds}).json()["now"]


@pytest.fixture
def live(app):
    with BackgroundServer(app) as server:
        yield server


@pytest.fixture
def long_sessions(client):
    """For tests that jump the clock by hours: sessions would expire, as they do in the service."""
    client.patch("/_simulator/settings", json={"sessionLifetimeSeconds": 100 * 86400})


@pytest.fixture
def replicating(long_sessions, client, world):
    """WORLD an hour later: every machine has finished initial sync and has points in time."""
    advance(client, 3600)
    return world


def follow(api, client, project_id, job, step=30, limit=4 * 3600):
    """Jump the clock until the job ends; the job as it ended."""
    waited = 0
    while job["status"] in ("PENDING", "STARTED"):
        assert waited <= limit, "job %s did not end" % job["id"]
        advance(client, step)
        waited += step
        job = api.ok("GET", "/projects/%s/jobs/%s" % (project_id, job["id"]))
    return job


def cloud(client):
    """Machines that exist in the target cloud."""
    return client.get("/_simulator/cloud").json()["items"]
