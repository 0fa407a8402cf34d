"""LocalSimulator: a simulator of one's own on a free port, told what to do through the control interface, stopped."""

import urllib.error

import pytest

from replication_service_simulator.local import LocalSimulator


def test_a_local_simulator_serves_on_a_free_port_answers_its_control_interface_and_stops():
    with LocalSimulator(time_scale=0) as sim:
        assert sim.api.startswith("http://127.0.0.1:") and sim.api.endswith("/api/latest")
        assert sim.control("GET", "/clock")["timeScale"] == 0
        assert "demo" in str(sim.control("POST", "/seed", {"preset": "demo"}))
        assert sim.control("DELETE", "/stats") is None
        with pytest.raises(urllib.error.HTTPError) as refused:
            sim.control("PATCH", "/settings", {"serversPerJob": -1})
        assert refused.value.code == 422
    assert sim.process.poll() is not None
