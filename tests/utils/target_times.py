"""Print how long each integration target of the newest ansible-test run in a collection took (its
tests/output/data), longest first: what make test's lanes are balanced by (LATE_TARGETS, LAST_TARGETS, SIDE_TARGETS)."""

import glob
import json
import os
import sys


def main(collection, label, status="0"):
    runs = sorted(glob.glob(os.path.join(collection, "tests", "output", "data", "integration-*.json")), key=os.path.getmtime)
    targets = {}
    if runs:
        with open(runs[-1], encoding="utf-8") as handle:
            targets = json.load(handle)["targets"]
    times = sorted(((target["run_time_seconds"], name) for name, target in targets.items()), reverse=True)
    # A failed run enters only the targets that passed: the one that failed is among the lane's others.
    outcome = "%d targets" % len(times) if status == "0" else "FAILED (exit %s) after %d targets that passed" % (status, len(times))
    line = "make test: %s - %s in %d s: %s" % (label, outcome, sum(seconds for seconds, unused in times),
                                               ", ".join("%s %d s" % (name, seconds) for seconds, name in times))
    print(line)
    if status != "0" and os.environ.get("MAKE_TEST_SUMMARY"):
        # timed.py's summary at the end of make test names it (the first lane's targets are not run through timed.py).
        with open(os.environ["MAKE_TEST_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(line + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
