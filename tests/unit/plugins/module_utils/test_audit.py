# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._audit import read_audit_log
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time as iso
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time


class FakeAuditLog:
    """The service's audit log: entries in a window, oldest first, ``limit`` at most, and hasMoreResults."""

    def __init__(self, count, limit):
        self.entries = [{"eventName": "E%d" % i, "timestamp": iso(1795000000 + i // 2), "description": "entry %d" % i} for i in range(count)]
        self.limit = limit
        self.queries = []

    def get(self, path, params=None):
        self.queries.append(dict(params))
        window = self.entries
        if "fromDateTime" in params:
            start, end = parse_time(params["fromDateTime"]), parse_time(params["toDateTime"])
            window = [e for e in window if start <= parse_time(e["timestamp"]) <= end]
        return {"items": window[:self.limit], "hasMoreResults": len(window) > self.limit}


def test_one_page():
    log = FakeAuditLog(5, limit=10)
    assert [e["eventName"] for e in read_audit_log(log, "/p")] == ["E%d" % i for i in range(5)]
    assert len(log.queries) == 1 and "fromDateTime" not in log.queries[0]


def test_pages_follow_each_other_by_time_and_entries_are_kept_once(monkeypatch):
    from ansible_collections.replication.recovery.plugins.module_utils import _audit as audit
    monkeypatch.setattr(audit, "PAGE_LIMIT", 4)
    log = FakeAuditLog(11, limit=4)  # two entries per second: page edges fall inside a second
    entries = read_audit_log(log, "/p", now=lambda: 1795000100)
    assert [e["eventName"] for e in entries] == ["E%d" % i for i in range(11)]
    assert len(log.queries) > 2
    assert log.queries[1]["fromDateTime"] == log.entries[3]["timestamp"]


def test_a_window():
    log = FakeAuditLog(10, limit=100)
    entries = read_audit_log(log, "/p", since=1795000001, until=1795000002)
    assert [e["eventName"] for e in entries] == ["E2", "E3", "E4", "E5"]


def test_a_page_all_at_one_moment_does_not_loop_forever(monkeypatch):
    from ansible_collections.replication.recovery.plugins.module_utils import _audit as audit
    monkeypatch.setattr(audit, "PAGE_LIMIT", 2)
    log = FakeAuditLog(6, limit=2)
    for entry in log.entries:
        entry["timestamp"] = iso(1795000000)
    assert len(read_audit_log(log, "/p", now=lambda: 1795000100)) == 2
    assert len(log.queries) == 2


def test_the_runbooks_marks_are_no_change_to_a_machine_and_a_users_tag_is():
    from ansible_collections.replication.recovery.plugins.module_utils._audit import machine_changes

    def tags(old, new, machine="m-1"):
        return {"timestamp": iso(1795000000), "eventName": "MACHINE_UPDATED", "description": "tags",
                "changedFields": [{"fieldName": "tags", "oldValue": old, "newValue": new}],
                "participatingMachines": [{"machineCloudEndureId": machine}]}

    marked = tags('["tier-1"]', '["tier-1", "replication.recovery/recovered=r-1"]')
    unmarked = tags(["replication.recovery/recovered=r-1"], [], "m-2")  # a value as a list, a mark removed
    first = dict(tags(None, '["replication.recovery/drill=2026-11-22T10:00:00Z"]', "m-3"))
    first["changedFields"] = [{"fieldName": "tags", "newValue": '["replication.recovery/drill=2026-11-22T10:00:00Z"]'}]  # no old value
    users = tags('["tier-1"]', '["tier-2", "replication.recovery/recovered=r-1"]', "m-4")
    assert list(machine_changes([marked, unmarked, first, users])) == ["m-4"]
