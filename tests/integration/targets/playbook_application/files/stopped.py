"""An application's DR test stopped at any moment and run again ends as a complete run would.

The application of files/stop.json - identity, then db - is stopped at each moment of a list taken from its
steps, by one of the ways AWX, a container runtime or a lost node stops a run (SIGINT, SIGTERM, SIGKILL to the whole
process tree), the signals rotating over the moments from a seed that is printed; then run once more. The run after the
stop must pass and leave the target cloud and the controller's run directories empty, with one launch per node in all
(each node keeps its test machines until the application's end cleans them up). The cases run side by side on
simulators of their own; the stops and the waits are the DR test's (../dr_test_stopped/files/stopped.py).

    python stopped.py --simulator http://127.0.0.1:PORT --work DIR [--simulators 2] [--seed N] [--only NAME]
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "dr_test_stopped", "files"))
from stopped import SIGNALS, side_by_side, stop, tail, wait_for  # noqa: E402  pylint: disable=wrong-import-position

USERNAME, PASSWORD = "stopapp@example.test", "stopapp-password"
NODES = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"]))
POINTS = [
    dict(name="before the first level", hold="Which nodes run now, level 1"),
    dict(name="while identity's launch job runs", see=r"stop\.identity: Launch job \S+ (PENDING|STARTED): ",
         faults=[{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 6, "count": 1}]),
    dict(name="once identity's run ended, before its outcome is kept", hold="Keep the outcome of"),
    dict(name="between two levels", hold="Which nodes run now, level 2"),
    dict(name="while the application's cleanup runs", see=r"stop\.db: Cleanup job \S+ (PENDING|STARTED): ",
         faults=[{"jobTypes": ["CLEANUP"], "slowFactor": 20, "count": 2}]),
    dict(name="as the application's report is written", hold="Write the application's report"),
]


def launches(simulator):
    """Per project, its test launch jobs."""
    session = requests.Session()
    session.post(simulator.api + "/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30).raise_for_status()
    found = {}
    for project in session.get(simulator.api + "/projects", timeout=30).json()["items"]:
        jobs = session.get("%s/projects/%s/jobs" % (simulator.api, project["id"]), timeout=30).json()["items"]
        found[project["name"]] = [job for job in jobs if job["type"] == "TEST_LAUNCH"]
    return found


def playbook(simulator, work, env):
    """The application's playbook as AWX starts it, in a process group of its own; its output in a file."""
    output = open(os.path.join(work, "output.txt"), "w")
    variables = os.path.join(work, "application.json")
    with open(variables, "w") as handle:
        json.dump(dict(application_name="stop", application_nodes=NODES, application_report_dir=os.path.join(work, "reports"),
                       dr_test_poll_interval=1, dr_test_progress_interval=1, replication_recovery_ledger_dir=os.path.join(work, "ledger")), handle)
    environment = dict(os.environ, REPLICATION_SERVICE_URL=simulator.api, REPLICATION_SERVICE_USERNAME=USERNAME,
                       REPLICATION_SERVICE_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1", **env)
    return subprocess.Popen(["ansible-playbook", "replication.recovery.application", "-e", "@" + variables], stdout=output,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment, start_new_session=True), output.name


def one_case(simulator, work, point, signal_name, number):
    with open(os.path.join(HERE, "stop.json")) as handle:
        world = json.load(handle)
    simulator.control("POST", "/reset")
    simulator.control("PATCH", "/settings", {"sessionLifetimeSeconds": 8640000})
    simulator.control("POST", "/seed", world)
    time.sleep(2)  # the seeded machines' first points in time
    simulator.control("DELETE", "/faults")
    if point.get("faults"):
        simulator.control("POST", "/faults", {"rules": point["faults"]})
    for name in ("reports", "ledger", "tmp"):
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    temporary = os.path.join(work, "tmp")
    os.makedirs(temporary)
    env = dict(TMPDIR=temporary, HOLD_AT_TASK=point["hold"]) if point.get("hold") else dict(TMPDIR=temporary)
    process, output = playbook(simulator, work, env)
    wait_for(output, "HOLDING AT .*" + re.escape(point["hold"]) if point.get("hold") else point["see"], process)
    hung = stop(process, signal_name, number, output)
    with open(output) as handle:
        ran_to_the_end = "PLAY RECAP" in handle.read()  # a SIGINT ansible-playbook did not stop on: said, not hidden
    simulator.control("DELETE", "/faults")

    again, output = playbook(simulator, work, dict(TMPDIR=temporary))
    status = again.wait(timeout=900)
    with open(os.path.join(work, "reports", "application_stop.json")) as handle:
        report = json.load(handle)
    assert status == 0 and report["result"] == "passed", "the run after the stop failed (%s): %s\n%s" % (status, report["failures"], tail(output))
    assert simulator.control("GET", "/cloud")["items"] == [], "the target cloud is not empty"
    left = [name for name in os.listdir(temporary) if name.startswith("replication-recovery-")]
    assert left == [], "the runs' directories left on the controller: %s" % left
    counts = dict((name, len(jobs)) for name, jobs in launches(simulator).items())
    expected = dict((name, 2 if ran_to_the_end else 1) for name in NODES)
    assert counts == expected, "test launches %s, not %s, after a stop %s" % (counts, expected, point["name"])
    return "test launches %s%s%s" % (", ".join("%s %d" % item for item in sorted(counts.items())),
                                     " (ansible-playbook did not stop on SIGINT: it ran to the end)" if ran_to_the_end else "", hung)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--simulator", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--simulators", type=int, default=2)
    parser.add_argument("--seed", type=int, help="where the rotation of signals begins; random if not given, and printed")
    parser.add_argument("--only", help="the name of one moment, for a quicker look")
    args = parser.parse_args()
    seed = random.randrange(1000) if args.seed is None else args.seed
    todo = [(point,) + SIGNALS[(seed + index) % len(SIGNALS)] for index, point in enumerate(POINTS) if not args.only or args.only == point["name"]]
    print("%d cases of the application stopped, the signals rotating from seed %d (give --seed %d to run the same ones again)" % (
        len(todo), seed, seed), flush=True)
    return side_by_side(args, todo, lambda simulator, work, case: one_case(simulator, work, *case),
                        lambda case: "application stopped %s by %s" % (case[0]["name"], case[1]))


if __name__ == "__main__":
    sys.exit(main())
