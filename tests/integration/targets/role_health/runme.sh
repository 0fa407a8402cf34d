#!/usr/bin/env bash
# The fleet's health as a nightly pipeline runs it: the collection's playbook, credentials in the
# environment, inputs as extra variables (text). A seeded fleet of three projects with a lagging
# machine, a paused one, a stopped one and machines never tested: strict thresholds fail and name
# each; lenient ones pass; health_fail=false only reports; a test grows stale as days pass;
# check mode writes nothing; an unknown project fails clearly.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=nightly@example.test
export REPLICATION_SERVICE_PASSWORD=health-secret-42
export ANSIBLE_ROLES_PATH=..
config=(-e @../../integration_config.yml)
reports="$(pwd)/reports"
rm -rf "$reports" output.txt
outcome=(python files/outcome.py "$url" "$reports")  # the report against what is expected; the statistics zeroed

ansible-playbook -i ../../inventory "${config[@]}" seed.yml

# -- strict thresholds: the run fails, and the report names each machine that missed one -------------
if ansible-playbook replication.recovery.health -e health_report_dir="$reports" -e 'health_projects=health-*' \
        -e health_max_backlog=100000000 >output.txt 2>&1; then
    cat output.txt; echo "a fleet with a lagging, a paused and untested machines must fail"; exit 1
fi
grep -q "Fleet health: FAILED. 4 of 7 machines in 3 projects missed a threshold, 1 excluded (replication stopped)." output.txt
"${outcome[@]}" failed --projects-read 3 --passed '["health-web/web-1", "health-web/web-2", "health-db/db-1"]' \
    --excluded '["health-db/db-stopped"]' \
    --failures '["^health-web/web-lag: lag: \\d+ s \\(at most 900 s\\)$", "^health-web/web-lag: replication: lagging, not continuous$",
                 "^health-web/web-lag: backlog: \\d+ bytes \\(at most 100000000\\)$", "^health-web/web-3: DR tested: never$",
                 "^health-db/db-paused: replication: paused, not continuous$", "^health-new/new-1: DR tested: never$"]'
grep -q '<testcase classname="health.health-web.web-3" name="DR tested">' "$reports/health.junit.xml"
grep -q "| web-lag | FAILED | lagging |" "$reports/health.md"

# -- the thresholds allow it: passes --------------------------------------------------------------------
ansible-playbook replication.recovery.health -e health_report_dir="$reports" -e health_states=continuous,lagging,paused \
    -e '{"health_max_lag": null, "health_tested_within_days": null}' | tee output.txt
grep -q "Fleet health: PASSED. 0 of 7 machines in 3 projects missed a threshold" output.txt
"${outcome[@]}" passed --projects-read 3

# -- health_fail=false: the same failures reported, the run succeeds -----------------------------------
ansible-playbook replication.recovery.health -e health_report_dir="$reports" -e health_fail=false | tee output.txt
grep -q "Fleet health: FAILED. 4 of 7 machines" output.txt
"${outcome[@]}" failed

# -- as ansible-runner (AWX) starts it: no PWD in the environment, the project as working directory ------
# The default report directory is under the working directory, never /health_report.
workdir="$(mktemp -d)"
(cd "$workdir" && env -u PWD ansible-playbook replication.recovery.health -e health_fail=false >/dev/null)
test -s "$workdir/health_report/health.json"
test -s "$workdir/health_report/health.junit.xml"
if [ -e /health_report ]; then echo "the report went to /health_report"; exit 1; fi
rm -rf "$workdir"

# -- three days later, the tests of web-1 and web-2 are older than two days -----------------------------
curl -sf -X POST -H 'Content-Type: application/json' -d '{"advanceSeconds": 259200}' "$url/_simulator/clock" >/dev/null
curl -sf -X DELETE "$url/_simulator/stats"
if ansible-playbook replication.recovery.health -e health_report_dir="$reports" -e health_projects=health-web \
        -e health_states=continuous,lagging -e health_tested_within_days=2 -e '{"health_max_lag": null}' >output.txt 2>&1; then
    cat output.txt; echo "tests older than two days must fail"; exit 1
fi
"${outcome[@]}" failed --projects-read 1 --passed '[]' \
    --failures '["^health-web/web-1: DR tested: 3\\.\\d days ago, on .* \\(within 2 days\\)$",
                 "^health-web/web-2: DR tested: 3\\.\\d days ago", "^health-web/web-3: DR tested: never$"]'

# -- check mode: judges, says so, writes nothing ---------------------------------------------------------
rm -rf "$reports"
if ansible-playbook replication.recovery.health --check -e health_report_dir="$reports" >output.txt 2>&1; then
    cat output.txt; echo "check mode judges as a real run does"; exit 1
fi
grep -q "Fleet health: FAILED" output.txt
if [ -e "$reports" ]; then echo "check mode wrote a report"; exit 1; fi

# -- an unknown project fails, naming the known ones ----------------------------------------------------
if ansible-playbook replication.recovery.health -e health_report_dir="$reports" -e health_projects=health-web,nope >output.txt 2>&1; then
    echo "an unknown project must fail"; exit 1
fi
grep -q "Project 'nope' matches no project. Known: health-db, health-new, health-web." output.txt

rm -rf "$reports" output.txt
