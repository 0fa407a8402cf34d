"""The replication model of docs/wire.md, on the virtual clock.

WORLD's machines replicate over the default 100 Mbps link (12.5 MB/s) after eleven initiation
steps of 60 s: m1 (1 GB) is consistent 660 + 80 = 740 s after its agent was installed.
"""

from datetime import datetime

import pytest

from replication_service_simulator.replication import STEP_NAMES, Replication

from .conftest import START, WORLD, advance

STEPS = len(STEP_NAMES) * 60
M1_SYNC = 1_000_000_000 / 12_500_000  # 80 s


def seconds(text):
    return datetime.fromisoformat(text).timestamp()


@pytest.fixture
def machine(api, world, long_sessions):
    """Read m1 (or another machine) as the service shows it now."""
    project = world["project"]["id"]

    def read(name="m1"):
        return api.ok("GET", "/projects/%s/machines/%s" % (project, world["project"]["machines"][name]))
    return read


@pytest.fixture
def start(client, machine):
    """The moment the agents were installed."""
    return seconds(machine()["lifeCycle"]["agentInstallationDateTime"])


def now(client):
    return seconds(client.get("/_simulator/clock").json()["now"])


def test_initiation_walks_the_steps_about_a_minute_each(client, machine):
    for done in range(len(STEP_NAMES)):
        steps = machine()["replicationInfo"]["initiationStates"]["items"][0]["steps"]
        assert [s["status"] for s in steps] == ["SUCCEEDED"] * done + ["STARTED"] + ["NOT_STARTED"] * (len(STEP_NAMES) - done - 1)
        assert "lastConsistencyDateTime" not in machine()["replicationInfo"]
        advance(client, 60)
    steps = machine()["replicationInfo"]["initiationStates"]["items"][0]["steps"]
    assert {s["status"] for s in steps} == {"SUCCEEDED"}
    assert "connectionEstablishedDateTime" in machine()["lifeCycle"]


def test_initial_sync_runs_at_the_bandwidth_limit(client, machine, start):
    advance(client, STEPS + 40)
    info = machine()["replicationInfo"]
    assert info["replicatedStorageBytes"] == pytest.approx(500_000_000, rel=1e-6)
    assert seconds(info["lastScanStartDateTime"]) == pytest.approx(start + STEPS)
    assert seconds(info["nextConsistencyEstimatedDateTime"]) == pytest.approx(start + STEPS + M1_SYNC)
    assert "lastConsistencyDateTime" not in info
    advance(client, 40)
    info = machine()["replicationInfo"]
    assert info["replicatedStorageBytes"] == info["totalStorageBytes"] == 1_000_000_000
    assert seconds(info["lastConsistencyDateTime"]) == pytest.approx(start + STEPS + M1_SYNC)
    assert "nextConsistencyEstimatedDateTime" not in info


def test_throttling_changes_the_rate(api, world, client, machine, start):
    advance(client, STEPS + 40)  # half copied at 100 Mbps
    path = "/projects/%s/machines/%s/bandwidthThrottling" % (world["project"]["id"], world["project"]["machines"]["m1"])
    api.ok("PATCH", path, json={"bandwidthThrottling": 25})  # a quarter of the speed from now on
    advance(client, 80)
    assert machine()["replicationInfo"]["replicatedStorageBytes"] == pytest.approx(750_000_000, rel=1e-6)
    advance(client, 80)
    assert seconds(machine()["replicationInfo"]["lastConsistencyDateTime"]) == pytest.approx(start + STEPS + 40 + 160)


def test_the_configuration_bandwidth_applies_when_the_machine_has_none(api, world, client, machine, start):
    config = "/projects/%s/replicationConfigurations/%s" % (world["project"]["id"], world["project"]["replicationConfiguration"])
    api.ok("PATCH", config, json={"bandwidthThrottling": 50})
    advance(client, STEPS + M1_SYNC)
    assert machine()["replicationInfo"]["replicatedStorageBytes"] == pytest.approx(500_000_000, rel=1e-6)


def test_without_a_replication_configuration_replication_waits(api, world, client):
    hidden = world["projects"]["hidden"]["id"]
    from replication_service_simulator.seed import _seed_machine
    sim = client.app.state.sim
    waiting = _seed_machine(sim, sim.projects[hidden], {"name": "lonely"})
    path = "/projects/%s/machines/%s" % (hidden, waiting.id)
    advance(client, 3600)
    step = api.ok("GET", path)["replicationInfo"]["initiationStates"]["items"][0]["steps"][0]
    assert step["status"] == "STARTED" and "Waiting for a replication configuration" in step["message"]
    regions = api.ok("GET", "/cloudCredentials/%s/regions" % world["cloudCredentials"]["aws-main"])["items"]
    config = api.ok("POST", "/projects/%s/replicationConfigurations" % hidden, status=201,
                    json={"region": regions[0]["id"], "cloudCredentials": world["cloudCredentials"]["aws-main"]})
    api.ok("PATCH", "/projects/" + hidden, json={"replicationConfiguration": config["id"]})
    advance(client, 90)
    steps = api.ok("GET", path)["replicationInfo"]["initiationStates"]["items"][0]["steps"]
    assert [s["status"] for s in steps[:3]] == ["SUCCEEDED", "STARTED", "NOT_STARTED"]


def assert_no_new_points(after, before):
    """Older points may have been thinned out since; none was added."""
    assert after and set(after) <= set(before)
    assert max(after) == max(before)


def _points(api, world, name="m1"):
    path = "/projects/%s/machines/%s/pointsintime" % (world["project"]["id"], world["project"]["machines"][name])
    return [seconds(p["dateTime"]) for p in api.ok("GET", path)["items"]]


def test_points_in_time_every_ten_minutes_in_the_first_hour(api, world, client, start):
    consistent = start + STEPS + M1_SYNC
    advance(client, STEPS + M1_SYNC + 3600)
    assert _points(api, world) == pytest.approx([consistent + 600 * k for k in range(7)])


def test_points_in_time_thin_out_with_age(api, world, client, start):
    advance(client, 40 * 86400)
    at = now(client)
    points = _points(api, world)
    ages = [at - p for p in points]
    assert max(ages) <= 30 * 86400
    last_hour = [p for p in points if at - p <= 3600]
    assert len(last_hour) == 6 and all(b - a == pytest.approx(600) for a, b in zip(last_hour, last_hour[1:]))
    day = [p for p in points if 3600 < at - p <= 86400]
    assert 22 <= len(day) <= 24 and len({int(p // 3600) for p in day}) == len(day)  # one an hour
    older = [p for p in points if at - p > 86400]
    assert 28 <= len(older) <= 30 and len({int(p // 86400) for p in older}) == len(older)  # one a day
    # A point, once gone, never comes back.
    advance(client, 7200)
    assert set(_points(api, world)) - set(points) <= {p for p in _points(api, world) if p > at}


def test_every_point_kept_for_as_long_as_the_settings_say(api, client, long_sessions):
    """A search over a hundred points needs them to stay put while the clock runs: the simulator
    can keep every point for longer than the last hour (machines seeded after the change)."""
    assert client.patch("/_simulator/settings", json={"keepEveryPointSeconds": 2 * 86400}).json()["keepEveryPointSeconds"] == 2 * 86400
    client.post("/_simulator/reset")
    world = client.post("/_simulator/seed", json=WORLD).json()["accounts"][0]
    world["project"] = world["projects"]["dr"]
    assert api.login().status_code == 200
    advance(client, 5 * 86400)
    at = now(client)
    points = _points(api, world)
    recent = [p for p in points if at - p <= 2 * 86400]
    assert len(recent) == 2 * 144 and all(b - a == pytest.approx(600) for a, b in zip(recent, recent[1:]))
    older = [p for p in points if at - p > 2 * 86400]
    assert 2 <= len(older) <= 3 and len({int(p // 86400) for p in older}) == len(older)  # one a day, as before


def test_paused_moves_no_data_grows_the_backlog_and_takes_no_points(api, world, client, machine, start):
    project = world["project"]["id"]
    m1 = world["project"]["machines"]["m1"]
    advance(client, STEPS + M1_SYNC + 1800)
    api.ok("POST", "/projects/%s/pauseReplication" % project, json={"machineIDs": [m1]})
    paused_at = now(client)
    points = _points(api, world)
    advance(client, 3600)
    info = machine()["replicationInfo"]
    assert machine()["replicationStatus"] == "PAUSED"
    assert seconds(info["lastConsistencyDateTime"]) == pytest.approx(paused_at)
    assert info["backloggedStorageBytes"] == pytest.approx(3600 * 25_000, rel=1e-3)  # 0.2 Mbps of writes
    assert_no_new_points(_points(api, world), points)
    api.ok("POST", "/projects/%s/startReplication" % project, json={"machineIDs": [m1]})
    advance(client, 60)  # 90 MB drain at 12.5 - 0.025 MB/s in about 7.2 s
    info = machine()["replicationInfo"]
    assert info["backloggedStorageBytes"] == 0
    assert seconds(info["lastConsistencyDateTime"]) == pytest.approx(now(client))
    after = _points(api, world)
    assert max(after) == pytest.approx(now(client) - 60)  # a point at the resume


def test_paused_during_initial_sync_copies_nothing(api, world, client, machine):
    advance(client, STEPS + 40)
    api.ok("POST", "/projects/%s/pauseReplication" % world["project"]["id"], json={"machineIDs": [world["project"]["machines"]["m1"]]})
    before = machine()["replicationInfo"]["replicatedStorageBytes"]
    advance(client, 3600)
    info = machine()["replicationInfo"]
    assert info["replicatedStorageBytes"] == before and "nextConsistencyEstimatedDateTime" not in info


def test_stopped_takes_no_points_and_starting_again_syncs_anew(api, world, client, machine):
    project = world["project"]["id"]
    m1 = world["project"]["machines"]["m1"]
    advance(client, STEPS + M1_SYNC + 1800)
    api.ok("POST", "/projects/%s/stopReplication" % project, json={"machineIDs": [m1]})
    points = _points(api, world)
    advance(client, 3600)
    assert_no_new_points(_points(api, world), points)
    assert machine()["replicationStatus"] == "STOPPED"
    api.ok("POST", "/projects/%s/startReplication" % project, json={"machineIDs": [m1]})
    info = machine()["replicationInfo"]
    assert "lastConsistencyDateTime" not in info and info["replicatedStorageBytes"] == 0
    assert len(info["initiationStates"]["items"]) == 2
    advance(client, STEPS + M1_SYNC)
    assert "lastConsistencyDateTime" in machine()["replicationInfo"]


def test_a_disconnected_agent_is_no_longer_seen(client, machine, world):
    advance(client, STEPS + M1_SYNC + 600)
    m1 = world["project"]["machines"]["m1"]
    assert client.patch("/_simulator/machines/" + m1, json={"agentConnected": False}).status_code == 200
    lost = now(client)
    advance(client, 1800)
    info = machine()["replicationInfo"]
    assert seconds(info["lastSeenDateTime"]) == pytest.approx(lost)
    assert seconds(info["lastConsistencyDateTime"]) == pytest.approx(lost)
    client.patch("/_simulator/machines/" + m1, json={"agentConnected": True})
    advance(client, 10)
    assert seconds(machine()["replicationInfo"]["lastSeenDateTime"]) == pytest.approx(now(client))


def test_writes_faster_than_the_link_make_replication_lag(client, machine, world):
    advance(client, STEPS + M1_SYNC + 600)
    client.patch("/_simulator/machines/" + world["project"]["machines"]["m1"], json={"writeRateMbps": 150})
    behind_since = now(client)
    advance(client, 60)
    info = machine()["replicationInfo"]
    assert info["backloggedStorageBytes"] == pytest.approx(60 * 50 * 125_000, rel=1e-6)
    assert seconds(info["lastConsistencyDateTime"]) == pytest.approx(behind_since)
    assert "nextConsistencyEstimatedDateTime" not in info  # it will never catch up at this rate
    advance(client, 600)
    # Changed blocks not yet sent: never more than the protected storage itself.
    assert machine()["replicationInfo"]["backloggedStorageBytes"] == 1_000_000_000


def test_a_machine_seen_while_stopped_is_still_seen(api, world, client, machine):
    api.ok("POST", "/projects/%s/stopReplication" % world["project"]["id"], json={"machineIDs": [world["project"]["machines"]["m1"]]})
    advance(client, 600)
    assert seconds(machine()["replicationInfo"]["lastSeenDateTime"]) == pytest.approx(now(client))


@pytest.mark.parametrize("offset", [0, 599, 3599, 43210, 86399])
def test_a_thinned_point_never_comes_back(offset):
    """Whatever the alignment of the clock with hours and days."""
    rep = Replication(START + offset, total=1_000_000_000)
    seen, gone = set(), set()
    moment = START + offset
    while moment < START + offset + 33 * 86400:
        moment += 47 * 60  # reads drift across hour and day boundaries
        rep.advance(moment, rate=12_500_000, ready=True)
        now = {taken for unused_id, taken in rep.points_in_time(moment, "m")}
        assert not now & gone
        gone |= seen - now
        seen |= now
    assert len(gone) > 4000 and 50 < len(now) < 62


@pytest.mark.parametrize("pieces", [1, 7, 1000])
def test_integration_does_not_depend_on_how_often_it_is_read(pieces):
    """Reading the state often or rarely gives the same answer."""
    rep = Replication(0.0, total=3_000_000_000, write_rate=25_000)
    end = 6 * 3600.0
    for i in range(1, pieces + 1):
        rep.advance(end * i / pieces, rate=12_500_000, ready=True)
    reference = Replication(0.0, total=3_000_000_000, write_rate=25_000)
    reference.advance(end, rate=12_500_000, ready=True)
    assert rep.last_consistency == pytest.approx(reference.last_consistency)
    assert rep.points_in_time(end, "m") == reference.points_in_time(end, "m")
    assert rep.replicated == pytest.approx(reference.replicated)


@pytest.mark.parametrize("offset", [0, 599, 3599, 43210, 86399])
def test_the_newest_point_is_the_last_of_all_points(offset):
    """The shortcut a launch takes gives what the whole list would, through pauses and thinning."""
    rep = Replication(START + offset, total=1_000_000_000)
    moment = START + offset
    for step in range(700):
        moment += 53 * 60
        if step % 97 == 40:
            rep.status = "PAUSED"  # a stretch without points
        elif step % 97 == 55:
            rep.status = "STARTED"
        rep.advance(moment, rate=12_500_000, ready=True)
        points = rep.points_in_time(moment, "m")
        assert rep.newest_point_in_time(moment, "m") == (points[-1] if points else None)


def test_no_newest_point_past_the_retention():
    rep = Replication(0.0, total=1_000_000_000)
    rep.advance(3600.0, rate=12_500_000, ready=True)
    rep.status = "PAUSED"
    rep.advance(31 * 86400.0, rate=12_500_000, ready=True)
    assert rep.points_in_time(31 * 86400.0, "m") == []
    assert rep.newest_point_in_time(31 * 86400.0, "m") is None
