"""Run a command and say how long it took, in wall time and in the CPU time of everything it started: make test's
lanes print both, since on two cores the CPU is what bounds the whole run (the lanes are balanced by it)."""

import resource
import subprocess
import sys
import time


def main(label, command):
    started = time.monotonic()
    status = subprocess.call(command)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status == 0:
        print("make test: %s passed in %d s (CPU %d s)" % (label, time.monotonic() - started, used.ru_utime + used.ru_stime),
              flush=True)
    return status


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: timed.py LABEL -- COMMAND...")
    sys.exit(main(sys.argv[1], sys.argv[3:]))
