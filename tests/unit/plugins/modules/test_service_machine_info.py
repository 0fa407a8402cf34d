# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_machine_info measures the machines against a clock read next to them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused
from ansible_collections.replication.recovery.plugins.module_utils import _machine_info
from ansible_collections.replication.recovery.plugins.modules.service_machine_info import MachineInfoModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import ClockedClient, set_up_without_ansible

NOW = parse_time("2026-11-22T10:00:00+00:00")
PROJECT = {"id": "p1", "name": "production"}
PARAMS = dict(project="production", machines=None, states=None, tags=None, lag_threshold=600, stale_after=900, include_target_machine=False,
              include_restore_servers=False, include_points_in_time=False, points_in_time_limit=None,
              prove_launch_settings=False)


class Info(MachineInfoModule):
    """The module without AnsibleModule's set-up, over a client with the service's clock."""

    def __init__(self, client, **params):
        set_up_without_ansible(self, client, dict(PARAMS, **params))

    def fail_json(self, msg, **kwargs):
        raise AssertionError(msg)


def machine(name, consistent, seen):
    return {"id": name + "-id", "sourceProperties": {"name": name}, "replicationStatus": "STARTED",
            "replicationInfo": {"lastConsistencyDateTime": iso_time(consistent), "lastSeenDateTime": iso_time(seen)}}


def replicating(now):
    """web-1 replicates on while the service's time goes by; db-1 was last consistent (and seen) at NOW."""
    return [machine("web-1", now - 60, now - 5), machine("db-1", NOW, NOW)]


def states(answer):
    return [(m["name"], m["replication_state"], m["lag_seconds"]) for m in answer["machines"]]


def test_a_clock_read_retried_longer_than_stale_after_leaves_a_healthy_machine_continuous():
    client = ClockedClient({"/projects": [PROJECT], "/projects/p1/machines": replicating}, now=NOW, slow={"/extendedAccountInfo": 1200})
    answer = Info(client, machines=["web-1"]).work()
    assert states(answer) == [("web-1", "continuous", 60)]
    assert answer["service_time"] == iso_time(NOW + 1200)
    assert client.requests == ["/projects", "/extendedAccountInfo", "/projects/p1/machines"]


def test_machines_read_again_are_measured_against_the_clock_read_again_next_to_them():
    # Answered 20 minutes after the clock, db-1's silence would not show against it: the clock and the machines are read again.
    client = ClockedClient({"/projects": [PROJECT], "/projects/p1/machines": replicating}, now=NOW, slow={"/projects/p1/machines": 1200})
    answer = Info(client).work()
    assert states(answer) == [("web-1", "continuous", 60), ("db-1", "stale", 1200)]
    assert answer["service_time"] == iso_time(NOW + 1200)
    assert client.requests == ["/projects", "/extendedAccountInfo", "/projects/p1/machines", "/extendedAccountInfo", "/projects/p1/machines"]


def test_the_points_in_time_of_the_machines_returned_are_read_with_them_all_at_once_newest_first():
    points = [{"id": "web-1-p%d" % number, "dateTime": iso_time(NOW - 600 * (3 - number))} for number in (1, 2, 3)]  # listed oldest first
    client = ClockedClient({"/projects": [PROJECT], "/projects/p1/machines": replicating, "/projects/p1/machines/web-1-id/pointsintime": points},
                           now=NOW)
    answer = Info(client, machines=["web-1"], include_points_in_time=True).work()
    assert [(m["name"], [p["id"] for p in m["points_in_time"]]) for m in answer["machines"]] == [("web-1", ["web-1-p3", "web-1-p2", "web-1-p1"])]
    # db-1 is not asked for: its points are not read; web-1's are read in one batch, not once more.
    assert client.batches == [["/projects/p1/machines/web-1-id/pointsintime"]]
    assert client.requests == ["/projects", "/extendedAccountInfo", "/projects/p1/machines"]


def test_without_include_points_in_time_no_point_is_read():
    client = ClockedClient({"/projects": [PROJECT], "/projects/p1/machines": replicating}, now=NOW)
    answer = Info(client).work()
    assert "points_in_time" not in answer["machines"][0] and client.batches == []


def many(now, count=5):
    return [machine("m-%d" % number, now - 60, now - 5) for number in range(count)]


def points_of_each(count):
    """Three points of each of ``count`` machines m-0, m-1, ..., listed oldest first."""
    return dict(("/projects/p1/machines/m-%d-id/pointsintime" % machine_number,
                 [{"id": "m-%d-p%d" % (machine_number, number), "dateTime": iso_time(NOW - 600 * (3 - number))} for number in (1, 2, 3)])
                for machine_number in range(count))


def test_a_limit_returns_each_machines_newest_points_and_reads_them_a_batch_at_a_time(monkeypatch):
    monkeypatch.setattr(_machine_info, "POINTS_READ_AT_ONCE", 2)
    client = ClockedClient(dict({"/projects": [PROJECT], "/projects/p1/machines": many}, **points_of_each(5)), now=NOW)
    module = Info(client, include_points_in_time=True, points_in_time_limit=1)
    answer = module.work()
    assert [(m["name"], [p["id"] for p in m["points_in_time"]]) for m in answer["machines"]] == [
        ("m-%d" % number, ["m-%d-p3" % number]) for number in range(5)]
    assert [len(batch) for batch in client.batches] == [2, 2, 1]
    # What the limit left out is not kept once its batch is done.
    assert not [key for key in module.session._lists if key[0].endswith("/pointsintime")]


def test_without_a_limit_every_point_is_returned_whatever_the_batches(monkeypatch):
    monkeypatch.setattr(_machine_info, "POINTS_READ_AT_ONCE", 2)
    client = ClockedClient(dict({"/projects": [PROJECT], "/projects/p1/machines": many}, **points_of_each(5)), now=NOW)
    answer = Info(client, include_points_in_time=True).work()
    assert [[p["id"] for p in m["points_in_time"]] for m in answer["machines"]] == [
        ["m-%d-p3" % number, "m-%d-p2" % number, "m-%d-p1" % number] for number in range(5)]


def test_a_limit_below_one_or_without_the_points_is_refused_before_any_read():
    for params in (dict(include_points_in_time=True, points_in_time_limit=0), dict(points_in_time_limit=2)):
        client = ClockedClient({"/projects": [PROJECT], "/projects/p1/machines": replicating}, now=NOW)
        with pytest.raises(Refused, match="points_in_time_limit is a number of points, 1 or more"):  # the module's run() fails its task
            Info(client, **params).work()
        assert client.requests == [] and client.batches == []
