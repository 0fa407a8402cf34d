"""What a target asks of the simulator between its runs, in one short Python rather than a playbook run (which costs the
controller 1.2-2.1 s of CPU; the targets did it some fifty times).

    python simulator.py URL seed [ACCOUNT]   what setup_simulator's tasks do (the simulator reset, sessions kept alive while the
                                             clock runs fast, world.json seeded), then the target's ACCOUNT file seeded
    python simulator.py URL faults RULES     set the fault rules (a JSON list; [] clears them), and zero the statistics
    python simulator.py URL no-writes        since the statistics were zeroed: no write, one sign-in, one sign-out

URL is the simulator's (integration_config.yml's simulator_url).
"""

import json
import os
import sys

import requests


def seed(url, *accounts):
    requests.post(url + "/_simulator/reset", timeout=30).raise_for_status()
    requests.patch(url + "/_simulator/settings", json={"sessionLifetimeSeconds": 8640000}, timeout=30).raise_for_status()
    for path in (os.path.join(os.path.dirname(os.path.abspath(__file__)), "world.json"),) + accounts:
        with open(path) as handle:
            # The seeds hold passwords and tokens: a refusal says the status alone.
            answer = requests.post(url + "/_simulator/seed", json=json.load(handle), timeout=60)
        if not answer.ok:
            sys.exit("simulator.py seed: %s was refused, HTTP %s" % (path, answer.status_code))


def faults(url, rules):
    rules = json.loads(rules)
    if not isinstance(rules, list):
        sys.exit("simulator.py faults: RULES is a JSON list of fault rules, not %s" % type(rules).__name__)
    requests.delete(url + "/_simulator/faults", timeout=30).raise_for_status()
    if rules:
        requests.post(url + "/_simulator/faults", json={"rules": rules}, timeout=30).raise_for_status()
    requests.delete(url + "/_simulator/stats", timeout=30).raise_for_status()


def no_writes(url):
    stats = requests.get(url + "/_simulator/stats", timeout=30).json()
    count = dict((route, sum(row["count"] for row in stats["requests"] if row["route"] == route)) for route in ("/login", "/logout"))
    if stats["writes"] != 0 or count != {"/login": 1, "/logout": 1}:
        sys.exit("simulator.py no-writes: %s writes, %s sign-ins, %s sign-outs since the statistics were zeroed (0, 1, 1 expected)" % (
            stats["writes"], count["/login"], count["/logout"]))


COMMANDS = {"seed": (seed, (0, 1)), "faults": (faults, (1,)), "no-writes": (no_writes, (0,))}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[2] not in COMMANDS or len(sys.argv) - 3 not in COMMANDS[sys.argv[2]][1]:
        sys.exit(__doc__)
    COMMANDS[sys.argv[2]][0](sys.argv[1], *sys.argv[3:])
