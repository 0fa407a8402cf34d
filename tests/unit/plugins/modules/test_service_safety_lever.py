# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_safety_lever keeps a project's lever in a plan of its own: engaged and released with a reason and a name,
idempotent, nothing written under --check, and a plan edited by hand read as engaged."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._lever import (
    ENGAGED, LEVER_PLAN, RELEASED, lever_in, lever_of, lever_said, lever_steps)
from ansible_collections.replication.recovery.plugins.modules.service_safety_lever import SafetyLeverModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient, set_up_without_ansible

PROJECT = {"id": "p1", "name": "production"}
PARAMS = dict(project="production", state=None, reason=None, by=None, username="alice@example.com")
PLANS = "/projects/p1/recoveryPlans"


class Failed(Exception):
    pass


class WritingClient(PathClient):
    """A PathClient that also takes the plan's writes, and keeps them."""

    def __init__(self, plans):
        super(WritingClient, self).__init__({"/projects": [PROJECT], PLANS: dict(items=plans)})
        self.writes = []

    def post(self, path, body):
        self.writes.append(("POST", path, body))
        return dict(body, id="lever")

    def patch(self, path, body):
        self.writes.append(("PATCH", path, body))
        return body


class Lever(SafetyLeverModule):
    def __init__(self, client, check_mode=False, **params):
        set_up_without_ansible(self, client, dict(PARAMS, **params), check_mode=check_mode)

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)


def plan(state, by="bob", reason="INC-1: payments"):
    return dict(id="lever", name=LEVER_PLAN, steps=lever_steps(state, by, "2026-11-28T05:00:00Z", reason))


def test_a_lever_never_pulled_is_released_and_engaging_it_creates_its_plan_with_who_and_why():
    client = WritingClient([])
    module = Lever(client, state="engaged", reason="INC-1: payments")
    answer = module.work()
    assert answer["lever"]["state"] == ENGAGED and answer["lever"]["by"] == "alice@example.com" and module.changed
    (method, path, body), = client.writes
    assert (method, path, body["name"]) == ("POST", PLANS, LEVER_PLAN)
    step, = body["steps"]["items"]
    assert step["machineIDs"] == [] and step["name"].startswith("engaged by alice@example.com at ")
    assert lever_of(body)["reason"] == "INC-1: payments"  # the reason's own ": " reads back whole
    assert module.diff == dict(before=dict(state=RELEASED, by=None, reason=None),
                               after=dict(state=ENGAGED, by="alice@example.com", reason="INC-1: payments"))


def test_engaged_again_alike_changes_nothing_with_another_reason_it_is_replaced():
    client = WritingClient([plan(ENGAGED)])
    module = Lever(client, state="engaged", reason="INC-1: payments", by="bob")
    assert module.work()["lever"]["at"] == "2026-11-28T05:00:00Z" and not module.changed and not client.writes
    module = Lever(client, state="engaged", reason="INC-2", by="bob")
    assert module.work()["lever"]["reason"] == "INC-2" and module.changed
    (method, path, body), = client.writes
    assert (method, path) == ("PATCH", PLANS + "/lever") and lever_of(body)["reason"] == "INC-2"


def test_released_keeps_the_plan_with_who_released_it_and_why_and_again_changes_nothing():
    client = WritingClient([plan(ENGAGED)])
    module = Lever(client, state="released", reason="resolved", by="carol")
    answer = module.work()["lever"]
    (method, path, body), = client.writes
    assert method == "PATCH" and lever_of(body) == answer
    assert (answer["state"], answer["by"], answer["reason"]) == (RELEASED, "carol", "resolved")
    again = WritingClient([plan(RELEASED, by="carol")])
    module = Lever(again, state="released", reason="other words", by="dave")
    assert module.work()["lever"]["by"] == "carol" and not again.writes and not module.changed
    never = WritingClient([])
    assert Lever(never, state="released", reason="r").work()["lever"]["state"] == RELEASED and not never.writes


def test_check_mode_answers_the_lever_as_it_would_be_and_writes_nothing():
    client = WritingClient([])
    module = Lever(client, check_mode=True, state="engaged", reason="drill freeze")
    assert module.work()["lever"]["state"] == ENGAGED and module.changed and not client.writes


def test_without_state_the_lever_is_read_only():
    client = WritingClient([plan(ENGAGED, by="bob")])
    module = Lever(client)
    assert module.work()["lever"] == dict(state=ENGAGED, by="bob", at="2026-11-28T05:00:00Z", reason="INC-1: payments")
    assert not client.writes and not module.changed


@pytest.mark.parametrize("params, said", [
    (dict(state="engaged"), "Give the reason"),
    (dict(state="engaged", reason="  "), "Give the reason"),
    (dict(state="released", reason="r", username=None), "Give who pulls the lever"),
    (dict(state="engaged", reason="r", by="ops: night"), "by may not hold"),
])
def test_bad_input_is_refused_before_any_request(params, said):
    client = WritingClient([])
    with pytest.raises(Failed, match=said):
        Lever(client, **params).work()
    assert not client.requests and not client.writes


@pytest.mark.parametrize("steps", [
    dict(items=[dict(name="someone renamed this", machineIDs=[])]),
    dict(items=[]),
    dict(items=[dict(name="released by a at b: c", machineIDs=[]), dict(name="x", machineIDs=[])]),
])
def test_a_plan_edited_out_of_its_form_holds_the_lever_engaged(steps):
    lever = lever_of(dict(name=LEVER_PLAN, steps=steps))
    assert lever["state"] == ENGAGED and "edited by hand" in lever["reason"]
    assert "is engaged" in lever_said(lever, "production")


def test_the_lever_is_found_among_the_plans_by_its_name_alone():
    other = dict(name="full-site", steps=lever_steps(ENGAGED, "x", "y", "z"))
    assert lever_in([other])["state"] == RELEASED
    assert lever_in([other, plan(ENGAGED)])["by"] == "bob"
    assert lever_said(lever_in([plan(ENGAGED)]), "production") == \
        "the safety lever of project production is engaged by bob at 2026-11-28T05:00:00Z: INC-1: payments"


def test_given_its_id_the_project_is_not_read_and_an_id_the_service_does_not_have_is_not_found():
    project_id = "0b6cbb1e-0000-4000-8000-000000000001"
    client = WritingClient([plan(ENGAGED)])
    client.answers["/projects/%s/recoveryPlans" % project_id] = client.answers.pop(PLANS)
    assert Lever(client, project=project_id).work()["lever"]["state"] == ENGAGED
    assert client.requests == ["/projects/%s/recoveryPlans" % project_id]
    unknown = "0b6cbb1e-0000-4000-8000-000000000002"
    with pytest.raises(Failed, match="^Project %s was not found.$" % unknown):
        Lever(client, project=unknown).work()
    assert not client.writes
