#!/usr/bin/env bash
# The clean point search as a DR team runs it after ransomware: three machines damaged from three
# different moments, each found at exactly its newest point before the damage within the round bound,
# the plan under --check (no write), a search stopped by SIGTERM in a round and continued by the next
# run (one launch a round in all), every round cleaned up before the next; the consistent search's
# newest common moment (the role in one play); the hand-off to a failover that launches exactly those points; the refusal
# while a failover's machines are up; and a backup project searched by files, without a launch.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=ransom@example.test
export REPLICATION_SERVICE_PASSWORD=ransom-password
export ANSIBLE_ROLES_PATH=..
reports="$(pwd)/reports"
rm -rf "$reports" output.txt window.json*
site=(python files/site.py "$url")
wait_until=(python ../setup_simulator/files/until.py)  # waits for a command of site.py in one process

python ../setup_simulator/files/simulator.py "$url" seed files/ransom.json
"${site[@]}" window > window.json
after="$(python -c "import json; print(json.load(open('window.json'))['after'])")"
before="$(python -c "import json; print(json.load(open('window.json'))['before'])")"
python -c "import json, sys; json.dump(dict(zip(['db-1', 'app-1', 'web-1'], sys.argv[1:])), open('window.json.damage', 'w'))" \
    "$("${site[@]}" damage hit db-1 16)" "$("${site[@]}" damage hit app-1 9)" "$("${site[@]}" damage hit web-1 4)"
expected="$("${site[@]}" expect hit window.json db-1 app-1 web-1)"
ledger="$reports/ledger"
search=(-e clean_point_project=hit -e clean_point_report_dir="$reports" -e clean_point_poll_interval=1 -e simulator_url="$url"
        -e replication_recovery_ledger_dir="$ledger"
        -e clean_point_after="$after" -e clean_point_before="$before" -e clean_point_checks_tasks="$(pwd)/files/checks.yml")
at_most() {  # the round bound of the report FILE: ceil(log2(points in the window)) + 1, for the machine with the most
    python -c "import json, math, sys; r = json.load(open(sys.argv[1])); n = max(m['points_in_window'] for m in r['machines']); \
assert len(r['rounds']) <= math.ceil(math.log2(n)) + 1 == r['rounds_at_most'], (len(r['rounds']), n); \
assert r['launches'] == len(r['rounds']), r['rounds']" "$1"
}

# -- the plan: under --check nothing is written, and the first round's candidates and the bound are said --
python ../setup_simulator/files/simulator.py "$url" faults '[]'
ansible-playbook replication.recovery.clean_point --check "${search[@]}" | tee output.txt
grep -q "Would launch round 1 of at most [0-9]*: 3 machines, each from its candidate point: app-1 at" output.txt
# One play plans the round (the search plans it and ends there), not twelve rounds' plays: no play that matches no host.
[ "$(grep -c '^PLAY \[' output.txt)" = 3 ]
[ "$(grep -c 'no hosts matched' output.txt)" = 0 ]
"${site[@]}" no-writes
if [ -e "$reports/clean_point_hit.json" ] || [ -e "$reports/clean_point_hit.search.json" ]; then echo "check mode wrote"; exit 1; fi

# -- stopped twice, and run again: by SIGTERM while round 2's (slowed) launch runs (the next run continues ---
# -- from the journal and adopts that launch: one launch in round 2), then by SIGKILL (a lost node) while round 2's (slowed) -------
# -- cleanup runs (the next run waits for it and proves it before round 3). One launch a round in all, ----
# -- each round cleaned up before the next, nothing left --------------------------------------------------
source ../playbook_dr_test/kill_run.sh
# Run the search in the background with the fault rules $3 and stop it with SIG$1 once the project's job $2
# (TYPE:N, the Nth job of TYPE) runs.
stop_search() {
    local signal=$1 job=$2 rules=$3
    PYTHONUNBUFFERED=1 setsid ansible-playbook replication.recovery.clean_point "${search[@]}" >stopped.txt 2>&1 &
    local pid=$!
    python ../setup_simulator/files/simulator.py "$url" faults "$rules"
    "${wait_until[@]}" --alive "$pid" -- files/site.py "$url" running hit "${job%%:*}" "${job##*:}" \
        || { cat stopped.txt; echo "the search ended before its $job ran"; exit 1; }
    if [ "$signal" = KILL ]; then kill_run "$pid"; else kill "-$signal" "$pid"; fi
    wait "$pid" || true
    python ../setup_simulator/files/simulator.py "$url" faults '[]'
}
stop_search TERM TEST_LAUNCH:2 '[{"jobTypes": ["TEST_LAUNCH"], "slowFactor": 10}]'
test -e "$reports/clean_point_hit.search.json"
stop_search KILL CLEANUP:2 '[{"jobTypes": ["CLEANUP"], "slowFactor": 30}]'
# Under the free strategy, as under linear: every play of the playbook is linear.
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.clean_point "${search[@]}" | tee output.txt
grep -q "Round 2 was judged, and its cleanup not proven (a run stopped in it): its machines are cleaned up first." output.txt
grep -q "Round 3 of at most" output.txt
grep -q "Ledger: entry 1 in $ledger, SHA-256" output.txt  # the stopped runs did not end a search: no entry
"${site[@]}" found "$reports/clean_point_hit.json" "$expected"
at_most "$reports/clean_point_hit.json"
rounds="$(python -c "import json, sys; print(len(json.load(open(sys.argv[1]))['rounds']))" "$reports/clean_point_hit.json")"
"${site[@]}" launches hit "$rounds"
"${site[@]}" alternating hit
test ! -e "$reports/clean_point_hit.search.json"
python -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
    "$reports/clean_point_hit.json" "${ANSIBLE_COLLECTIONS_PATH%%:*}/ansible_collections/replication/recovery/roles/clean_point/files/report.schema.json"
grep -q "| db-1 | found |" "$reports/clean_point_hit.md"
grep -q "<h1>Clean point search of hit: PASSED</h1>" "$reports/clean_point_hit.html"
grep -q "Entry 1, SHA-256 <span class=\"hash\">[0-9a-f]\{64\}" "$reports/clean_point_hit.html"
python -c "import xml.etree.ElementTree as E, sys; E.parse(sys.argv[1])" "$reports/clean_point_hit.junit.xml"

# -- the hand-off: a failover from the report launches exactly those points (read on the recovery -----
# -- machines the service reports); while they are up, a search refuses to run; then they are removed --
cp "$reports/clean_point_hit.json" clean.json
ansible-playbook replication.recovery.failover -e failover_project=hit -e failover_report_dir="$reports" -e failover_poll_interval=1 \
    -e failover_commit=true -e "failover_point_in_time=from:$(pwd)/clean.json" -e failover_checks_tasks="$(pwd)/files/failover_checks.yml" \
    -e clean_report="$(pwd)/clean.json" -e replication_recovery_ledger_dir="$ledger"
"${site[@]}" recovered hit clean.json
if ansible-playbook replication.recovery.clean_point "${search[@]}" | tee output.txt; then
    echo "a search while a failover's machines are up must fail"; exit 1
fi
grep -q "3 of the machines of this clean point search are failed over, and their recovery machines run production" output.txt
grep -q "nothing was launched or terminated" output.txt
# The recovery machines are production: only named and confirmed does a cleanup take them.
ansible localhost -m replication.recovery.service_replica_cleanup -a "project=hit launch_types=recovery terminate_production=db-1,app-1,web-1 poll_interval=1"
"${site[@]}" cloud-empty
rm -f "$reports/clean_point_hit.search.json"

# -- consistent: the machines move together; the newest common moment before the earliest damage -----
# -- (the role in one play: every round, checks on this host) ---------------------------------------
expected="$("${site[@]}" expect-common hit window.json db-1 app-1 web-1)"
ansible-playbook ../playbook_dr_test/one_play.yml -e one_play=clean_point "${search[@]}" -e clean_point_consistent=true | tee output.txt
grep -q "clean_point : Each round, while the search goes on" output.txt
"${site[@]}" found "$reports/clean_point_hit.json" "$expected"
python -c "import json, math, sys; r = json.load(open(sys.argv[1])); assert r['consistent'] and r['common_moment'] and \
len(r['rounds']) <= math.ceil(math.log2(r['moments'])) + 1 == r['rounds_at_most'] and r['launches'] == len(r['rounds']), r['rounds']" \
    "$reports/clean_point_hit.json"
"${site[@]}" cloud-empty
# The ledger: the two searches that ended and the failover between them (the refused search entered nothing).
ansible-playbook replication.recovery.evidence -e replication_recovery_ledger_dir="$ledger" -e evidence_report_dir="$reports/evidence" | tee output.txt
grep -q "The ledger is whole: 3 entries" output.txt
python -c "import json, sys; e = [json.load(open('%s/%08d.json' % (sys.argv[1], n))) for n in (1, 2, 3)]; \
assert [x['runbook'] for x in e] == ['clean_point', 'failover', 'clean_point'] and e[2]['report']['consistent'], e" "$ledger"

# -- a backup project: the file search finds the damage from its moment on; nothing is launched -------
fs_damage="$("${site[@]}" damage files fs-1 6)"
python -c "import json, sys; json.dump({'fs-1': sys.argv[1]}, open('window.json.damage', 'w'))" "$fs_damage"
expected="$("${site[@]}" expect files window.json fs-1 fs-2)"
ansible-playbook replication.recovery.clean_point -e clean_point_project=files -e clean_point_report_dir="$reports" \
    -e clean_point_after="$after" -e clean_point_before="$before" -e '{"clean_point_find_files": ["*.locked", "*README_DECRYPT*"]}' | tee output.txt
"${site[@]}" found "$reports/clean_point_files.json" "$expected"
"${site[@]}" launches files 0
grep -q "Searched 2 machines for \*.locked, \*README_DECRYPT\* in 2 file searches; nothing was launched" output.txt

# -- a journal of another account is set aside, never resumed; a candidate the service thins out during the ---
# -- search is replaced by the remaining point closest to it, and the search still ends at the right point ----
# Six hourly points of web-1 whose first three a day will thin out (not the newest of their day); damaged from the
# fourth: round 1 finds it damaged, and its checks let the day pass up to 45 minutes before the third point goes. The
# service's clock runs at 10x meanwhile (60x elsewhere): at 60x a busy controller (make test's three lanes) let the
# window's points age past what the case is about before the search read them - 45 minutes were 45 seconds.
"${site[@]}" time-scale 10
"${site[@]}" thinning-window hit web-1 > thinning.json
read -r t_after t_before t_expected < <(python -c "import json; w = json.load(open('thinning.json')); print(w['after'], w['before'], w['expected'])")
"${site[@]}" plant-journal hit "$reports/clean_point_hit.search.json"
ansible-playbook replication.recovery.clean_point -e clean_point_project=hit -e clean_point_report_dir="$reports" -e clean_point_poll_interval=1 \
    -e simulator_url="$url" -e clean_point_machines=web-1 -e clean_point_after="$t_after" -e clean_point_before="$t_before" \
    -e clean_point_checks_tasks="$(pwd)/files/checks_then_a_day.yml" -e thinning_file="$(pwd)/thinning.json" -e checks_dir="$(pwd)/files" \
    -e replication_recovery_ledger_dir="$ledger" | tee output.txt
"${site[@]}" time-scale 60
grep -q "is of account another-account, not .*: it is set aside as $reports/clean_point_hit.search.set-aside-[0-9TZ]*.json, and never resumed" output.txt
ls "$reports"/clean_point_hit.search.set-aside-*.json
grep -q "web-1: its candidate point of .* was thinned out by the service; the remaining point closest to it, .*, is tested instead" output.txt
"${site[@]}" found "$reports/clean_point_hit.json" "{\"web-1\": \"$t_expected\"}"
"${site[@]}" cloud-empty
