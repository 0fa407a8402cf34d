#!/usr/bin/env bash
# The failover playbook as a DR team runs it when disaster strikes: the plan under --check (no
# write), a refusal while a DR test's machines are up, a roll-back that leaves the target cloud as
# it was, a failover to before:<moment> whose every machine takes its newest point at or before that
# moment, a failover stopped by SIGTERM or SIGKILL while its launch job runs and completed by the next
# run, and a committed failover that, run again, reports itself instead of launching twice. Then the
# failback: its plan, the data-loss guard, a failback stopped while it waits and completed by the
# next run, and run again once it happened.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=failover@example.test
export REPLICATION_SERVICE_PASSWORD=failover-password
export ANSIBLE_ROLES_PATH=..
config=(-e @../../integration_config.yml)
reports="$(pwd)/reports"
rm -rf "$reports" output.txt
common=(-e failover_project=site -e failover_report_dir="$reports" -e failover_poll_interval=1)
site=(python files/site.py "$url")

ansible-playbook -i ../../inventory "${config[@]}" seed.yml
moment="$("${site[@]}" moment)"
"${site[@]}" cloud > cloud-before.txt

# -- the plan: under --check, no write, and the plan names each machine's point and data-loss window --
ansible-playbook -i ../../inventory "${config[@]}" -e '{"rules": []}' ../playbook_dr_test/faults.yml
ansible-playbook replication.recovery.failover --check "${common[@]}" -e "failover_point_in_time=before:$moment" \
    -e 'failover_waves=db-1;app-1,web-1' | tee output.txt
grep -q "Plan: $reports/failover_site.plan.json" output.txt
ansible-playbook -i ../../inventory "${config[@]}" ../playbook_dr_test/stats_no_writes.yml
"${site[@]}" points "$reports/failover_site.plan.json" "$moment"
python -c "import json, sys; p = json.load(open(sys.argv[1])); assert p['would'] == 'launch' and [w['machines'] for w in p['waves']] == [['db-1'], ['app-1', 'web-1']], p" \
    "$reports/failover_site.plan.json"
grep -q "| db-1 | 1 |" "$reports/failover_site.plan.md"
if [ -e "$reports/failover_site.json" ]; then echo "check mode wrote a report"; exit 1; fi

# -- a DR test's machine is up: the failover refuses, and names it; the plan says so too ------------
"${site[@]}" launch-test web-1
if ansible-playbook replication.recovery.failover "${common[@]}" | tee output.txt; then
    echo "a failover while a DR test's machines are up must fail"; exit 1
fi
grep -q "Test machines are up for web-1; nothing was launched. Clean them up first, or let this run do it (failover_clean_dr_tests=true)" output.txt
"${site[@]}" launches RECOVERY_LAUNCH 0

# -- roll back: cleans the DR test's machine first, fails over to before:<moment>, then removes ------
# -- exactly what it launched: the target cloud is as it was -------------------------------------------
rm -rf "$reports"
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_clean_dr_tests=true -e failover_commit=false \
    -e "failover_point_in_time=before:$moment" -e 'failover_waves=db-1;app-1,web-1' -e failover_checks_tasks="$(pwd)/files/checks.yml"
"${site[@]}" points "$reports/failover_site.json" "$moment"
"${site[@]}" cloud > cloud-after.txt
diff cloud-before.txt cloud-after.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and all(m['cleanup'] == 'removed' for m in r['machines']), r" \
    "$reports/failover_site.json"

# -- stopped while its launch job runs (SIGTERM: a stopped container; SIGKILL: a lost node), then run ---
# -- again: the second run adopts the launch, and rolls back; one launch in all, the cloud as it was ----
# Run a playbook in a process group of its own and stop it with SIG$1 once its output matches $2, or once a
# job of the type after "running:" runs in the project (SIGTERM: a stopped container; SIGKILL: a lost node,
# the whole group at once).
stop_when() {
    local signal=$1 pattern=$2 waited=0
    shift 2
    setsid "$@" >stopped.txt 2>&1 &
    local pid=$!
    until case $pattern in running:*) "${site[@]}" running "${pattern#running:}" ;; *) grep -q "$pattern" stopped.txt ;; esac; do
        kill -0 "$pid" || { cat stopped.txt; echo "it ended before it printed: $pattern"; exit 1; }
        sleep 0.2
    done
    if [ "$signal" = KILL ]; then kill -KILL -- "-$pid"; else kill "-$signal" "$pid"; fi
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1; waited=$((waited + 1))
        if [ "$waited" -ge 60 ]; then echo "it did not end within a minute of SIG$signal"; kill -KILL -- "-$pid"; exit 1; fi
    done
    wait "$pid" || true
}
# What the stopped run said and the project's jobs, when the next run did not adopt its launch.
not_adopted() {
    cat stopped.txt; "${site[@]}" jobs; echo "the next run did not adopt the stopped run's launch"; exit 1
}
launching="Launch job [0-9a-f-]* \(PENDING\|STARTED\)"

stop_while_launching() {
    stop_when "$1" "$launching" ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false \
        -e failover_progress_interval=1
    ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false | tee output.txt
    grep -q "Wave 1 was launched by an earlier run of this failover" output.txt || not_adopted
    "${site[@]}" launches RECOVERY_LAUNCH "$2"
    "${site[@]}" cloud > cloud-after.txt
    diff cloud-before.txt cloud-after.txt
}
stop_while_launching TERM 3
stop_while_launching KILL 4

# -- commit: the recovery machines stay; run again, the failover is recognised, not launched twice -----
rm -rf "$reports"
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_checks_tasks="$(pwd)/files/checks.yml" | tee output.txt
grep -q "The target machines are kept (committed - fail back with replication.recovery.failback" output.txt
ansible-playbook replication.recovery.failover "${common[@]}" | tee output.txt
grep -q "Wave 1 was launched by an earlier run of this failover" output.txt
"${site[@]}" launches RECOVERY_LAUNCH 5  # two waves rolled back, two stopped and adopted, one committed: none more
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and r['waves'][0]['adopted'] and sorted(r['kept']) == ['app-1', 'db-1', 'web-1'], r" \
    "$reports/failover_site.json"
test "$("${site[@]}" cloud | grep -c RECOVERY)" = 3

# == failback, after the committed failover ==========================================================
back=(-e failback_project=site -e failback_report_dir="$reports" -e failback_poll_interval=1 -e failback_progress_interval=1
      -e failback_checks_tasks="$(pwd)/files/checks.yml")

# -- the plan: under --check, no write; it would reverse first ------------------------------------------
ansible-playbook -i ../../inventory "${config[@]}" -e '{"rules": []}' ../playbook_dr_test/faults.yml
ansible-playbook replication.recovery.failback --check "${back[@]}" | tee output.txt
grep -q "Plan: $reports/failback_site.plan.json" output.txt
ansible-playbook -i ../../inventory "${config[@]}" ../playbook_dr_test/stats_no_writes.yml
"${site[@]}" direction original

# -- the guard: web-1 writes faster than it replicates back; the failback reverses, waits, names it and ---
# -- stops before launching ----------------------------------------------------------------------------
"${site[@]}" write-rate web-1 100000
if ansible-playbook replication.recovery.failback "${back[@]}" -e failback_wait_timeout=15 | tee output.txt; then
    echo "a failback with a backlog must stop"; exit 1
fi
grep -q "The data-loss guard stopped the run; nothing was launched. Not ready (1 of 3): web-1: backlog of" output.txt
"${site[@]}" direction reversed
"${site[@]}" launches CUTOVER_LAUNCH 0
test -s "$reports/failback_site.recovery.json"

# -- stopped by SIGTERM while it waits for web-1 to catch up; then by SIGKILL while it launches back, and ----
# -- again while it removes the recovery machines; each run goes on from where the service stands: the -----
# -- launch adopted, checked, returned, the recovery machines removed; one launch back in all --------------
stop_when TERM "machines have caught up; not yet: web-1" ansible-playbook replication.recovery.failback "${back[@]}"
# -- then stopped by SIGKILL while it launches back, accepting the data loss; the next run adopts that launch --
stop_when KILL "$launching" ansible-playbook replication.recovery.failback "${back[@]}" -e failback_accept_data_loss=true
# -- and is stopped by SIGKILL once replication is returned, while its (slowed) cleanup removes the recovery --
# -- machines; the run after it finds the failback happened, and finishes the removal --------------------
ansible-playbook -i ../../inventory "${config[@]}" -e '{"rules": [{"jobTypes": ["CLEANUP"], "slowFactor": 30, "count": 1}]}' \
    ../playbook_dr_test/faults.yml
stop_when KILL running:CLEANUP \
    ansible-playbook replication.recovery.failback "${back[@]}" -e failback_accept_data_loss=true -e failback_clean_recovery=true
grep -q "Failback of site: replication is reversed" stopped.txt
grep -q "Wave 1 was launched by an earlier run of this failback" stopped.txt || not_adopted
if grep -q "recovery machines terminated" stopped.txt; then cat stopped.txt; echo "the stopped run was not stopped in its cleanup"; exit 1; fi
test -s "$reports/failback_site.recovery.json"
ansible-playbook replication.recovery.failback "${back[@]}" -e failback_accept_data_loss=true -e failback_clean_recovery=true | tee output.txt
grep -q "Failback of site: the failback happened and replication runs in its original direction again." output.txt
grep -q "Failback of site: 0 recovery machines terminated (3 by an earlier run), proven gone." output.txt
"${site[@]}" launches CUTOVER_LAUNCH 1
"${site[@]}" direction original
"${site[@]}" failed-back yes
test "$("${site[@]}" cloud | grep -c RECOVERY || true)" = 0
python -c "import json, sys; r = json.load(open(sys.argv[1])); f = r['failback']; assert r['result'] == 'passed' and f['stage'] == 'returned' \
and sorted(f['recovery_removed']) == ['app-1', 'db-1', 'web-1'] and sorted(r['kept']) == ['app-1', 'db-1', 'web-1'], r" "$reports/failback_site.json"
if [ -e "$reports/failback_site.recovery.json" ]; then echo "the memo of removed recovery machines was kept"; exit 1; fi

# -- run again: the failback that happened is reported, nothing is launched or reversed again -----------
ansible-playbook replication.recovery.failback "${back[@]}" | tee output.txt
grep -q "Failback of site: the failback happened and replication runs in its original direction again." output.txt
"${site[@]}" launches CUTOVER_LAUNCH 1
"${site[@]}" direction original

rm -rf "$reports" output.txt stopped.txt cloud-before.txt cloud-after.txt
