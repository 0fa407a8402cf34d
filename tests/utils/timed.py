"""Run a command and say how long it took, in wall time and in the CPU time of everything it started: make test's
lanes print both, since on two cores the CPU is what bounds the whole run (the lanes are balanced by it).

The outermost call also sums up every suite's outcome at its very end: the lanes' outputs follow one another as they
end, and a CI log shown by its tail would otherwise not say which of the earlier ones failed, nor why."""

import os
import resource
import subprocess
import sys
import tempfile
import time

SUMMARY = "MAKE_TEST_SUMMARY"


def main(label, command):
    outermost = SUMMARY not in os.environ
    if outermost:
        handle, os.environ[SUMMARY] = tempfile.mkstemp(prefix="make-test-summary.")
        os.close(handle)
    started = time.monotonic()
    status = subprocess.call(command)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status == 0:
        line = "make test: %s passed in %d s (CPU %d s)" % (label, time.monotonic() - started, used.ru_utime + used.ru_stime)
    else:
        line = "make test: %s FAILED (exit %d) after %d s" % (label, status, time.monotonic() - started)
    print(line, flush=True)
    if outermost:
        with open(os.environ[SUMMARY], encoding="utf-8") as summary:
            lines = summary.read().splitlines()
        os.unlink(os.environ[SUMMARY])
        # The last lines of each integration lane that failed (tests/utils/with_simulator.py), before the summary.
        if os.path.exists(os.environ[SUMMARY] + ".tails"):
            with open(os.environ[SUMMARY] + ".tails", encoding="utf-8") as tails:
                print(tails.read(), end="", flush=True)
            os.unlink(os.environ[SUMMARY] + ".tails")
        failed = [each for each in lines if " FAILED " in each]
        said = "".join("\n  " + each for each in failed)
        print("make test: summary - %d suites passed, %d failed%s" % (len(lines) - len(failed), len(failed), said), flush=True)
    else:
        with open(os.environ[SUMMARY], "a", encoding="utf-8") as summary:
            summary.write(line + "\n")
    return status


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: timed.py LABEL -- COMMAND...")
    sys.exit(main(sys.argv[1], sys.argv[3:]))
