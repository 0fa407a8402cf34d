#!/usr/bin/env bash
# The failover playbook as a DR team runs it when disaster strikes: the plan under --check (no
# write), a refusal while a DR test's machines are up, a roll-back that leaves the target cloud as
# it was, a failover to before:<moment> whose every machine takes its newest point at or before that
# moment, a failover stopped by SIGTERM or SIGKILL while its launch job runs and completed by the next
# run, and a committed failover that, run again, reports itself instead of launching twice. Then the
# failback: its plan, the data-loss guard, a failback stopped while it waits and completed by the
# next run, and run again once it happened. Between them, DR tests in an isolated test network.
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
wait_until=(python ../setup_simulator/files/until.py)  # waits for a command of site.py in one process

python ../setup_simulator/files/simulator.py "$url" seed files/site.json
moment="$("${site[@]}" moment)"
"${site[@]}" cloud > cloud-before.txt

# -- the plan: under --check, no write, and the plan names each machine's point and data-loss window --
python ../setup_simulator/files/simulator.py "$url" faults '[]'
ansible-playbook replication.recovery.failover --check "${common[@]}" -e "failover_point_in_time=before:$moment" \
    -e 'failover_waves=db-1;app-1,web-1' | tee output.txt
grep -q "Plan: $reports/failover_site.2[0-9]*T[0-9]*Z.plan.json" output.txt
grep -q "The newest plan is also at $reports/failover_site.plan.json" output.txt
python ../setup_simulator/files/simulator.py "$url" no-writes
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
# -- (your tasks before, after each wave and after all run in that order, each wave's after its checks, --
# -- and the checks run as a play over the recovery machines, each as its own host) -----------------------
rm -rf "$reports" hooks.log
hooks=(-e hook_log="$(pwd)/hooks.log" -e failover_before_tasks="$(pwd)/files/before.yml"
       -e failover_after_wave_tasks="$(pwd)/files/after_wave.yml" -e failover_after_tasks="$(pwd)/files/after.yml")
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_clean_dr_tests=true -e failover_commit=false \
    -e "failover_point_in_time=before:$moment" -e 'failover_waves=db-1;app-1,web-1' -e failover_checks_tasks="$(pwd)/files/checks.yml" \
    "${hooks[@]}"
"${site[@]}" points "$reports/failover_site.json" "$moment"
"${site[@]}" cloud > cloud-after.txt
diff cloud-before.txt cloud-after.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and all(m['cleanup'] == 'removed' for m in r['machines']), r" \
    "$reports/failover_site.json"
python files/hooks_in_order.py hooks.log "before" "check db-1 as failover-site/db-1" "after wave 1" \
    "check app-1 as failover-site/app-1|check web-1 as failover-site/web-1" "after wave 2" "after"

# -- your tasks after wave 1 fail (the database is wrong): wave 2 is not launched, the failover fails ----
# -- and says why, and the roll-back removes wave 1's machines -----------------------------------------
rm -rf "$reports" hooks.log
if ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false -e 'failover_waves=db-1;app-1,web-1' \
        "${hooks[@]}" -e hook_fail_wave=1 | tee output.txt; then
    echo "a failover whose tasks after wave 1 failed must fail"; exit 1
fi
grep -q "your tasks after wave 1 (Find the database of wave 1 wrong, when told to): the database answers with yesterday's orders" output.txt
python files/hooks_in_order.py hooks.log "before" "after wave 1"
python -c "import json, sys; r = json.load(open(sys.argv[1])); w = r['waves']; assert r['result'] == 'failed' and w[0]['status'] == 'launched' \
and w[1]['status'] == 'not launched' and w[1]['message'] == 'not launched: the run stopped at your tasks after wave 1 (Find the database of wave 1 wrong, when told to)' and [m['name'] for m in r['machines'] if m['cleanup'] == 'removed'] == ['db-1'], r" \
    "$reports/failover_site.json"
"${site[@]}" cloud > cloud-after.txt
diff cloud-before.txt cloud-after.txt

# -- stopped while its launch job runs (SIGTERM: a stopped container; SIGKILL: a lost node), then run ---
# -- again: the second run adopts the launch, and rolls back; one launch in all, the cloud as it was ----
# Run a playbook in a process group of its own and stop it with SIG$1 once its output matches $2, or once a
# job of the type after "running:" runs in the project (SIGTERM: a stopped container; SIGKILL: a lost node,
# every process of the run at once). A launch is seen in the service: ansible-playbook's output to a file
# is buffered, and would show a launch's progress only once much more was written.
# run_tree and kill_run: a lost node kills the whole tree of the run.
source ../playbook_dr_test/kill_run.sh
stop_when() {
    local signal=$1 pattern=$2 waited=0
    shift 2
    # Unbuffered: the stop is brought about by what the output says, which a file would get in blocks (a wait's progress
    # lines come further apart as it backs off).
    [ ! -f stopped.txt ] || mv stopped.txt stopped-before.txt  # kept for not_adopted: what the run stopped before said
    PYTHONUNBUFFERED=1 setsid "$@" >stopped.txt 2>&1 &
    local pid=$!
    case $pattern in
        running:*) "${wait_until[@]}" --alive "$pid" -- files/site.py "$url" running "${pattern#running:}" ;;
        *) until grep -q "$pattern" stopped.txt; do kill -0 "$pid" || break; sleep 0.2; done; grep -q "$pattern" stopped.txt ;;
    esac || { cat stopped.txt; echo "it ended before it printed: $pattern"; exit 1; }
    if [ "$signal" = KILL ]; then kill_run "$pid"; else kill "-$signal" "$pid"; fi
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1; waited=$((waited + 1))
        if [ "$waited" -ge 60 ]; then echo "it did not end within a minute of SIG$signal"; kill -KILL -- "-$pid"; exit 1; fi
    done
    wait "$pid" || true
}
# What the stopped run said and the project's jobs, when the next run did not adopt its launch - and the end of what the
# run stopped before it said, and the cloud's machines: a launch not adopted is one launched twice.
not_adopted() {
    cat stopped.txt; "${site[@]}" jobs
    echo "== the end of what the run stopped before it said"; tail -n 80 stopped-before.txt 2>/dev/null || true
    echo "== the cloud's machines"; "${site[@]}" cloud
    echo "the next run did not adopt the stopped run's launch"; exit 1
}

stop_while_launching() {
    stop_when "$1" running:RECOVERY_LAUNCH ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false \
        -e failover_progress_interval=1
    ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false | tee output.txt
    grep -q "Wave 1 was launched by an earlier run of this failover" output.txt || not_adopted
    "${site[@]}" launches RECOVERY_LAUNCH "$2"
    "${site[@]}" cloud > cloud-after.txt
    diff cloud-before.txt cloud-after.txt
}
stop_while_launching TERM 4
stop_while_launching KILL 5

# == a DR test in an isolated test network (dr_test_network) ==========================================
# -- under --check, the switch as a diff and no write; then a test that launches every machine into the ---
# -- test subnet (the checks read the target cloud) and leaves every blueprint as it was, member by member --
test_subnet="$("${site[@]}" subnet isolated-a)"
"${site[@]}" blueprints > blueprints-before.json
isolated=(-e dr_test_project=site -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1 -e dr_test_check_public_ip=false
          -e '{"dr_test_network": {"subnets": ["isolated-a"], "security_groups": ["isolated"], "public_ip_action": "DONT_ALLOCATE"}}')
same_blueprints() {
    "${site[@]}" blueprints > blueprints-after.json
    diff blueprints-before.json blueprints-after.json
}
python ../setup_simulator/files/simulator.py "$url" faults '[]'
ansible-playbook replication.recovery.dr_test --check --diff "${isolated[@]}" | tee output.txt
grep -q "Would switch 3 blueprints to the test network: app-1, db-1, web-1" output.txt
grep -q "$test_subnet" output.txt
python ../setup_simulator/files/simulator.py "$url" no-writes
rm -rf "$reports" hooks.log
ansible-playbook replication.recovery.dr_test "${isolated[@]}" "${config[@]}" -e test_subnet_id="$test_subnet" -e hook_log="$(pwd)/hooks.log" \
    -e dr_test_checks_tasks="$(pwd)/files/network_checks.yml"
python files/hooks_in_order.py hooks.log "app-1 in $test_subnet|db-1 in $test_subnet|web-1 in $test_subnet"
"${site[@]}" tested-in "$reports/dr_test_site.json" "$test_subnet"
same_blueprints

# -- killed (SIGKILL) while its launch job runs, the blueprints stay switched; the next failover, under ----
# -- --check, would put them back first and says so; the next DR test does, and every blueprint is as it was --
slow_test_launch() {
    python ../setup_simulator/files/simulator.py "$url" faults '[{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 10, "count": 1}]'
}
slow_test_launch
# (Seen in the service: ansible-playbook's output to a file is buffered, and would show the launch only once it ended.)
stop_when KILL running:TEST_LAUNCH ansible-playbook replication.recovery.dr_test "${isolated[@]}"
"${site[@]}" blueprints > blueprints-after.json
if diff -q blueprints-before.json blueprints-after.json >/dev/null; then cat stopped.txt; echo "the killed run had switched no blueprint"; exit 1; fi
"${wait_until[@]}" --not --interval 1 -- files/site.py "$url" running TEST_LAUNCH
ansible-playbook replication.recovery.failover --check "${common[@]}" -e failover_clean_dr_tests=true | tee output.txt
grep -q "Would put back 3 blueprints as they were before the test network: app-1, db-1, web-1" output.txt
python -c "import json, sys; p = json.load(open(sys.argv[1])); assert p['put_back_first'] == ['app-1', 'db-1', 'web-1'], p" "$reports/failover_site.plan.json"
ansible-playbook replication.recovery.dr_test "${isolated[@]}" | tee output.txt
grep -q "Put back 3 blueprints as they were before the test network: app-1, db-1, web-1" output.txt
same_blueprints

# -- cancelled (SIGTERM) while its launch job runs, and run again: every blueprint as it was ----------------
slow_test_launch
stop_when TERM running:TEST_LAUNCH ansible-playbook replication.recovery.dr_test "${isolated[@]}"
ansible-playbook replication.recovery.dr_test "${isolated[@]}"
same_blueprints

# -- another client changes web-1's switched blueprint while the (slowed) launch runs: it is left as they ---
# -- set it, and the report names it; put back on purpose (on_change=restore), it is as it was -------------
slow_test_launch
rm -rf "$reports"
ansible-playbook replication.recovery.dr_test "${isolated[@]}" > output.txt 2>&1 &
tested=$!
"${wait_until[@]}" -- files/site.py "$url" running TEST_LAUNCH
"${site[@]}" patch-blueprint web-1 publicIPAction '"AS_SUBNET"'
if wait "$tested"; then cat output.txt; echo "a DR test whose blueprint somebody changed must fail"; exit 1; fi
grep -q "Not put back, changed by somebody else since the switch (left as they set it): web-1: somebody changed" output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); c = [c for c in r['checks'] if c['name'] == 'test network'][0]; \
assert c['status'] == 'failed' and 'web-1' in c['message'] and 'db-1' not in c['message'], c" "$reports/dr_test_site.json"
"${site[@]}" blueprints > blueprints-now.json  # whole, before grep reads it: grep -q would close the pipe early
grep -q '"AS_SUBNET"' blueprints-now.json
ansible localhost -m replication.recovery.service_test_network -a "project=site state=restored on_change=restore"
same_blueprints
"${site[@]}" cloud > cloud-after.txt
diff cloud-before.txt cloud-after.txt

# -- commit: the recovery machines stay, named as production in the service; run again, what stands is -----
# -- reported, nothing launched twice (the commit under the free strategy, as under linear: every play of the ----
# -- playbook is linear) ----------------------------------------------------------------------------------------
rm -rf "$reports"
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.failover "${common[@]}" -e failover_checks_tasks="$(pwd)/files/checks.yml" | tee output.txt
grep -q "The target machines are kept (committed - fail back with replication.recovery.failback" output.txt
"${site[@]}" marked yes
ansible-playbook replication.recovery.failover "${common[@]}" | tee output.txt
grep -q "db-1 stands: failed over since" output.txt
"${site[@]}" launches RECOVERY_LAUNCH 6  # three waves rolled back, two stopped and adopted, one committed: none more
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and r['counts']['stands'] == 3 and sorted(r['kept']) == ['app-1', 'db-1', 'web-1'], r" \
    "$reports/failover_site.json"
test "$("${site[@]}" cloud | grep -c RECOVERY)" = 3

# == failback, after the committed failover ==========================================================
back=(-e failback_project=site -e failback_report_dir="$reports" -e failback_poll_interval=1 -e failback_progress_interval=1
      -e failback_checks_tasks="$(pwd)/files/checks.yml")

# -- the plan: under --check, no write; it would reverse first ------------------------------------------
python ../setup_simulator/files/simulator.py "$url" faults '[]'
ansible-playbook replication.recovery.failback --check "${back[@]}" | tee output.txt
grep -q "Plan: $reports/failback_site.2[0-9]*T[0-9]*Z.plan.json" output.txt
python ../setup_simulator/files/simulator.py "$url" no-writes
"${site[@]}" direction original
plan=$(grep -o "$reports/failback_site.2[0-9]*T[0-9]*Z.plan.json" output.txt | head -1)
python -c "import json, sys; p = json.load(open(sys.argv[1])); assert p['failback'] == dict(machines=['app-1', 'db-1', 'web-1'], clean_recovery=False), p" "$plan"
# Given its plan with another removal of the recovery machines, it is refused before anything is changed.
if ansible-playbook replication.recovery.failback "${back[@]}" -e failback_plan="$plan" -e failback_clean_recovery=true | tee output.txt; then
    echo "a failback that differs from its plan must be refused"; exit 1
fi
grep -q "This failback differs from its plan $plan: the plan keeps the recovery machines, and this run removes them. Nothing was changed." output.txt
"${site[@]}" direction original

# -- the guard: web-1 writes faster than it replicates back; the failback given its plan carries it out - -
# -- reverses, waits, names it and stops before launching -----------------------------------------------
"${site[@]}" write-rate web-1 100000
if ansible-playbook replication.recovery.failback "${back[@]}" -e failback_plan="$plan" -e failback_wait_timeout=15 | tee output.txt; then
    echo "a failback with a backlog must stop"; exit 1
fi
# web-1 has a backlog; on a busy machine (the clock at 60x) its lag may be over the limit too, and said first.
grep -Eq "The data-loss guard stopped the run; nothing was launched. Not ready \(1 of 3\): web-1: (.*, )?backlog of" output.txt
"${site[@]}" direction reversed
"${site[@]}" launches CUTOVER_LAUNCH 0
"${site[@]}" marked yes

# -- stopped by SIGTERM while it waits for web-1 to catch up; then by SIGKILL while it launches back, and ----
# -- again while it removes the recovery machines; each run goes on from where the service stands: the -----
# -- launch adopted, checked, returned, the recovery machines removed; one launch back in all --------------
stop_when TERM "machines have caught up; not yet: web-1" ansible-playbook replication.recovery.failback "${back[@]}"
# -- then stopped by SIGKILL while it launches back, accepting the data loss; the next run adopts that launch --
# -- while it still runs (slowed down): the machines' target machines are still their recovery machines then --
# -- (a run again that read it running launched back a second time) -------------------------------------------
python ../setup_simulator/files/simulator.py "$url" faults '[{"jobTypes": ["CUTOVER_LAUNCH"], "slowFactor": 12, "count": 1}]'
stop_when KILL running:CUTOVER_LAUNCH env ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.failback "${back[@]}" \
    -e failback_accept_data_loss=true
# -- and is stopped by SIGKILL once replication is returned, while its (slowed) cleanup removes the recovery --
# -- machines; the run after it finds the failback happened, and finishes the removal --------------------
python ../setup_simulator/files/simulator.py "$url" faults '[{"jobTypes": ["CLEANUP"], "slowFactor": 30, "count": 1}]'
# Your tasks before and after run around the checks of the adopted launch, which run as a play over the machines
# launched back.
rm -f hooks.log
stop_when KILL running:CLEANUP \
    ansible-playbook replication.recovery.failback "${back[@]}" -e failback_accept_data_loss=true -e failback_clean_recovery=true \
    -e hook_log="$(pwd)/hooks.log" -e failback_before_tasks="$(pwd)/files/before.yml" -e failback_after_tasks="$(pwd)/files/after.yml"
python files/hooks_in_order.py hooks.log "before" \
    "check app-1 as failback-site/app-1|check db-1 as failback-site/db-1|check web-1 as failback-site/web-1" "after"
grep -q "Failback of site: replication is reversed" stopped.txt
grep -q "Wave 1 was launched by an earlier run of this failback" stopped.txt || not_adopted
if grep -q "recovery machines terminated" stopped.txt; then cat stopped.txt; echo "the stopped run was not stopped in its cleanup"; exit 1; fi
"${site[@]}" marked named  # the marks stay until the recovery machines are proven gone
# Run from another directory, as another controller would: the recovery machines are named in the service (the role
# in one play: the checks on this host).
ansible-playbook ../playbook_dr_test/one_play.yml -e one_play=failback "${back[@]}" -e failback_accept_data_loss=true -e failback_clean_recovery=true \
    -e failback_report_dir="$(pwd)/elsewhere" | tee output.txt
grep -q "Failback of site: the failback happened and replication runs in its original direction again." output.txt
grep -q "Failback of site: 0 recovery machines terminated (3 by an earlier run), proven gone." output.txt
"${site[@]}" launches CUTOVER_LAUNCH 1
"${site[@]}" direction original
"${site[@]}" failed-back yes
test "$("${site[@]}" cloud | grep -c RECOVERY || true)" = 0
python -c "import json, sys; r = json.load(open(sys.argv[1])); f = r['failback']; assert r['result'] == 'passed' and f['stage'] == 'returned' \
and sorted(f['recovery_removed']) == ['app-1', 'db-1', 'web-1'] and r['counts']['launched'] == 0, r" elsewhere/failback_site.json
"${site[@]}" marked no  # the recovery machines are gone, and so are their marks

# -- run again: the failback that happened is reported, nothing is launched, reversed, adopted or checked ---
# -- again: NOTHING DONE (under the free strategy too) ---------------------------------------------------------
rm -f hooks.log
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.failback "${back[@]}" -e hook_log="$(pwd)/hooks.log" -e failback_before_tasks="$(pwd)/files/before.yml" \
    -e failback_after_tasks="$(pwd)/files/after.yml" | tee output.txt
if grep -q "^check" hooks.log; then cat hooks.log; echo "a failback that happened checked its machines again"; exit 1; fi
grep -q "Failback of site: the failback happened and replication runs in its original direction again." output.txt
grep -q "Failback of site: NOTHING DONE." output.txt
"${site[@]}" launches CUTOVER_LAUNCH 1
"${site[@]}" direction original

rm -rf "$reports" elsewhere output.txt stopped.txt stopped-before.txt cloud-before.txt cloud-after.txt hooks.log blueprints-before.json blueprints-after.json blueprints-now.json
