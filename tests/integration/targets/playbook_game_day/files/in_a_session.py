"""Run a command in a session of its own, as AWX runs a job: its process group's ID written to PID_FILE, so that the
test can signal the whole group (SIGINT as AWX cancels, SIGKILL as a lost node).

    python in_a_session.py PID_FILE COMMAND...
"""

import subprocess
import sys

if __name__ == "__main__":
    process = subprocess.Popen(sys.argv[2:], start_new_session=True)
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        handle.write("%d\n" % process.pid)
    sys.exit(process.wait())
