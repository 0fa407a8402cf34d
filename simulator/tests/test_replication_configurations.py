"""Replication configurations: one per region, validated against the region; stated rules 1 and 2."""

import pytest

from .conftest import advance


@pytest.fixture
def regions(api, world):
    items = api.ok("GET", "/cloudCredentials/%s/regions" % world["cloudCredentials"]["aws-main"])["items"]
    return {r["name"]: r for r in items}


def _path(world):
    return "/projects/%s/replicationConfigurations" % world["project"]["id"]


def test_create_with_every_member(api, world, regions):
    west = regions["us-west-2"]
    body = {
        "region": west["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"], "subnetId": west["subnets"][0]["subnetId"],
        "replicatorSecurityGroupIDs": [west["securityGroups"][1]["securityGroupId"]], "replicationServerType": "m5.large",
        "useDedicatedServer": True, "usePrivateIp": True, "volumeEncryptionAllowed": True, "volumeEncryptionKey": west["volumeEncryptionKeys"][0],
        "replicationTags": [{"key": "team", "value": "dr"}], "bandwidthThrottling": 50, "proxyUrl": "http://proxy:3128",
        "zone": "us-west-2b", "archivingEnabled": False,
    }
    created = api.ok("POST", _path(world), json=body, status=201)
    assert {k: created[k] for k in body} == body
    listed = api.ok("GET", _path(world))["items"]
    assert created in listed and len(listed) == 2


def test_defaults_are_present_and_unset_members_left_out(api, world, regions):
    created = api.ok("POST", _path(world), status=201, json={"region": regions["eu-west-1"]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"]})
    assert created["useDedicatedServer"] is False and created["replicatorSecurityGroupIDs"] == [] and created["bandwidthThrottling"] == 0
    assert "subnetId" not in created and "volumeEncryptionKey" not in created and "proxyUrl" not in created


def test_a_second_configuration_for_a_region_is_409(api, world, regions):
    response = api.post(_path(world), json={"region": regions["us-east-1"]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"]})
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"


@pytest.mark.parametrize("member,value", [
    ("subnetId", "subnet-0000"),
    ("replicatorSecurityGroupIDs", ["sg-0000"]),
    ("replicationServerType", "x9.huge"),
    ("volumeEncryptionKey", "arn:aws:kms:us-west-2:1:key/none"),
    ("zone", "mars-1a"),
    ("region", "00000000-0000-4000-8000-000000000000"),
    ("cloudCredentials", "00000000-0000-4000-8000-000000000000"),
])
def test_what_the_region_lacks_is_400(api, world, regions, member, value):
    body = {"region": regions["us-west-2"]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"], member: value}
    response = api.post(_path(world), json=body)
    assert response.status_code == 400, response.text
    assert member in response.json()["message"]


def test_a_subnet_of_another_cloud_account_is_400(api, world, regions):
    other = api.ok("GET", "/cloudCredentials/%s/regions/%s" % (world["cloudCredentials"]["aws-other"], regions["us-west-2"]["id"]))
    response = api.post(_path(world), json={"region": regions["us-west-2"]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"],
                                            "subnetId": other["subnets"][0]["subnetId"]})
    assert response.status_code == 400


def test_patch_changes_only_what_it_names(api, world, regions):
    path = _path(world) + "/" + world["project"]["replicationConfiguration"]
    before = api.ok("GET", _path(world))["items"][0]
    after = api.ok("PATCH", path, json={"usePrivateIp": True, "replicationTags": [{"key": "a", "value": "b"}]})
    assert after == dict(before, usePrivateIp=True, replicationTags=[{"key": "a", "value": "b"}])
    assert api.patch(_path(world) + "/nope", json={"usePrivateIp": True}).status_code == 404
    assert api.patch(path, json={"subnetId": "subnet-0000"}).status_code == 400
    assert api.patch(path, json={"bandwidthThrottling": -1}).status_code == 422


def _machines(api, world):
    return api.ok("GET", "/projects/%s/machines" % world["project"]["id"])["items"]


def _in_sync(api, world):
    return all("lastConsistencyDateTime" in m["replicationInfo"] for m in _machines(api, world))


def test_rule_1_a_new_encryption_key_restarts_initial_sync(api, world, regions, client, long_sessions):
    advance(client, 2 * 3600)
    assert _in_sync(api, world)
    path = _path(world) + "/" + world["project"]["replicationConfiguration"]
    api.ok("PATCH", path, json={"volumeEncryptionKey": regions["us-east-1"]["volumeEncryptionKeys"][1]})
    for machine in _machines(api, world):
        info = machine["replicationInfo"]
        assert "lastConsistencyDateTime" not in info
        assert info["replicatedStorageBytes"] == 0
        assert len(info["initiationStates"]["items"]) == 2
    advance(client, 2 * 3600)
    assert _in_sync(api, world)
    # The same key again changes nothing.
    api.ok("PATCH", path, json={"volumeEncryptionKey": regions["us-east-1"]["volumeEncryptionKeys"][1]})
    assert _in_sync(api, world)


def test_rule_2_credentials_of_another_cloud_account_restart_initial_sync(api, world, client, long_sessions):
    advance(client, 2 * 3600)
    path = _path(world) + "/" + world["project"]["replicationConfiguration"]
    config = api.ok("GET", _path(world))["items"][0]
    # Credentials of the same cloud account: replication goes on.
    api.ok("PATCH", path, json={"cloudCredentials": world["cloudCredentials"]["aws-main-rotated"]})
    assert _in_sync(api, world)
    # Another account: its own networks, and a full initial sync.
    other = api.ok("GET", "/cloudCredentials/%s/regions/%s" % (world["cloudCredentials"]["aws-other"], config["region"]))
    api.ok("PATCH", path, json={"cloudCredentials": world["cloudCredentials"]["aws-other"], "subnetId": other["subnets"][0]["subnetId"]})
    assert not any("lastConsistencyDateTime" in m["replicationInfo"] for m in _machines(api, world))
    audit = api.ok("GET", "/projects/%s/auditLog" % world["project"]["id"])["items"][-1]
    assert "restarted from initial sync for 3 machines" in audit["description"]


def test_rule_2_needs_networks_of_the_new_account(api, world):
    path = _path(world) + "/" + world["project"]["replicationConfiguration"]
    response = api.patch(path, json={"cloudCredentials": world["cloudCredentials"]["aws-other"]})
    assert response.status_code == 400
    assert "subnetId" in response.json()["message"]
