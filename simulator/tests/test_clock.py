"""The virtual clock and the wire form of date-times."""

import random

from replication_service_simulator.clock import VirtualClock, iso, micros, parse_micros


def test_a_written_date_time_reads_back_as_the_same_moment():
    rng = random.Random(7)
    for attempt in range(20000):
        moment = 1.7e9 + rng.random() * 1e8
        assert parse_micros(iso(moment)) == micros(moment)


def test_the_wire_form_is_utc_with_microseconds():
    assert iso(0) == "1970-01-01T00:00:00.000000+00:00"
    assert iso(1795000000.25) == "2026-11-18T11:06:40.250000+00:00"
    assert parse_micros("2026-11-18T11:06:40.25Z") == parse_micros("2026-11-18T11:06:40.250000+00:00")


def test_scale_jumps_and_rescaling():
    real = [100.0]
    clock = VirtualClock(scale=60, start=1000.0, monotonic=lambda: real[0])
    real[0] += 2
    assert clock.now() == 1120.0
    clock.advance(30)
    assert clock.now() == 1150.0
    clock.set_scale(0)  # stopped: real time no longer moves it
    real[0] += 100
    assert clock.now() == 1150.0
