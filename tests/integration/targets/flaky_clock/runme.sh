#!/usr/bin/env bash
# A flaky service does not make healthy machines look stale, nor their points old: with 30% of reads answered 503, then
# 10% of every request answered 429 (Retry-After: 2) and 20% 503 - writes too - and the clock at 600x, a DR test and a
# failover of the demo project pass their health gates and their RPO targets (an hour), each machine's RPO the age of
# its point when the run pinned it, however long the waits were. Every answer of the service's clock also comes 1.6 s
# late (16 minutes at 600x, past stale_after): a clock read after the machines, as the collection once did, would call
# every machine stale whatever the dice say.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=demo@example.com
export REPLICATION_SERVICE_PASSWORD=demo-secret-1
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"
config=(-e @../../integration_config.yml)
reports="$(pwd)/reports"
rm -rf "$reports" "$XDG_DATA_HOME" outputs
mkdir -p outputs
faults=(python ../setup_simulator/files/simulator.py "$url" faults)

# The suite's clock, its retention of points (seed.yml keeps six hours) and a calm service again, however this ends: the
# next target expects them.
scale="$(python files/scale.py "$url")"
calm() {
    "${faults[@]}" '[]' > /dev/null || true
    python files/scale.py "$url" "$scale"
    python files/scale.py "$url" --keep-every-point 3600
}
trap calm EXIT

ansible-playbook -i ../../inventory "${config[@]}" -e time_scale=600 seed.yml

flaky='[{"method": "GET", "status": 503, "rate": 0.3},
        {"method": "GET", "route": "/extendedAccountInfo", "latencyMs": 1600}]'
throttled='[{"status": 429, "rate": 0.1, "retryAfter": 2}, {"status": 503, "rate": 0.2},
            {"method": "GET", "route": "/extendedAccountInfo", "latencyMs": 1600}]'
# Run a runbook of the demo project on a service with the fault RULES (-e RUNBOOK_project=demo ...): it passes, all five
# machines, each within its RPO target: the age of its point when the run pinned it (the run's service time).
passes() {
    local runbook=$1 rules=$2
    "${faults[@]}" "$rules"
    ansible-playbook "replication.recovery.$runbook" -e "${runbook}_project=demo" -e "${runbook}_report_dir=$reports" \
        -e "${runbook}_poll_interval=1" -e "${runbook}_rpo_target=3600" > "outputs/$runbook.txt" 2>&1 || { cat "outputs/$runbook.txt"; exit 1; }
    python - "$reports/${runbook}_demo.json" <<'PY'
import datetime, json, sys
report = json.load(open(sys.argv[1]))
assert report["result"] == "passed", report["failures"]
assert report["counts"]["machines"] == report["counts"]["passed"] == 5, report["counts"]
def moment(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
for machine in report["machines"]:
    age = round(moment(report["started"]) - moment(machine["point_in_time"]["date_time"]), 3)
    assert machine["rpo_seconds"] == age <= 3600, (machine["name"], machine["rpo_seconds"], age, machine["launch_requested"])
PY
}

passes dr_test "$flaky"
passes failover "$flaky"
# Neither gate found a machine it had to pass over.
if grep -iE "stale|not ready" outputs/dr_test.txt outputs/failover.txt; then exit 1; fi

# -- throttled: the same runbooks again, their writes answered 429 and 503 too ---------------------------------------
ansible-playbook -i ../../inventory "${config[@]}" -e time_scale=600 seed.yml
rm -rf "$reports"
passes dr_test "$throttled"
passes failover "$throttled"
grep -q "Failover of demo: COMMITTED" outputs/failover.txt
if grep -iE "stale|not ready" outputs/dr_test.txt outputs/failover.txt; then exit 1; fi
