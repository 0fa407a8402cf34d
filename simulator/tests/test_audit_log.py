"""Every write leaves an entry in the audit log; the project's log reads by window and limit."""

import base64

import pytest

from replication_service_simulator import catalog

from .conftest import advance


def _writes(world, api):
    project = world["project"]["id"]
    m1, m2 = world["project"]["machines"]["m1"], world["project"]["machines"]["m2"]
    config = world["project"]["replicationConfiguration"]
    creds = world["cloudCredentials"]["aws-main"]
    regions = api.ok("GET", "/cloudCredentials/%s/regions" % creds)["items"]
    key = base64.b64encode(b"k").decode()
    return [
        ("POST", "/projects", {"name": "audited"}, "PROJECT_CREATED", None),
        ("PATCH", "/projects/" + project, {"name": "dr2"}, "PROJECT_UPDATED", project),
        ("POST", "/projects/%s/replicationConfigurations" % project, {"region": regions[1]["id"], "cloudCredentials": creds},
         "REPLICATION_CONFIGURATION_CREATED", project),
        ("PATCH", "/projects/%s/replicationConfigurations/%s" % (project, config), {"usePrivateIp": True}, "REPLICATION_CONFIGURATION_UPDATED", project),
        ("PATCH", "/projects/%s/machines/%s" % (project, m1), {"tags": ["x"]}, "MACHINE_UPDATED", project),
        ("PATCH", "/projects/%s/machines" % project, {"items": [{"id": m1, "tags": ["y"]}]}, "MACHINES_UPDATED", project),
        ("PATCH", "/projects/%s/machines/%s/bandwidthThrottling" % (project, m1), {"bandwidthThrottling": 5}, "BANDWIDTH_THROTTLING_UPDATED", project),
        ("POST", "/projects/%s/pauseReplication" % project, {"machineIDs": [m1]}, "REPLICATION_PAUSED", project),
        ("POST", "/projects/%s/startReplication" % project, {"machineIDs": [m1]}, "REPLICATION_STARTED", project),
        ("POST", "/projects/%s/stopReplication" % project, {"machineIDs": [m1]}, "REPLICATION_STOPPED", project),
        ("DELETE", "/projects/%s/machines/%s" % (project, m2), None, "AGENT_UNINSTALLED", project),
        ("POST", "/projects/assignUsers", {"items": [{"projectId": project, "userIDs": [world["users"]["admin@acme.test"]]}]},
         "PROJECT_USERS_ASSIGNED", project),
        ("POST", "/projects/removeUsers", {"items": [{"projectId": project, "userIDs": [world["users"]["admin@acme.test"]]}]},
         "PROJECT_USERS_REMOVED", project),
        ("POST", "/users", {"username": "someone@acme.test"}, "USER_CREATED", None),
        ("PATCH", "/users/" + world["users"]["owner@acme.test"], {"termsAccepted": False}, "USER_UPDATED", None),
        ("POST", "/users/assignRoles", {"items": [{"userId": world["users"]["user@acme.test"], "roles": ["ACCOUNT_ADMIN"]}]},
         "USER_ROLES_ASSIGNED", None),
        ("POST", "/users/revokeRoles", {"items": [{"userId": world["users"]["user@acme.test"], "roles": ["ACCOUNT_ADMIN"]}]},
         "USER_ROLES_REVOKED", None),
        ("POST", "/cloudCredentials", {"name": "c", "cloudId": catalog.cloud_id("AWS"), "publicKey": "p", "privateKey": key},
         "CLOUD_CREDENTIALS_CREATED", None),
        ("PATCH", "/cloudCredentials/" + creds, {"name": "renamed", "privateKey": key}, "CLOUD_CREDENTIALS_UPDATED", None),
        ("POST", "/replaceApiToken", None, "API_TOKEN_REPLACED", None),
        ("POST", "/changePassword", {"oldPassword": "secret-pass", "newPassword": "secret-pass-2"}, "PASSWORD_CHANGED", None),
        ("DELETE", "/users/" + world["users"]["reader@acme.test"], None, "USER_DELETED", None),
        ("DELETE", "/projects/" + project, None, "PROJECT_DELETED", project),
    ]


def test_every_write_leaves_one_entry(api, world, client):
    for method, path, body, event, project in _writes(world, api):
        before = len(client.get("/_simulator/audit").json()["items"])
        response = api.request(method, path, json=body)
        assert response.status_code < 300, (method, path, response.text)
        entries = client.get("/_simulator/audit").json()["items"][before:]
        assert [e["eventName"] for e in entries] == [event], (method, path)
        assert entries[0]["username"] == "owner@acme.test"
        if project:
            assert entries[0]["projectId"] == project


def test_a_write_that_changes_nothing_or_fails_leaves_none(api, world, client):
    project = world["project"]["id"]
    before = len(client.get("/_simulator/audit").json()["items"])
    api.ok("PATCH", "/projects/" + project, json={"name": "dr"})
    api.ok("POST", "/projects/%s/startReplication" % project, json={"machineIDs": [world["project"]["machines"]["m1"]]})
    assert api.post("/projects", json={"name": "dr"}).status_code == 409
    assert len(client.get("/_simulator/audit").json()["items"]) == before


def test_entries_name_the_changed_fields_but_never_a_secret(api, world):
    creds = world["cloudCredentials"]["aws-main"]
    api.ok("PATCH", "/projects/" + world["project"]["id"], json={"name": "renamed"})
    entry = api.ok("GET", "/projects/%s/auditLog" % world["project"]["id"])["items"][-1]
    assert entry["changedFields"] == [{"fieldName": "name", "oldValue": "dr", "newValue": "renamed"}]
    api.ok("PATCH", "/cloudCredentials/" + creds, json={"privateKey": base64.b64encode(b"top secret").decode()})
    everything = str(api.client.get("/_simulator/audit").json())
    assert base64.b64encode(b"top secret").decode() not in everything


def test_read_by_window_and_limit(api, world, client, long_sessions):
    project = world["project"]["id"]
    path = "/projects/%s/auditLog" % project
    stamps = []
    for i in range(4):
        api.ok("PATCH", "/projects/" + project, json={"name": "n%d" % i})
        stamps.append(api.ok("GET", path)["items"][-1]["timestamp"])
        advance(client, 3600)
    log = api.ok("GET", path)
    assert [e["eventName"] for e in log["items"]] == ["PROJECT_UPDATED"] * 4 and log["hasMoreResults"] is False
    window = api.ok("GET", path, params={"fromDateTime": stamps[1], "toDateTime": stamps[2]})
    assert [e["timestamp"] for e in window["items"]] == stamps[1:3]
    limited = api.ok("GET", path, params={"limit": 3})
    assert len(limited["items"]) == 3 and limited["hasMoreResults"] is True


@pytest.mark.parametrize("params", [{"fromDateTime": "2026-01-01T00:00:00Z"}, {"toDateTime": "2026-01-01T00:00:00Z"},
                                    {"fromDateTime": "yesterday", "toDateTime": "today"}, {"limit": 0}])
def test_bad_windows_are_422(api, world, params):
    response = api.get("/projects/%s/auditLog" % world["project"]["id"], params=params)
    assert response.status_code == 422


def test_a_member_set_for_the_first_time_has_no_old_value_not_a_null(api, world):
    project = world["project"]
    path = "/projects/%s/blueprints" % project["id"]
    blueprint = next(b for b in api.ok("GET", path)["items"] if b["machineId"] == project["machines"]["m1"])
    assert not blueprint.get("instanceType")
    api.ok("PATCH", "%s/%s" % (path, blueprint["id"]), json={"instanceType": "m5.xlarge"})
    entry = api.ok("GET", "/projects/%s/auditLog" % project["id"])["items"][-1]  # the answer is checked against its model: no nulls
    assert entry["changedFields"] == [{"fieldName": "instanceType", "newValue": "m5.xlarge"}]
