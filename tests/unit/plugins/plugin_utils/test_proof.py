# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Whether a machine is proven today: its newest passing run in the ledger (or its last test launch), and the writes
to it since that the audit log holds."""

import json

from ansible_collections.replication.recovery.plugins.module_utils._audit import machine_changes
from ansible_collections.replication.recovery.plugins.plugin_utils import _proof

PROJECT = {"name": "production", "id": "p-id"}
WEB, DB, APP = ({"id": "%s-id" % name, "name": name, "replicationStatus": "STARTED", "lifeCycle": {}} for name in ("web-1", "db-1", "app-1"))


def entry(sequence, runbook="dr_test", project="production", launched="2026-11-20T10:00:00+00:00", **passed):
    machines = [{"id": name.replace("_", "-") + "-id", "name": name.replace("_", "-"), "passed": ok} for name, ok in passed.items()]
    return {"sequence": sequence, "runbook": runbook, "report": {"project": project, "started": launched, "launch_requested": launched,
                                                                 "machines": machines}}


def audit(time, event, *machines, job=None, fields=(), old=None, new=None, user="ops@example.com"):
    changed = [{"fieldName": name, "oldValue": old, "newValue": new} for name in fields]
    return {"timestamp": time, "eventName": event, "description": "%s of %s." % (event, ", ".join(machines)), "username": user, "jobId": job,
            "changedFields": changed or None,
            "participatingMachines": [{"machineCloudEndureId": name + "-id", "machineCloudName": name} for name in machines] or None}


def test_a_change_is_a_write_naming_the_machine_outside_a_job_oldest_first():
    entries = [
        audit("2026-11-21T12:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["instanceType"], old="m5.large", new="m5.xlarge"),
        audit("2026-11-21T09:00:00+00:00", "REPLICATION_PAUSED", "web-1", "db-1"),
        audit("2026-11-21T10:00:00+00:00", "MACHINES_LAUNCHED", "web-1", "db-1", job="j1"),
        audit("2026-11-21T11:00:00+00:00", "PROJECT_UPDATED", fields=["name"]),
        audit("2026-11-21T13:00:00+00:00", "BANDWIDTH_THROTTLING_UPDATED", "db-1"),
    ]
    changes = machine_changes(entries, ignore_events=["BANDWIDTH_THROTTLING_UPDATED"])
    assert sorted(changes) == ["*", "db-1-id", "web-1-id"]
    assert changes["*"] == [{"time": "2026-11-21T11:00:00+00:00", "event": "PROJECT_UPDATED", "description": "PROJECT_UPDATED of .",
                             "username": "ops@example.com", "fields": ["name"], "scope": "project"}]
    assert [change["event"] for change in changes["web-1-id"]] == ["REPLICATION_PAUSED", "BLUEPRINT_UPDATED"]
    assert changes["web-1-id"][1] == {"time": "2026-11-21T12:00:00+00:00", "event": "BLUEPRINT_UPDATED", "description": "BLUEPRINT_UPDATED of web-1.",
                                      "username": "ops@example.com", "fields": ["instanceType"]}
    assert [change["event"] for change in changes["db-1-id"]] == ["REPLICATION_PAUSED"]


def test_the_test_networks_own_switch_and_restore_are_not_changes_whatever_the_values_type():
    stash = [{"key": "replication.recovery/production.1", "value": "{...}"}]
    switch = audit("2026-11-21T10:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["subnetIDs", "tags"], old="[]", new=json.dumps(stash))
    restore = audit("2026-11-21T11:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["tags"], old=stash, new=[])
    other_tags = audit("2026-11-21T12:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["tags"], old=[], new=[{"key": "owner", "value": "x"}])
    assert [change["time"] for change in machine_changes([switch, restore, other_tags])["web-1-id"]] == ["2026-11-21T12:00:00+00:00"]


def test_the_newest_passing_run_proves_a_machine_a_failed_one_does_not():
    entries = [entry(1, web_1=True, db_1=True), entry(2, launched="2026-11-22T10:00:00+00:00", web_1=True, db_1=False),
               entry(3, runbook="health", launched="2026-11-23T10:00:00+00:00", web_1=True),
               entry(4, project="staging", launched="2026-11-23T10:00:00+00:00", web_1=True),
               entry(5, runbook="failover", project="p-id", launched="2026-11-21T10:00:00+00:00", app_1=True)]
    proofs = _proof.ledger_proofs(entries, PROJECT)
    assert proofs == {
        "web-1-id": {"time": "2026-11-22T10:00:00+00:00", "source": "ledger", "runbook": "dr_test", "entry": 2, "run": "2026-11-22T10:00:00+00:00"},
        "db-1-id": {"time": "2026-11-20T10:00:00+00:00", "source": "ledger", "runbook": "dr_test", "entry": 1, "run": "2026-11-20T10:00:00+00:00"},
        "app-1-id": {"time": "2026-11-21T10:00:00+00:00", "source": "ledger", "runbook": "failover", "entry": 5, "run": "2026-11-21T10:00:00+00:00"},
    }


def test_each_machine_is_proven_changed_since_or_never_proven():
    proofs = _proof.ledger_proofs([entry(1, launched="2026-11-20T10:00:00+00:00", web_1=True, db_1=True)], PROJECT)
    assert _proof.audit_since([WEB, DB, APP], proofs) == "2026-11-20T10:00:00.000000+00:00"
    entries = [audit("2026-11-19T10:00:00+00:00", "BLUEPRINT_UPDATED", "db-1", fields=["instanceType"]),  # before its proof
               audit("2026-11-21T10:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["instanceType"])]
    judged = dict((machine["name"], machine) for machine in _proof.judge([WEB, DB, APP], proofs, entries))
    assert (judged["web-1"]["status"], judged["db-1"]["status"], judged["app-1"]["status"]) == ("changed since last proven", "proven", "never proven")
    assert [change["time"] for change in judged["web-1"]["changes"]] == ["2026-11-21T10:00:00+00:00"] and judged["db-1"]["changes"] == []
    assert [machine["name"] for machine in _proof.unproven(_proof.judge([WEB, DB, APP], proofs, entries))] == ["web-1", "app-1"]
    assert _proof.said(judged["web-1"]) == (
        "changed since last proven on 2026-11-20T10:00:00+00:00 (entry 1 of the ledger, dr_test): 2026-11-21T10:00:00+00:00 BLUEPRINT_UPDATED "
        "by ops@example.com: BLUEPRINT_UPDATED of web-1")
    assert _proof.said(judged["db-1"]) == "proven on 2026-11-20T10:00:00+00:00 (entry 1 of the ledger, dr_test)"
    assert _proof.said(judged["app-1"]) == "never proven"


def test_a_write_to_the_project_changes_each_of_its_machines_proven_before_it():
    proofs = _proof.ledger_proofs([entry(1, launched="2026-11-20T10:00:00+00:00", web_1=True),
                                   entry(2, launched="2026-11-22T10:00:00+00:00", db_1=True)], PROJECT)
    entries = [audit("2026-11-21T12:00:00+00:00", "REPLICATION_CONFIGURATION_UPDATED", fields=["subnetId"]),
               audit("2026-11-21T10:00:00+00:00", "BLUEPRINT_UPDATED", "web-1", fields=["instanceType"]),
               audit("2026-11-21T11:00:00+00:00", "PROJECT_USERS_ASSIGNED")]
    judged = dict((machine["name"], machine) for machine in _proof.judge([WEB, DB], proofs, entries, ignore_events=["PROJECT_USERS_ASSIGNED"]))
    # web-1: its blueprint, then the project's replication configuration, in that order; db-1 was proven after both.
    assert [(change["event"], change.get("scope")) for change in judged["web-1"]["changes"]] == [
        ("BLUEPRINT_UPDATED", None), ("REPLICATION_CONFIGURATION_UPDATED", "project")]
    assert judged["db-1"]["status"] == "proven"


def test_without_a_ledger_the_last_test_launch_stands_for_the_proof():
    tested = dict(WEB, lifeCycle={"lastTestLaunchDateTime": "2026-11-20T10:00:00+00:00", "lastRecoveryLaunchDateTime": "2026-11-21T10:00:00+00:00"})
    cut_over = dict(DB, lifeCycle={"lastCutoverDateTime": "2026-11-21T10:00:00+00:00"})
    proofs = _proof.life_cycle_proofs([tested, cut_over])
    assert proofs == {"web-1-id": {"time": "2026-11-21T10:00:00+00:00", "source": "last test launch", "runbook": None, "entry": None, "run": None}}
    [judged] = _proof.judge([tested], proofs, [audit("2026-11-22T10:00:00+00:00", "MACHINE_UPDATED", "web-1")])
    assert judged["status"] == "changed since last proven"
    assert _proof.said(judged).startswith("changed since last proven on 2026-11-21T10:00:00+00:00 (its last test launch, no ledger): ")


def test_nothing_proven_needs_no_audit_log():
    assert _proof.audit_since([WEB, DB], {}) is None
