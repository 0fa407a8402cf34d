"""The agent's installer the simulator serves, and the host it registers (a choice of ours: README
"The agent's installer")."""

import json
import os
import subprocess
import sys
import urllib.request

import pytest


def run_installer(root, path, token, directory, name, *extra, addresses=""):
    with urllib.request.urlopen(root + path) as answer:
        script = answer.read()
    installer = os.path.join(os.path.dirname(directory), "installer.py")
    with open(installer, "wb") as stream:
        stream.write(script)
    env = dict(os.environ, REPLICATION_AGENT_DIR=directory, REPLICATION_AGENT_HOSTNAME=name, REPLICATION_AGENT_PUBLIC_IPS=addresses)
    return subprocess.run([sys.executable, installer, "-t", token, "--no-prompt"] + list(extra), env=env, capture_output=True, text=True, check=False,
                          timeout=60)


def machines(api, project):
    return dict((m["sourceProperties"]["name"], m) for m in api.get("/projects/%s/machines" % project, params={"all": "true"}).json()["items"])


@pytest.mark.parametrize("path", ["/installer_linux.py", "/installer_win.exe"])
def test_the_installer_registers_its_host_once_and_its_uninstaller_removes_it(live, api, world, tmp_path, path):
    project = api.get("/projects/%s" % world["project"]["id"]).json()
    directory = str(tmp_path / "agent")
    done = run_installer(live.root, path, project["agentInstallationToken"], directory, "new-1", addresses="198.51.100.7")
    assert done.returncode == 0, done.stderr
    registered = machines(api, world["project"]["id"])["new-1"]
    assert registered["isAgentInstalled"] and registered["sourceProperties"]["publicIps"] == ["198.51.100.7"]
    with open(os.path.join(directory, "agent.json")) as stream:
        assert json.load(stream)["machineId"] == registered["id"]
    # Blueprints come with the machine, as for every machine that registers.
    assert any(b["machineId"] == registered["id"] for b in api.get("/projects/%s/blueprints" % world["project"]["id"]).json()["items"])
    again = run_installer(live.root, path, project["agentInstallationToken"], directory, "new-1")
    assert again.returncode == 0 and [m["id"] for m in machines(api, world["project"]["id"]).values() if m["sourceProperties"]["name"] == "new-1"] == [
        registered["id"]]
    removed = subprocess.run([os.path.join(directory, "uninstall")], capture_output=True, text=True, timeout=60, check=False)
    assert removed.returncode == 0 and not os.path.exists(directory)
    audit = api.get("/projects/%s/auditLog" % world["project"]["id"]).json()["items"]
    assert [entry["eventName"] for entry in audit].count("AGENT_INSTALLED") == 1


def test_a_wrong_token_registers_nothing_and_says_so(live, api, world, tmp_path):
    before = machines(api, world["project"]["id"])
    directory = str(tmp_path / "agent")
    done = run_installer(live.root, "/installer_linux.py", "not-the-token", directory, "new-2")
    assert done.returncode == 1 and "The service refused the agent (401): No project has this agent installation token." in done.stderr
    assert machines(api, world["project"]["id"]) == before and not os.path.exists(directory)


def test_the_installer_and_the_agents_channel_are_counted_but_not_the_service(client, world):
    client.delete("/_simulator/stats")
    assert client.get("/installer_linux.py").text.startswith("#!/usr/bin/env python3")
    assert client.post("/_simulator/agents", json={"token": "nope", "name": "x"}).status_code == 401
    routes = dict(((row["method"], row["route"]), row["count"]) for row in client.get("/_simulator/stats").json()["requests"])
    assert routes == {("GET", "/installer_linux.py"): 1, ("POST", "/_simulator/agents"): 1}
