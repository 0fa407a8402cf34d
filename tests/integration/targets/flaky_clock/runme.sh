#!/usr/bin/env bash
# A flaky service does not make healthy machines look stale: with 30% of reads answered 503 and the clock at 600x, a DR
# test and a failover of the demo project pass their health gates. Every answer of the service's clock also comes 1.6 s
# late (16 minutes at 600x, past stale_after): a clock read after the machines, as the collection once did, would call
# every machine stale whatever the dice say.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=demo@example.com
export REPLICATION_SERVICE_PASSWORD=demo-secret-1
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$(pwd)/data"
config=(-e @../../integration_config.yml)
reports="$(pwd)/reports"
rm -rf "$reports" "$XDG_DATA_HOME" outputs
mkdir -p outputs
faults=(ansible-playbook -i ../../inventory "${config[@]}" ../playbook_dr_test/faults.yml)

# The suite's clock and a calm service again, however this ends: the next target expects them.
scale="$(python files/scale.py "$url")"
calm() {
    "${faults[@]}" -e '{"rules": []}' > /dev/null || true
    python files/scale.py "$url" "$scale"
}
trap calm EXIT

ansible-playbook -i ../../inventory "${config[@]}" -e time_scale=600 seed.yml

flaky='{"rules": [{"method": "GET", "status": 503, "rate": 0.3},
                  {"method": "GET", "route": "/extendedAccountInfo", "latencyMs": 1600}]}'
# Run a runbook of the demo project on the flaky service (-e RUNBOOK_project=demo ...): it passes, all five machines.
passes() {
    local runbook=$1
    "${faults[@]}" -e "$flaky"
    ansible-playbook "replication.recovery.$runbook" -e "${runbook}_project=demo" -e "${runbook}_report_dir=$reports" \
        -e "${runbook}_poll_interval=1" > "outputs/$runbook.txt" 2>&1 || { cat "outputs/$runbook.txt"; exit 1; }
    python - "$reports/${runbook}_demo.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["result"] == "passed", report["failures"]
assert report["counts"]["machines"] == report["counts"]["passed"] == 5, report["counts"]
PY
}

passes dr_test
passes failover
# Neither gate found a machine it had to pass over.
if grep -iE "stale|not ready" outputs/dr_test.txt outputs/failover.txt; then exit 1; fi
