# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base's look-ups, on a stand-in module that borrows them from ServiceModule."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils.base import ServiceModule, _empty_text, _structure_problem, connection_settings
from ansible_collections.replication.recovery.plugins.module_utils.client import ServiceError
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient

PROJECT_ID = "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f"


class Failed(Exception):
    pass


class Module:
    project = ServiceModule.project
    item = ServiceModule.item
    find = ServiceModule.find
    list = ServiceModule.list

    def __init__(self, answers):
        self.client = PathClient(answers)
        self._lists = {}

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)


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
