"""The collection as the controllers run it: the Event-Driven Ansible controller (ansible-rulebook) and
AWX (ansible-runner), each test against a simulator of its own.

    python -m pytest tests/controllers      (with the collection on ANSIBLE_COLLECTIONS_PATH; make test-controllers)
"""

import json
import os
import subprocess
import sys
import time
import urllib.request
from http.cookiejar import CookieJar

import pytest

DEMO_USER, DEMO_PASSWORD = "demo@example.com", "demo-secret-1"  # simulator/replication_service_simulator/seed.py


class Simulator:
    """A simulator with the demo seed on a free port of 127.0.0.1, and a logged-in user of it."""

    def __init__(self, time_scale):
        # The simulator is in the collection's own environment (make test-controllers names its Python).
        command = [os.environ.get("SIMULATOR_PYTHON", sys.executable), "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", "0",
                   "--seed", "demo", "--time-scale", str(time_scale)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.api = self.process.stdout.readline().strip()
        assert self.api.startswith("http"), "the simulator did not start"
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.call("POST", "/login", {"username": DEMO_USER, "password": DEMO_PASSWORD})

    def call(self, method, path, body=None):
        xsrf = [cookie.value for cookie in self.cookies if cookie.name == "XSRF-TOKEN"] if method != "GET" else []
        request = urllib.request.Request(self.api + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                         headers=dict({"Content-Type": "application/json"} if body is not None else {},
                                                      **({"X-XSRF-TOKEN": xsrf[0]} if xsrf else {})))
        with self.opener.open(request, timeout=30) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def faults(self, rules):
        """Faults the simulator injects (its control interface, simulator/README.md)."""
        request = urllib.request.Request(self.api[:-len("/api/latest")] + "/_simulator/faults", method="POST",
                                         data=json.dumps({"rules": rules}).encode(), headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()

    def synced(self, seconds=120):
        """Wait until every machine has finished its initial sync (the demo's do within a few simulated minutes)."""
        project = self.call("GET", "/projects")["items"][0]["id"]
        deadline = time.monotonic() + seconds
        while not all("lastConsistencyDateTime" in machine["replicationInfo"]
                      for machine in self.call("GET", "/projects/%s/machines" % project)["items"]):
            assert time.monotonic() < deadline, "the demo's machines did not finish their initial sync"
            time.sleep(0.5)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def simulator():
    sim = Simulator(time_scale=60)
    yield sim
    sim.stop()


@pytest.fixture
def collections_path():
    path = os.environ.get("ANSIBLE_COLLECTIONS_PATH")
    if not path:
        pytest.fail("Put the staged collection on ANSIBLE_COLLECTIONS_PATH (make test-controllers does).")
    return path
