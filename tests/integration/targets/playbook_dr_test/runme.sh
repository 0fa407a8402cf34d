#!/usr/bin/env bash
# The collection's DR test playbook as users and AWX run it: credentials in the environment,
# inputs as extra variables (text). Five projects side by side; three waves, the second failing;
# check mode; wrong credentials; the connection as variables; the waves in the inventory. (A DR test stopped at any
# moment and run again: the target dr_test_stopped. A blueprint gone stale, refused in the preflight, and every list,
# number and flag as text are judgements: the unit tests test_runbook_steps and test_runbook_options hold them.)
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=fleet@example.test
export REPLICATION_SERVICE_PASSWORD=fleet-password
export ANSIBLE_ROLES_PATH=..
config=(-e @../../integration_config.yml)
reports="$(pwd)/reports"
rm -rf "$reports" output.txt
common=(-e dr_test_report_dir="$reports" -e dr_test_poll_interval=1)
outcome=(python files/outcome.py "$url" "$reports")  # the report and the target cloud after a DR test of the shop

ansible-playbook -i ../../inventory "${config[@]}" fleet.yml
python ../setup_simulator/files/simulator.py "$url" faults '[]'

# -- five projects of twenty machines, side by side -----------------------------------------------
ansible-playbook -i inventory.yml -f 5 "${config[@]}" "${common[@]}" -e dr_test_hosts=fleet \
    -e dr_test_checks_tasks="$(pwd)/files/checks.yml" several.yml

# -- three waves; the second fails one machine ------------------------------------------------------
# db-1, then web-1 (its launch fails), then web-2: the third wave is not launched, the first is
# checked and cleaned up, and the report says so.
rm -rf "$reports"
python ../setup_simulator/files/simulator.py "$url" faults '[{"failMachines": ["web-1"], "count": 2, "jobTypes": ["TEST_LAUNCH"]}]'
if ansible-playbook replication.recovery.dr_test "${common[@]}" -e dr_test_project=shop -e 'dr_test_waves=db-1;web-1;web-2' \
        -e dr_test_checks_tasks="$(pwd)/files/checks.yml" | tee output.txt; then
    echo "a DR test whose second wave failed must fail"; exit 1
fi
grep -q "Wave 3 is not launched, nor any after it: wave 2 failed (web-1 did not launch)" output.txt
"${outcome[@]}" failed '["launch job, wave 1", "launch job, wave 2", "wave 3", "cleanup", "launch settings defaults"]' \
    '["db-1", "web-1", "web-2"]'
python files/waves.py "$reports/dr_test_shop.json" "$url"

# -- your checks, or your tasks after a wave, include a file that is missing: Ansible leaves each host it failed on failed --
# -- though the collection rescued it - and a play whose hosts all failed ends the playbook. Each run still ends as a run --
# -- does: the checks failed (or the run stopped at your tasks), the finish reported it, and nothing launched is left up ----
python ../setup_simulator/files/simulator.py "$url" faults '[]'
printf '%s\n' '- name: More checks' '  ansible.builtin.include_tasks: missing_more_checks.yml' > nested_checks.yml
for case in checks hook; do
    rm -rf "$reports"
    if [ "$case" = checks ]; then given=(-e dr_test_checks_tasks="$(pwd)/nested_checks.yml"); \
    else given=(-e 'dr_test_waves=db-1;web-*' -e dr_test_after_wave_tasks="$(pwd)/nested_checks.yml"); fi
    if ansible-playbook replication.recovery.dr_test "${common[@]}" -e dr_test_project=shop "${given[@]}" | tee output.txt; then
        echo "a DR test whose $case could not be included must fail"; exit 1
    fi
    grep -q "PLAY \[Finish of the DR test\]" output.txt
    if [ "$case" = checks ]; then
        grep -q "DR test of shop: FAILED. 3 of 3 machines failed: db-1 (checks: Ansible could not include a task file of your checks" output.txt
        python -c "import json, sys; r = json.load(open(sys.argv[1])); c = [c for m in r['machines'] for c in m['checks'] if c['name'] == 'checks']; \
assert len(c) == 3 and all(c['message'].startswith('Ansible could not include a task file of your checks') for c in c), c" "$reports/dr_test_shop.json"
        "${outcome[@]}" failed
    else
        grep -q "DR test of shop: STOPPED. .* your tasks after wave 1 (an include): Ansible could not include its tasks" output.txt
        grep -q "wave 2: not launched" output.txt
        python -c "import json, sys; assert json.load(open(sys.argv[1]))['outcome'] == 'stopped'" "$reports/dr_test_shop.json"
        "${outcome[@]}" failed
    fi
done
rm nested_checks.yml

# -- check mode: says what it would launch, launches nothing, writes no report ----------------------
rm -rf "$reports"
python ../setup_simulator/files/simulator.py "$url" faults '[]'
ansible-playbook replication.recovery.dr_test --check "${common[@]}" -e dr_test_project=shop | tee output.txt
grep -q "DR test of shop under --check: PLANNED. Would launch 3 machines (web-1, web-2, db-1). Nothing was launched" output.txt
if grep -q "PASSED" output.txt || [ -e "$reports" ]; then echo "check mode said PASSED or wrote a report"; exit 1; fi
python ../setup_simulator/files/simulator.py "$url" no-writes

# -- wrong credentials: a failing report all the same -----------------------------------------------
if REPLICATION_SERVICE_PASSWORD=wrong-password ansible-playbook replication.recovery.dr_test "${common[@]}" -e dr_test_project=shop \
        >output.txt 2>&1; then
    echo "a DR test with wrong credentials must fail"; exit 1
fi
grep -q "DR test of shop: REFUSED. login: POST /login failed: HTTP 401" output.txt
"${outcome[@]}" failed '["login", "cleanup"]'
grep -q '<testcase classname="dr_test.shop" name="login">' "$reports/dr_test_shop.junit.xml"
# As ansible-runner (AWX) starts it, without PWD in the environment: the default report directory is
# under the working directory, never /dr_test_report.
workdir="$(mktemp -d)"
(cd "$workdir" && env -u PWD REPLICATION_SERVICE_PASSWORD=wrong-password ansible-playbook replication.recovery.dr_test \
    -e dr_test_project=shop >/dev/null 2>&1) || true
grep -q '<testcase classname="dr_test.shop" name="login">' "$workdir/dr_test_report/dr_test_shop.junit.xml"
if [ -e /dr_test_report ]; then echo "the report went to /dr_test_report"; exit 1; fi
rm -rf "$workdir"

# -- the connection as the playbook's variables, nothing in the environment: every play takes it - the wave's play, ---
# -- which has no module_defaults, through its step's own arguments: sessions of a minute on the service's clock (a ---
# -- second here) end before the launch, and each step signs in again with the credentials the variables give ----------
rm -rf "$reports"
settings() {  # PATCH the simulator's settings with the JSON $1; prints the settings as they were
    python -c "import json, sys, urllib.request as u; url = sys.argv[1] + '/_simulator/settings'; \
print(json.dumps({'sessionLifetimeSeconds': json.load(u.urlopen(url))['sessionLifetimeSeconds']})); \
u.urlopen(u.Request(url, data=sys.argv[2].encode(), method='PATCH', headers={'Content-Type': 'application/json'}))" "$url" "$1"
}
was="$(settings '{"sessionLifetimeSeconds": 60}')"
(umask 077 && python -c 'import json, os; print(json.dumps({"replication_service_password": os.environ["REPLICATION_SERVICE_PASSWORD"]}))' \
    > connection.json)
env -u REPLICATION_SERVICE_URL -u REPLICATION_SERVICE_USERNAME -u REPLICATION_SERVICE_PASSWORD ansible-playbook replication.recovery.dr_test \
    -e dr_test_report_dir="$reports" -e dr_test_project=shop -e dr_test_poll_interval=1 -e 'dr_test_waves=db-1;web-*' \
    -e replication_service_url="$REPLICATION_SERVICE_URL" -e replication_service_username="$REPLICATION_SERVICE_USERNAME" -e @connection.json \
    -e '{"replication_service_limits": {"servers_per_job": 1}}'
rm connection.json
settings "$was" >/dev/null
"${outcome[@]}" passed
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert [len(w.get('jobs') or [w['job']]) for w in r['waves']] == [1, 2], r['waves']" \
    "$reports/dr_test_shop.json"

# -- the waves in the inventory's variables, which the playbook does not see as it is read: it reads one wave's plays, --
# -- and the last of them runs the second wave - its machines checked on the project's host - with nothing left out ------
rm -rf "$reports"
printf '%s\n' 'all:' '  hosts:' '    localhost:' '      ansible_connection: local' \
    '      ansible_python_interpreter: "{{ ansible_playbook_python }}"' '      dr_test_waves: "db-1; web-*"' > waves_inventory.yml
printf '%s\n' '- name: The machine runs and has an address' '  ansible.builtin.assert:' '    that:' \
    '      - dr_test_machine.public_ips | length > 0' "      - dr_test_machine.target.machineCloudState == 'running'" > on_host_checks.yml
ansible-playbook -i waves_inventory.yml replication.recovery.dr_test "${common[@]}" -e dr_test_project=shop \
    -e dr_test_checks_tasks="$(pwd)/on_host_checks.yml" | tee output.txt
[ "$(grep -c '^PLAY \[Launch and look at DR test, wave' output.txt)" = 1 ]
[ "$(grep -c "no hosts matched" output.txt)" = 0 ]
grep -q "Launch and follow the wave, and look at its machines - wave 2" output.txt
"${outcome[@]}" passed
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert [(w['machines'], w['status']) for w in r['waves']] == [(['db-1'], 'launched'), (['web-1', 'web-2'], 'launched')], r['waves']; \
assert all(m['passed'] and [c['status'] for c in m['checks'] if c['name'] == 'checks'] == ['passed'] for m in r['machines']), r['machines']; \
assert [(m['name'], m['wave']) for m in r['machines']] == [('db-1', 1), ('web-1', 2), ('web-2', 2)], r['machines']" "$reports/dr_test_shop.json"

rm -rf "$reports" output.txt waves_inventory.yml on_host_checks.yml
