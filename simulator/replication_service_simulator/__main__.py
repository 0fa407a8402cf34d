"""Run the simulator: ``replication-service-simulator --host H --port P --seed demo|ransomware|estate|empty --time-scale N``
(from a clone of the collection, after ``pip install ./simulator``: ``python -m replication_service_simulator ...``).

The first line printed is the base URL it serves; for the demo seed, the users and the demo
user's API token follow.
"""

import argparse
import asyncio
import sys

from .app import create_app
from .seed import PRESETS, seed
from .server import base_url, bind, make_server


def main(argv=None):
    parser = argparse.ArgumentParser(prog="replication-service-simulator", description="Simulator of the Replication and Recovery Service.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0 picks a free port (default 8080)")
    parser.add_argument("--seed", choices=sorted(PRESETS), default="empty", help="initial state (default empty)")
    parser.add_argument("--time-scale", type=float, default=1.0, help="virtual seconds per real second; 0 stops the clock (default 1)")
    parser.add_argument("--check-answers", action="store_true", help="check every answer against its model (slower; for tests)")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)

    app = create_app(seed=args.seed, time_scale=args.time_scale, check_answers=args.check_answers)
    seeded = seed(app.state.sim, {"preset": args.seed})
    sock = bind(args.host, args.port)
    print(base_url(args.host, sock.getsockname()[1]), flush=True)
    for account in seeded["accounts"]:
        for username, token in account["apiTokens"].items():
            print("user %s api token %s" % (username, token), flush=True)
    server = make_server(app, host=args.host, port=sock.getsockname()[1], log_level=args.log_level)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
