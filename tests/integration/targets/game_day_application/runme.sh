#!/usr/bin/env bash
# Game days of an application - the DR tests of its nodes, db then web - by the game_day playbook with the scenario as
# AWX gives it (JSON text): a dry run plans with zero writes, and so does --check with the scenario as YAML text; a node's project outside the blast radius, and a machine
# outside it, are refused with zero writes; a game day passes, each node's DR test watched by the scenario's probe, one
# launch a node, nothing left; one whose probe fails twice in a row while db's launch job runs stops - web never launched
# - and leaves nothing; one killed while db's launch job runs, run again, launches nothing twice; and the lever engaged
# cancels one with zero writes.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=storefront@example.test
export REPLICATION_SERVICE_PASSWORD=storefront-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # a ledger of its own
rm -rf reports output.txt game_day.txt stopped.txt data yaml_text.json
lever=(python ../game_day_lever/files/lever.py "$url")
clock() { curl -sf -X POST -H 'Content-Type: application/json' -d "{\"timeScale\": $1}" "$url/_simulator/clock" >/dev/null; }
launches() { if [ "$("${lever[@]}" launches sf-db)" != "$1" ] || [ "$("${lever[@]}" launches sf-web)" != "$2" ]; then
    echo "launches: sf-db $("${lever[@]}" launches sf-db), sf-web $("${lever[@]}" launches sf-web); expected $1, $2"; exit 1; fi; }
nothing_left() { [ -z "$("${lever[@]}" cloud sf-db)$("${lever[@]}" cloud sf-web)" ]; }

python ../setup_simulator/files/simulator.py "$url" seed files/storefront.json

source ../playbook_game_day/files/stopped_by_the_probe.sh
serve_the_probe

# The scenario as JSON text - an AWX survey's answer, its nodes JSON text within it - with CHANGES (a JSON object) merged
# into it, and CHANGES_TO_WITH into its with.
scenario() {
    python - "$(cat probe_url.txt)" "${1:-{\}}" "${2:-{\}}" <<'PYTHON'
import json, sys
quick = {"dr_test_poll_interval": "1", "dr_test_progress_interval": "1"}
nodes = {"db": {"project": "sf-db", "vars": quick}, "web": {"project": "sf-web", "after": ["db"], "vars": quick}}
with_ = {"name": "storefront", "nodes": json.dumps(nodes), "report_dir": "reports"}
with_.update(json.loads(sys.argv[3]))
scenario = dict(name="storefront-nightly", hypothesis="the storefront's database and web tier recover in order within an hour",
                runbook="application", blast_radius=dict(projects=["sf-db", "sf-web"], machines=["db-*", "web-*"]),
                targets=dict(rto_seconds="3600"), stop_when=[dict(name="storefront", url=sys.argv[1], status=200, after_failures=2)],
                **{"with": with_})
scenario.update(json.loads(sys.argv[2]))
print(json.dumps(dict(game_day_scenario=json.dumps(scenario))))
PYTHON
}
game_day() { ansible-playbook replication.recovery.game_day -e "$(scenario "${1:-}" "${2:-}")" "${@:3}"; }

# -- a dry run: every node's plan, zero writes --------------------------------------------------------------------------
before="$("${lever[@]}" writes)"
game_day '' '' -e game_day_dry_run=true | tee output.txt
grep -q "Application storefront (dr_test): 2 nodes in 2 levels." output.txt
grep -q "Game day storefront-nightly: PLANNED (dry run). Hypothesis: .* - planned, not tried." output.txt
[ "$(grep -c "no hosts matched" output.txt)" = 0 ]  # the game day's play alone plans the application
[ "$("${lever[@]}" writes)" = "$before" ]
test ! -e reports/application_storefront.run
# The scenario as YAML text (an AWX survey's multi-line answer), under --check: the same plan, no write.
python -c "import json, sys, yaml; print(json.dumps(dict(game_day_scenario=yaml.safe_dump(json.loads(json.loads(sys.argv[1])['game_day_scenario'])))))" \
    "$(scenario)" > yaml_text.json
grep -q '"game_day_scenario": "blast_radius:' yaml_text.json
ansible-playbook replication.recovery.game_day -e @yaml_text.json --check | tee output.txt
grep -q "Game day storefront-nightly: PLANNED. Hypothesis" output.txt
[ "$(grep -c "no hosts matched" output.txt)" = 0 ]
[ "$("${lever[@]}" writes)" = "$before" ]

# -- refused before any write: a node's project outside the blast radius; a machine outside it, found as every node is --
# -- checked before any acts --------------------------------------------------------------------------------------------
refused() {
    if game_day "$1" "$2" >output.txt 2>&1; then cat output.txt; echo "game day $1 $2 must be refused"; exit 1; fi
    grep -q "$3" output.txt || { cat output.txt; exit 1; }
    grep -q "Game day storefront-nightly: REFUSED" output.txt || { cat output.txt; exit 1; }
    [ "$("${lever[@]}" writes)" = "$before" ]
}
refused '{"blast_radius": {"projects": ["sf-db"]}}' '' "node web's project sf-web is outside the blast radius of game day storefront-nightly"
refused '{"blast_radius": {"projects": ["sf-db", "sf-web"], "machines": ["db-*", "web-1"]}}' '' \
    "Node web: web-2 is outside the blast radius (db-\*, web-1)"
launches 0 0

# -- a probe of your tasks includes a task file that is missing: the probe failed, said as what it was, and the game day -
# -- is cancelled before the start, nothing launched -----------------------------------------------------------------------
printf '%s\n' '- name: More probing' '  ansible.builtin.include_tasks: missing_more_probing.yml' > nested_probe.yml
rm -rf reports
if game_day "{\"stop_when\": [{\"name\": \"mine\", \"tasks\": \"$(pwd)/nested_probe.yml\", \"after_failures\": 1}]}" > output.txt 2>&1; then
    cat output.txt; echo "a game day whose probe could not be included must not pass"; exit 1
fi
grep -q "Game day storefront-nightly: CANCELLED. Its stop condition mine (Ansible could not include a task file of the probe" output.txt
rm nested_probe.yml
launches 0 0

# -- it passes: db's DR test, then web's, each watched by the probe; one launch a node, nothing left; the game day's ------
# -- report and the application's in the ledger ------------------------------------------------------------------------
game_day | tee output.txt
grep -q "Application storefront (dr_test): PASSED. passed db, web." output.txt
grep -q "Game day storefront-nightly: PASSED. Hypothesis: .* - borne out." output.txt
# As many levels' plays as its nodes have (two), no approvals' plays (no node needs one): no play that matches no host.
[ "$(grep -c "no hosts matched" output.txt)" = 0 ]
[ "$(grep -c "^PLAY \[The application's level [0-9]" output.txt)" = 2 ]
launches 1 1
nothing_left
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'passed' and r['game_day'] == 'storefront-nightly' and r['counts']['machines'] == 4, r; \
assert [p['name'] for p in r['stop_conditions']['probes']] == ['storefront'] and r['stop_conditions']['looks'] >= 4, r['stop_conditions']; \
assert r['targets']['rto_seconds'] == 3600 and r['measures']['rto_seconds'] is not None, r" reports/application_storefront.json
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'passed' and r['borne_out'] is True and r['rehearsal']['runbook'] == 'application', r; \
assert r['project'] is None and [p['name'] for p in r['projects']] == ['sf-db', 'sf-web'], r; \
assert r['rehearsal']['name'] == 'storefront' and r['rehearsal']['met']['rto_seconds'] is True, r['rehearsal']" \
    reports/game_day_storefront-nightly.json

# -- its probe fails twice in a row while db's launch job runs: db stops, web is never launched, nothing is left ---------
stopped_by_the_probe
grep -q "web: blocked - the application was stopped: db was stopped (by the stop condition storefront)" game_day.txt
grep -q "Game day storefront-nightly: STOPPED. Hypothesis: .* - not borne out." game_day.txt
launches 2 1
nothing_left
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['outcome'] == 'stopped' and r['stop_conditions']['stopped_by']['probe'] == 'storefront', r; \
assert [n['state'] for n in r['nodes']] == ['failed', 'blocked'], r['nodes']" reports/application_storefront.json

# -- killed (a lost node) while db's launch job runs, run again: the application's run resumed, db's launch taken up, ---
# -- web launched once; nothing left -------------------------------------------------------------------------------------
source ../playbook_dr_test/kill_run.sh
clock 3
PYTHONUNBUFFERED=1 setsid ansible-playbook replication.recovery.game_day -e "$(scenario)" >stopped.txt 2>&1 &
run=$!
until grep -q "Launch job .* of wave 1 runs in the service" stopped.txt; do kill -0 "$run" || { cat stopped.txt; exit 1; }; sleep 0.2; done
kill_run "$run"
wait "$run" || true
clock 60
game_day | tee output.txt
grep -q "resuming the run begun" output.txt
grep -q "Game day storefront-nightly: PASSED" output.txt
launches 3 2  # the killed run's db launch taken up; web's once
nothing_left

# -- the lever engaged on sf-web: a game day of the application is cancelled before any write; released, it runs -------
ansible-playbook replication.recovery.game_day -e game_day_lever=engaged -e game_day_projects=sf-web -e '{"game_day_lever_reason": "INC-12: web tier"}'
before="$("${lever[@]}" writes)"
if game_day >output.txt 2>&1; then cat output.txt; echo "a rehearsal must be cancelled while the lever is engaged"; exit 1; fi
cat output.txt
grep -q "Game day storefront-nightly: CANCELLED" output.txt
[ "$("${lever[@]}" writes)" = "$before" ]
launches 3 2
ansible-playbook replication.recovery.game_day -e game_day_lever=released -e game_day_projects=sf-web -e '{"game_day_lever_reason": "INC-12 resolved"}'
