# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_agent tells which hosts need the agent, and removes machines only when told to, never a failed-over one."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.modules.service_agent import AgentModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient, set_up_without_ansible

PROJECT = {"id": "p1", "name": "production", "agentInstallationToken": "s3cret-t0ken"}
PARAMS = dict(project="production", state="present", confirm_removal=False, wait_timeout=60, poll_interval=1)


class Failed(Exception):
    pass


class Client(PathClient):
    def delete(self, path, body=None):
        self.requests.append(("DELETE", path, body))


class Agent(AgentModule):
    def __init__(self, client, check_mode=False, **params):
        set_up_without_ansible(self, client, dict(PARAMS, **params), check_mode=check_mode)

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)


def machine(name, installed=True, **members):
    return dict({"id": name + "-id", "sourceProperties": {"name": name}, "isAgentInstalled": installed}, **members)


def client(*machines):
    return Client({"/projects": [PROJECT], "/projects/p1/machines": list(machines)})


HOSTS = [dict(host="web-1.example.com", name="web-1", addresses=[]), dict(host="db-1", name="db-1", addresses=[]),
         dict(host="new-1", name="new-1", addresses=[])]


def test_present_keeps_the_registered_hosts_and_hands_out_the_token_for_the_others():
    result = Agent(client(machine("web-1"), machine("db-1", installed=False)), hosts=HOSTS).work()
    assert dict((host, entry["action"]) for host, entry in result["hosts"].items()) == {
        "web-1.example.com": "keep", "db-1": "install", "new-1": "install"}
    assert result["hosts"]["db-1"]["message"] == "db-1, without its agent" and result["installation_token"] == "s3cret-t0ken"


def test_present_with_every_host_in_place_hands_out_no_token():
    result = Agent(client(machine("web-1"), machine("db-1"), machine("new-1")), hosts=HOSTS).work()
    assert set(entry["action"] for entry in result["hosts"].values()) == {"keep"} and "installation_token" not in result


def test_absent_needs_its_confirmation_and_writes_nothing_without_it():
    service = client(machine("web-1"), machine("db-1"))
    with pytest.raises(Failed, match="Removing db-1, web-1 deletes their points in time for good: set confirm_removal"):
        Agent(service, hosts=HOSTS, state="absent").work()
    assert not [request for request in service.requests if request[0] == "DELETE"]


@pytest.mark.parametrize("check_mode", [False, True])
def test_absent_removes_the_machines_in_one_request_and_refuses_a_failed_over_one(check_mode):
    failed_over = machine("db-1", replica="db-1-recovery", lifeCycle={"lastRecoveryLaunchDateTime": "2026-11-20T10:00:00.000000+00:00"})
    service = client(machine("web-1"), failed_over, machine("keep-1"))
    module = Agent(service, check_mode=check_mode, hosts=HOSTS, state="absent", confirm_removal=True)
    result = module.work()
    assert [request for request in service.requests if request[0] == "DELETE"] == (
        [] if check_mode else [("DELETE", "/projects/p1/machines", {"machineIDs": ["web-1-id"]})])
    assert result["removed"] == ["web-1"] and module.changed
    hosts = result["hosts"]
    assert hosts["web-1.example.com"]["action"] == ("remove" if check_mode else "removed") and hosts["new-1"]["action"] == "none"
    assert hosts["db-1"] == dict(machine="db-1", machine_id="db-1-id", action="refused", message=(
        "db-1 is failed over: its recovery machine db-1-recovery runs production. Fail it back first; its machine was not removed."))


def test_absent_with_nothing_registered_writes_nothing():
    service = client(machine("other"))
    result = Agent(service, hosts=HOSTS, state="absent").work()
    assert result["removed"] == [] and set(entry["action"] for entry in result["hosts"].values()) == {"none"}
    assert not [request for request in service.requests if request[0] == "DELETE"]
