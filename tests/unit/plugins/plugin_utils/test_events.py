# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The watch behind the event source replication.recovery.service_events: every event type, what a look
costs, faults, and the state that keeps a change from being told twice. (The source in ansible-rulebook,
against the simulator: tests/controllers.)"""

import copy
import json

from ansible_collections.replication.recovery.plugins.module_utils._lever import LEVER_PLAN, lever_steps
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils._events import EVENT_TYPES, Watcher, new_state, replication_state, valid_state

import pytest

NOW = parse_time("2026-11-24T10:00:00+00:00")


def machine(name, status="STARTED", lag=60, backlog=0, scan_ago=None, consistent=True):
    info = {"backloggedStorageBytes": backlog, "lastSeenDateTime": iso_time(NOW)}
    if consistent:
        info["lastConsistencyDateTime"] = iso_time(NOW - lag)
    if scan_ago is not None:
        info["lastScanStartDateTime"] = iso_time(NOW - scan_ago)
    return {"id": name + "-id", "replicationStatus": status, "replicationInfo": info,
            "sourceProperties": {"name": name, "machineCloudId": "i-" + name, "os": "Linux"}}


def job(number, status="STARTED", kind="TEST_LAUNCH", log=()):
    return {"id": "job-%d" % number, "type": kind, "status": status, "creationDateTime": iso_time(NOW - 100),
            "participatingMachines": ["web-1-id"], "initiatedBy": "ops@example.com", "log": [{"message": line} for line in log]}


class Service:
    """The service as the watch reads it: projects with machines and jobs (newest first), licences; each
    request counted; a fault when asked."""

    def __init__(self):
        self.now = NOW
        self.projects = {"p1": dict(name="prod", machines=[machine("web-1"), machine("db-1")], jobs=[])}
        self.licenses = [{"id": "l1", "type": "DR", "count": 10, "used": 2, "expirationDateTime": iso_time(NOW + 90 * 86400)}]
        self.requests = []
        self.audit = []
        self.down = False
        self.slow = {}  # a path answered (its next read) after retries that take that many seconds of the service's clock
        self.retries = 0  # counted as ServiceClient counts them

    def _read(self, path):
        self.requests.append(path)
        if path in self.slow:
            self.now += self.slow.pop(path)
            self.retries += 1
        if self.down:
            raise ServiceError("GET", path, status=503, message="service unavailable")

    def get(self, path, params=None):
        self._read(path)
        if path == "/extendedAccountInfo":
            return {"dateTime": {"dateTime": iso_time(self.now)},
                    "projects": {"items": [{"id": key, "name": p["name"]} for key, p in self.projects.items()]}}
        project = path.split("/")[2]
        if path.endswith("/auditLog"):
            window = (parse_time(params["fromDateTime"]), parse_time(params["toDateTime"]))
            return {"items": [entry for entry in self.audit if window[0] <= parse_time(entry["timestamp"]) <= window[1]], "hasMoreResults": False}
        if path.endswith("/recoveryPlans"):
            return {"items": copy.deepcopy(self.projects[project].get("plans") or [])}
        assert path.endswith("/jobs") and params == {"limit": 20}
        return {"items": copy.deepcopy(self.projects[project]["jobs"])}

    def list(self, path, params=None):
        self._read(path)
        if path == "/licenses":
            return copy.deepcopy(self.licenses)
        assert params == {"all": "true"}
        machines = self.projects[path.split("/")[2]]["machines"]
        return copy.deepcopy(machines(self.now) if callable(machines) else machines)  # a function: machines that replicate on

    def close(self):
        pass


def watched(service, **options):
    watcher = Watcher(service, **options)
    assert watcher.look() == []  # the first look tells nothing: it is what the next are compared with
    return watcher


def types(events):
    return [event["type"] for event in events]


def test_a_look_costs_one_account_read_and_three_reads_a_project():
    service = Service()
    service.projects["p2"] = dict(name="dev", machines=[machine("app-1")], jobs=[])
    watcher = watched(service, license_every=3600)
    assert service.requests == ["/extendedAccountInfo", "/projects/p1/machines", "/projects/p1/jobs", "/projects/p1/recoveryPlans",
                                "/projects/p2/machines", "/projects/p2/jobs", "/projects/p2/recoveryPlans", "/licenses"]
    service.requests = []
    service.now += 60
    assert watcher.look() == []
    assert len(service.requests) == 1 + 2 * 3  # the licences wait for their interval
    service.now += 3600
    watcher.look()
    assert service.requests[-1] == "/licenses"


def test_a_paused_machine_is_told_once_and_its_resumption_too():
    service = Service()
    watcher = watched(service)
    service.projects["p1"]["machines"][0]["replicationStatus"] = "PAUSED"
    events = watcher.look()
    assert events == [{"type": "replication_state_changed", "project": {"id": "p1", "name": "prod"}, "machine": {"id": "web-1-id", "name": "web-1"},
                       "time": iso_time(NOW), "state": "paused", "previous": "continuous", "replication_status": "PAUSED"}]
    assert watcher.look() == []
    # Who resumed it: the audit log between the two looks, read because something changed (and only then).
    service.now += 60
    service.audit = [{"timestamp": iso_time(service.now - 30), "eventName": "REPLICATION_STARTED", "username": "ops@example.com",
                      "participatingMachines": [{"machineCloudEndureId": "web-1-id"}]},
                     {"timestamp": iso_time(service.now - 20), "eventName": "MACHINES_LAUNCHED", "username": "robot@example.com", "jobId": "j1",
                      "participatingMachines": [{"machineCloudEndureId": "web-1-id"}]}]
    service.projects["p1"]["machines"][0]["replicationStatus"] = "STARTED"
    service.requests = []
    [resumed] = watcher.look()
    assert (resumed["type"], resumed["state"], resumed["previous"]) == ("replication_state_changed", "continuous", "paused")
    assert (resumed["by"], resumed["audit_event"]) == ("ops@example.com", "REPLICATION_STARTED")
    assert service.requests.count("/projects/p1/auditLog") == 1
    service.requests = []
    watcher.look()
    assert "/projects/p1/auditLog" not in service.requests


@pytest.mark.parametrize("before, after, state", [
    (dict(consistent=False), dict(), "continuous"),  # initial sync done
    (dict(), dict(scan_ago=10), "rescanning"),  # a scan began after the last consistent point
    (dict(), dict(status="STOPPED"), "stopped"),
    (dict(consistent=False), dict(consistent=False, status="PAUSED"), "paused"),
])
def test_each_replication_state(before, after, state):
    service = Service()
    service.projects["p1"]["machines"] = [machine("web-1", **before)]
    watcher = watched(service)
    service.projects["p1"]["machines"] = [machine("web-1", **after)]
    [event] = watcher.look()
    assert event["type"] == "replication_state_changed" and event["state"] == state == replication_state(service.projects["p1"]["machines"][0])


def test_the_lag_crossing_its_threshold_up_and_down():
    service = Service()
    watcher = watched(service, lag_threshold=900)
    service.projects["p1"]["machines"][1] = machine("db-1", lag=1000)
    [event] = watcher.look()
    assert (event["type"], event["machine"]["name"], event["lag_seconds"], event["threshold_seconds"]) == ("lag_over_threshold", "db-1", 1000, 900)
    service.projects["p1"]["machines"][1] = machine("db-1", lag=2000)
    assert watcher.look() == []  # still over: told once
    service.projects["p1"]["machines"][1] = machine("db-1", lag=30)
    assert types(watcher.look()) == ["lag_within_threshold"]


def replicating(*names):
    """Machines that replicate on while the service's time goes by: 60 seconds behind it whenever they are read."""
    return lambda now: [dict(m, replicationInfo=dict(m["replicationInfo"], lastConsistencyDateTime=iso_time(now - 60), lastSeenDateTime=iso_time(now)))
                        for m in (machine(name) for name in names)]


def test_a_clock_read_retried_longer_than_the_threshold_leaves_a_healthy_machine_continuous():
    service = Service()
    service.projects["p1"]["machines"] = replicating("web-1", "db-1")
    watcher = watched(service, lag_threshold=900)
    service.slow["/extendedAccountInfo"] = 1200
    assert watcher.look() == []
    assert watcher.state["projects"]["p1"]["seen"] == iso_time(NOW + 1200)


def test_machines_read_again_are_measured_against_the_clock_read_again_next_to_them():
    service = Service()
    service.projects["p2"] = dict(name="dev", machines=replicating("app-1"), jobs=[])
    watcher = watched(service, lag_threshold=900)
    # db-1 stopped replicating at NOW; prod's machines are answered 20 minutes late, which against the account's clock
    # would hide its silence. Read again next to a new clock, it shows; dev's machines need no other clock.
    service.projects["p1"]["machines"] = lambda now: [machine("web-1", lag=60 - (now - NOW)), machine("db-1", lag=0)]
    service.slow["/projects/p1/machines"] = 1200
    service.requests = []
    [event] = watcher.look()
    assert (event["type"], event["machine"]["name"], event["lag_seconds"], event["time"]) == ("lag_over_threshold", "db-1", 1200, iso_time(NOW + 1200))
    assert service.requests == ["/extendedAccountInfo", "/projects/p1/machines", "/projects/p1/jobs", "/projects/p1/recoveryPlans",
                                "/extendedAccountInfo", "/projects/p1/machines", "/projects/p1/jobs", "/projects/p1/recoveryPlans",
                                "/projects/p2/machines", "/projects/p2/jobs", "/projects/p2/recoveryPlans"]


def test_a_paused_machine_is_not_told_as_lagging():
    service = Service()
    watcher = watched(service, lag_threshold=900)
    service.projects["p1"]["machines"][1] = machine("db-1", lag=5000, status="PAUSED")
    assert types(watcher.look()) == ["replication_state_changed"]


def test_a_backlog_that_keeps_growing_is_told_once_until_it_stops():
    service = Service()
    watcher = watched(service, backlog_looks=3)
    told = []
    for backlog in (10, 20, 30, 40, 50, 50, 60, 70, 80):
        service.projects["p1"]["machines"][0] = machine("web-1", backlog=backlog)
        told.append(types(watcher.look()))
    assert told == [[], [], ["backlog_growing"], [], [], [], [], [], ["backlog_growing"]]


def test_machines_registered_and_removed():
    service = Service()
    watcher = watched(service)
    service.projects["p1"]["machines"] = [machine("db-1"), machine("new-1", consistent=False)]
    events = watcher.look()
    assert [(e["type"], e["machine"]["name"]) for e in events] == [("machine_registered", "new-1"), ("machine_removed", "web-1")]
    assert events[0]["state"] == "initial_sync" and events[0]["source"] == {"machineCloudId": "i-new-1", "os": "Linux"}


def test_jobs_started_ended_and_failed_in_the_order_they_happened():
    service = Service()
    service.projects["p1"]["jobs"] = [job(1, status="COMPLETED")]
    watcher = watched(service)
    service.projects["p1"]["jobs"] = [job(2)] + service.projects["p1"]["jobs"]
    events = watcher.look()
    assert [(e["type"], e["job"]["id"]) for e in events] == [("job_started", "job-2")]
    assert events[0]["job"]["machines"] == ["web-1-id"] and events[0]["job"]["initiated_by"] == "ops@example.com"
    service.projects["p1"]["jobs"][0]["status"] = "COMPLETED"
    assert [(e["type"], e["job"]["id"]) for e in watcher.look()] == [("job_ended", "job-2")]
    # A job that began and failed between two looks: both told, its log's tail with the failure.
    service.projects["p1"]["jobs"] = [job(3, status="FAILED", log=["line %d" % n for n in range(8)])] + service.projects["p1"]["jobs"]
    events = watcher.look()
    assert types(events) == ["job_started", "job_failed"] and events[1]["log_tail"] == ["line %d" % n for n in range(3, 8)]
    assert watcher.look() == []


def test_a_licence_nearing_its_end_is_told_once_and_again_after_a_renewal():
    service = Service()
    watcher = watched(service, license_days=30, license_every=0)
    service.licenses[0]["expirationDateTime"] = iso_time(NOW + 10 * 86400)
    [event] = watcher.look()
    assert event["type"] == "license_expiring" and event["days_left"] == 10.0 and event["license"]["id"] == "l1"
    assert watcher.look() == []
    service.licenses[0]["expirationDateTime"] = iso_time(NOW + 20 * 86400)  # renewed, but not far enough
    assert types(watcher.look()) == ["license_expiring"]
    assert types(Watcher(service, license_days=None, state=watcher.state).look()) == []


def test_a_service_that_does_not_answer_is_told_once_and_its_return_too():
    service = Service()
    watcher = watched(service)
    service.down = True
    [failed] = watcher.look()
    assert failed["type"] == "watch_failed" and "503" in failed["message"]
    assert watcher.look() == []
    service.down = False
    service.projects["p1"]["machines"][0]["replicationStatus"] = "PAUSED"  # what changed meanwhile is told
    assert types(watcher.look()) == ["watch_recovered", "replication_state_changed"]


def test_the_state_keeps_a_change_from_being_told_twice_across_restarts():
    service = Service()
    watcher = watched(service)
    service.projects["p1"]["machines"][0]["replicationStatus"] = "PAUSED"
    assert types(watcher.look()) == ["replication_state_changed"]
    kept = json.loads(json.dumps(watcher.state))  # as the state file keeps it
    again = Watcher(service, state=valid_state(kept))
    assert again.look() == []
    service.projects["p1"]["machines"][1]["replicationStatus"] = "STOPPED"  # changed while the source was stopped
    assert [e["machine"]["name"] for e in Watcher(service, state=valid_state(json.loads(json.dumps(again.state)))).look()] == ["db-1"]
    with pytest.raises(ValueError, match="not a state"):
        valid_state({"projects": {}})


def lever_plan(state, by="on-call", reason="INC-7"):
    return dict(id="lever", name=LEVER_PLAN, steps=lever_steps(state, by, "2026-11-28T05:00:00Z", reason))


def test_the_safety_lever_engaged_and_released_is_told_once_each_with_who_and_why():
    service = Service()
    service.projects["p1"]["plans"] = [dict(id="plan-1", name="full-site", steps=dict(items=[]))]
    watcher = watched(service)
    service.projects["p1"]["plans"].append(lever_plan("engaged"))
    service.now += 60
    engaged, = watcher.look()
    assert engaged["type"] == "lever_engaged" and engaged["project"]["id"] == "p1"
    assert (engaged["by"], engaged["at"], engaged["reason"]) == ("on-call", "2026-11-28T05:00:00Z", "INC-7")
    service.now += 60
    assert watcher.look() == []  # told once
    service.projects["p1"]["plans"][-1] = lever_plan("released", by="lead", reason="resolved")
    service.now += 60
    released, = watcher.look()
    assert released["type"] == "lever_released" and released["by"] == "lead" and released["reason"] == "resolved"


def test_a_lever_engaged_at_the_first_look_or_before_a_state_knew_levers_is_not_told():
    service = Service()
    service.projects["p1"]["plans"] = [lever_plan("engaged")]
    watcher = watched(service)  # the first look tells nothing, the lever neither
    service.now += 60
    assert watcher.look() == []
    del watcher.state["projects"]["p1"]["lever"]  # a state file written before levers were watched
    service.projects["p1"]["plans"] = []
    service.now += 60
    assert watcher.look() == []


def test_no_event_carries_a_secret_and_every_type_is_known():
    service = Service()
    watcher = watched(service, license_every=0)
    service.projects["p1"]["machines"] = [machine("web-1", status="PAUSED"), machine("new-1")]
    service.projects["p1"]["jobs"] = [job(1, status="FAILED")]
    service.licenses[0]["expirationDateTime"] = iso_time(NOW + 86400)
    service.projects["p1"]["plans"] = [lever_plan("engaged")]
    events = watcher.look()
    assert set(types(events)) <= set(EVENT_TYPES) and len(set(types(events))) == 7
    said = json.dumps(events)
    assert "password" not in said and "token" not in said.lower() and "session" not in said
    assert new_state()["projects"] == {}


def game_day(outcome, name="nightly", minute=0):
    stops = dict(lever=None, probes=[], looks=2, timeline=[],
                 stopped_by=dict(probe="storefront", at="2026-11-28T05:01:00Z", failures=2, said="answered 503") if outcome == "stopped" else None)
    return {"schema": "replication.recovery.game_day/v1", "project": "prod", "scenario": {"name": name, "hypothesis": "prod recovers"},
            "started": "2026-11-28T05:%02d:00Z" % minute, "outcome": outcome, "result": "failed", "failures": ["wave 1: stopped"],
            "stop_conditions": stops, "generated": "2026-11-28T05:02:00Z"}


def test_a_game_day_stopped_that_the_ledger_gains_is_told_once_and_nothing_else_of_it(tmp_path):
    from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import append
    ledger = str(tmp_path / "ledger")
    append(ledger, "game_day", game_day("stopped", name="before the watch"))  # the first look notes where the ledger ends
    service = Service()
    watcher = watched(service, ledger_dir=ledger)
    assert watcher.state["ledger_sequence"] == 1
    append(ledger, "game_day", game_day("passed", minute=1))
    append(ledger, "dr_test", dict(game_day("stopped", minute=2), schema="replication.recovery.dr_test/v1"))
    append(ledger, "game_day", game_day("stopped", minute=3))
    (tmp_path / "ledger" / "00000005.json").write_text("{torn")
    service.now += 60
    stopped, = watcher.look()
    assert stopped["type"] == "game_day_stopped" and stopped["scenario"] == "nightly" and stopped["project"] == dict(name="prod")
    assert stopped["projects"] == ["prod"]
    assert stopped["stopped_by"]["probe"] == "storefront" and stopped["ledger"]["sequence"] == 4 and stopped["failures"] == ["wave 1: stopped"]
    service.now += 60
    assert watcher.look() == [] and watcher.state["ledger_sequence"] == 5  # told once; the torn entry passed over
    assert "requests" not in stopped and len([path for path in service.requests if "ledger" in path]) == 0


def test_without_a_ledger_no_ledger_is_read_and_a_state_of_before_gains_its_member():
    assert Watcher(Service()).game_days([]) is None
    assert valid_state(dict(schema=new_state()["schema"], projects={}, licenses={}))["ledger_sequence"] is None


def test_a_stopped_game_day_of_an_application_is_told_with_its_nodes_projects(tmp_path):
    from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import append
    ledger = str(tmp_path / "ledger")
    watcher = watched(Service(), ledger_dir=ledger)
    append(ledger, "game_day", dict(game_day("stopped"), project=None, projects=[dict(name="sf-db"), dict(name="sf-web")]))
    stopped, = watcher.look()
    assert stopped["project"] == dict(name="sf-db") and stopped["projects"] == ["sf-db", "sf-web"]
