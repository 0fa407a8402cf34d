#!/usr/bin/env bash
# Game days as a DR team schedules them, by the game_day playbook with the scenario as AWX gives it (JSON text): one that
# passes, its report in the ledger; one whose probe fails twice in a row while a launch job runs - it stops within one
# look, launches nothing more and leaves nothing; one whose probe of your tasks fails after two waves - the third is never
# launched; one whose probe flaps (fail, pass, fail, ...) - it runs to its end; stopped by SIGKILL and SIGINT while its
# jobs run and run again - one launch a wave in all, nothing left; stopped by SIGKILL between
# its DR test's end and its own report - run again, it reports that DR test and launches nothing; one slowed down -
# a regression against its earlier runs in the ledger; a probe of your tasks that fails, a scenario outside its blast
# radius, a machine outside it, and a game day while the safety lever is engaged - each refused or cancelled with zero
# writes; a dry run - zero writes. And a game day of a restore test: it passes, a probe stops it, a machine outside its
# blast radius is refused. Judgements the unit tests hold: a probe that cannot reach its address fails (test_stops), a
# committed failover is refused (test_game_day).
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=gameday@example.test
export REPLICATION_SERVICE_PASSWORD=gameday-password
export ANSIBLE_ROLES_PATH=..
# A ledger of its own: each game day is judged against the scenario's earlier runs in it.
export XDG_DATA_HOME="$PWD/data"
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf reports output.txt game_day.txt data
lever=(python ../game_day_lever/files/lever.py "$url")
clock() { curl -sf -X POST -H 'Content-Type: application/json' -d "{\"timeScale\": $1}" "$url/_simulator/clock" >/dev/null; }

# An account of its own (files/game_day.json): the project rehearsed (db-1, app-1, web-1), the backup project vault (files-1, files-2).
python ../setup_simulator/files/simulator.py "$url" seed files/game_day.json

# The storefront a probe watches (what it answers is written in mode.txt), and the stop by it.
source files/stopped_by_the_probe.sh
serve_the_probe
probe="$(cat probe_url.txt)"

# The scenario as JSON text - an AWX survey's answer - with CHANGES (a JSON object) merged into it.
scenario() {
    python - "$probe" "${1:-{\}}" <<'PYTHON'
import json, sys, yaml
scenario = yaml.safe_load(open("files/scenario.yml"))
scenario["stop_when"][0]["url"] = sys.argv[1]
scenario.update(json.loads(sys.argv[2]))
print(json.dumps(dict(game_day_scenario=json.dumps(scenario))))
PYTHON
}
game_day() { ansible-playbook replication.recovery.game_day -e "$(scenario "${1:-}")" "${@:2}"; }

# -- a game day that passes (under the free strategy, as under linear: every play of the playbook is linear) ----------
ANSIBLE_STRATEGY=free game_day | tee output.txt
grep -q "Game day nightly-rehearsed: PASSED. Hypothesis: rehearsed recovers within an hour while the storefront stays up - borne out." output.txt
[ -z "$("${lever[@]}" cloud rehearsed)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = r['stop_conditions']; \
assert r['outcome'] == 'passed' and s['stopped_by'] is None and s['looks'] >= 4 and all(look['passed'] for look in s['timeline']), s" \
    reports/dr_test_rehearsed.json
# Its own report, in the ledger: the first run of its scenario, judged against none.
grep -q "borne out. No regression: no earlier run of this scenario in the ledger to judge it against." output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); g = r['rehearsal']; \
assert r['outcome'] == 'passed' and r['borne_out'] is True and r['earlier_runs'] == 0 and not r['regression']['regressed'], r; \
assert g['runbook'] == 'dr_test' and g['met']['rto_seconds'] is True and r['stop_conditions']['looks'] >= 4, g" reports/game_day_nightly-rehearsed.json
[ "$(grep -l '"runbook": "game_day"' "$ledger"/*.json | wc -l)" = 1 ]

# -- stopped for real (SIGKILL: a lost node) after its DR test reported and before its own report, then run again: it --
# -- reports that DR test and launches nothing; the run after it rehearses anew (below) ---------------------------------
entries="$(grep -l '"runbook": "game_day"' "$ledger"/*.json | wc -l)"
HOLD_AT_TASK="Judge it against the scenario's earlier runs" ANSIBLE_CALLBACK_PLUGINS="$(pwd)/../dr_test_stopped/callback_plugins" \
    ANSIBLE_CALLBACKS_ENABLED=hold_at ansible-playbook replication.recovery.game_day -e "$(scenario)" > held.txt 2>&1 &
held=$!
for _ in $(seq 600); do grep -q "^HOLDING AT" held.txt && break; sleep 0.5; done
grep -q "^HOLDING AT" held.txt || { cat held.txt; exit 1; }
kill -KILL "$held"
wait "$held" || true
grep -q "DR test of rehearsed: PASSED" held.txt
[ "$(grep -l '"runbook": "game_day"' "$ledger"/*.json | wc -l)" = "$entries" ]  # its own entry not made
launches="$("${lever[@]}" launches rehearsed)"
game_day | tee output.txt
grep -q "This game day's rehearsal, the DR test of rehearsed begun .*, ended (passed) before the game day that ran it reported it" output.txt
grep -q "Game day nightly-rehearsed: PASSED. Hypothesis: .* - borne out." output.txt
[ "$("${lever[@]}" launches rehearsed)" = "$launches" ]
[ "$(grep -l '"runbook": "game_day"' "$ledger"/*.json | wc -l)" = "$((entries + 1))" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2])); \
assert r['rehearsal']['started'] == d['started'] and d['game_day'] == 'nightly-rehearsed', (r['rehearsal'], d['game_day'])" \
    reports/game_day_nightly-rehearsed.json reports/dr_test_rehearsed.json

# -- its probe fails twice in a row while wave 1's job runs: stopped within one look, nothing more launched, nothing left --
launches="$("${lever[@]}" launches rehearsed)"
stopped_by_the_probe
# Seen while the job ran (within one look of the second failure), the job followed to its end, then nothing more.
grep -n "Stopping: the stop condition\|Launch job .* COMPLETED" game_day.txt | head -n 1 | grep -q "Stopping"
grep -q "Game day nightly-rehearsed: STOPPED. Hypothesis: .* - not borne out." game_day.txt
[ "$("${lever[@]}" launches rehearsed)" = "$((launches + 1))" ]
[ -z "$("${lever[@]}" cloud rehearsed)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = r['stop_conditions']; \
assert r['outcome'] == 'stopped' and s['stopped_by']['probe'] == 'storefront' and s['stopped_by']['failures'] == 2, s; \
assert [w['status'] for w in r['waves']][1:] == ['not launched', 'not launched'], r['waves']" reports/dr_test_rehearsed.json
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'stopped' and r['borne_out'] is False and r['regression'] is None, r" reports/game_day_nightly-rehearsed.json

# -- its probe flaps (fail, pass, fail, ...): never twice in a row, it runs to its end (and is an earlier run that -------
# -- passed, of which the regression below needs three: it has four) -----------------------------------------------------
echo flap > mode.txt
game_day | tee output.txt
grep -q "Game day nightly-rehearsed: PASSED" output.txt
python -c "import json, sys; s = json.load(open(sys.argv[1]))['stop_conditions']; looks = [l['passed'] for l in s['timeline']]; \
assert False in looks and True in looks and s['stopped_by'] is None, looks" reports/dr_test_rehearsed.json
echo ok > mode.txt

# -- a probe of your tasks, well at the start, fails after wave 1 and again after wave 2: stopped, wave 3 never launched --
echo ok > network.txt
export GAME_DAY_NETWORK="$PWD/network.txt"
launches="$("${lever[@]}" launches rehearsed)"
# Removed first: the case before left its own "Launch job ... of wave 1 runs" in it, which the wait below could read before
# the run in the background begins its output (then the probe went bad before the start: cancelled, not stopped).
rm -f game_day.txt
(status=0; game_day "{\"stop_when\": [{\"name\": \"network\", \"tasks\": \"$(pwd)/files/network_probe.yml\"}]}" >game_day.txt 2>&1 \
    || status=$?; echo "rc=$status" >>game_day.txt) &
run=$!
for _ in $(seq 1 300); do grep -qs "Launch job .* of wave 1 runs in the service" game_day.txt && break; sleep 0.2; done
echo bad > network.txt
wait $run
cat game_day.txt
grep -q "^rc=2$" game_day.txt
grep -q "Stopping: the stop condition network failed 2 times in a row (the shared network is saturated)" game_day.txt
grep -q "Game day nightly-rehearsed: STOPPED. Hypothesis: .* - not borne out." game_day.txt
[ "$("${lever[@]}" launches rehearsed)" = "$((launches + 2))" ]
[ -z "$("${lever[@]}" cloud rehearsed)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'stopped' and [w['status'] for w in r['waves']][2] == 'not launched', r['waves']" reports/dr_test_rehearsed.json

# -- stopped by SIGKILL (a lost node) while wave 1's job runs, by SIGINT (AWX cancels so) while wave 2's, by SIGTERM while --
# -- wave 3's, then run again: each run takes up what the one before launched - one launch a wave in all - and nothing is --
# -- left ------------------------------------------------------------------------------------------------------------------
launches="$("${lever[@]}" launches rehearsed)"
clock 10
wave=0
for signal in KILL INT TERM; do
    rm -f session.pid game_day.txt
    PYTHONUNBUFFERED=1 python files/in_a_session.py session.pid ansible-playbook replication.recovery.game_day -e "$(scenario)" >game_day.txt 2>&1 &
    run=$!
    wave=$((wave + 1))
    # Run $wave adopts the waves before it - following their jobs to their end and checking them - before it launches its own.
    # The stop must land while wave $wave's job runs: seen in the output, unbuffered (written to a file in blocks, the line came
    # late, and a stop on a timeout instead landed elsewhere - make test once counted six launches for three).
    for _ in $(seq 1 3000); do grep -q "Launch job .* of wave $wave runs in the service" game_day.txt && break; sleep 0.2; done
    grep -q "Launch job .* of wave $wave runs in the service" game_day.txt || { cat game_day.txt; echo "wave $wave's launch job never ran"; exit 1; }
    kill -s "$signal" -- "-$(cat session.pid)"
    wait "$run" || true
done
clock 60
game_day | tee output.txt
grep -q "Game day nightly-rehearsed: ADOPTED. Hypothesis: .* - borne out." output.txt
grep -q "Wave 1 was launched by an earlier run of this DR test (TEST_LAUNCH .*): this run adopts it." output.txt
grep -q "Wave 2 was launched by an earlier run of this DR test (TEST_LAUNCH .*): this run adopts it" output.txt
grep -q "Wave 3 was launched by an earlier run of this DR test (TEST_LAUNCH .*): this run adopts it" output.txt
[ "$("${lever[@]}" launches rehearsed)" = "$((launches + 3))" ]
[ -z "$("${lever[@]}" cloud rehearsed)" ]

# -- its launch jobs twenty times slower: it misses the RTO target its earlier runs met, and its RTO is over their 90th ----
# -- percentile - a regression against the ledger, in its output, its report and the ledger --------------------------------
curl -sf -X POST -H 'Content-Type: application/json' -d '{"rules": [{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 20, "count": 3}]}' \
    "$url/_simulator/faults" >/dev/null
clock 600
if game_day >output.txt 2>&1; then echo "a game day that misses its RTO target must not pass"; exit 1; fi
clock 60
curl -sf -X DELETE "$url/_simulator/faults"
cat output.txt
grep -q "Game day nightly-rehearsed: FAILED. Hypothesis: .* - not borne out. REGRESSED against the ledger: it missed its RTO target: .* against 1 h 0 min, which 4 of its 4 earlier runs met" output.txt
grep -q "its worst RTO, .*, is over the 90th percentile of its 4 earlier runs" output.txt
python - "$ledger" <<'PYTHON'
import glob, json, sys
report = json.load(open("reports/game_day_nightly-rehearsed.json"))
regression = report["regression"]
assert report["outcome"] == "failed" and regression["regressed"] and regression["earlier_runs"] == 4, regression
assert {("slower", "rto_seconds"), ("target", "rto_seconds")} <= set((f["kind"], f["measure"]) for f in regression["findings"]), regression
newest = json.load(open(sorted(glob.glob(sys.argv[1] + "/*.json"))[-1]))
assert newest["runbook"] == "game_day" and newest["report"] == report, newest["runbook"]
PYTHON
[ -z "$("${lever[@]}" cloud rehearsed)" ]

# -- refused or cancelled with zero writes: a probe of your tasks, a project or a machine outside the blast radius, the lever --
before="$("${lever[@]}" writes)"
if game_day "{\"stop_when\": [{\"name\": \"network\", \"tasks\": \"$(pwd)/files/failing_probe.yml\"}]}" >output.txt 2>&1; then
    echo "a game day whose probe of tasks failed must not pass"; exit 1
fi
grep -q "Game day nightly-rehearsed: CANCELLED. Its stop condition network (the shared network is saturated) failed before" output.txt
if game_day '{"with": {"project": "production"}}' >output.txt 2>&1; then echo "a project outside the blast radius must be refused"; exit 1; fi
grep -q "Game day nightly-rehearsed: REFUSED. project production is outside the blast radius of game day nightly-rehearsed (its projects: rehearsed). Nothing was read or written." output.txt
if game_day '{"blast_radius": {"projects": ["rehearsed"], "machines": ["web-*"]}}' >output.txt 2>&1; then
    echo "machines outside the blast radius must be refused"; exit 1
fi
grep -q "db-1 and app-1 are outside the blast radius (web-\*) and would take part" output.txt
grep -q "Game day nightly-rehearsed: REFUSED. Hypothesis: .* - not tried." output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed -e game_day_lever=engaged -e game_day_lever_reason=INC-9
before="$("${lever[@]}" writes)"
if game_day >output.txt 2>&1; then echo "a game day under an engaged lever must not pass"; exit 1; fi
grep -q "Game day nightly-rehearsed: CANCELLED. Hypothesis: .* - not tried." output.txt
grep -q "Cancelled: the safety lever of project rehearsed is engaged by gameday@example.test" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
ansible-playbook replication.recovery.game_day -e game_day_projects=rehearsed -e game_day_lever=released -e game_day_lever_reason=INC-9-over

# -- a dry run: read, launch settings proven, planned - zero writes ----------------------------------------------------
before="$("${lever[@]}" writes)"
game_day '{}' -e game_day_dry_run=true | tee output.txt
grep -q "Game day nightly-rehearsed: PLANNED (dry run). Hypothesis: .* - planned, not tried." output.txt
grep -q "DR test of rehearsed under --check: PLANNED. Would launch 3 machines" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
# -- a game day of a restore test (the backup project vault): it passes; its probe failing twice while the restore job runs --
# -- stops it, the restore servers removed; a machine outside its blast radius is refused with zero writes ---------------
restore='{"name": "vault-restored", "hypothesis": "the files restore within an hour while the storefront stays up",
 "runbook": "restore_test", "with": {"poll_interval": 1, "progress_interval": 1, "report_dir": "reports"},
 "blast_radius": {"projects": ["vault"], "machines": ["files-*"]}}'
game_day "$restore" | tee output.txt
grep -q "Game day vault-restored: PASSED. Hypothesis: the files restore within an hour while the storefront stays up - borne out." output.txt
grep -q "Restore test of vault: PASSED. 2 of 2 machines passed." output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); g = r['rehearsal']; \
assert r['outcome'] == 'passed' and r['borne_out'] is True and r['scenario']['runbook'] == 'restore_test', r; \
assert g['runbook'] == 'restore_test' and g['met']['rto_seconds'] is True and r['stop_conditions']['looks'] >= 2, g" reports/game_day_vault-restored.json
[ "$("${lever[@]}" launches vault)" = 1 ]
[ -z "$("${lever[@]}" cloud vault)" ]
stopped_by_the_probe "$restore"
grep -q "Game day vault-restored: STOPPED. Hypothesis: .* - not borne out." game_day.txt
[ "$("${lever[@]}" launches vault)" = 2 ]
[ -z "$("${lever[@]}" cloud vault)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = r['stop_conditions']; \
assert r['outcome'] == 'stopped' and s['stopped_by']['probe'] == 'storefront', s" reports/restore_test_vault.json
before="$("${lever[@]}" writes)"
if game_day "${restore/\"files-\*\"/\"files-1\"}" >output.txt 2>&1; then echo "a machine outside the blast radius must be refused"; exit 1; fi
grep -q "files-2 is outside the blast radius (files-1) and would take part" output.txt
grep -q "Game day vault-restored: REFUSED. Hypothesis: .* - not tried." output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
rm -rf reports output.txt game_day.txt mode.txt network.txt probe_url.txt session.pid data
