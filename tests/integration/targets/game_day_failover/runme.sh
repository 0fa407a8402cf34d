#!/usr/bin/env bash
# Game days of a failover that rolls back, in an isolated test network, by the game_day playbook with the scenario as
# AWX gives it (JSON text): a dry run plans with zero writes; a scenario with a machine outside its blast radius is
# refused with zero writes (one without a test network, or that would commit: the unit tests); a game day passes - every recovery
# machine launched into the test subnet (the checks read the target cloud), rolled back, nothing left, every blueprint as
# it was; one whose probe fails twice in a row while the launch job runs stops and leaves nothing; one killed while its
# launch job runs - its machine marked a drill, which a real failover refuses to take for production (putting back the
# blueprint the killed run left switched) - run again, launches nothing twice and passes; the lever cancels one before any
# write; and after a committed failover, a game day refuses the machines failed over, touching none.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=rehearsal@example.test
export REPLICATION_SERVICE_PASSWORD=rehearsal-password
export SITE_PROJECT=stand-in
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # a ledger of its own
rm -rf reports real output.txt game_day.txt stopped.txt hooks.log data blueprints-*.json cloud-*.txt
site=(python ../playbook_failover/files/site.py "$url")
wait_until=(python ../setup_simulator/files/until.py)  # waits for a command of site.py in one process
lever=(python ../game_day_lever/files/lever.py "$url")
clock() { curl -sf -X POST -H 'Content-Type: application/json' -d "{\"timeScale\": $1}" "$url/_simulator/clock" >/dev/null; }

python ../setup_simulator/files/simulator.py "$url" seed files/rehearsal.json
test_subnet="$("${site[@]}" subnet isolated-a)"
"${site[@]}" blueprints > blueprints-before.json
"${site[@]}" cloud > cloud-before.txt
same_as_before() {
    "${site[@]}" blueprints > blueprints-after.json
    diff blueprints-before.json blueprints-after.json
    "${site[@]}" cloud > cloud-after.txt
    diff cloud-before.txt cloud-after.txt
}

# The storefront a probe watches (what it answers is written in mode.txt), and the stop by it.
source ../playbook_game_day/files/stopped_by_the_probe.sh
serve_the_probe

# The scenario as JSON text - an AWX survey's answer - with CHANGES (a JSON object) merged into it, and CHANGES_TO_WITH
# into its with.
scenario() {
    python - "$(cat probe_url.txt)" "$(pwd)" "${1:-{\}}" "${2:-{\}}" <<'PYTHON'
import json, sys
with_ = {"network": json.dumps({"subnets": ["isolated-a"], "security_groups": ["isolated"], "public_ip_action": "DONT_ALLOCATE"}),
         "waves": "db-*;app-*,web-*", "checks_tasks": sys.argv[2] + "/../playbook_failover/files/network_checks.yml",
         "poll_interval": "1", "progress_interval": "1", "report_dir": "reports"}
with_.update(json.loads(sys.argv[4]))
scenario = dict(name="failover-rehearsed", hypothesis="the site fails over within ten minutes, and nothing of it touches production",
                runbook="failover", blast_radius=dict(projects=["stand-in"], machines=["db-*", "app-*", "web-*"]),
                targets=dict(rto_seconds="3600"), stop_when=[dict(name="storefront", url=sys.argv[1], status=200, after_failures=2)],
                **{"with": with_})
scenario.update(json.loads(sys.argv[3]))
print(json.dumps(dict(game_day_scenario=json.dumps(scenario))))
PYTHON
}
game_day() {
    ansible-playbook replication.recovery.game_day -e "$(scenario "${1:-}" "${2:-}")" -e simulator_url="$url" \
        -e test_subnet_id="$test_subnet" -e hook_log="$(pwd)/hooks.log" "${@:3}"
}

# -- a dry run: the plan, the switch to the test network said - zero writes ---------------------------------------------
before="$("${lever[@]}" writes)"
game_day '' '' -e game_day_dry_run=true | tee output.txt
grep -q "Game day failover-rehearsed: PLANNED (dry run). Hypothesis: .* - planned, not tried." output.txt
grep -q "Would switch 1 blueprints to the test network: db-1" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]

# -- refused before any write: a machine outside the blast radius (a scenario without a test network, or one that would --
# -- commit: test_game_day.py::test_what_cannot_run_is_refused_by_name) ---------------------------------------------------
refused() {
    if game_day "$1" "$2" >output.txt 2>&1; then cat output.txt; echo "game day $1 $2 must be refused"; exit 1; fi
    grep -q "$3" output.txt || { cat output.txt; exit 1; }
    grep -q "Game day failover-rehearsed: REFUSED" output.txt
    [ "$("${lever[@]}" writes)" = "$before" ]
}
refused '{"blast_radius": {"projects": ["stand-in"], "machines": ["db-*", "app-*"]}}' '' "web-1 is outside the blast radius (db-\*, app-\*)"
[ "$("${lever[@]}" launches stand-in)" = 0 ]

# -- it passes: every recovery machine launched into the test subnet and checked there, rolled back, proven gone; every --
# -- blueprint put back as it was; the game day's report and the failover's in the ledger -----------------------------
game_day | tee output.txt
grep -q "Game day failover-rehearsed: PASSED. Hypothesis: .* - borne out." output.txt
python ../playbook_failover/files/hooks_in_order.py hooks.log "db-1 in $test_subnet|app-1 in $test_subnet|web-1 in $test_subnet"
"${site[@]}" launches RECOVERY_LAUNCH 2
same_as_before
"${site[@]}" marked no  # no failover's mark left on any machine
[ -z "$("${site[@]}" drills)" ]  # nor a drill's
"${site[@]}" tested-in reports/failover_stand-in.json "$test_subnet"  # the failover's report gives each machine's test network
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'rolled back' and r['result'] == 'passed' and r['game_day'] == 'failover-rehearsed', r" reports/failover_stand-in.json
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'passed' and r['borne_out'] is True and r['rehearsal']['runbook'] == 'failover', r; \
assert r['rehearsal']['outcome'] == 'rolled back' and r['rehearsal']['met']['rto_seconds'] is True, r['rehearsal']" \
    reports/game_day_failover-rehearsed.json

# -- its probe fails twice in a row while wave 1's launch job runs: stopped, nothing more launched, nothing left --------
stopped_by_the_probe
grep -q "Game day failover-rehearsed: STOPPED. Hypothesis: .* - not borne out." game_day.txt
"${site[@]}" launches RECOVERY_LAUNCH 3
same_as_before
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'stopped' and r['stop_conditions']['stopped_by']['probe'] == 'storefront', r" reports/failover_stand-in.json

# -- killed (a lost node) while its launch job runs, run again: it takes up the launch, rolls it back; one launch --------
source ../playbook_dr_test/kill_run.sh
clock 3
PYTHONUNBUFFERED=1 setsid ansible-playbook replication.recovery.game_day -e "$(scenario)" -e simulator_url="$url" -e test_subnet_id="$test_subnet" \
    -e hook_log="$(pwd)/hooks.log" >stopped.txt 2>&1 &
run=$!
"${wait_until[@]}" --alive "$run" -- ../playbook_failover/files/site.py "$url" running RECOVERY_LAUNCH || { cat stopped.txt; exit 1; }
kill_run "$run"
wait "$run" || true
clock 60
"${wait_until[@]}" --not --interval 1 -- ../playbook_failover/files/site.py "$url" running RECOVERY_LAUNCH
# Its recovery machine, in the isolated network, is marked a drill: a failover now (its plan, under --check) does not take it
# for production - it refuses, naming it, with no write.
[ "$("${site[@]}" drills)" = db-1 ]
before="$("${lever[@]}" writes)"
if ansible-playbook replication.recovery.failover --check -e failover_project=stand-in -e failover_report_dir="$(pwd)/real" >output.txt 2>&1; then
    cat output.txt; echo "a failover must not take a rehearsal's machine for production"; exit 1
fi
grep -q "Test (a DR test's recovery drill) machines are up for db-1; nothing was launched" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
# Run for real, it refuses the same way - and puts back the blueprint the killed rehearsal left switched.
if ansible-playbook replication.recovery.failover -e failover_project=stand-in -e failover_report_dir="$(pwd)/real" >output.txt 2>&1; then
    cat output.txt; echo "a failover must not take a rehearsal's machine for production"; exit 1
fi
grep -q "Test (a DR test's recovery drill) machines are up for db-1; nothing was launched" output.txt
[ "$("${site[@]}" drills)" = db-1 ]
# The rehearsal run again adopts its launch; db-1's blueprint no longer says where it was launched, so its public address
# is not judged (the checks find it in the test subnet), and the game day passes.
game_day | tee output.txt
grep -q "Wave 1 was launched by an earlier run of this failover" output.txt || { cat stopped.txt; "${site[@]}" jobs; exit 1; }
grep -q "Game day failover-rehearsed: PASSED" output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); db = [m for m in r['machines'] if m['name'] == 'db-1'][0]; \
checks = dict((c['name'], c) for c in db['checks']); assert checks['public address']['status'] == 'skipped', checks" reports/failover_stand-in.json
"${site[@]}" launches RECOVERY_LAUNCH 5  # the killed run's wave 1, taken up; wave 2 once
same_as_before
[ -z "$("${site[@]}" drills)" ]

# -- the lever engaged on the project: a game day's failover is cancelled before any write; released, it runs again -----
ansible-playbook replication.recovery.game_day -e game_day_lever=engaged -e game_day_projects=stand-in -e '{"game_day_lever_reason": "INC-9: storefront"}' \
    | tee output.txt
grep -q "a failover that rolls back in a test network, the DR tests of an application - is cancelled before it writes" output.txt
before="$("${lever[@]}" writes)"
if game_day >output.txt 2>&1; then cat output.txt; echo "a rehearsal must be cancelled while the lever is engaged"; exit 1; fi
grep -q "Cancelled: the safety lever of project stand-in is engaged by .*: INC-9: storefront" output.txt
grep -q "Game day failover-rehearsed: CANCELLED" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
ansible-playbook replication.recovery.game_day -e game_day_lever=released -e game_day_projects=stand-in -e game_day_lever_reason=INC-9-over

# -- after a committed failover: a game day refuses the machines failed over, and touches none of them -----------------
ansible-playbook replication.recovery.failover -e failover_project=stand-in -e failover_report_dir="$(pwd)/committed" -e failover_poll_interval=1
"${site[@]}" cloud > cloud-committed.txt
before="$("${lever[@]}" writes)"
if game_day >output.txt 2>&1; then cat output.txt; echo "a game day over machines failed over must be refused"; exit 1; fi
grep -q "Game day failover-rehearsed: REFUSED" output.txt
grep -q "3 of the machines of this failover are failed over, and their recovery machines run production: .*db-1" output.txt
grep -q "so this failover never launches them; nothing was launched or terminated" output.txt
"${site[@]}" cloud > cloud-after.txt
diff cloud-committed.txt cloud-after.txt
"${site[@]}" launches RECOVERY_LAUNCH 6
rm -rf reports committed real output.txt game_day.txt stopped.txt hooks.log data blueprints-*.json cloud-*.txt mode.txt probe_url.txt
