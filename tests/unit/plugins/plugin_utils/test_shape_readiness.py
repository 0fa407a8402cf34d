# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The readiness of a project: each machine judged from one read - replicating, its newest point within the RPO target,
its launch settings proven, not failed over - and the report in each of its forms."""

import json
import os
from xml.etree import ElementTree

import jsonschema

from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_readiness import junit, markdown, page, report
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import made

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
with open(os.path.join(COLLECTION, "roles", "readiness", "files", "report.schema.json"), encoding="utf-8") as handle:
    SCHEMA = json.load(handle)
NOW = "2026-11-27T10:00:00.000000+00:00"
GENERATED = "2026-11-27T10:00:05Z"


def machine(name, state="continuous", newest="2026-11-27T09:58:00.000000+00:00", **extra):
    points = [{"id": "p-%s-2" % name, "dateTime": newest}, {"id": "p-%s-1" % name, "dateTime": "2026-11-27T08:00:00.000000+00:00"}] if newest else []
    return dict({"id": name + "-id", "sourceProperties": {"name": name}, "replication_state": state, "lag_seconds": 120,
                 "lifeCycle": {}, "points_in_time": points}, **extra)


def read(*machines, **settings):
    launch_settings = dict(dict(region={"id": "r-1", "name": "us-east-1"}, problems={}, defaults={}, unchecked={}, private_ips={}, switched=[],
                                switched_to={}), **settings)
    return {"project": {"id": "p-1", "name": "production"}, "service_time": NOW, "machines": list(machines), "launch_settings": launch_settings}


def judged(facts_read, target=600, states=("continuous",), strict=False):
    made_report = report(dict(read=facts_read, rpo_target_seconds=target, states=list(states), launch_settings_strict=strict), GENERATED)
    jsonschema.validate(made_report, SCHEMA)
    return made_report


def checks_of(made_report, name):
    found = next(m for m in made_report["machines"] if m["name"] == name)
    return found, dict((check["name"], check) for check in found["checks"])


def test_a_project_whose_every_machine_could_fail_over_now_is_ready():
    ready = judged(read(machine("web-1"), machine("db-1")))
    assert ready["result"] == ready["outcome"] == "passed" and ready["failures"] == []
    assert ready["counts"] == {"machines": 2, "ready": 2, "not_ready": 0, "failed_over": 0}
    assert ready["next"] == "Every machine of production could fail over now, from a point in time within 10 min 0 s. Nothing was changed."
    web, checks = checks_of(ready, "web-1")
    assert web["newest_point"] == {"id": "p-web-1-2", "date_time": "2026-11-27T09:58:00.000000+00:00"} and web["point_age_seconds"] == 120
    assert [check["status"] for check in checks.values()] == ["passed"] * 4
    assert ready["region"] == {"id": "r-1", "name": "us-east-1"} and ready["started"] == NOW and ready["worst_point_age_seconds"] == 120


def test_each_check_fails_on_its_own_and_says_why():
    launches = {"lastTestLaunchDateTime": "2026-11-20T10:00:00+00:00", "lastRecoveryLaunchDateTime": "2026-11-26T10:00:00+00:00"}
    failed_over = machine("app-1", replica="r-app", lifeCycle=launches)
    facts = read(machine("web-1"), machine("paused-1", state="paused"), machine("old-1", newest="2026-11-27T09:00:00.000000+00:00"),
                 machine("new-1", state="initial_sync", newest=None), machine("db-1"), machine("sw-1"), failed_over,
                 problems={"db-1": ["subnet subnet-9 is not in region us-east-1"]}, switched=["sw-1"])
    verdict = judged(facts)
    assert verdict["result"] == "failed" and verdict["counts"] == {"machines": 7, "ready": 1, "not_ready": 6, "failed_over": 1}
    assert checks_of(verdict, "paused-1")[1]["replicating"]["message"] == "paused, lag 2 min 0 s, not continuous"
    assert checks_of(verdict, "old-1")[1]["newest point"] == {
        "name": "newest point", "status": "failed",
        "message": "2026-11-27T09:00:00.000000+00:00 (p-old-1-2), 1 h 0 min old against a target of 10 min 0 s"}
    assert checks_of(verdict, "new-1")[1]["newest point"]["message"] == "no point in time yet"
    assert checks_of(verdict, "db-1")[1]["launch settings"]["message"] == "subnet subnet-9 is not in region us-east-1"
    assert "switched to a test network: a failover now would launch into it" in checks_of(verdict, "sw-1")[1]["launch settings"]["message"]
    app, checks = checks_of(verdict, "app-1")
    assert checks["not failed over"]["status"] == "failed" and app["failed_over"].startswith("failed over since 2026-11-26T10:00:00Z")
    assert verdict["failures"][0] == "app-1: not failed over: %s" % app["failed_over"]
    assert verdict["next"].startswith("6 of 7 machines of production are not ready")
    assert [m["name"] for m in verdict["machines"] if m["ready"]] == ["web-1"]


def test_what_is_left_to_the_services_defaults_is_named_and_fails_only_when_strict():
    facts = read(machine("web-1"), defaults={"web-1": ["subnet"]}, unchecked={"web-1": ["disk type SSD (the service gives no region's disk types)"]})
    lenient = checks_of(judged(facts), "web-1")[1]["launch settings"]
    assert lenient["status"] == "passed" and "left to the service's default: subnet" in lenient["message"] and "disk type SSD" in lenient["message"]
    strict = checks_of(judged(facts, strict=True), "web-1")[1]["launch settings"]
    assert strict["status"] == "failed" and "cannot be proven: subnet" in strict["message"]


def test_launch_settings_not_proven_are_skipped_not_passed_and_an_empty_project_is_not_ready():
    facts = read(machine("web-1"))
    facts.pop("launch_settings")
    unproven = judged(facts)
    assert checks_of(unproven, "web-1")[1]["launch settings"]["status"] == "skipped" and unproven["result"] == "passed"
    empty = judged(read())
    assert empty["result"] == "failed" and empty["failures"] == ["the project has no machines: nothing would fail over"]


def test_the_target_and_states_are_as_given():
    facts = read(machine("lag-1", state="lagging", newest="2026-11-27T09:30:00.000000+00:00"))
    assert judged(facts)["result"] == "failed"
    assert judged(facts, target=3600, states=("continuous", "lagging"))["result"] == "passed"


def test_its_forms_say_it_at_once():
    verdict = judged(read(machine("web-1"), machine("old-1", newest="2026-11-27T09:00:00.000000+00:00")))
    text = markdown(verdict)
    assert text.startswith("# Readiness of production: FAILED\n\n1 of 2 machines of production are not ready")
    assert "| old-1 | NOT READY | continuous | 2026-11-27T09:00:00.000000+00:00 (p-old-1-2) | 1 h 0 min |" in text
    suites = ElementTree.fromstring(junit(verdict).encode())
    assert (suites.get("tests"), suites.get("failures")) == ("8", "1")
    assert suites.find("testsuite/testcase[@classname='readiness.production.old-1'][@name='newest point']/failure") is not None
    html = page(verdict, dict(sequence=3, sha256="ab" * 32))
    assert "Readiness of production: FAILED" in html and "Age of the newest point in time" in html and "Entry 3, SHA-256" in html


def test_report_write_makes_it_by_the_runbooks_row():
    verdict = made(BY_NAME["readiness"], dict(read=read(machine("web-1")), rpo_target_seconds=600, states=["continuous"]), GENERATED)
    assert verdict["schema"] == BY_NAME["readiness"].schema and verdict["generated"] == GENERATED
