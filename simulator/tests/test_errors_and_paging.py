"""The error body everywhere, paging edges, and no member ever sent as null."""

import pytest

from replication_service_simulator.seed import seed

from .conftest import assert_no_nulls


def test_unknown_path_answers_404_with_the_service_error_body(api):
    response = api.get("/no/such/thing")
    assert response.status_code == 404
    assert response.json() == {"code": "notFound", "message": "No such path: /api/latest/no/such/thing."}


def test_unknown_resource_answers_404_with_the_service_error_body(api):
    response = api.get("/projects/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404
    assert set(response.json()) == {"code", "message"}
    assert response.json()["code"] == "notFound"


def test_wrong_method_answers_405_with_the_service_error_body(api):
    response = api.delete("/me")
    assert response.status_code == 405
    assert set(response.json()) == {"code", "message"}
    assert "DELETE" in response.json()["message"]


@pytest.mark.parametrize("body", [
    {"name": 42},                                   # wrong type
    {"name": "x", "colour": "blue"},                # a member the model does not have
    {"name": "x", "type": "HOLIDAY"},               # not one of the enumeration
    {},                                             # a required member missing
])
def test_a_body_that_does_not_fit_the_model_answers_422(api, body):
    response = api.post("/projects", json=body)
    assert response.status_code == 422
    assert set(response.json()) == {"code", "message"}
    assert response.json()["code"] == "invalidInput"


def test_a_body_that_is_not_json_answers_422(api):
    response = api.request("POST", "/projects", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] == "invalidInput"


def test_a_patch_of_a_member_that_is_not_settable_answers_422(api, world):
    response = api.patch("/projects/" + world["project"]["id"], json={"id": "another"})
    assert response.status_code == 422


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 1501}, {"limit": -5}, {"offset": -1}, {"limit": "many"}])
def test_paging_outside_the_range_is_422(api, params):
    response = api.get("/projects", params=params)
    assert response.status_code == 422
    assert response.json()["code"] == "invalidInput"


def _seed_projects(sim, count):
    spec = {"accounts": [{"name": "many", "maxProjectsAllowed": 5000,
                          "users": [{"username": "many@acme.test", "password": "secret-pass", "roles": ["ACCOUNT_OWNER"]}],
                          "projects": [{"name": "p%04d" % i} for i in range(count)]}]}
    seed(sim, spec)


def _read_all(api, path, limit):
    pages, offset = [], 0
    while True:
        page = api.ok("GET", path, params={"offset": offset, "limit": limit})
        assert set(page) == {"items"}  # nothing else: no total, no next link
        pages.append(len(page["items"]))
        offset += limit
        if len(page["items"]) < limit:
            return pages, offset


def test_paging_walks_across_page_boundaries(client, sim):
    from .conftest import Api
    _seed_projects(sim, 7)
    api = Api(client)
    assert api.login("many@acme.test").status_code == 200
    assert _read_all(api, "/projects", 3)[0] == [3, 3, 1]
    names = [p["name"] for p in api.ok("GET", "/projects", params={"offset": 2, "limit": 2})["items"]]
    assert names == ["p0002", "p0003"]
    assert api.ok("GET", "/projects", params={"offset": 7})["items"] == []
    assert api.ok("GET", "/projects", params={"offset": 100})["items"] == []


def test_a_list_that_fills_whole_pages_ends_with_an_empty_page(client, sim):
    from .conftest import Api
    _seed_projects(sim, 6)
    api = Api(client)
    api.login("many@acme.test")
    assert _read_all(api, "/projects", 3)[0] == [3, 3, 0]


def test_the_default_and_largest_page_is_1500(client, sim):
    from .conftest import Api
    _seed_projects(sim, 1600)
    api = Api(client)
    api.login("many@acme.test")
    assert len(api.ok("GET", "/projects")["items"]) == 1500
    assert len(api.ok("GET", "/projects", params={"limit": 1500})["items"]) == 1500
    assert len(api.ok("GET", "/projects", params={"offset": 1500})["items"]) == 100


PAGED = [
    "/projects", "/clouds", "/licenses", "/cloudCredentials",
    "/projects/{project}/machines", "/projects/{project}/tags", "/projects/{project}/replicationConfigurations",
    "/projects/{project}/machines/{machine}/pointsintime", "/cloudCredentials/{credentials}/regions",
]


@pytest.mark.parametrize("template", PAGED)
def test_every_paged_list_takes_offset_and_limit(long_sessions, api, world, client, template):
    from .conftest import advance
    advance(client, 6 * 3600)  # so that points in time exist
    path = template.format(project=world["project"]["id"], machine=world["project"]["machines"]["m1"],
                           credentials=world["cloudCredentials"]["aws-main"])
    if path.endswith("/replicationConfigurations"):  # the seed gives one; a page needs two
        regions = api.ok("GET", "/cloudCredentials/%s/regions" % world["cloudCredentials"]["aws-main"])["items"]
        api.ok("POST", path, json={"region": regions[1]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"]}, status=201)
    everything = api.ok("GET", path)["items"]
    assert len(everything) >= 2, path
    assert api.ok("GET", path, params={"offset": 1, "limit": 1})["items"] == everything[1:2]
    assert api.get(path, params={"limit": 1501}).status_code == 422


def test_no_member_is_ever_null(long_sessions, api, world, client):
    """Walk every read of the interface at several moments of replication."""
    from .conftest import advance
    project = world["project"]["id"]
    machine = world["project"]["machines"]["m1"]
    account = api.ok("GET", "/me")["account"]
    reads = [
        "/me", "/extendedAccountInfo", "/accounts/" + account, "/clouds", "/licenses", "/cloudCredentials",
        "/cloudCredentials/%s/regions" % world["cloudCredentials"]["aws-main"], "/projects", "/projects/" + project,
        "/projects/%s/machines?all=true" % project, "/projects/%s/machines/%s" % (project, machine),
        "/projects/%s/machines/%s/pointsintime" % (project, machine), "/projects/%s/tags" % project,
        "/projects/%s/storage" % project, "/projects/%s/replicationConfigurations" % project,
        "/projects/%s/auditLog" % project, "/projects/%s/replicas/%s" % (project, world["project"]["replicas"]["m3"]),
        "/projects/%s/machines/%s/bandwidthThrottling" % (project, machine),
    ]
    api.ok("PATCH", "/projects/" + project, json={"name": "dr-renamed"})
    for seconds in (0, 5 * 60, 15 * 60, 3 * 3600):
        advance(client, seconds)
        for path in reads:
            assert_no_nulls(api.ok("GET", path), path)
