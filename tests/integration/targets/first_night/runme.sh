#!/usr/bin/env bash
# The first night, tried again: the outcomes a newcomer found wrong, each a case of its own, run whatever the cases before
# it came to, so that the output names every case that fails and its lines.
#   policy     the launch policy run by its name from a scratch directory with its default paths
#   approval   an application's approval given as JSON text, as an AWX survey gives it
#   missing    an application whose node's project does not exist: --check and the real run refuse alike, no node acts
#   logout     a 500 on the sign-out of a failover that passed (a 503 is sent again: the service did not act)
#   pinned     a three-wave failover stopped by Ctrl-C in wave 2, run again: every machine from the points the first pinned
#   rollback   a failover rolled back says so
#   typo       a failover's --check of a mistyped project says what the real run says, and writes no plan over the plain name
#   before     a failover's point in time before any point: --check and the real run refused alike, and nothing written
#   lag        the failback's progress while its machines initiate
#   network    an isolated DR test stopped by SIGTERM in its launch and run again names its test network
set -uo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=night@example.test
export REPLICATION_SERVICE_PASSWORD=night-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # the default ledger of runs, this test's own
here="$(pwd)"
reports="$here/reports"
rm -rf "$reports" "$XDG_DATA_HOME" outputs tmp
mkdir -p outputs tmp
night=(python "$here/files/night.py" "$url")
faults=(python "$here/../setup_simulator/files/simulator.py" "$url" faults)
failover=(ansible-playbook replication.recovery.failover -e failover_report_dir="$reports" -e failover_poll_interval=1 -e failover_progress_interval=2)
# The installed collection, as ansible-playbook finds it.
collection="$(ansible-galaxy collection list replication.recovery --format json | python -c \
    'import json, sys; print(next(path for path, found in json.load(sys.stdin).items() if "replication.recovery" in found))')/replication/recovery"

python ../setup_simulator/files/simulator.py "$url" seed files/night.json > outputs/seed.txt 2>&1 || { cat outputs/seed.txt; exit 1; }

# Run a command that must fail with rc 2; its output in outputs/$1.txt.
refused() {
    local name=$1 rc=0
    shift
    "$@" > "outputs/$name.txt" 2>&1 || rc=$?
    if [ "$rc" != 2 ]; then echo "$name: rc $rc, not 2"; return 1; fi
}

# Run a playbook ($4...) in the background, its output in $1, and stop it with the signal $3 once the output says $2.
stopped() {
    local output=$1 said=$2 signal=$3
    shift 3
    PYTHONUNBUFFERED=1 setsid "$@" > "$output" 2>&1 &
    local pid=$!
    until grep -q "$said" "$output"; do
        kill -0 "$pid" 2>/dev/null || { echo "it ended before it said: $said"; return 1; }
        sleep 0.2
    done
    kill "-$signal" "$pid"
    wait "$pid" || true
}

case_policy() {
    local before scratch applied=(-e launch_policy_project=policy -e '{"launch_policy_defaults": {"instance_type": "m5.large"}}')
    scratch="$(mktemp -d)"  # outside the collection, where ansible-test runs this target
    before="$("${night[@]}" checksum "$collection/playbooks" "$collection/roles" "$collection/plugins")"
    (cd "$scratch" && ansible-playbook replication.recovery.launch_policy "${applied[@]}") > outputs/policy.txt 2>&1
    grep "Launch policy of policy" outputs/policy.txt
    ls "$scratch"/launch_policy_report/launch_policy_policy.2*Z.json
    ls "$scratch"/launch_policy_report/backups/launch_policy_policy.*.backup.json
    grep -q "Report: $scratch/launch_policy_report/launch_policy_policy.2" outputs/policy.txt
    grep -q "Backup: $scratch/launch_policy_report/backups/launch_policy_policy." outputs/policy.txt
    # Run again: a report of its own beside the first, which stays as it was.
    sleep 1
    (cd "$scratch" && ansible-playbook replication.recovery.launch_policy "${applied[@]}") > outputs/policy-again.txt 2>&1
    test "$(printf '%s\n' "$scratch"/launch_policy_report/launch_policy_policy.2*Z.json | wc -l)" = 2
    test "$before" = "$("${night[@]}" checksum "$collection/playbooks" "$collection/roles" "$collection/plugins")"
}

case_approval() {
    local app=(ansible-playbook replication.recovery.application -e application_name=approval -e application_report_dir="$reports"
               -e dr_test_poll_interval=1
               -e '{"application_nodes": {"identity": {"project": "identity"}, "shop": {"project": "shop", "after": ["identity"], "approval": true}}}')
    "${app[@]}" < /dev/null > outputs/approval-waits.txt 2>&1
    grep -q "Application approval (dr_test): WAITING FOR APPROVAL" outputs/approval-waits.txt
    test "$("${night[@]}" launches shop TEST_LAUNCH)" = 0
    # As AWX gives it: the survey's answer is text, in the job's extra variables.
    "${app[@]}" -e '{"application_approve": "{\"node\": \"shop\", \"by\": \"Dana Night\"}"}' < /dev/null > outputs/approval.txt 2>&1
    grep "shop:" outputs/approval.txt
    grep -q "shop: approved by Dana Night" outputs/approval.txt
    grep -q "Application approval (dr_test): PASSED" outputs/approval.txt
    test "$("${night[@]}" launches shop TEST_LAUNCH)" = 1
}

case_missing() {
    local nodes='{"application_nodes": {"identity": {"project": "identity"}, "cache": {"project": "cache", "after": ["identity"]}}}'
    local app=(ansible-playbook replication.recovery.application -e application_name=missing -e application_report_dir="$reports"
               -e dr_test_poll_interval=1 -e "$nodes")
    local tests_before sentence
    tests_before="$("${night[@]}" launches identity TEST_LAUNCH)"
    "${faults[@]}" '[]'
    refused missing-check "${app[@]}" --check
    sentence="$(grep -o "Project 'cache' was not found\. Known: [a-z, ]*\." outputs/missing-check.txt | head -n 1)"
    test -n "$sentence"
    test "$("${night[@]}" writes)" = 0
    refused missing "${app[@]}"
    grep -qF "$sentence" outputs/missing.txt
    test "$("${night[@]}" writes)" = 0
    test "$("${night[@]}" launches identity TEST_LAUNCH)" = "$tests_before"
}

case_logout() {
    "${faults[@]}" '[{"method": "POST", "route": "/logout", "status": 500, "count": 1}]'
    "${failover[@]}" -e failover_project=night > outputs/logout.txt 2>&1
    grep -q "Failover of night: COMMITTED. 3 of 3 machines passed." outputs/logout.txt
    grep -q "WARNING.*sign-out" outputs/logout.txt
    test "$(grep -c RECOVERY <("${night[@]}" cloud night))" = 3
}

case_pinned() {
    "${faults[@]}" '[{"jobTypes": ["RECOVERY_LAUNCH"], "slowFactor": 3}]'
    mkdir -p tmp/first
    TMPDIR="$here/tmp/first" stopped outputs/pinned-stopped.txt "of wave 2 runs in the service" INT \
        "${failover[@]}" -e failover_project=waves -e 'failover_waves=db-*;app-*;web-*'
    "${night[@]}" pinned "$here/tmp/first/replication-recovery-failover-*/record.json" > pinned.txt
    test "$(wc -l < pinned.txt)" = 3
    # Ten minutes of the service's clock: new points, and none of the pinned ones thinned out (the service keeps an hour's).
    "${faults[@]}" '[]'
    "${night[@]}" jump 600
    "${failover[@]}" -e failover_project=waves -e 'failover_waves=db-*;app-*;web-*' > outputs/pinned.txt 2>&1
    "${night[@]}" launched-from waves | diff pinned.txt -
    grep -q "Failover of waves: COMMITTED" outputs/pinned.txt
}

case_rollback() {
    "${faults[@]}" '[]'
    "${failover[@]}" -e failover_project=night -e failover_commit=false > outputs/rollback.txt 2>&1
    grep -q "Failover of night: ROLLED BACK" outputs/rollback.txt
    python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['outcome'] == 'rolled back', r.get('outcome')" "$reports/failover_night.json"
    test -z "$("${night[@]}" cloud night)"
}

case_typo() {
    local sentence
    "${faults[@]}" '[]'
    refused typo-check "${failover[@]}" -e failover_project=nihgt --check
    sentence="$(grep -o "Project 'nihgt' was not found\. Known: [a-z, ]*\." outputs/typo-check.txt | head -n 1)"
    test -n "$sentence"
    if grep -E "see the warning above|\.\." outputs/typo-check.txt; then return 1; fi
    test ! -e "$reports/failover_nihgt.plan.json"
    refused typo "${failover[@]}" -e failover_project=nihgt
    grep -qF "$sentence" outputs/typo.txt
    test "$("${night[@]}" writes)" = 0
}

case_before() {
    # A point in time before any point the service keeps: --check and the real run refuse in the same words, rc 2, no write.
    local sentence
    "${faults[@]}" '[]'
    refused before-check "${failover[@]}" -e failover_project=identity -e failover_point_in_time=before:2020-01-01T00:00:00Z --check
    # The same sentence, but the span of the points, which the clock moves on (a minute a second) between the two runs.
    said() {
        grep -o "id-1 has no point in time at or before 2020-01-01T00:00:00Z; its points run from [^;]*; nothing was launched[^.]*\.[^.]*\." "$1" \
            | head -n 1 | sed 's/run from [^;]*;/run from ...;/'
    }
    sentence="$(said outputs/before-check.txt)"
    test -n "$sentence"
    refused before "${failover[@]}" -e failover_project=identity -e failover_point_in_time=before:2020-01-01T00:00:00Z
    test "$(said outputs/before.txt)" = "$sentence"
    test "$("${night[@]}" writes)" = 0
}

case_lag() {
    "${faults[@]}" '[]'
    ansible-playbook replication.recovery.failback -e failback_project=night -e failback_report_dir="$reports" -e failback_poll_interval=1 \
        -e failback_progress_interval=2 -e failback_clean_recovery=true > outputs/lag.txt 2>&1
    grep "have caught up" outputs/lag.txt | head -n 3
    if grep -n "None" outputs/lag.txt; then return 1; fi
}

case_network() {
    local network='{"dr_test_network": {"subnets": ["isolated-a"], "security_groups": ["isolated"], "public_ip_action": "DONT_ALLOCATE"}}'
    local dr=(ansible-playbook replication.recovery.dr_test -e dr_test_project=isolated -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1
              -e "$network")
    "${faults[@]}" '[{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 3}]'
    stopped outputs/network-stopped.txt "of wave 1 runs in the service" TERM "${dr[@]}"
    "${faults[@]}" '[]'
    "${dr[@]}" > outputs/network.txt 2>&1
    python - "$reports/dr_test_isolated.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["result"] == "passed", report["failures"]
network = report["machines"][0]["test_network"]
assert isinstance(network, dict) and network.get("subnetIDs"), network
PY
    test -z "$("${night[@]}" cloud isolated)"
}

passed=() failed=()
# FIRST_NIGHT_CASES=... runs only those (while a case is worked on).
for name in ${FIRST_NIGHT_CASES:-policy approval missing rollback logout pinned typo before lag network}; do
    echo "== case $name"
    # The case's status read after it: as a condition (if, ||), its subshell would not stop at its first failing command.
    ( set -ex; "case_$name" ) > "outputs/case-$name.log" 2>&1
    # shellcheck disable=SC2181
    if [ $? = 0 ]; then
        passed+=("$name")
    else
        failed+=("$name")
        echo "case $name FAILED; its last lines:"
        tail -n 12 "outputs/case-$name.log" | cut -c1-400
        # shellcheck disable=SC2012  # the newest by its time; the names are the test's own
        newest="$(ls -t outputs/*.txt | head -n 1)"
        echo "... and of $newest:"
        grep -v '^ *$' "$newest" | tail -n 12 | cut -c1-600
    fi
done
echo "first_night: ${#passed[@]} cases passed (${passed[*]:-none}), ${#failed[@]} failed (${failed[*]:-none})"
test "${#failed[@]}" = 0 || exit 1
rm -rf "$reports" "$XDG_DATA_HOME" outputs tmp pinned.txt
