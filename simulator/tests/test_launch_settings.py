"""What a region offers, clouds that change under a blueprint, and launches the cloud refuses."""

import ipaddress

import pytest

from .conftest import cloud, follow


@pytest.fixture
def east(api, client, replicating):
    """us-east-1 with the members the simulator knows beyond the published interface (address ranges, disk types)."""
    client.patch("/_simulator/settings", json={"unpublishedMembers": True})
    creds = replicating["cloudCredentials"]["aws-main"]
    return next(r for r in api.ok("GET", "/cloudCredentials/%s/regions" % creds)["items"] if r["name"] == "us-east-1")


def by_name(items, key):
    return dict((item["name"], item[key]) for item in items)


def blueprint_of(api, project, machine_id):
    path = "/projects/%s/blueprints" % project["id"]
    found = next(b for b in api.ok("GET", path)["items"] if b["machineId"] == machine_id)
    return "%s/%s" % (path, found["id"])


def launch(api, client, project, machine_id):
    job = api.ok("POST", "/projects/%s/launchMachines" % project["id"], status=202,
                 json={"launchType": "TEST", "items": [{"machineId": machine_id}]})
    return follow(api, client, project["id"], job)


def test_a_region_has_a_production_and_an_isolated_network_with_address_ranges(east):
    networks = dict((s["name"], s["networkId"]) for s in east["subnets"])
    assert networks["private-a"] == networks["public-a"] != networks["isolated-a"] == networks["isolated-b"]
    groups = dict((g["name"], g["networkId"]) for g in east["securityGroups"])
    assert groups["default"] == networks["private-a"] and groups["isolated"] == networks["isolated-a"]
    blocks = [ipaddress.ip_network(s["cidrBlock"]) for s in east["subnets"]]
    assert not any(a.overlaps(b) for i, a in enumerate(blocks) for b in blocks[i + 1:])
    assert east["staticIps"] and "gp3" in east["diskTypes"]


def test_drift_removes_from_a_region_what_was_deleted_in_the_cloud(api, client, replicating, east):
    subnets = by_name(east["subnets"], "subnetId")
    answer = client.post("/_simulator/drift", json={"regionId": east["id"], "remove": {
        "subnets": [subnets["private-b"]], "securityGroups": ["replication"], "instanceTypes": ["m5.large"]}})
    assert answer.status_code == 200 and answer.json()["removed"]["subnets"] == [subnets["private-b"]]
    creds = replicating["cloudCredentials"]["aws-main"]
    region = api.ok("GET", "/cloudCredentials/%s/regions/%s" % (creds, east["id"]))
    assert "private-b" not in by_name(region["subnets"], "subnetId") and "replication" not in by_name(region["securityGroups"], "securityGroupId")
    assert "m5.large" not in region["instanceTypes"] and "private-a" in by_name(region["subnets"], "subnetId")
    assert client.post("/_simulator/drift", json={"regionId": east["id"], "remove": {"disks": []}}).status_code == 422


def test_a_blueprint_that_names_what_the_region_lost_fails_the_launch_of_its_machine(api, client, replicating, east):
    project = replicating["project"]
    m1 = project["machines"]["m1"]
    subnets = by_name(east["subnets"], "subnetId")
    api.ok("PATCH", blueprint_of(api, project, m1), json={"subnetIDs": [subnets["private-b"]]})
    client.post("/_simulator/drift", json={"regionId": east["id"], "remove": {"subnets": ["private-b"]}})
    # The service refuses a blueprint naming it from now on; the one that named it before keeps it.
    assert api.patch(blueprint_of(api, project, m1), json={"subnetIDs": [subnets["private-b"]]}).status_code == 400
    job = launch(api, client, project, m1)
    assert job["status"] == "FAILED"
    assert any("m1: conversion finished; the cloud refused to start the target machine: %s does not exist in region us-east-1."
               % subnets["private-b"] == line["message"] for line in job["log"])
    assert not [m for m in cloud(client) if m["sourceMachineId"] == m1]


@pytest.mark.parametrize("settings,reason", [
    (lambda s, g: {"subnetIDs": [s["isolated-a"]], "securityGroupIDs": [g["default"]]}, "subnets and security groups are in different networks"),
    (lambda s, g: {"subnetIDs": [s["private-a"]], "privateIPAction": "CUSTOM_IP", "privateIPs": ["172.16.0.9"]},
     "private address 172.16.0.9 is outside its subnet's range 10.0.0.0/11"),
])
def test_the_cloud_refuses_a_machine_in_two_networks_or_outside_its_subnet(api, client, replicating, east, settings, reason):
    project = replicating["project"]
    m1 = project["machines"]["m1"]
    api.ok("PATCH", blueprint_of(api, project, m1), json=settings(by_name(east["subnets"], "subnetId"), by_name(east["securityGroups"], "securityGroupId")))
    job = launch(api, client, project, m1)
    assert job["status"] == "FAILED" and any(reason in line["message"] for line in job["log"])


def test_a_machine_in_the_isolated_network_launches_there(api, client, replicating, east):
    project = replicating["project"]
    m1 = project["machines"]["m1"]
    subnets, groups = by_name(east["subnets"], "subnetId"), by_name(east["securityGroups"], "securityGroupId")
    isolated = {"subnetIDs": [subnets["isolated-a"]], "securityGroupIDs": [groups["isolated"]], "privateIPAction": "CUSTOM_IP",
                "privateIPs": ["172.16.0.9"]}
    api.ok("PATCH", blueprint_of(api, project, m1), json=isolated)
    assert launch(api, client, project, m1)["status"] == "COMPLETED"
    launched = next(m for m in cloud(client) if m["sourceMachineId"] == m1)
    assert launched["subnetId"] == subnets["isolated-a"] and launched["privateIp"] == "172.16.0.9"
