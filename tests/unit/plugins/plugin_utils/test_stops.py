# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A rehearsal's stop conditions: probes given as a scenario or AWX gives them, refused by name when wrong; a probe stops
the run at its after_failures-th failure in a row - a flapping one never; an HTTP probe that cannot reach its address
fails; a health probe names the machines off its thresholds."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_stop_when
from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, RELEASED
from ansible_collections.replication.recovery.plugins.plugin_utils._record import as_record
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import health_gate
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import (
    CLEANUP_PHASE, lever_seen_said, look_at_health, look_at_lever, look_at_url, new_watch, note, outside_the_blast_radius, stop_said, watched)


def test_probes_are_read_with_their_defaults_and_as_json_text():
    probes = parse_stop_when([{"name": "shop", "url": "https://shop.example/health"},
                              {"name": "fleet", "health": {"max_lag": "600"}, "after_failures": "3"},
                              {"name": "mine", "tasks": "probe.yml"}])
    assert probes == [dict(name="shop", kind="url", after_failures=2, url="https://shop.example/health", status=[200]),
                      dict(name="fleet", kind="health", after_failures=3, health=dict(max_lag=600, states=["continuous"])),
                      dict(name="mine", kind="tasks", after_failures=2, tasks="probe.yml")]
    assert parse_stop_when(json.dumps([{"name": "shop", "url": "http://x", "status": "200,204"}]))[0]["status"] == [200, 204]
    assert [probe["name"] for probe in watched(probes)] == ["shop", "fleet"]  # the tasks are the game day's to run
    assert parse_stop_when(None) == [] and parse_stop_when("") == []


@pytest.mark.parametrize("given, said", [
    ({"name": "shop"}, "probe shop has none of url, health and tasks"),
    ({"name": "shop", "url": "http://x", "health": {}}, "probe shop has url and health"),
    ({"url": "http://x"}, "probe 1 has no name"),
    ({"name": "shop", "url": "shop.example"}, "url is an http:// or https:// address"),
    ({"name": "shop", "url": "http://x", "status": "ok"}, "status is an HTTP status code"),
    ({"name": "shop", "url": "http://x", "after_failures": 0}, "after_failures of shop is a whole number from 1"),
    ({"name": "fleet", "health": {"lag": 5}}, "health is a mapping of max_lag and states"),
    ({"name": "fleet", "health": {}, "status": 200}, "which a health probe does not take"),
    ({"name": "mine", "tasks": ["a"]}, "tasks is the path of a task file"),
])
def test_a_wrong_probe_is_refused_by_its_name(given, said):
    with pytest.raises(ValueError, match=said):
        parse_stop_when([given], "dr_test_stop_when")


def test_two_probes_of_one_name_and_a_text_that_is_no_list_are_refused():
    with pytest.raises(ValueError, match="two probes are named shop"):
        parse_stop_when([{"name": "shop", "url": "http://x"}, {"name": "shop", "url": "http://y"}])
    with pytest.raises(ValueError, match="is a list of probes"):
        parse_stop_when("shop")


def test_a_probe_stops_the_run_at_its_after_failures_th_failure_in_a_row_and_a_flapping_one_never():
    probe = dict(name="shop", kind="url", after_failures=2)
    watch = new_watch([probe])
    assert [note(watch, probe, passed, "x", "t%d" % number) for number, passed in enumerate([False, True, False, True, False])] == [None] * 5
    assert note(watch, probe, False, "answered 503", "t9") == dict(probe="shop", at="t9", failures=2, said="answered 503")
    assert watch["stopped_by"]["at"] == "t9" and len(watch["timeline"]) == 6 and watch["failures_in_a_row"] == {"shop": 2}
    assert note(watch, probe, False, "again", "t10") is None  # the first stop stays the stop
    assert stop_said(watch["stopped_by"]) == "the stop condition shop failed 2 times in a row (answered 503, at t9)"


class Answers(BaseHTTPRequestHandler):
    statuses = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.send_response(self.statuses.pop(0))
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = HTTPServer(("127.0.0.1", 0), Answers)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/health" % httpd.server_address[1]
    httpd.shutdown()


def test_an_http_probe_passes_on_its_statuses_fails_on_others_and_when_it_cannot_reach_its_address(server):
    Answers.statuses[:] = [200, 503, 204]
    probe = parse_stop_when([{"name": "shop", "url": server, "status": [200, 204]}])[0]
    assert look_at_url(probe) == (True, "answered 200")
    assert look_at_url(probe) == (False, "answered 503")
    assert look_at_url(probe) == (True, "answered 204")
    unreachable = dict(probe, url="http://127.0.0.1:9/")
    passed, said = look_at_url(unreachable)
    assert not passed and said.startswith("could not be reached")


def test_a_health_probe_names_the_machines_off_its_thresholds():
    probe = parse_stop_when([{"name": "fleet", "health": {"max_lag": 600}}])[0]
    machines = [dict(name="web-1", replication_state="continuous", lag_seconds=30),
                dict(name="db-1", replication_state="continuous", lag_seconds=900),
                dict(name="app-1", replication_state="paused", lag_seconds=5000)]
    assert look_at_health(probe, machines) == (False, "app-1 paused; db-1 lags 900 s")
    assert look_at_health(probe, machines[:1]) == (True, "every machine within it")


def test_a_health_probe_judges_replication_as_the_health_gate_does():
    # One judgement of replication (_judgement.replication_out): a machine with no consistent point in time yet is over
    # any most lag, for a stop condition as for the gate and the health report - its lag is not known to be within it.
    probe = parse_stop_when([{"name": "fleet", "health": {"max_lag": 600}}])[0]
    machines = [dict(name="web-1", replication_state="continuous", lag_seconds=None)]
    assert look_at_health(probe, machines) == (False, "web-1 has no consistent point in time yet")
    assert health_gate(machines, max_lag=600)[0]["reasons"] == ["no consistent point in time yet"]
    without_lag = parse_stop_when([{"name": "fleet", "health": {"states": ["continuous"]}}])[0]
    assert look_at_health(without_lag, machines) == (True, "every machine within it")


def test_the_blast_radius_takes_in_machines_by_name_pattern_and_tag():
    machines = [dict(name="web-1", tags=[]), dict(name="db-1", tags=["drill"]), dict(name="erp-1", tags=["prod"])]
    assert outside_the_blast_radius(machines, ["web-*", "tag:drill"]) == ["erp-1"]
    assert outside_the_blast_radius(machines, ["web-1", "db-1", "erp-1"]) == []
    assert outside_the_blast_radius(machines, None) == [] and outside_the_blast_radius(machines, []) == []
    assert outside_the_blast_radius(machines, ["WEB-*"]) == ["web-1", "db-1", "erp-1"]  # names are matched as written


class LeverStep:
    """A runbook step as look_at_lever sees it: its record, --check or not, and the lever reads it sends."""

    def __init__(self, lever_state, check_mode=False, runbook="dr_test"):
        self.record = as_record(dict(runbook=runbook, roll_back=False, test_network=dict(network=None), project_id="p1",
                                     project="payments", settings=dict(progress_interval=30), stop_when=new_watch([])))
        self.check_mode = check_mode
        self.lever = dict(state=lever_state, by="bob", at="2026-12-02T05:00:00Z", reason="INC-7")
        self.reads = 0

    def service(self, module, **args):
        assert module == "service_safety_lever" and args == dict(project="p1")
        self.reads += 1
        return dict(lever=self.lever)


def test_the_lever_is_read_at_each_look_but_fresh_within_the_progress_interval_and_once_seen_it_is_the_runs():
    step = LeverStep(RELEASED)
    assert look_at_lever(step, "the launch of wave 1") is None and step.reads == 1
    assert look_at_lever(step, "the checks of wave 1", fresh=True) is None and step.reads == 1  # read just now: it stands
    step.record["stop_when"]["lever_read"] -= 31
    step.lever["state"] = ENGAGED
    seen = look_at_lever(step, "the checks of wave 1", fresh=True)
    assert step.reads == 2 and seen["obeyed"] and seen["phase"] == "the checks of wave 1" and seen["by"] == "bob"
    assert look_at_lever(step, CLEANUP_PHASE, stops=False) is seen and step.reads == 2  # seen: not read again
    assert lever_seen_said(seen).startswith("Lever engaged at 2026-12-02T05:00:00Z by bob: INC-7, during the checks of wave 1 (seen ")


@pytest.mark.parametrize("step", [LeverStep(ENGAGED, check_mode=True), LeverStep(ENGAGED, runbook="failover")])
def test_under_check_or_in_a_run_that_is_no_rehearsal_the_lever_is_not_read(step):
    assert look_at_lever(step, "the launch of wave 1") is None and step.reads == 0
