"""Projects: create, read, patch, delete (stated rule 4), tags, storage, users."""

import pytest

from replication_service_simulator import catalog

from .conftest import advance


def test_create_read_patch_delete(api, world):
    created = api.ok("POST", "/projects", status=201, json={"name": "new", "type": "MIGRATION", "cloudCredentialsIDs": [world["cloudCredentials"]["aws-main"]]})
    assert created["type"] == "MIGRATION" and created["targetCloudId"] == catalog.cloud_id("AWS")
    assert created["replicationReversed"] is False and created["agentInstallationToken"]
    assert "replicationConfiguration" not in created  # none yet: left out, not null
    assert api.ok("GET", "/projects/" + created["id"]) == created
    patched = api.ok("PATCH", "/projects/" + created["id"], json={"name": "newer", "sourceRegion": catalog.GENERIC_REGION_ID})
    assert patched["name"] == "newer" and patched["sourceRegion"] == catalog.GENERIC_REGION_ID
    assert patched["agentInstallationToken"] == created["agentInstallationToken"]
    assert api.delete("/projects/" + created["id"]).status_code == 204
    assert api.get("/projects/" + created["id"]).status_code == 404
    assert api.delete("/projects/" + created["id"]).status_code == 404


def test_a_dr_project_gets_a_dr_license(api, world):
    created = api.ok("POST", "/projects", status=201, json={"name": "x"})
    assert created["type"] == "DR"
    assert created["licensesIDs"] == world["licenses"][:1]


def test_a_taken_name_is_409(api):
    response = api.post("/projects", json={"name": "dr"})
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"
    other = api.ok("POST", "/projects", status=201, json={"name": "other"})
    assert api.patch("/projects/" + other["id"], json={"name": "dr"}).status_code == 409


def test_the_account_limit_of_projects_is_400(api):
    for i in range(3):  # WORLD allows 5 and has 2
        api.ok("POST", "/projects", status=201, json={"name": "p%d" % i})
    response = api.post("/projects", json={"name": "one-too-many"})
    assert response.status_code == 400
    assert "maximum of 5 projects" in response.json()["message"]


@pytest.mark.parametrize("body", [
    {"cloudCredentialsIDs": ["nope"]},
    {"licensesIDs": ["nope"]},
    {"replicationConfiguration": "nope"},
    {"sourceRegion": "nope"},
    {"sourceCloudId": "nope"},
])
def test_patch_with_unknown_references_is_400(api, world, body):
    response = api.patch("/projects/" + world["project"]["id"], json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalidInput"


def test_a_target_cloud_must_be_a_target(api):
    response = api.post("/projects", json={"name": "x", "targetCloudId": catalog.cloud_id("VCENTER")})
    assert response.status_code == 400


def test_make_a_replication_configuration_the_default(api, world):
    project = world["projects"]["hidden"]["id"]
    regions = api.ok("GET", "/cloudCredentials/%s/regions" % world["cloudCredentials"]["aws-main"])["items"]
    config = api.ok("POST", "/projects/%s/replicationConfigurations" % project, status=201,
                    json={"region": regions[0]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"]})
    assert api.ok("PATCH", "/projects/" + project, json={"replicationConfiguration": config["id"]})["replicationConfiguration"] == config["id"]
    # A configuration of another project is not this project's.
    response = api.patch("/projects/" + project, json={"replicationConfiguration": world["project"]["replicationConfiguration"]})
    assert response.status_code == 400


def test_tags_are_the_union_of_the_machines_tags(api, world):
    assert api.ok("GET", "/projects/%s/tags" % world["project"]["id"])["items"] == ["db", "prod", "web"]


def test_storage(api, world, client, long_sessions):
    path = "/projects/%s/storage" % world["project"]["id"]
    before = api.ok("GET", path)
    assert before["projectId"] == world["project"]["id"]
    assert before["workingStorage"]["disksTotalBytes"] == 0  # still initiating
    assert before["runningMachinesTotalBytes"] == 1_000_000_000  # m3 was launched
    advance(client, 2 * 3600)
    after = api.ok("GET", path)
    assert after["workingStorage"]["disksTotalBytes"] == 4_000_000_000  # protected disks only
    assert after["pointsInTimeTotalBytes"] > 0
    assert after["calculationDateTime"] > before["calculationDateTime"]


def test_assign_and_remove_users(api, login_as, world):
    hidden = world["projects"]["hidden"]["id"]
    user_id = world["users"]["user@acme.test"]
    user = login_as("user@acme.test")
    assert user.get("/projects/" + hidden).status_code == 404
    projects = api.ok("POST", "/projects/assignUsers", json={"items": [{"projectId": hidden, "userIDs": [user_id]}]})["items"]
    assert projects[0]["usersIDs"] == [user_id]
    assert user.get("/projects/" + hidden).status_code == 200
    api.ok("POST", "/projects/removeUsers", json={"items": [{"projectId": hidden, "userIDs": [user_id]}]})
    assert user.get("/projects/" + hidden).status_code == 404
    assert api.post("/projects/assignUsers", json={"items": [{"projectId": "nope", "userIDs": [user_id]}]}).status_code == 404
    assert api.post("/projects/assignUsers", json={"items": [{"projectId": hidden, "userIDs": ["nope"]}]}).status_code == 404


def test_rule_4_deleting_a_project_keeps_only_launched_machines(api, world, client, long_sessions):
    project = world["project"]
    advance(client, 3 * 3600)  # replicating, with points in time and replication disks
    cloud = client.get("/_simulator/cloud").json()
    assert {a["projectId"] for a in cloud["replicationArtifacts"]} == {project["id"]}
    assert [m["replicaId"] for m in cloud["items"]] == [project["replicas"]["m3"]]
    assert api.delete("/projects/" + project["id"]).status_code == 204
    cloud = client.get("/_simulator/cloud").json()
    assert cloud["replicationArtifacts"] == []
    survivor = cloud["items"]
    assert [m["replicaId"] for m in survivor] == [project["replicas"]["m3"]]
    assert survivor[0]["projectId"] == project["id"] and survivor[0]["state"] == "running"
    for path in ("", "/machines", "/machines/%s/pointsintime" % project["machines"]["m1"], "/replicationConfigurations"):
        assert api.get("/projects/" + project["id"] + path).status_code == 404
    assert [lic["used"] for lic in api.ok("GET", "/licenses")["items"]] == [0, 0]
