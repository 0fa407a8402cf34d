"""Authentication exactly as docs/wire.md describes it."""

import re

import pytest

from .conftest import PASSWORD, Api, advance


def test_password_login_answers_the_user_and_sets_both_cookies(client, world):
    response = Api(client).login()
    assert response.status_code == 200
    assert response.json()["username"] == "owner@acme.test"
    assert response.json()["roles"] == ["ACCOUNT_OWNER"]
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("session="))
    xsrf = next(c for c in cookies if c.startswith("XSRF-TOKEN="))
    assert "HttpOnly" in session
    # A double-quoted value: base64 text followed by the four characters \012.
    assert re.match(r'^XSRF-TOKEN="[A-Za-z0-9+/]+=*\\012"; Path=/$', xsrf), xsrf


def test_token_login(client, world):
    token = world["apiTokens"]["user@acme.test"]
    response = Api(client).login(userApiToken=token)
    assert response.status_code == 200
    assert response.json()["username"] == "user@acme.test"


@pytest.mark.parametrize("body", [
    {"username": "owner@acme.test", "password": "wrong"},
    {"username": "nobody@acme.test", "password": PASSWORD},
    {"userApiToken": "not-a-token"},
])
def test_bad_credentials_answer_401(client, world, body):
    response = client.post("/api/latest/login", json=body)
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_login_body_of_neither_form_is_422(client, world):
    response = client.post("/api/latest/login", json={"username": "owner@acme.test"})
    assert response.status_code == 422
    assert response.json()["code"] == "invalidInput"


def test_an_account_without_an_active_license_answers_402(client, sim):
    from replication_service_simulator.seed import seed
    seed(sim, {"accounts": [{"name": "lapsed", "licenses": [{"type": "DR", "expiresInDays": -1}],
                             "users": [{"username": "late@lapsed.test", "password": PASSWORD, "roles": ["ACCOUNT_OWNER"]}]}]})
    response = Api(client).login("late@lapsed.test")
    assert response.status_code == 402
    assert response.json()["code"] == "licenseExpired"


def test_five_failures_lock_the_username_for_fifteen_minutes(client, world):
    api = Api(client)
    for attempt in range(5):
        assert api.login(password="wrong").status_code == 401
    locked = api.login()  # even the right password
    assert locked.status_code == 429
    assert locked.json()["code"] == "tooManyRequests"
    assert 0 < int(locked.headers["Retry-After"]) <= 15 * 60 + 1
    # Other users are not affected.
    assert Api(client).login("admin@acme.test").status_code == 200
    advance(client, 14 * 60)
    assert api.login().status_code == 429
    advance(client, 61)
    assert api.login().status_code == 200


def test_failures_spread_over_more_than_fifteen_minutes_do_not_lock(client, world):
    api = Api(client)
    for attempt in range(4):
        assert api.login(password="wrong").status_code == 401
    advance(client, 16 * 60)
    assert api.login(password="wrong").status_code == 401
    assert api.login().status_code == 200


def test_a_read_needs_the_session_cookie_only(api):
    response = api.get("/projects", xsrf=False)
    assert response.status_code == 200


def test_without_a_session_every_call_is_401(client, world):
    response = client.get("/api/latest/projects")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


@pytest.mark.parametrize("form", ["quoted", "unquoted", "bare"])
def test_the_xsrf_header_is_accepted_in_all_three_forms(api, form):
    cookie = api.xsrf  # as the cookie jar holds it: "…\012" with the quotes
    assert cookie.startswith('"') and cookie.endswith('\\012"')
    value = {"quoted": cookie, "unquoted": cookie[1:-1], "bare": cookie[1:-5]}[form]
    response = api.post("/projects", json={"name": "xsrf-" + form}, headers={"X-XSRF-TOKEN": value})
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("header", [None, "wrong", '"d3Jvbmc=\\012"'])
def test_a_write_without_the_right_xsrf_header_is_401(api, header):
    headers = {} if header is None else {"X-XSRF-TOKEN": header}
    response = api.post("/projects", json={"name": "nope"}, headers=headers, xsrf=False)
    assert response.status_code == 401
    assert response.json()["code"] == "xsrfMismatch"
    assert api.get("/projects").json()["items"][-1]["name"] != "nope"


def test_the_session_ends_after_an_idle_hour(client, api):
    advance(client, 3599)
    assert api.get("/me").status_code == 200  # a request renews the idle time
    advance(client, 3601)
    response = api.get("/me")
    assert response.status_code == 401
    assert response.json()["code"] == "sessionExpired"


def test_the_session_lifetime_is_a_setting(client, api):
    assert client.patch("/_simulator/settings", json={"sessionLifetimeSeconds": 30}).status_code == 200
    advance(client, 31)
    assert api.get("/me").json()["code"] == "sessionExpired"


def test_logout_ends_the_session(api):
    assert api.post("/logout").status_code == 204
    response = api.get("/me")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_logout_needs_the_xsrf_header(api):
    assert api.post("/logout", xsrf=False).status_code == 401
    assert api.get("/me").status_code == 200


def test_global_readonly_reads_everything_and_writes_nothing(login_as, world):
    reader = login_as("reader@acme.test")
    names = {p["name"] for p in reader.ok("GET", "/projects")["items"]}
    assert names == {"dr", "hidden"}
    project = world["project"]["id"]
    for method, path, body in [
        ("POST", "/projects", {"name": "x"}),
        ("PATCH", "/projects/" + project, {"name": "y"}),
        ("DELETE", "/projects/" + project, None),
        ("POST", "/projects/%s/pauseReplication" % project, {"machineIDs": []}),
        ("POST", "/replaceApiToken", None),
    ]:
        response = reader.request(method, path, json=body)
        assert response.status_code == 403, (method, path)
        assert response.json()["code"] == "forbidden"
    assert reader.post("/logout").status_code == 204


def test_a_user_sees_only_its_projects(login_as, world):
    user = login_as("user@acme.test")
    assert [p["name"] for p in user.ok("GET", "/projects")["items"]] == ["dr"]
    hidden = world["projects"]["hidden"]["id"]
    response = user.get("/projects/" + hidden)
    assert response.status_code == 404
    assert response.json()["code"] == "notFound"
    assert user.get("/projects/%s/machines" % hidden).status_code == 404


def test_a_user_can_not_manage_users(login_as):
    user = login_as("user@acme.test")
    response = user.post("/users", json={"username": "new@acme.test"})
    assert response.status_code == 403


def test_api_v5_serves_the_same_interface(client, world):
    api = Api(client, prefix="/api/v5")
    assert api.login().status_code == 200
    assert [p["name"] for p in api.ok("GET", "/projects")["items"]] == ["dr", "hidden"]
    assert api.post("/projects", json={"name": "via-v5"}).status_code == 201
