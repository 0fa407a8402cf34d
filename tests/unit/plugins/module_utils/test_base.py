# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base's look-ups, on a stand-in module that borrows them from ServiceModule."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule, _empty_text, _structure_problem, connection_settings
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient

PROJECT_ID = "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f"


class Failed(Exception):
    pass


class Module:
    project = ServiceModule.project
    item = ServiceModule.item
    find = ServiceModule.find
    list = ServiceModule.list
    predicted = ServiceModule.predicted
    remember_names = ServiceModule.remember_names
    named = ServiceModule.named
    region_item = ServiceModule.region_item

    def __init__(self, answers, check_mode=False):
        self.client = PathClient(answers)
        self.check_mode = check_mode
        self.warnings = []
        self._lists = {}
        self._names = {}

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)

    def warn(self, warning):
        self.warnings.append(warning)


def test_a_project_named_by_its_id_costs_one_read_of_it():
    module = Module({"/projects/" + PROJECT_ID: {"id": PROJECT_ID, "name": "production"}})
    assert module.project(PROJECT_ID)["name"] == "production"
    assert module.client.requests == ["/projects/" + PROJECT_ID]


def test_an_unknown_project_id_fails_clearly():
    with pytest.raises(Failed, match="Project %s was not found" % PROJECT_ID):
        Module({}).project(PROJECT_ID)


def test_other_errors_of_the_read_are_not_hidden():
    with pytest.raises(ServiceError):
        Module({"/projects/" + PROJECT_ID: ServiceError("GET", "/projects", 503, "internalError", "busy")}).project(PROJECT_ID)


def test_a_project_named_by_its_name_is_found_in_one_list():
    module = Module({"/projects": [{"id": PROJECT_ID, "name": "production"}, {"id": "other", "name": "staging"}]})
    assert module.project("production")["id"] == PROJECT_ID
    with pytest.raises(Failed, match="Project 'nowhere' was not found. Known: production, staging."):
        module.project("nowhere")
    assert module.client.requests == ["/projects"]  # the list is read once per run


SPEC = dict(
    name=dict(type="str"),
    machines=dict(type="list", elements="str"),
    proxy_url=dict(type="str"),
    scripts=dict(type="dict", options=dict(preboot=dict(type="list", elements="str"))),
    steps=dict(type="list", elements="dict", options=dict(name=dict(type="str"), wait=dict(type="dict"))),
)


CREDENTIALS_ID = "7c1d5e0a-3b2f-4e6d-8a9c-0f1e2d3c4b5a"
REGIONS = "/cloudCredentials/%s/regions" % CREDENTIALS_ID
US_EAST = {"id": "b1e8c0d2-5a4f-4c3b-9e2d-1f0a9b8c7d6e", "name": "us-east-1",
           "subnets": [{"subnetId": "subnet-0a1b", "name": "private-a"}, {"subnetId": "subnet-0c2d", "name": "private-b"}]}


def test_the_diff_shows_the_names_of_what_was_looked_up_beside_the_ids():
    module = Module({"/cloudCredentials": [{"id": CREDENTIALS_ID, "name": "aws-dr"}], REGIONS: [US_EAST]})
    module.item("/cloudCredentials", "Cloud credentials", "aws-dr")
    region = module.item(REGIONS, "Region", "us-east-1")
    assert module.region_item(region, "subnets", "subnetId", "Subnet", "private-a") == "subnet-0a1b"
    diff = {"before": {"subnetId": "subnet-0c2d", "tags": [{"key": "team", "value": "dr"}]},
            "after": {"subnetId": "subnet-0a1b", "cloudCredentials": CREDENTIALS_ID, "region": US_EAST["id"], "zone": "a"}}
    assert module.named(diff) == {
        "before": {"subnetId": "subnet-0c2d (private-b)", "tags": [{"key": "team", "value": "dr"}]},
        "after": {"subnetId": "subnet-0a1b (private-a)", "cloudCredentials": CREDENTIALS_ID + " (aws-dr)",
                  "region": US_EAST["id"] + " (us-east-1)", "zone": "a"}}


def test_a_name_not_found_fails_a_real_run():
    module = Module({"/projects": []})
    with pytest.raises(Failed, match="Project 'production' was not found. Known: none."):
        module.project("production")


def test_check_mode_predicts_what_an_earlier_task_would_create_and_reads_nothing_under_it():
    module = Module({"/projects": [], "/cloudCredentials": []}, check_mode=True)
    project = module.project("production")
    assert project == {"id": "production (predicted)", "name": "production"}
    assert module.list("/projects/%s/replicationConfigurations" % project["id"]) == []
    credentials = module.item("/cloudCredentials", "Cloud credentials", "aws-dr")
    region = module.item("/cloudCredentials/%s/regions" % credentials["id"], "Region", "us-east-1")
    assert module.region_item(region, "subnets", "subnetId", "Subnet", "private-a") == "private-a (predicted)"
    assert module.client.requests == ["/projects", "/cloudCredentials"], "nothing is asked about what does not exist"
    assert module.warnings == [
        "Check mode: Project 'production' does not exist yet; taken as one an earlier task of this run creates. "
        "A real run fails if it is still missing.",
        "Check mode: Cloud credentials 'aws-dr' does not exist yet; taken as one an earlier task of this run creates. "
        "A real run fails if it is still missing."], "one warning for each thing predicted, none for what is under it"


def test_check_mode_says_where_it_cannot_go_further_when_a_read_needs_what_it_predicted():
    module = Module({"/projects": []}, check_mode=True)
    module.run = ServiceModule.run.__get__(module)
    module.changed = False

    def work():
        project = module.project("production")
        module.client.get("/projects/%s/jobs" % project["id"])
    module.work = work
    with pytest.raises(Failed, match=r"^Check mode cannot go further: this task reads /projects/production, which does not exist yet"):
        module.run()


def test_check_mode_still_fails_for_an_unknown_id_or_an_item_missing_from_a_real_region():
    module = Module({REGIONS: [US_EAST]}, check_mode=True)
    with pytest.raises(Failed, match="Project %s was not found" % PROJECT_ID):
        module.project(PROJECT_ID)
    region = module.item(REGIONS, "Region", "us-east-1")
    with pytest.raises(Failed, match="Subnet 'private-z' is not in region us-east-1"):
        module.region_item(region, "subnets", "subnetId", "Subnet", "private-z")


@pytest.mark.parametrize("params,problem", [
    (dict(scripts={"preboot": ["a"]}), None),
    (dict(scripts="preboot=a"), None),  # key=value text, as AnsibleModule takes it
    (dict(scripts='{"preboot": ["a"]}'), None),
    (dict(scripts=[1, 2]), "scripts must be a dictionary, not list [1, 2]."),
    (dict(scripts="not a dictionary"), "scripts must be a dictionary, not str 'not a dictionary'."),
    (dict(steps=[{"name": "db"}, "web"]), "steps[1] must be a dictionary, not str 'web'."),
    (dict(steps="db"), "steps must be a list of dictionaries, not str 'db'."),
    (dict(steps=[{"name": "db", "wait": [5]}]), "steps[0].wait must be a dictionary, not list [5]."),
])
def test_structured_options_are_checked_as_given(params, problem):
    assert _structure_problem(SPEC, params) == problem


@pytest.mark.parametrize("params,empty", [
    (dict(name="web", machines=["a"], proxy_url=""), None),
    (dict(name=" "), "name"),
    (dict(machines=["a", ""]), "machines"),
    (dict(steps=[{"name": "db"}, {"name": ""}]), "steps[1].name"),
    (dict(scripts={"preboot": ["", "x"]}), "scripts.preboot"),
])
def test_empty_texts_are_found(params, empty):
    assert _empty_text(SPEC, params, allowed=("proxy_url",)) == empty


def test_connection_settings_take_what_is_given_then_the_environment_then_the_defaults(monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_URL", "https://env.example.com/api/latest")
    monkeypatch.setenv("REPLICATION_SERVICE_USERNAME", "env-user")
    monkeypatch.setenv("REPLICATION_SERVICE_VALIDATE_CERTS", "false")
    monkeypatch.setenv("REPLICATION_SERVICE_TIMEOUT", "")
    monkeypatch.delenv("REPLICATION_SERVICE_API_TOKEN", raising=False)
    settings = connection_settings({"username": "given-user", "password": "secret", "timeout": None})
    assert settings["api_url"] == "https://env.example.com/api/latest"
    assert settings["username"] == "given-user"
    assert settings["password"] == "secret"
    assert settings["validate_certs"] is False
    assert settings["timeout"] == 30, "an empty environment variable is not set"
    assert settings["api_token"] is None


def test_connection_settings_convert_text_as_the_modules_do(monkeypatch):
    monkeypatch.delenv("REPLICATION_SERVICE_CA_PATH", raising=False)
    settings = connection_settings({"timeout": "45", "validate_certs": "yes", "ca_path": "~/ca.pem"})
    assert settings["timeout"] == 45 and settings["validate_certs"] is True
    assert not settings["ca_path"].startswith("~")
    with pytest.raises(TypeError):
        connection_settings({"timeout": "soon"})
