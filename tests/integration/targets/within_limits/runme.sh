#!/usr/bin/env bash
# Within the service's limits (a job takes at most 100 machines, the account runs 2 jobs at once, a session sends 10
# requests a second): a launch that cannot fit is refused before any write, naming the limit; a DR test of two projects
# of 250 machines side by side passes in 3 launch jobs a project; in an account of one job at a time, both pass; a DR
# test (SIGTERM, then SIGINT) and a failover (SIGKILL of every process of the run) stopped during their second job and
# run again launch no machine twice and leave nothing behind (the DR test) - on a simulator of the target's own: see
# files/limits.py.
set -euo pipefail

python files/limits.py --work "$(pwd)/work"
rm -rf work
