"""GET, modify, PATCH: for every resource that has a PATCH, the object as GET answered it, with one
member changed, is accepted whole (as published clients and scripts send it); a read-only member
that tries to change is refused, and so is a member that no published model has."""

import base64

import pytest

from replication_service_simulator import catalog

from .conftest import advance


def round_trip(api, path, change, read=None, patch=None):
    """GET (or ``read()``), change, PATCH the whole object back; answers what the PATCH answered."""
    whole = read() if read else api.ok("GET", path)
    assert all(whole.get(member) != value for member, value in change.items()), "the change must change something"
    return api.ok("PATCH", patch or path, json=dict(whole, **change))


def refused(api, path, whole, change):
    response = api.patch(path, json=dict(whole, **change))
    assert response.status_code == 422, response.text
    return response.json()["message"]


@pytest.fixture
def project_path(world):
    return "/projects/" + world["project"]["id"]


def test_a_project(api, project_path):
    patched = round_trip(api, project_path, {"name": "disaster-recovery"})
    assert patched["name"] == "disaster-recovery" and api.ok("GET", project_path)["name"] == "disaster-recovery"
    whole = api.ok("GET", project_path)
    assert "type is read-only" in refused(api, project_path, whole, {"type": "BACKUP"})
    assert "agentInstallationToken is read-only" in refused(api, project_path, whole, {"agentInstallationToken": "mine"})
    assert refused(api, project_path, whole, {"colour": "red"})


def test_a_replication_configuration(api, project_path):
    config = api.ok("GET", project_path + "/replicationConfigurations")["items"][0]
    path = "%s/replicationConfigurations/%s" % (project_path, config["id"])
    patched = round_trip(api, path, {"replicationServerType": "m5.large"}, read=lambda: config)
    assert patched["replicationServerType"] == "m5.large" and patched["id"] == config["id"]
    assert "id is read-only" in refused(api, path, patched, {"id": "00000000-0000-4000-8000-000000000000"})


def test_a_machine_even_when_its_replication_moved_on(api, client, project_path, world):
    path = "%s/machines/%s" % (project_path, world["project"]["machines"]["m1"])
    before = api.ok("GET", path)
    advance(client, 120)  # replicationInfo and lifeCycle move on meanwhile: they are ignored
    patched = round_trip(api, path, {"tags": ["web"]}, read=lambda: before)
    assert patched["tags"] == ["web"]
    assert "replicationStatus is read-only" in refused(api, path, patched, {"replicationStatus": "PAUSED"})
    assert "sourceProperties is read-only" in refused(api, path, patched, {"sourceProperties": {"name": "renamed"}})


def test_machines_all_at_once(api, project_path):
    machines = api.ok("GET", project_path + "/machines", params={"all": "true"})["items"]
    patched = api.ok("PATCH", project_path + "/machines", json={"items": [dict(m, tags=["dr"]) for m in machines]})["items"]
    assert [m["tags"] for m in patched] == [["dr"]] * len(machines)
    without_id = dict(machines[0])
    del without_id["id"]
    assert api.patch(project_path + "/machines", json={"items": [without_id]}).status_code == 422


def test_bandwidth_throttling(api, project_path, world):
    path = "%s/machines/%s/bandwidthThrottling" % (project_path, world["project"]["machines"]["m1"])
    assert round_trip(api, path, {"bandwidthThrottling": 20}) == {"bandwidthThrottling": 20}


def test_a_recovery_plan(api, project_path, world):
    steps = {"items": [{"name": "all", "machineIDs": [world["project"]["machines"]["m1"]]}]}
    plan = api.ok("POST", project_path + "/recoveryPlans", json={"name": "site", "steps": steps}, status=202)
    path = "%s/recoveryPlans/%s" % (project_path, plan["id"])
    assert round_trip(api, path, {"name": "whole-site"})["name"] == "whole-site"
    assert "id is read-only" in refused(api, path, api.ok("GET", path), {"id": "00000000-0000-4000-8000-000000000000"})


def test_a_blueprint(api, project_path):
    blueprint = api.ok("GET", project_path + "/blueprints")["items"][0]
    path = "%s/blueprints/%s" % (project_path, blueprint["id"])
    assert round_trip(api, path, {"tenancy": "DEDICATED"})["tenancy"] == "DEDICATED"
    assert "machineName is read-only" in refused(api, path, api.ok("GET", path), {"machineName": "another"})


def test_the_users_own_settings(api, world):
    me = api.ok("GET", "/me")  # with the user's API token, which a PATCH ignores
    path = "/users/" + me["id"]
    patched = round_trip(api, path, {"settings": {"sendNotifications": {"projectIDs": [world["project"]["id"]]}}}, read=lambda: me)
    assert patched["settings"]["sendNotifications"]["projectIDs"] == [world["project"]["id"]]
    assert "apiToken" not in patched
    assert "username is read-only" in refused(api, path, me, {"username": "someone@acme.test"})
    assert "roles is read-only" in refused(api, path, me, {"roles": ["USER"]})


def test_cloud_credentials(api, world):
    path = "/cloudCredentials/" + world["cloudCredentials"]["aws-other"]
    assert round_trip(api, path, {"name": "aws-other-account"})["name"] == "aws-other-account"
    assert "cloud is read-only" in refused(api, path, api.ok("GET", path), {"cloud": catalog.cloud_id("GCP")})


def test_a_generic_region(api):
    key = base64.b64encode(b"datacenter-key").decode()
    creds = api.ok("POST", "/cloudCredentials", status=201, json={"name": "dc", "cloudId": catalog.cloud_id("GENERIC"),
                                                                  "publicKey": "dc", "privateKey": key})
    region = api.ok("GET", "/cloudCredentials/%s/regions" % creds["id"])["items"][0]
    path = "/cloudCredentials/%s/regions/%s" % (creds["id"], region["id"])
    assert round_trip(api, path, {"name": "basement"})["name"] == "basement"
    assert "cloud is read-only" in refused(api, path, api.ok("GET", path), {"cloud": "another"})
