#!/usr/bin/env bash
# The safety lever, as the on-call engineer pulls it with the game_day playbook and every rehearsal obeys it: --check
# writes nothing; engaged over two projects (one that does not exist refused before any pull); a DR test started under
# it cancelled with zero writes (and its --check in the same words); a failover started under it goes on and says so;
# a DR test running when it is engaged stops within one look, launches nothing more and leaves nothing; released, the
# DR test passes. Three game days on two controllers, stopped by one pull of the lever. Each pull is in the project's audit
# log.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=lever@example.test
export REPLICATION_SERVICE_PASSWORD=lever-password
export ANSIBLE_ROLES_PATH=..
reports="$(pwd)/reports"
rm -rf "$reports" output.txt dr_test.txt
lever=(python files/lever.py "$url")
dr_test=(replication.recovery.dr_test -e dr_test_project=rehearsed -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1
         -e dr_test_progress_interval=1)
game_day=(replication.recovery.game_day -e "game_day_projects=rehearsed,production")

python ../setup_simulator/files/simulator.py "$url" seed files/lever.json

# -- --check: what would change, nothing written ------------------------------------------------------------------
before="$("${lever[@]}" writes)"
ansible-playbook "${game_day[@]}" --check -e game_day_lever=engaged -e game_day_lever_reason=INC-7 | tee output.txt
grep -q "Safety lever of rehearsed, production: ENGAGED by lever@example.test (INC-7). PLANNED under --check: 2 would change, nothing was written." output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
[ -z "$("${lever[@]}" plan rehearsed)" ]

# -- a project that does not exist: refused before any lever is pulled ---------------------------------------------
if ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed,nosuch -e game_day_lever=engaged \
        -e game_day_lever_reason=INC-7 >output.txt 2>&1; then
    echo "a lever over a project that does not exist must be refused"; exit 1
fi
grep -q "nosuch" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
# A typo in the lever, as a survey may send it: refused by name.
if ansible-playbook "${game_day[@]}" -e game_day_lever=engage -e game_day_lever_reason=INC-7 >output.txt 2>&1; then
    echo "game_day_lever=engage must be refused"; exit 1
fi
grep -q "game_day_lever" output.txt
grep -q "engaged, released" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]

# -- engaged, by whom and why; again: nothing done ----------------------------------------------------------------
ansible-playbook "${game_day[@]}" -e game_day_lever=engaged -e game_day_lever_reason=INC-7 -e game_day_lever_by=on-call | tee output.txt
grep -q "Safety lever of rehearsed, production: ENGAGED by on-call (INC-7). COMMITTED: 2 changed (rehearsed, production)." output.txt
ansible-playbook "${game_day[@]}" -e game_day_lever=engaged -e game_day_lever_reason=INC-7 -e game_day_lever_by=on-call | tee output.txt
grep -q "NOTHING DONE: every lever was so already." output.txt
"${lever[@]}" plan rehearsed | grep -q '"name": "engaged by on-call at [0-9TZ:-]*: INC-7"'
"${lever[@]}" audit rehearsed | grep -q "^RECOVERY_PLAN_CREATED lever@example.test"

# -- a DR test started under it: cancelled with zero writes, --check alike ----------------------------------------
before="$("${lever[@]}" writes)"
if ansible-playbook "${dr_test[@]}" >output.txt 2>&1; then echo "a DR test under an engaged lever must not pass"; exit 1; fi
grep -q "DR test of rehearsed: CANCELLED. preflight: Cancelled: the safety lever of project rehearsed is engaged by on-call at [0-9TZ:-]*: INC-7." output.txt
grep -q "run the DR test again once the lever is released" output.txt
if ansible-playbook "${dr_test[@]}" --check >output.txt 2>&1; then echo "a DR test's --check under an engaged lever must not pass"; exit 1; fi
grep -q "DR test of rehearsed under --check: CANCELLED. As the real run would be: preflight: Cancelled: the safety lever of project rehearsed" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
[ "$("${lever[@]}" launches rehearsed)" = 0 ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['outcome'] == 'cancelled' and not any(w.get('job') for w in r['waves']), r" \
    "$reports/dr_test_rehearsed.json"

# -- a failover started under it goes on, and says so --------------------------------------------------------------
ansible-playbook replication.recovery.failover -e failover_project=production -e failover_report_dir="$reports" \
    -e failover_poll_interval=1 -e failover_commit=false | tee output.txt
grep -q "The safety lever of project production is engaged by on-call at [0-9TZ:-]*: INC-7. It holds back rehearsals only: the failover goes on." output.txt
grep -q "Failover of production: ROLLED BACK" output.txt
[ -z "$("${lever[@]}" cloud production)" ]

# -- released: rehearsals run again; engaged while a DR test runs: it stops within one look, and leaves nothing ----------
ansible-playbook "${game_day[@]}" -e game_day_lever=released -e '{"game_day_lever_reason": "INC-7 resolved: drills may run"}' | tee output.txt
grep -q "RELEASED by lever@example.test (INC-7 resolved: drills may run). COMMITTED: 2 changed" output.txt
# The service's clock slowed to three times real time for this run, so that its launch job runs for a good many looks, also
# on a busy controller.
clock() { curl -sf -X POST -H 'Content-Type: application/json' -d "{\"timeScale\": $1}" "$url/_simulator/clock" >/dev/null; }
# until_said TEXT FILE PID: wait until FILE says TEXT, or the run of PID ended without saying it.
until_said() {
    until grep -q "$1" "$2"; do kill -0 "$3" 2>/dev/null || return 0; sleep 0.2; done
}
clock 3
(status=0; PYTHONUNBUFFERED=1 ansible-playbook "${dr_test[@]}" -e 'dr_test_waves=db-*;app-*;web-*' >dr_test.txt 2>&1 || status=$?
 echo "rc=$status" >>dr_test.txt) &
dr_test_pid=$!
for _ in $(seq 1 300); do grep -q "Launch job .* of wave 1 runs in the service" dr_test.txt && break; sleep 0.2; done
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed -e game_day_lever=engaged -e game_day_lever_reason=alert-42 \
    -e game_day_lever_by=pager | grep "COMMITTED: 1 changed (rehearsed)"
# Once the run said it stops (the job still slow then), the job it follows to its end and its cleanup at the usual pace.
until_said "Stopping: the safety lever" dr_test.txt "$dr_test_pid"
clock 60
wait
cat dr_test.txt
grep -q "^rc=2$" dr_test.txt
# Seen while wave 1's job ran: the job is followed to its end, then nothing more is launched.
grep -n "Stopping: the safety lever\|Launch job .* COMPLETED" dr_test.txt | head -n 1 | grep -q "Stopping"
grep -q "Stopping: the safety lever of project rehearsed is engaged by pager at [0-9TZ:-]*: alert-42 (seen [0-9TZ:-]*). Nothing more is launched" dr_test.txt
grep -q "DR test of rehearsed: STOPPED. launch: Stopped: the safety lever of project rehearsed is engaged by pager" dr_test.txt
grep -q "What it launched was removed and proven gone" dr_test.txt
[ "$("${lever[@]}" launches rehearsed)" = 1 ]  # wave 1's job alone
[ -z "$("${lever[@]}" cloud rehearsed)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); w = [wave.get('status') for wave in r['waves']]; \
assert r['outcome'] == 'stopped' and w[1:] == ['not launched', 'not launched'], w" "$reports/dr_test_rehearsed.json"

# -- three game days on two controllers (processes, working directories, TMPDIR and HOME of their own), the lever engaged ----
# -- over their projects while each one's first launch job runs: all three stop within one look, and leave nothing -----------
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed -e game_day_lever=released -e game_day_lever_reason=alert-42-cleared
launches=(); for project in rehearsed drill-a drill-b; do launches+=("$("${lever[@]}" launches "$project")"); done
clock 2  # three at once on the controller: each launch job runs for a couple of minutes
runs=()
for run in "a rehearsed" "a drill-a" "b drill-b"; do
    read -r -a words <<< "$run"; set -- "${words[@]}"
    controller="$(pwd)/controller-$1"
    mkdir -p "$controller/tmp" "$controller/home" "$controller/$2"
    scenario="{\"name\": \"drill-$2\", \"hypothesis\": \"$2 recovers\", \"blast_radius\": {\"projects\": [\"$2\"]},
        \"with\": {\"waves\": \"db-*;web-*\", \"poll_interval\": 1, \"progress_interval\": 1, \"report_dir\": \"reports\"}}"
    # Unbuffered: the lever is engaged once each output says its wave 1's job runs, which a file would get in blocks.
    (cd "$controller/$2" && status=0 && TMPDIR="$controller/tmp" HOME="$controller/home" XDG_DATA_HOME="$controller/home/.local/share" PYTHONUNBUFFERED=1 \
        ansible-playbook replication.recovery.game_day -e "$(python -c 'import json, sys; print(json.dumps({"game_day_scenario": sys.argv[1]}))' "$scenario")" \
        >output.txt 2>&1 || status=$?; echo "rc=$status" >>output.txt) &
    runs+=($!)
done
for project in rehearsed drill-a drill-b; do
    output="$(pwd)/controller-$([ "$project" = drill-b ] && echo b || echo a)/$project/output.txt"
    for _ in $(seq 1 600); do grep -q "Launch job .* of wave 1 runs in the service" "$output" 2>/dev/null && break; sleep 0.2; done
done
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed,drill-a,drill-b -e game_day_lever=engaged \
    -e game_day_lever_reason=alert-77 -e game_day_lever_by=on-call | grep "COMMITTED: 3 changed"
number=0
for project in rehearsed drill-a drill-b; do
    until_said "Stopping: the safety lever of project $project" \
        "$(pwd)/controller-$([ "$project" = drill-b ] && echo b || echo a)/$project/output.txt" "${runs[number]}"
    number=$((number + 1))
done
clock 60
wait "${runs[@]}"
number=0
for project in rehearsed drill-a drill-b; do
    output="$(pwd)/controller-$([ "$project" = drill-b ] && echo b || echo a)/$project/output.txt"
    cat "$output"
    grep -q "^rc=2$" "$output"
    grep -n "Stopping: the safety lever of project $project is engaged by on-call\|Launch job .* COMPLETED" "$output" | head -n 1 | grep -q Stopping
    grep -q "Game day drill-$project: STOPPED" "$output"
    grep -q "Hypothesis: $project recovers - not tried (stopped by the lever: on-call, alert-77)." "$output"
    [ "$("${lever[@]}" launches "$project")" = "$((launches[number] + 1))" ]
    [ -z "$("${lever[@]}" cloud "$project")" ]
    number=$((number + 1))
done
rm -rf controller-a controller-b

# -- released again: the DR test passes ------------------------------------------------------------------------------
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed,drill-a,drill-b -e game_day_lever=released \
    -e game_day_lever_reason=alert-77-cleared

# -- the lever engaged from a second controller (its own working directory, HOME and TMPDIR) in each phase of a one-wave DR --
# -- test, at the default progress interval: during its launch job or its checks - STOPPED, no check after it, the cleanup ---
# -- complete; during its cleanup - the cleanup complete, the checks' verdict kept, the lever said "after the checks" --------
night=(python "$(pwd)/../first_night/files/night.py" "$url")
faults=(python "$(pwd)/../setup_simulator/files/simulator.py" "$url" faults)
second="$(pwd)/controller-second"
export LEVER_CHECKS="$PWD/checks"
rm -rf "$second" "$LEVER_CHECKS" && mkdir -p "$second/tmp" "$second/home" "$second/work" "$LEVER_CHECKS"
one_wave=(replication.recovery.dr_test -e dr_test_project=rehearsed -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1
          -e dr_test_checks_tasks="$(pwd)/files/checks.yml")
# pull REASON: the lever engaged from the second controller, by pager-2, for REASON.
pull() {
    (cd "$second/work" && TMPDIR="$second/tmp" HOME="$second/home" ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed \
        -e game_day_lever=engaged -e "{\"game_day_lever_reason\": \"$1\"}" -e game_day_lever_by=pager-2) | grep "COMMITTED: 1 changed (rehearsed)"
}
release() {
    ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed -e game_day_lever=released -e game_day_lever_reason=cleared \
        | grep "COMMITTED: 1 changed (rehearsed)"
}
# in_background: the one-wave DR test, its output in dr_test.txt (and its rc last).
in_background() {
    rm -f "$LEVER_CHECKS"/* dr_test.txt
    (status=0; PYTHONUNBUFFERED=1 ansible-playbook "${one_wave[@]}" >dr_test.txt 2>&1 || status=$?; echo "rc=$status" >>dr_test.txt) &
    dr_test_pid=$!
}
# lever_in_report PHASE: the report names the lever, its reason, who pulled it, the phase it was seen in and the moment of that look.
lever_in_report() {
    python - "$reports/dr_test_rehearsed.json" "$1" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
lever = report["stop_conditions"]["lever"]
assert lever["by"] == "pager-2" and lever["phase"] == sys.argv[2] and lever["seen"] and lever["at"], lever
PY
}

# During its launch job (slowed down, so that it runs while the lever is engaged): STOPPED, no check run, nothing left.
"${faults[@]}" '[{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 12}]'
in_background
until grep -q "Launch job .* of wave 1 runs in the service" dr_test.txt; do kill -0 "$dr_test_pid"; sleep 0.2; done
pull "INC-51: the launch"
"${night[@]}" running rehearsed TEST_LAUNCH || { cat dr_test.txt; echo "the launch job ended before the lever was engaged"; exit 1; }
until_said "Stopping: the safety lever" dr_test.txt "$dr_test_pid"
clock 600  # the slow job it follows to its end, ten times faster
wait "$dr_test_pid"
clock 60
"${faults[@]}" '[]'
grep -q "^rc=2$" dr_test.txt || { cat dr_test.txt; exit 1; }
grep -q "DR test of rehearsed: STOPPED" dr_test.txt
[ -z "$(ls "$LEVER_CHECKS")" ]  # no check ran
[ -z "$("${lever[@]}" cloud rehearsed)" ]
lever_in_report "the launch of wave 1"
release

# During its checks: STOPPED, the cleanup complete.
in_background
until compgen -G "$LEVER_CHECKS/*checked-*" > /dev/null; do kill -0 "$dr_test_pid"; sleep 0.2; done
pull "INC-52: the checks"
touch "$LEVER_CHECKS/go"
wait "$dr_test_pid"
grep -q "^rc=2$" dr_test.txt || { cat dr_test.txt; exit 1; }
grep -q "DR test of rehearsed: STOPPED" dr_test.txt
[ -z "$("${lever[@]}" cloud rehearsed)" ]
lever_in_report "the checks of wave 1"
release

# During its cleanup (slowed down): the cleanup complete, the checks' verdict kept, the lever named "after the checks".
"${faults[@]}" '[{"jobTypes": ["CLEANUP"], "slowFactor": 12}]'
in_background
touch "$LEVER_CHECKS/go"
python ../setup_simulator/files/until.py --alive "$dr_test_pid" -- ../first_night/files/night.py "$url" running rehearsed CLEANUP
pull "INC-53: the cleanup"
wait "$dr_test_pid"
"${faults[@]}" '[]'
grep -q "^rc=0$" dr_test.txt || { cat dr_test.txt; exit 1; }
grep -q "DR test of rehearsed: PASSED. 3 of 3 machines passed. Lever engaged at [0-9TZ:-]* by pager-2: INC-53: the cleanup, after the checks" \
    dr_test.txt || { grep "DR test of rehearsed:" dr_test.txt; exit 1; }
[ -z "$("${lever[@]}" cloud rehearsed)" ]
lever_in_report "the cleanup"
release
rm -rf "$second" "$LEVER_CHECKS"
ansible-playbook "${dr_test[@]}" | tee output.txt
grep -q "DR test of rehearsed: PASSED" output.txt
[ -z "$("${lever[@]}" cloud rehearsed)" ]
# released, engaged, released, engaged, released, then engaged and released in each of the three phases: each in the audit log
"${lever[@]}" audit rehearsed | grep -c "^RECOVERY_PLAN_UPDATED" | grep -qx 11
rm -rf "$reports" output.txt dr_test.txt
