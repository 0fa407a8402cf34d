#!/usr/bin/env bash
# Game days of a clean point drill - the search for each machine's newest clean point, as after ransomware - by the
# game_day playbook with the scenario as AWX gives it (JSON text): a dry run plans with zero writes; a drill finds exactly
# each machine's newest point before its damage, borne out, its report in the ledger; a machine outside the blast radius
# is refused with zero writes; a drill whose probe fails twice in a row while a round's launch job runs stops, the round
# cleaned up, its report saying which probe stopped it - and run again, the search goes on where it stood and ends; your
# tasks between the rounds stop it when they fail.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=drill@example.test
export REPLICATION_SERVICE_PASSWORD=drill-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # a ledger of its own
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf reports output.txt game_day.txt data window.json*
site=(python ../playbook_clean_point/files/site.py "$url")
lever=(python ../game_day_lever/files/lever.py "$url")
clock() { curl -sf -X POST -H 'Content-Type: application/json' -d "{\"timeScale\": $1}" "$url/_simulator/clock" >/dev/null; }

python ../setup_simulator/files/simulator.py "$url" seed files/drill.json
# A window of eight hours, two hours ago at its end; db-1 damaged six hours ago, web-1 four.
"${site[@]}" window | python -c "import json, sys; from datetime import datetime, timedelta; w = json.load(sys.stdin); \
before = datetime.fromisoformat(w['before'].replace('Z', '+00:00')); \
print(json.dumps(dict(after=(before - timedelta(hours=8)).strftime('%Y-%m-%dT%H:%M:%SZ'), before=w['before'])))" > window.json
python -c "import json, sys; json.dump(dict(zip(['db-1', 'web-1'], sys.argv[1:])), open('window.json.damage', 'w'))" \
    "$("${site[@]}" damage hit db-1 6)" "$("${site[@]}" damage hit web-1 4)"
expected="$("${site[@]}" expect hit window.json db-1 web-1)"

# The storefront a probe watches (what it answers is written in mode.txt), and the stop by it.
source ../playbook_game_day/files/stopped_by_the_probe.sh
serve_the_probe

# The scenario as JSON text - an AWX survey's answer - with CHANGES (a JSON object) merged into it.
scenario() {
    python - "$(cat probe_url.txt)" "$(pwd)" "${1:-{\}}" <<'PYTHON'
import json, sys
window = json.load(open("window.json"))
scenario = dict(name="drill-ransom", hypothesis="every machine of hit has a clean point in the last eight hours", runbook="clean_point",
                blast_radius=dict(projects=["hit"], machines=["db-*", "web-*"]),
                stop_when=[dict(name="storefront", url=sys.argv[1], status=200, after_failures=2)],
                **{"with": dict(after=window["after"], before=window["before"], checks_tasks=sys.argv[2] + "/../playbook_clean_point/files/checks.yml",
                                poll_interval=1, progress_interval=1, report_dir="reports")})
scenario.update(json.loads(sys.argv[3]))
print(json.dumps(dict(game_day_scenario=json.dumps(scenario))))
PYTHON
}
game_day() { ansible-playbook replication.recovery.game_day -e "$(scenario "${1:-}")" -e simulator_url="$url" "${@:2}"; }

# -- a dry run: the first round planned - zero writes ------------------------------------------------------------------
before="$("${lever[@]}" writes)"
game_day '{}' -e game_day_dry_run=true | tee output.txt
grep -q "Game day drill-ransom: PLANNED (dry run). Hypothesis: .* - planned, not tried." output.txt
grep -q "Would launch round 1 of at most [0-9]*: 2 machines" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]

# -- a machine outside the blast radius: refused before the first launch, zero writes ----------------------------------
if game_day '{"blast_radius": {"projects": ["hit"], "machines": ["db-*"]}}' >output.txt 2>&1; then
    echo "a machine outside the blast radius must be refused"; exit 1
fi
grep -q "web-1 is outside the blast radius (db-\*) and would take part" output.txt
grep -q "Game day drill-ransom: REFUSED. Hypothesis: .* - not tried." output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
[ "$("${lever[@]}" launches hit)" = 0 ]

# -- its probe fails twice in a row while round 1's launch job runs: stopped, the round cleaned up, nothing more launched --
stopped_by_the_probe
grep -q "Game day drill-ransom: STOPPED. Hypothesis: .* - not borne out." game_day.txt
[ "$("${lever[@]}" launches hit)" = 1 ]
[ -z "$("${lever[@]}" cloud hit)" ]
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = r['stop_conditions']; \
assert r['outcome'] == 'stopped' and s['stopped_by']['probe'] == 'storefront' and r['game_day'] == 'drill-ransom', r" \
    reports/clean_point_hit.json
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'stopped' and r['rehearsal']['runbook'] == 'clean_point' and r['stop_conditions']['stopped_by'], r" \
    reports/game_day_drill-ransom.json

# -- run again: the search goes on where it stood and finds each machine's newest clean point - borne out (judged against --
# -- no earlier run: the refused and the stopped one did not run to their end) ---------------------------------------------
game_day | tee output.txt
grep -q "Game day drill-ransom: PASSED. Hypothesis: .* - borne out." output.txt
"${site[@]}" found reports/clean_point_hit.json "$expected"
[ -z "$("${lever[@]}" cloud hit)" ]
rounds="$(python -c "import json, sys; print(len(json.load(open(sys.argv[1]))['rounds']))" reports/clean_point_hit.json)"
[ "$("${lever[@]}" launches hit)" = "$((rounds + 1))" ]  # each round once, and the round the probe stopped once more
python -c "import json, sys; r = json.load(open(sys.argv[1])); g = r['rehearsal']; \
assert r['outcome'] == 'passed' and r['borne_out'] is True and g['runbook'] == 'clean_point' and r['earlier_runs'] == 2, r; \
assert not r['regression']['regressed'] and r['regression']['earlier_runs'] == 0, r['regression']" \
    reports/game_day_drill-ransom.json
# The ledger: the game days refused, stopped and passed, and the search once it ended.
python - "$ledger" <<'PYTHON'
import glob, json, sys
kinds = [json.load(open(path))["runbook"] for path in sorted(glob.glob(sys.argv[1] + "/*.json"))]
assert kinds == ["game_day", "game_day", "clean_point", "game_day"], kinds
PYTHON

# -- your tasks between the rounds, failing: the search stops before its next round ---------------------------------
printf -- '- name: The shared network\n  ansible.builtin.fail:\n    msg: the shared network is saturated\n' > between.yml
if ansible-playbook replication.recovery.clean_point -e clean_point_project=hit -e clean_point_report_dir=reports \
        -e clean_point_after="$(python -c "import json; print(json.load(open('window.json'))['after'])")" \
        -e clean_point_checks_tasks="$(pwd)/../playbook_clean_point/files/checks.yml" -e clean_point_poll_interval=1 \
        -e clean_point_after_wave_tasks="$(pwd)/between.yml" -e simulator_url="$url" >output.txt 2>&1; then
    echo "a search whose tasks between the rounds fail must not pass"; exit 1
fi
grep -q "the shared network is saturated" output.txt
grep -q "Clean point search of hit: STOPPED" output.txt
[ "$(python -c "import json, sys; print(len(json.load(open(sys.argv[1]))['rounds']))" reports/clean_point_hit.json)" = 1 ]
[ -z "$("${lever[@]}" cloud hit)" ]
rm -rf reports output.txt game_day.txt mode.txt probe_url.txt between.yml window.json* data
