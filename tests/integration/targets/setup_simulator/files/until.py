"""Wait, in one process, until a targets' script's command exits 0 (or, with --not, until it does not): what a shell loop
of `until python site.py ...; do sleep 0.2; done` waits for, without starting Python (0.1 s of CPU) five times a second.

    python until.py [--not] [--interval SECONDS] [--alive PID] -- SCRIPT URL COMMAND ARGUMENTS...

SCRIPT is one of the targets' scripts whose COMMAND exits 0 or 1 (``running``). With --alive, it exits 1 as soon as the
process PID has ended: the run it waits on ended before what it waits for.
"""

import argparse
import os
import runpy
import sys
import time


def exit_status(script, arguments):
    """The status ``script arguments`` exits with, run in this process."""
    sys.argv = [script] + arguments
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return 0


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A child of the shell that waits on it stays a zombie until reaped: ended all the same.
    try:
        with open("/proc/%d/stat" % pid, encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--not", dest="negate", action="store_true")
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--alive", type=int)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    script, arguments = command[0], command[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as `python SCRIPT` has it
    while (exit_status(script, arguments) == 0) == options.negate:
        if options.alive is not None and not alive(options.alive):
            sys.exit(1)
        time.sleep(options.interval)


if __name__ == "__main__":
    main()
