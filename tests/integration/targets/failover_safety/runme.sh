#!/usr/bin/env bash
# Safe on the worst day: no rerun, typo or clock turns a failover against production.
#   Launch settings left to a default that drifted away; points pinned when the run begins, a thinned one replaced (or,
#   strict, the run stopped before its wave); a plan that binds, and one whose point vanished refused; a launch stopped by
#   Ctrl-C, then --check naming it and its adoption; a committed three-wave failover run again with fewer arguments (it
#   stands, changed=0) and with others (refused, naming the difference); the DR test, its cleanup, a recovery drill and
#   the clean point search refused on it; a replacement with the token of its plan; a run that cannot sign in leaving the
#   passing report; the default ledger holding every run; no None and no negative number anywhere. (Moments refused before
#   anything is written, and a replacement without its plan's token: the unit tests, named below.)
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=safe@example.test
export REPLICATION_SERVICE_PASSWORD=safe-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # the default ledger of runs, this test's own
reports="$(pwd)/reports"
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf "$reports" "$XDG_DATA_HOME" outputs
mkdir -p outputs
common=(-e failover_project=safe -e failover_report_dir="$reports" -e failover_poll_interval=1 -e failover_progress_interval=2
        -e simulator_url="$url")
waves=(-e 'failover_waves=db-1;app-1;web-1')
safe=(python files/safe.py "$url")
faults=(python ../setup_simulator/files/simulator.py "$url" faults)
runs=0  # the runs that wrote a report (the ledger holds each: reached the service or not)
# Run a playbook that must fail; its output in outputs/$1.txt.
refused() {
    local name=$1
    shift
    if "$@" > "outputs/$name.txt" 2>&1; then cat "outputs/$name.txt"; echo "$name: must fail"; exit 1; fi
}

python ../setup_simulator/files/simulator.py "$url" seed files/safe.json

# (Moments refused before anything is written - later than the service's now, a date without a time, a date and time
# that -e key=value splits at its space - are judgements: test_runbook_steps.py and test_runbook_options.py hold them.)
"${faults[@]}" '[]'

# == launch settings left to a default that is gone: said, and with strict the DR test stops in preflight ==
"${safe[@]}" drift private-b  # the default subnet of project drifted, deleted in the cloud account
drifted=(-e dr_test_project=drifted -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1)
ansible-playbook replication.recovery.dr_test --check "${drifted[@]}" > outputs/defaults.txt 2>&1
grep -q "cannot have their launch settings proven: their blueprints leave to the service's default" outputs/defaults.txt
grep -q "subnet, security groups and instance type: mail-1" outputs/defaults.txt
"${faults[@]}" '[]'
refused strict ansible-playbook replication.recovery.dr_test "${drifted[@]}" -e dr_test_launch_settings_strict=true
grep -q "The launch settings check stopped the run (dr_test_launch_settings_strict); nothing was launched" outputs/strict.txt
runs=$((runs + 1))
"${safe[@]}" no-writes

# == points pinned when the run begins: wave 3's thinned out by a day passing after wave 2 ==============
# -- strict: the run stops before wave 3, and rolls waves 1 and 2 back ---------------------------------
hooks=(-e failover_after_wave_tasks="$(pwd)/files/after_wave.yml" -e jump_after_wave=2)
refused thinned-strict ansible-playbook replication.recovery.failover "${common[@]}" "${waves[@]}" "${hooks[@]}" \
    -e "failover_point_in_time=before:$("${safe[@]}" moment 5)" -e failover_points_strict=true -e failover_commit=false
grep -q "Points in time pinned when the run began were thinned out by the service before wave 3, which is not launched (points_strict): web-1" \
    outputs/thinned-strict.txt
runs=$((runs + 1))
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert [w['status'] for w in r['waves']] == ['launched', 'launched', 'not launched'], r['waves']" \
    "$reports/failover_safe.json"
test -z "$("${safe[@]}" cloud)"  # rolled back: nothing left

# -- a plan whose point vanished before the run began: refused, naming it ------------------------------
ansible-playbook replication.recovery.failover --check "${common[@]}" "${waves[@]}" -e "failover_point_in_time=before:$("${safe[@]}" moment 5)" \
    > outputs/plan-vanished.txt
vanished="$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' outputs/plan-vanished.txt)"
"${safe[@]}" jump 86400
"${faults[@]}" '[]'
refused vanished ansible-playbook replication.recovery.failover "${common[@]}" -e failover_plan="$vanished"
# ... naming the point a run without the plan would take instead, what it costs, and the one step that approves it.
grep -q "launches from points in time the service has thinned out since it was planned; this run launched nothing\. .*db-1: the point of" \
    outputs/vanished.txt
grep -q "To approve those points, plan again with --check and give the new plan (failover_plan)" outputs/vanished.txt
runs=$((runs + 1))
"${safe[@]}" no-writes

# == stopped by Ctrl-C while its launch runs; --check then names the job and says the next run adopts it ==
"${faults[@]}" '[{"jobTypes": ["RECOVERY_LAUNCH"], "slowFactor": 10, "count": 1}]'
PYTHONUNBUFFERED=1 setsid ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false > outputs/interrupted.txt 2>&1 &
pid=$!
python ../setup_simulator/files/until.py --alive "$pid" -- files/safe.py "$url" running RECOVERY_LAUNCH || { cat outputs/interrupted.txt; exit 1; }
until grep -q "runs in the service. If this run is stopped, the job goes on there" outputs/interrupted.txt; do sleep 0.2; done
kill -INT "$pid"
wait "$pid" || true
grep -q "run again to adopt it, or with --check to see what the next run does" outputs/interrupted.txt
ansible-playbook replication.recovery.failover --check "${common[@]}" -e failover_commit=false > outputs/interrupted-check.txt
job="$(sed -n 's/.*Launch job \([0-9a-f-]*\) of wave 1 runs in the service.*/\1/p' outputs/interrupted.txt | head -n 1)"
grep -q "Wave 1 was launched by an earlier run of this failover (RECOVERY_LAUNCH $job, " outputs/interrupted-check.txt
grep -q "Adopts the launch job $job of an earlier run as wave 1" outputs/interrupted-check.txt
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_commit=false > outputs/adopted.txt
runs=$((runs + 1))
grep -q "Wave 1 was launched by an earlier run of this failover (RECOVERY_LAUNCH $job" outputs/adopted.txt
"${safe[@]}" launches RECOVERY_LAUNCH 3  # two waves of the strict run, and this one: adopted, not launched again
test -z "$("${safe[@]}" cloud)"

# == a plan that binds: --check, then the plan; a day passes after wave 2, and wave 3 takes the newest point ==
# == before its thinned one, said with the extra data lost; the failover is committed in three waves ======
ansible-playbook replication.recovery.failover --check "${common[@]}" "${waves[@]}" -e "failover_point_in_time=before:$("${safe[@]}" moment 5)" \
    > outputs/plan.txt
plan="$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' outputs/plan.txt)"
grep -q "| db-1 | 1 | 20[0-9-]*T[0-9:]*Z ([0-9a-f-]*) | " "${plan%.json}.md"
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_plan="$plan" "${hooks[@]}" > outputs/committed.txt
runs=$((runs + 1))
grep -q "Thinned out by the service before wave 3, replaced by the newest point before each: web-1: the point of" outputs/committed.txt
committed="$(printf '%s\n' "$reports"/failover_safe.2*Z.json | sort | tail -n 1)"
cmp "$committed" "$reports/failover_safe.json"
"${safe[@]}" same-points "$plan" "$committed" web-1
"${safe[@]}" repinned "$committed" web-1 3
"${safe[@]}" cloud > cloud-committed.txt
test "$(grep -c RECOVERY cloud-committed.txt)" = 3

# == run again with fewer arguments: what stands is reported, nothing launched, changed=0 ================
ansible-playbook replication.recovery.failover "${common[@]}" > outputs/again.txt
runs=$((runs + 1))
grep -q "web-1 stands: failed over since 20[0-9T:-]*Z, from the point in time of 20[0-9T:-]*Z ([0-9a-f-]*), recovery machine i-" outputs/again.txt
# db-1's point was thinned out since it launched (a day passed after wave 2): its ID is said, and that it is no longer listed.
grep -q "db-1 stands: failed over since 20[0-9T:-]*Z, from the point in time [0-9a-f-]* (no longer listed: thinned out since), recovery machine i-" \
    outputs/again.txt
grep -q "Failover of safe: NOTHING DONE. Nothing was launched; 3 stand, failed over already" outputs/again.txt
grep -Eq "localhost +: ok=[0-9]+ +changed=0 " outputs/again.txt
"${safe[@]}" cloud | diff cloud-committed.txt -
"${safe[@]}" launches RECOVERY_LAUNCH 6

# -- with another point policy: refused before any write, naming the difference ---------------------------
"${faults[@]}" '[]'
refused differs ansible-playbook replication.recovery.failover "${common[@]}" -e failover_point_in_time=latest -e failover_clean_dr_tests=true
grep -q "What stands differs from what this failover was asked; nothing was launched or terminated. app-1: failed over since" outputs/differs.txt
grep -q "asked latest, which is the point in time of" outputs/differs.txt
runs=$((runs + 1))
"${safe[@]}" no-writes
"${safe[@]}" cloud | diff cloud-committed.txt -

# == the nightly DR test, its cleanup, a recovery drill and the clean point search: each refused =========
dr=(-e dr_test_project=safe -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1)
refused dr-test ansible-playbook replication.recovery.dr_test "${dr[@]}"
grep -q "3 of the machines of this DR test are failed over, and their recovery machines run production" outputs/dr-test.txt
grep -q "nothing was launched or terminated. Fail back first (replication.recovery.failback)" outputs/dr-test.txt
refused drill ansible-playbook replication.recovery.dr_test "${dr[@]}" -e dr_test_launch_type=recovery
grep -q "A recovery launch terminates a machine's target machine first" outputs/drill.txt
refused dr-cleanup ansible localhost -m ansible.builtin.include_role -a "name=replication.recovery.dr_test tasks_from=cleanup" "${dr[@]}" \
    -e dr_test_launch_type=recovery
grep -q "run production" outputs/dr-cleanup.txt
grep -q "Nothing was terminated" outputs/dr-cleanup.txt
refused search ansible-playbook replication.recovery.clean_point -e clean_point_project=safe -e clean_point_report_dir="$reports" \
    -e clean_point_poll_interval=1 -e clean_point_checks_tasks="$(pwd)/files/after_wave.yml"
grep -q "3 of the machines of this clean point search are failed over" outputs/search.txt
runs=$((runs + 2))  # the DR test and the recovery drill; the cleanup writes no report, and a search that did not end is no entry
"${safe[@]}" cloud | diff cloud-committed.txt -
"${safe[@]}" launches TEST_LAUNCH 0

# == a replacement only with the token of its plan (none, or another plan's: test_runbook_steps.py, ===========
# == test_a_replacement_needs_the_token_its_plan_printed) =================================================
ansible-playbook replication.recovery.failover --check "${common[@]}" -e failover_replace=web-1 > outputs/plan-web.txt
grep -q "TERMINATES the recovery machine i-[0-9a-f]* of web-1, which runs production since" outputs/plan-web.txt
token="$("${safe[@]}" token "$(sed -n 's/.*Plan: \(.*\.plan\.json\)$/\1/p' outputs/plan-web.txt)")"
grep -q "failover_confirm=$token" outputs/plan-web.txt
"${safe[@]}" cloud | diff cloud-committed.txt -
ansible-playbook replication.recovery.failover "${common[@]}" -e failover_replace=web-1 -e failover_confirm="$token" > outputs/replaced.txt
runs=$((runs + 1))
"${safe[@]}" cloud > cloud-replaced.txt
grep -v '"web-1"' cloud-committed.txt | diff - <(grep -v '"web-1"' cloud-replaced.txt)  # db-1 and app-1 as they were
# web-1's one target machine is a new one (a "! grep" would not stop the script: set -e ignores what it inverts).
test "$(grep -c '"web-1"' cloud-replaced.txt)" = 1
test "$(grep -cF "$(grep '"web-1"' cloud-committed.txt)" cloud-replaced.txt)" = 0
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and r['replaced'] == ['web-1'] and r['counts']['stands'] == 2, r" \
    "$reports/failover_safe.json"
"${safe[@]}" launches RECOVERY_LAUNCH 7

# == a run that cannot sign in leaves the passing report readable, and writes its error ==================
cp "$reports/failover_safe.json" passing.json
REPLICATION_SERVICE_PASSWORD=not-the-password refused signed-out ansible-playbook replication.recovery.failover "${common[@]}"
grep -q "This run never reached the service: its error is in the files above" outputs/signed-out.txt
cmp passing.json "$reports/failover_safe.json"
runs=$((runs + 1))

# == the default ledger holds every run; no None and no negative number anywhere ============================
"${safe[@]}" ledger "$ledger" "$runs"
grep -q "Ledger: entry $runs in $ledger (the default)" outputs/signed-out.txt
# (The search's journal is its working memory, not a report: its bounds are indices, -1 for none yet.)
reported=(); for file in "$reports"/*.json "$reports"/*.md "$reports"/*.html; do
    if [[ -e "$file" && "$file" != *.search.json ]]; then reported+=("$file"); fi
done
"${safe[@]}" numbers outputs/*.txt "${reported[@]}"

rm -rf "$reports" "$XDG_DATA_HOME" outputs cloud-committed.txt cloud-replaced.txt passing.json
