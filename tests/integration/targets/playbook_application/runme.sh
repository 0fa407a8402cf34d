#!/usr/bin/env bash
# An application across projects (files/shop.yml): identity, then db and cache side by side, then app - its plan under
# --check, then a DR test of it in order that carries the plan out, every point as of the plan's moment; an optional
# machine failing, a critical failure in db (app not launched) and a node in a second account in one
# run; retry and on_failure skip in another; approval without a terminal, then given; approval at a terminal, and one
# not given in time; the forecast under --check from the ledgered runs; a failover of the application committed, then
# run again with other arguments; stopped at moments of its steps and run again.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=apps@example.test
export REPLICATION_SERVICE_PASSWORD=apps-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # the default ledger of runs, this test's own
reports="$(pwd)/reports"
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf "$reports" "$XDG_DATA_HOME" output.txt
common=(-e @files/shop.yml -e application_report_dir="$reports" -e dr_test_poll_interval=1)
apps=(python files/apps.py "$url")
faults() { python ../setup_simulator/files/simulator.py "$url" faults "$1"; }

python ../setup_simulator/files/simulator.py "$url" seed files/apps.json

# (Bad input - every fault named at once, nothing written - and a plan refused for other nodes are judgements: the unit
# tests test_application.py::test_every_fault_is_named_at_once_before_anything_is_written and
# test_application_step.py::test_a_plan_is_refused_with_other_nodes_another_application_or_what_is_no_plan hold them.)

# -- under --check: the levels, each node's plan, the forecast (none yet), the moment of the points; nothing launched, ----
# -- the plan written -------------------------------------------------------------------------------------------------------
ansible-playbook replication.recovery.application --check "${common[@]}" | tee output.txt
grep -q "Application shop (dr_test): 4 nodes in 3 levels." output.txt
test "$(grep -c '^PLAY \[' output.txt)" = 1  # its begin alone plans
test "$(grep -c 'no hosts matched' output.txt)" = 0
grep -q "Level 2: cache (project cache, every machine, critical, after identity); db (project db, every machine, critical, after identity)" output.txt
grep -q "Forecast RTO: none" output.txt
grep -q "Points in time: each machine's newest at or before 20[0-9-]*T[0-9:.]*+00:00, on its service's clock - when the application's run began" output.txt
"${apps[@]}" launches db 0
plan="$reports/application_shop.plan.json"
test -s "$plan"
test -s "$reports/application_shop.plan.md"
test ! -e "$reports/application_shop.run"

# -- the plan carried out half an hour later, on the service's clock: a DR test of the application, in order, db and -----
# -- cache side by side, each node's test machines up until the end, every point the newest at the plan's moment; db's ---
# -- optional machine db-3 fails (a job fault), named, and app after db still runs; passing, nothing left ---------------------
"${apps[@]}" advance 1800
faults '[{"failMachines": ["db-3"], "jobTypes": ["TEST_LAUNCH"]}]'
# Under the free strategy, as under linear: every play of the playbook is linear.
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.application "${common[@]}" -e application_plan="$plan" | tee output.txt
grep -q "Carries out the plan $reports/application_shop.20" output.txt
grep -q "Application shop (dr_test): PASSED. passed identity, cache, db, app." output.txt
grep -q "db: optional machines failed, not counted against it: db-3." output.txt
"${apps[@]}" launches app 1
"${apps[@]}" as-of "$reports/application_shop.json" "$plan"
grep -q "app: its test machines were terminated and proven gone: app-1, app-2." output.txt
"${apps[@]}" order
"${apps[@]}" up-until-the-end
"${apps[@]}" overlap db cache
"${apps[@]}" empty
test -s "$reports/application_shop.json"
test -s "$reports/application_shop.html"
test -s "$reports/application_shop.junit.xml"
grep -q "<svg" "$reports/application_shop.html"
test -s "$ledger/00000005.json"  # four nodes' DR tests and the application

# -- one run: cache's optional machine fails (cache passes, naming it, and edge after it runs); db fails (app after it is
# -- not launched, and the report says why); edge is in a second account (the nodes as a survey's JSON text), its password --
# -- never shown -------------------------------------------------------------------------------------------------------------
faults '[{"failMachines": ["cache-2", "db-1"], "jobTypes": ["TEST_LAUNCH"]}]'
if ansible-playbook replication.recovery.application "${common[@]}" -vvv -e @files/edge.yml > output.txt 2>&1; then
    tail -40 output.txt; echo "a critical failure must fail the application"; exit 1
fi
grep -q "cache: optional machines failed, not counted against it: cache-2." output.txt
grep -q "app: blocked - after db, which failed." output.txt
if grep -rq "partner-password" output.txt "$reports"; then echo "the partner's password is in the output or a report"; exit 1; fi
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = dict((n['name'], n['state']) for n in r['nodes']); \
assert s == dict(identity='passed', cache='passed', db='failed', app='blocked', edge='passed') and r['result'] == 'failed', s" \
    "$reports/application_shop.json"
"${apps[@]}" launches app 1
"${apps[@]}" launches edge 1
"${apps[@]}" empty

# -- one run: db's failed machine launched again alone (retry 1), then cache fails and lets app run (on_failure skip) ----
# -- (db's first launch is the first test launch after the faults are set: it fails db-1 once) ----------------------------
faults '[{"failMachines": ["db-1"], "count": 1, "jobTypes": ["TEST_LAUNCH"]}, {"failMachines": ["cache-1"], "jobTypes": ["TEST_LAUNCH"]}]'
if ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"db": {"project": "db", "retry": 1},
        "cache": {"project": "cache", "after": ["db"], "on_failure": "skip"}, "app": {"project": "app", "after": ["cache"]}}}' > output.txt 2>&1; then
    tail -40 output.txt; echo "a failed critical node must fail the application"; exit 1
fi
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = dict((n['name'], n['state']) for n in r['nodes']); \
a = [x['state'] for x in next(n for n in r['nodes'] if n['name'] == 'db')['attempts']]; \
assert s == dict(db='passed', cache='failed', app='passed') and a == ['failed', 'passed'], (s, a)" "$reports/application_shop.json"
"${apps[@]}" launches db 4 1
"${apps[@]}" launches app 2
"${apps[@]}" empty

# -- approval without a terminal: the run ends rc 0 before app, waiting; the next run with the approval launches app once --
faults '[]'
approval='{"application_nodes": {"identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"], "approval": true}}}'
ANSIBLE_SHOW_CUSTOM_STATS=true ansible-playbook replication.recovery.application "${common[@]}" -e "$approval" < /dev/null | tee output.txt
grep -q "app: waiting for approval - needs approval" output.txt
grep -q "Application shop (dr_test): WAITING FOR APPROVAL" output.txt
# The default callback shows what set_stats published as one line of JSON: "	RUN: {...}".
python -c "import json; line = next(l for l in open('output.txt') if l.lstrip().startswith('RUN: ')); \
stats = json.loads(line.split('RUN: ', 1)[1])['application']; \
assert stats['result'] == 'waiting for approval' and stats['waiting'] == ['app'] and stats['nodes']['identity'] == 'passed', stats"
"${apps[@]}" launches app 2
# The approval took two hours: app still launches from the points as of the run's start - the newest the service kept of
# that time, for it keeps every point of the last hour only (as-of checks how far behind the moment that is).
"${apps[@]}" advance 7200
ansible-playbook replication.recovery.application "${common[@]}" -e "$approval" \
    -e '{"application_approve": {"node": "app", "by": "Dana Night", "comment": "change 4711"}}' < /dev/null | tee output.txt
grep -q "identity: passed in an earlier run of the application; adopted, not run again." output.txt
grep -q "app: approved by Dana Night: change 4711" output.txt
"${apps[@]}" as-of "$reports/application_shop.json"
"${apps[@]}" launches app 3
"${apps[@]}" launches identity 3
"${apps[@]}" empty  # identity's test machine ran while app waited; the application's end cleaned it up
grep -l '"by": "Dana Night"' "$ledger"/*.json

# -- at a terminal, asked once the nodes before them ended: app approved there and launched in the same run; cache not ----
# -- answered in time, so it waits and the run ends with rc 0 ---------------------------------------------------------------
ANSIBLE_NOCOLOR=1 python files/terminal.py output.txt --answer "Approve node app .*Type your name and Enter=Robin Day" \
    --answer "A comment=at the prompt" -- ansible-playbook replication.recovery.application "${common[@]}" -e application_name=shop-terminal \
    -e application_approval_timeout=5 -e '{"application_nodes": {"identity": {"project": "identity"},
    "app": {"project": "app", "after": ["identity"], "approval": true}, "cache": {"project": "cache", "after": ["identity"], "approval": true}}}'
grep -q "app: approved by Robin Day at the terminal" output.txt
grep -q "cache: no answer within 5 s; not approved, it waits." output.txt
grep -q "Application shop-terminal (dr_test): WAITING FOR APPROVAL" output.txt
"${apps[@]}" launches app 4
"${apps[@]}" launches cache 3
# identity's and app's test machines run while cache waits; run again without cache, and the application ends: they go
ansible-playbook replication.recovery.application "${common[@]}" -e application_name=shop-terminal -e '{"application_nodes": {
    "identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"], "approval": true}}}' < /dev/null | tee output.txt
grep -q "Application shop-terminal (dr_test): PASSED" output.txt
grep -q "identity: its test machines were terminated and proven gone: idp-1, idp-2." output.txt
"${apps[@]}" launches app 4
"${apps[@]}" empty

# -- the forecast under --check, from the ledgered runs, as computed by hand ---------------------------------------------
expected="$("${apps[@]}" forecast "$ledger")"
ansible-playbook replication.recovery.application --check "${common[@]}" | tee output.txt
python - "$expected" <<'PY'
import re, sys
p50, p90 = (float(v) for v in sys.argv[1].split())
said = re.search(r"Forecast RTO: p50 ([0-9.]+) s \([^)]*\), p90 ([0-9.]+) s", open("output.txt").read())
assert said and abs(float(said.group(1)) - p50) < 0.01 and abs(float(said.group(2)) - p90) < 0.01, (said and said.group(0), p50, p90)
PY

# -- every node of a level has checks that include a task file that is missing: Ansible leaves each node's host failed -----
# -- though rescued, which once ended the playbook after the level with rc 0 and the nodes' test machines up --------------
faults '[]'
printf '%s\n' '- name: More checks' '  ansible.builtin.include_tasks: missing_more_checks.yml' > nested_checks.yml
if ansible-playbook replication.recovery.application "${common[@]}" -e "{\"application_nodes\": {\"db\": {\"project\": \"db\", \
        \"checks_tasks\": \"$(pwd)/nested_checks.yml\"}, \"cache\": {\"project\": \"cache\", \"checks_tasks\": \"$(pwd)/nested_checks.yml\"}}}" \
        > output.txt 2>&1; then
    tail -40 output.txt; echo "an application whose nodes' checks could not be included must fail"; exit 1
fi
grep -q "Application shop (dr_test): FAILED" output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = dict((n['name'], n['state']) for n in r['nodes']); \
assert s == dict(db='failed', cache='failed'), s" "$reports/application_shop.json"
"${apps[@]}" empty
rm nested_checks.yml

# -- a failover of the application, committed; then run again with other arguments: nothing terminated, nothing launched --
failover=(-e application_runbook=failover -e application_name=shop-failover -e application_report_dir="$reports" -e failover_poll_interval=1)
two='{"application_nodes": {"identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"]}}}'
ansible-playbook replication.recovery.application "${failover[@]}" -e "$two" | tee output.txt
grep -q "Application shop-failover (failover): COMMITTED" output.txt
test "$(grep -c 'no hosts matched' output.txt)" = 0  # no cleanup play: a failover's nodes keep no test machines
"${apps[@]}" cloud > cloud-committed.txt
test "$(grep -c RECOVERY cloud-committed.txt)" = 4
ansible-playbook replication.recovery.application "${failover[@]}" -e '{"application_nodes": {"app": {"project": "app"}}}' \
    -e failover_machines=app-1 | tee output.txt  # fewer nodes, fewer machines: it stands
grep -q "app-1 stands: failed over since" output.txt
grep -q "Application shop-failover (failover): NOTHING DONE" output.txt  # it stood: nothing committed by this run
ansible-playbook replication.recovery.application "${failover[@]}" -e "$two" -e failover_point_in_time=latest > output.txt 2>&1 || true
"${apps[@]}" cloud > cloud-again.txt
diff cloud-committed.txt cloud-again.txt
"${apps[@]}" recoveries identity 1
"${apps[@]}" recoveries app 1

# -- stopped at moments of its steps (SIGINT, SIGTERM, SIGKILL, rotating from a printed seed), then run again -------------
ANSIBLE_CALLBACK_PLUGINS="$(pwd)/../dr_test_stopped/callback_plugins" ANSIBLE_CALLBACKS_ENABLED=hold_at \
    python files/stopped.py --simulator "$url" --work "$(pwd)/work" --simulators 2
rm -rf work
