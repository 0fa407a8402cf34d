"""Serving the application with uvicorn, with a connection the simulator can drop on purpose.

The ``dropAfterWrite`` fault does the work and then closes the connection without an answer.
ASGI has no way to do that, so the HTTP protocol here hands each request its transport
through the scope's ``state``; the fault aborts it.
"""

import asyncio
import socket
import threading

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


def no_delay(transport):
    """Send small answers at once. asyncio sets TCP_NODELAY only on sockets whose protocol is
    IPPROTO_TCP, and ``bind`` makes them with protocol 0: without this, every small answer on
    a kept-alive connection waits about 40 ms for the client's delayed acknowledgement."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class DroppableH11Protocol(H11Protocol):
    def connection_made(self, transport):
        super().connection_made(transport)
        no_delay(transport)
        self.app_state = dict(self.app_state, simulator_transport=transport)


def make_server(app, host="127.0.0.1", port=0, log_level="warning"):
    config = uvicorn.Config(app, host=host, port=port, http=DroppableH11Protocol, log_level=log_level,
                            lifespan="off", access_log=False)
    return uvicorn.Server(config)


def bind(host, port):
    """A listening socket, so that port 0 gives a free port the caller can learn before serving."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def base_url(host, port):
    shown = "[%s]" % host if ":" in host else host
    return "http://%s:%d/api/latest" % (shown, port)


class BackgroundServer:
    """The simulator on a free port in a thread of this process, for tests and benchmarks."""

    def __init__(self, app, host="127.0.0.1"):
        self.app = app
        self.sock = bind(host, 0)
        self.port = self.sock.getsockname()[1]
        self.url = base_url(host, self.port)
        self.root = self.url[: -len("/api/latest")]
        self.server = make_server(app, host=host, port=self.port)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def __enter__(self):
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the simulator did not start")
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
