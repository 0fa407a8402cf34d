"""How answers are served: written out directly, checked against their models in the tests,
and without waiting on Nagle's algorithm for small answers on kept-alive connections."""

import socket

import pytest
from pydantic import TypeAdapter

from replication_service_simulator.models import Items, Replica
from replication_service_simulator.routing import AnswerDoesNotFit, _check
from replication_service_simulator.server import no_delay


def test_an_answer_that_fits_its_model_passes():
    _check(TypeAdapter(Items[Replica]), {"items": [{"id": "r1", "machine": "m1", "publicIps": []}]})


@pytest.mark.parametrize("answer", [
    {"items": [{"id": "r1", "name": None}]},          # a null, where a member with no value is left out
    {"items": [{"id": "r1", "nickname": "web"}]},     # a member the model does not have
    {"items": [{"id": "r1", "publicIps": "10.0.0.1"}]},  # a member of the wrong type
])
def test_an_answer_that_does_not_fit_its_model_is_a_bug(answer):
    with pytest.raises(AnswerDoesNotFit):
        _check(TypeAdapter(Items[Replica]), answer)


def test_the_simulators_own_tests_check_every_answer(sim):
    assert sim.check_answers


def test_connections_send_small_answers_at_once():
    """TCP_NODELAY on every accepted connection, whatever protocol number the listener had."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # protocol 0, as bind() makes it
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    accepted, unused = listener.accept()

    class Transport:
        def get_extra_info(self, name, default=None):
            return accepted if name == "socket" else default

    try:
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
        no_delay(Transport())
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        for sock in (client, accepted, listener):
            sock.close()
