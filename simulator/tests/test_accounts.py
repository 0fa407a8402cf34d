"""Users, the account, clouds, cloud credentials with their regions, and licences."""

import base64

import pytest
from fastapi.testclient import TestClient

from replication_service_simulator import catalog

from .conftest import PASSWORD, Api


def test_me_is_the_logged_in_user(api, world):
    me = api.ok("GET", "/me")
    assert me["id"] == world["users"]["owner@acme.test"]
    assert me["account"] == world["id"]
    assert me["status"] == "CONFIRMED" and me["hasPassword"] is True
    assert me["settings"] == {"sendNotifications": {"projectIDs": []}}


def test_invite_a_user_who_sets_a_password_and_logs_in(api, client):
    user = api.ok("POST", "/users", json={"username": "New@Acme.test"}, status=201)
    assert user["username"] == "new@acme.test" and user["status"] == "PENDING" and user["hasPassword"] is False
    assert "apiToken" not in user
    assert api.post("/users", json={"username": "new@acme.test"}).status_code == 409
    mail = client.get("/_simulator/outbox").json()["items"][-1]
    assert mail["to"] == "new@acme.test"
    assert Api(client).login("new@acme.test", "whatever1").status_code == 401
    assert client.post("/api/latest/setPassword", json={"token": "bogus", "newPassword": "long-enough"}).status_code == 400
    assert client.post("/api/latest/setPassword", json={"token": mail["token"], "newPassword": "short"}).status_code == 400
    assert client.post("/api/latest/setPassword", json={"token": mail["token"], "newPassword": "long-enough"}).status_code == 204
    assert client.post("/api/latest/setPassword", json={"token": mail["token"], "newPassword": "long-enough2"}).status_code == 400
    assert Api(TestClient(client.app)).login("new@acme.test", "long-enough").status_code == 200


def test_a_user_patches_its_own_notification_settings(api, world):
    project = world["project"]["id"]
    me = api.ok("PATCH", "/users/" + world["users"]["owner@acme.test"], json={"settings": {"sendNotifications": {"projectIDs": [project]}}})
    assert me["settings"]["sendNotifications"]["projectIDs"] == [project]
    response = api.patch("/users/" + world["users"]["owner@acme.test"], json={"settings": {"sendNotifications": {"projectIDs": ["nope"]}}})
    assert response.status_code == 404


def test_patching_another_user_answers_401(api, world):
    response = api.patch("/users/" + world["users"]["admin@acme.test"], json={"termsAccepted": False})
    assert response.status_code == 401


def test_delete_a_user_ends_its_sessions(api, login_as, world):
    user = login_as("user@acme.test")
    assert api.delete("/users/" + world["users"]["user@acme.test"]).status_code == 204
    assert user.get("/me").status_code == 401
    assert world["users"]["user@acme.test"] not in api.ok("GET", "/projects/" + world["project"]["id"])["usersIDs"]
    assert api.delete("/users/" + world["users"]["user@acme.test"]).status_code == 404


def test_the_owner_can_not_be_deleted(login_as, world):
    admin = login_as("admin@acme.test")
    response = admin.delete("/users/" + world["users"]["owner@acme.test"])
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"


def test_assign_and_revoke_roles(api, world):
    uid = world["users"]["user@acme.test"]
    users = api.ok("POST", "/users/assignRoles", json={"items": [{"userId": uid, "roles": ["ACCOUNT_ADMIN"]}]})["items"]
    assert users[0]["roles"] == ["USER", "ACCOUNT_ADMIN"]
    users = api.ok("POST", "/users/revokeRoles", json={"items": [{"userId": uid, "roles": ["USER"]}]})["items"]
    assert users[0]["roles"] == ["ACCOUNT_ADMIN"]
    assert api.post("/users/assignRoles", json={"items": [{"userId": "nobody", "roles": ["USER"]}]}).status_code == 404
    assert api.post("/users/assignRoles", json={"items": [{"userId": uid, "roles": ["KING"]}]}).status_code == 422


def test_change_password(api, client):
    assert api.post("/changePassword", json={"oldPassword": "wrong", "newPassword": "another-pass"}).status_code == 401
    assert api.post("/changePassword", json={"oldPassword": PASSWORD, "newPassword": "short"}).status_code == 400
    assert api.post("/changePassword", json={"oldPassword": PASSWORD, "newPassword": PASSWORD}).status_code == 400
    assert api.post("/changePassword", json={"oldPassword": PASSWORD, "newPassword": "another-pass"}).status_code == 204
    assert Api(TestClient(client.app)).login(password=PASSWORD).status_code == 401
    assert Api(TestClient(client.app)).login(password="another-pass").status_code == 200


def test_replace_api_token(api, client, world):
    old = world["apiTokens"]["owner@acme.test"]
    new = api.ok("POST", "/replaceApiToken")["apiToken"]
    assert new != old
    assert Api(TestClient(client.app)).login(userApiToken=old).status_code == 401
    assert Api(TestClient(client.app)).login(userApiToken=new).status_code == 200


def test_the_account_as_published(api, world):
    account = api.ok("GET", "/accounts/" + world["id"])
    assert account["ownerId"] == world["users"]["owner@acme.test"] and account["maxProjectsAllowed"] == 5
    assert "name" not in account  # the published Account has no name
    assert api.get("/accounts/00000000-0000-4000-8000-000000000000").status_code == 404


def test_access_sends_the_owner_a_temporary_token_by_mail(api, world, client, login_as):
    """The published meaning: not a look-up of users (the interface lists none)."""
    answer = api.ok("GET", "/accounts/%s/access" % world["id"])
    assert answer == {"message": "A temporary access token was sent to owner@acme.test."}
    mail, = client.get("/_simulator/outbox").json()["items"]
    assert mail["to"] == "owner@acme.test" and mail["kind"] == "access" and mail["token"]
    assert login_as("admin@acme.test").get("/accounts/%s/access" % world["id"]).status_code == 403


def test_extended_account_info(api, world):
    info = api.ok("GET", "/extendedAccountInfo")
    assert info["account"]["id"] == world["id"]
    assert info["user"]["username"] == "owner@acme.test"
    assert {p["name"] for p in info["projects"]["items"]} == {"dr", "hidden"}
    assert len(info["replicationConfigurations"]["items"]) == 1
    assert {c["name"] for c in info["clouds"]["items"]} >= {"AWS", "GENERIC"}
    assert info["genericRegion"]["id"] == catalog.GENERIC_REGION_ID
    assert info["dateTime"]["dateTime"].endswith("+00:00")


def test_clouds(api):
    clouds = api.ok("GET", "/clouds")["items"]
    aws = next(c for c in clouds if c["name"] == "AWS")
    assert aws["roles"] == ["SOURCE", "TARGET"]


def _private_key():
    return base64.b64encode(b"-----BEGIN KEY-----").decode()


def test_cloud_credentials_keep_the_private_key_write_only(api, sim):
    aws = catalog.cloud_id("AWS")
    created = api.ok("POST", "/cloudCredentials", status=201,
                     json={"name": "new", "cloudId": aws, "publicKey": "AKIANEW", "privateKey": _private_key()})
    assert set(created) == {"id", "name", "cloud", "publicKey", "accountIdentifier"}
    assert created["cloud"] == aws and len(created["accountIdentifier"]) == 12
    assert "privateKey" not in api.get("/cloudCredentials/" + created["id"]).text
    assert "privateKey" not in api.get("/cloudCredentials").text
    # Written, though: the simulator holds it.
    assert sim.credentials[created["id"]].private_key == _private_key()
    changed = api.ok("PATCH", "/cloudCredentials/" + created["id"], json={"name": "renamed", "privateKey": base64.b64encode(b"k2").decode()})
    assert changed["name"] == "renamed" and "privateKey" not in changed


@pytest.mark.parametrize("body,status", [
    ({"name": "x", "cloudId": "nope", "publicKey": "A", "privateKey": "QQ=="}, 400),
    ({"name": "x", "cloudId": catalog.cloud_id("AWS"), "publicKey": "A", "privateKey": "not base64!"}, 400),
    ({"name": "x", "cloudId": catalog.cloud_id("AWS"), "publicKey": "A"}, 422),
])
def test_bad_cloud_credentials(api, body, status):
    assert api.post("/cloudCredentials", json=body).status_code == status


def test_the_cloud_of_credentials_can_not_change(api, world):
    response = api.patch("/cloudCredentials/" + world["cloudCredentials"]["aws-main"], json={"cloudId": catalog.cloud_id("GCP")})
    assert response.status_code == 400


def test_a_new_public_key_means_another_account_unless_told(api, world):
    cid = world["cloudCredentials"]["aws-main"]
    assert api.ok("PATCH", "/cloudCredentials/" + cid, json={"publicKey": "AKIAELSE"})["accountIdentifier"] != "111122223333"
    assert api.ok("PATCH", "/cloudCredentials/" + cid, json={"accountIdentifier": "111122223333"})["accountIdentifier"] == "111122223333"


def test_regions_offer_networks_of_the_cloud_account(api, world):
    main, rotated, other = (world["cloudCredentials"][n] for n in ("aws-main", "aws-main-rotated", "aws-other"))
    regions = api.ok("GET", "/cloudCredentials/%s/regions" % main)["items"]
    east = next(r for r in regions if r["name"] == "us-east-1")
    assert east["subnets"] and east["securityGroups"] and "t3.small" in east["instanceTypes"]
    assert east["zones"] == ["us-east-1a", "us-east-1b", "us-east-1c"]
    assert east["volumeEncryptionKeys"][0].startswith("arn:aws:kms:us-east-1:111122223333:key/")
    assert api.ok("GET", "/cloudCredentials/%s/regions/%s" % (main, east["id"])) == east
    # The same region has the same ID everywhere; its networks belong to the cloud account.
    same_account = api.ok("GET", "/cloudCredentials/%s/regions/%s" % (rotated, east["id"]))
    other_account = api.ok("GET", "/cloudCredentials/%s/regions/%s" % (other, east["id"]))
    assert same_account["subnets"] == east["subnets"]
    assert other_account["subnets"] != east["subnets"]
    assert api.get("/cloudCredentials/%s/regions/nope" % main).status_code == 404


def test_only_generic_regions_can_be_renamed_or_removed(api, world):
    main = world["cloudCredentials"]["aws-main"]
    east = api.ok("GET", "/cloudCredentials/%s/regions" % main)["items"][0]
    assert api.patch("/cloudCredentials/%s/regions/%s" % (main, east["id"]), json={"name": "x"}).status_code == 400
    assert api.delete("/cloudCredentials/%s/regions/%s" % (main, east["id"])).status_code == 400
    generic = api.ok("POST", "/cloudCredentials", status=201, json={
        "name": "dc", "cloudId": catalog.cloud_id("GENERIC"), "publicKey": "dc", "privateKey": _private_key()})
    region = api.ok("GET", "/cloudCredentials/%s/regions" % generic["id"])["items"][0]
    assert api.ok("PATCH", "/cloudCredentials/%s/regions/%s" % (generic["id"], region["id"]), json={"name": "London DC"})["name"] == "London DC"
    assert api.delete("/cloudCredentials/%s/regions/%s" % (generic["id"], region["id"])).status_code == 204
    assert api.ok("GET", "/cloudCredentials/%s/regions" % generic["id"])["items"] == []


def test_licenses(api, world):
    licenses = api.ok("GET", "/licenses")["items"]
    assert [lic["type"] for lic in licenses] == ["DR", "DR_TRIAL"]
    dr = licenses[0]
    assert dr["count"] == 100 and dr["used"] == 3  # the three machines of project dr
    assert api.ok("GET", "/licenses/" + dr["id"]) == dr
    assert api.get("/licenses/nope").status_code == 404
