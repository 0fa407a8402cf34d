# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base's look-ups, on a stand-in module that borrows them from ServiceModule."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils.base import ServiceModule, _empty_text, _structure_problem
from ansible_collections.replication.recovery.plugins.module_utils.client import ServiceError

PROJECT_ID = "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f"


class Failed(Exception):
    pass


class Client:
    """Answers reads from a dictionary of paths: a dictionary (a GET), a list (a whole paged list) or an error."""

    def __init__(self, answers):
        self.answers = answers
        self.requests = []

    def get(self, path, params=None):
        self.requests.append(path)
        answer = self.answers.get(path, ServiceError("GET", path, 404, "notFound", "not found"))
        if isinstance(answer, Exception):
            raise answer
        return answer

    list = get


class Module:
    project = ServiceModule.project
    item = ServiceModule.item
    find = ServiceModule.find
    list = ServiceModule.list

    def __init__(self, answers):
        self.client = Client(answers)
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
