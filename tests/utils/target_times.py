"""Print how long each integration target of the newest ansible-test run in a collection took (its
tests/output/data), longest first: what make test's lanes are balanced by (LATE_TARGETS, LAST_TARGETS, SIDE_TARGETS)."""

import glob
import json
import os
import sys


def main(collection, label):
    runs = sorted(glob.glob(os.path.join(collection, "tests", "output", "data", "integration-*.json")), key=os.path.getmtime)
    if not runs:
        return
    with open(runs[-1], encoding="utf-8") as handle:
        targets = json.load(handle)["targets"]
    times = sorted(((target["run_time_seconds"], name) for name, target in targets.items()), reverse=True)
    print("make test: %s - %d targets in %d s: %s" % (label, len(times), sum(seconds for seconds, unused in times),
                                                      ", ".join("%s %d s" % (name, seconds) for seconds, name in times)))


if __name__ == "__main__":
    main(*sys.argv[1:])
