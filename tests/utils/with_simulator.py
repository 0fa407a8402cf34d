"""Run a command against a simulator started for it, and stop the simulator afterwards.

    python tests/utils/with_simulator.py [--seed demo] [--time-scale 0] [--vars-file F] [--check-answers] [--label L] -- COMMAND...

The simulator listens on a free port of 127.0.0.1. Its URL reaches the command twice: in the
environment (SIMULATOR_URL, and REPLICATION_SERVICE_URL for the collection's modules) and, with
--vars-file, as ``simulator_url`` in a YAML file (ansible-test's integration_config.yml).
The command's exit status is this script's. With --label, the last lines of a command that failed are kept for the
summary at the end of make test (tests/utils/timed.py): a CI log shown by its tail then says why an earlier lane failed.
"""

import argparse
import collections
import os
import subprocess
import sys


TAILS_OF = "MAKE_TEST_SUMMARY"
TAIL_LINES = 40


def run_keeping_the_tail(command, env, label):
    """Run the command, its output passed on line by line; when it fails, its last lines are added to make test's tails."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    tail = collections.deque(maxlen=TAIL_LINES)
    for line in process.stdout:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
        tail.append(line.decode("utf-8", "replace").rstrip("\n"))
    status = process.wait()
    if status != 0:
        with open(os.environ[TAILS_OF] + ".tails", "a", encoding="utf-8") as tails:
            tails.write("make test: the last %d lines of %s, which failed:\n%s\n" % (len(tail), label, "\n".join("  | " + each for each in tail)))
    return status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", default="empty")
    parser.add_argument("--time-scale", default="0")
    parser.add_argument("--vars-file")
    parser.add_argument("--check-answers", action="store_true", help="the simulator checks every answer against its model")
    parser.add_argument("--label", help="the suite's name, for the last lines of its failure in make test's summary")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    simulator = subprocess.Popen(
        [sys.executable, "-m", "replication_service_simulator", "--host", "127.0.0.1", "--port", "0", "--seed", args.seed, "--time-scale", args.time_scale]
        + (["--check-answers"] if args.check_answers else []),
        stdout=subprocess.PIPE, text=True)
    try:
        api_url = simulator.stdout.readline().strip()
        if not api_url.startswith("http"):
            print("the simulator did not start", file=sys.stderr)
            return 1
        root = api_url[: -len("/api/latest")]
        if args.vars_file:
            with open(args.vars_file, "w", encoding="utf-8") as handle:
                handle.write("---\nsimulator_url: %s\n" % root)
        env = dict(os.environ, SIMULATOR_URL=root, REPLICATION_SERVICE_URL=api_url)
        if not (args.label and os.environ.get(TAILS_OF)):
            return subprocess.call(command, env=env)
        return run_keeping_the_tail(command, env, args.label)
    finally:
        simulator.terminate()
        simulator.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
