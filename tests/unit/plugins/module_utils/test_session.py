# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A session with the service on its own - no AnsibleModule, no module - and a module that leaves it its look-ups."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._connection import connection_settings
from ansible_collections.replication.recovery.plugins.module_utils._session import PREDICTED, Refused, Session
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient, set_up_without_ansible

PROJECT = {"id": "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f", "name": "production"}
MACHINES = "/projects/%s/machines" % PROJECT["id"]
WEB = {"id": "m-web", "sourceProperties": {"name": "web-1"}}
DB = {"id": "m-db", "sourceProperties": {"name": "db-1"}}


def session(answers, check_mode=False, projects=None):
    return Session({}, check_mode=check_mode, projects=projects, client=PathClient(answers))


def test_a_session_looks_up_by_name_and_id_from_one_read_of_each_list_and_names_what_it_read():
    one = session({"/projects": [PROJECT], MACHINES: [WEB, DB]})
    project = one.lookup("project", "production")
    assert [one.lookup("machine", value, project=project)["id"] for value in ("web-1", "m-db", "db-1")] == ["m-web", "m-db", "m-db"]
    assert one.client.requests == ["/projects", MACHINES]
    assert one.named({"machines": ["m-web", "m-other"], "project": PROJECT["id"]}) == {
        "machines": ["m-web (web-1)", "m-other"], "project": "%s (production)" % PROJECT["id"]}


def test_what_a_session_cannot_answer_is_refused_in_the_words_a_task_fails_with():
    one = session({"/projects": [PROJECT], MACHINES: [WEB, DB, dict(DB, id="m-db-2")]})
    with pytest.raises(Refused, match=r"^Project 'staging' was not found. Known: production.$"):
        one.lookup("project", "staging")
    with pytest.raises(Refused, match=r"^Project 'production' has no machine 'app-1'. Known: db-1, db-1, web-1.$"):
        one.lookup("machine", "app-1", project=PROJECT)
    with pytest.raises(Refused, match=r"^Machine name 'db-1' is ambiguous: 2 machines of project 'production' have it; "
                                      r"give the ID \(one of m-db, m-db-2\).$"):
        one.lookup("machine", "db-1", project=PROJECT)
    with pytest.raises(Refused, match="^Project %s was not found.$" % PROJECT["id"]):
        one.lookup("project", PROJECT["id"])
    assert one.lookup("machine", "app-1", required=False, project=PROJECT) is None


def test_a_read_that_fails_otherwise_is_not_taken_for_nothing_found():
    with pytest.raises(ServiceError):
        session({"/projects/" + PROJECT["id"]: ServiceError("GET", "/projects", 503, "internalError", "busy")}).lookup("project", PROJECT["id"])


def test_settings_that_make_no_client_are_refused_before_a_request(monkeypatch):
    monkeypatch.delenv("REPLICATION_SERVICE_URL", raising=False)
    with pytest.raises(Refused, match="api_url"):
        Session(connection_settings(dict(username="u", password="p"))).client


def test_under_check_a_name_nothing_has_is_predicted_and_warned_of_once_for_what_a_run_could_create():
    one = session({"/projects": [PROJECT]}, check_mode=True)
    assert one.lookup("project", "new")["id"] == "new" + PREDICTED
    assert one.warnings == ["Check mode: Project 'new' does not exist yet; taken as one an earlier task of this run creates. "
                            "A real run fails if it is still missing."]
    assert one.list("/projects/new%s/machines" % PREDICTED) == []  # under what is predicted there is nothing yet to read
    with pytest.raises(Refused, match="has no machine"):  # a machine is no kind a run creates: not predicted
        session({MACHINES: []}, check_mode=True).lookup("machine", "web-1", project=PROJECT)


def test_sessions_given_one_mapping_of_projects_read_a_project_once_and_nothing_else_together():
    shared = {}
    answers = {"/projects": [PROJECT], MACHINES: [WEB]}
    first, second = session(answers, projects=shared), session(answers, projects=shared)
    for one in (first, second):
        one.lookup("machine", "web-1", project=one.lookup("project", "production"))
    assert first.client.requests == ["/projects", MACHINES] and second.client.requests == [MACHINES]
    first.forget("/projects/%s/" % PROJECT["id"])  # a write under the project forgets what is under it, not the project
    assert second.lookup("project", "production") is not None and second.client.requests == [MACHINES]


class Failed(Exception):
    pass


class Module(ServiceModule):
    def __init__(self, answers):
        set_up_without_ansible(self, PathClient(answers))

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)


def test_a_module_fails_its_task_with_what_its_session_refuses_and_reads_through_it():
    module = Module({"/projects": [PROJECT]})
    with pytest.raises(Failed, match="^Project 'staging' was not found. Known: production.$"):
        module.lookup("project", "staging")
    assert module.lookup("project", "production") is module.session.lookup("project", "production")
    assert module.client.requests == ["/projects"]
