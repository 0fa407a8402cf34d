#!/usr/bin/env bash
# An application across projects (files/shop.yml): identity, then db and cache side by side, then app - a DR test of it
# in order; an optional machine failing; a critical failure in db (app not launched); retry; on_failure skip; a node in a
# second account; approval without a terminal, then given; approval at a terminal, and its timeout; the forecast under
# --check from the ledgered runs; a failover of the application committed, then run again with other arguments.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=apps@example.test
export REPLICATION_SERVICE_PASSWORD=apps-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$(pwd)/data"  # the default ledger of runs, this test's own
reports="$(pwd)/reports"
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf "$reports" "$XDG_DATA_HOME" output.txt
common=(-e @files/shop.yml -e application_report_dir="$reports" -e dr_test_poll_interval=1)
apps=(python files/apps.py "$url")
faults() { ansible-playbook -i ../../inventory -e @../../integration_config.yml -e "{\"rules\": $1}" ../playbook_dr_test/faults.yml; }

ansible-playbook -i ../../inventory -e @../../integration_config.yml seed.yml

# -- bad input: every fault at once, nothing written -------------------------------------------------------------------
if ansible-playbook replication.recovery.application -e application_report_dir="$reports" \
        -e '{"application_nodes": {"a": {"project": "db", "after": ["b"]}, "b": {"project": "app", "after": ["a"]}, "c": {"project": "db"}}}' \
        > output.txt 2>&1; then
    cat output.txt; echo "a cycle must be refused"; exit 1
fi
grep -q "nodes a and c are both project db" output.txt
test ! -e "$reports"

# -- under --check: the levels, each node's plan, the forecast (none yet); nothing launched ----------------------------
ansible-playbook replication.recovery.application --check "${common[@]}" | tee output.txt
grep -q "Application shop (dr_test): 4 nodes in 3 levels." output.txt
grep -q "Level 2: cache (project cache, every machine, critical, after identity); db (project db, every machine, critical, after identity)" output.txt
grep -q "Forecast RTO: none" output.txt
"${apps[@]}" launches db 0
test ! -e "$reports"

# -- a DR test of the application, in order, db and cache side by side; passing, nothing left --------------------------
ansible-playbook replication.recovery.application "${common[@]}" | tee output.txt
grep -q "Application shop (dr_test): PASSED. passed identity, cache, db, app." output.txt
"${apps[@]}" order
"${apps[@]}" overlap db cache
"${apps[@]}" empty
test -s "$reports/application_shop.json" && test -s "$reports/application_shop.html" && test -s "$reports/application_shop.junit.xml"
grep -q "<svg" "$reports/application_shop.html"
test -s "$ledger/00000005.json"  # four nodes' DR tests and the application

# -- one optional machine fails: the node passes naming it, app still launched ------------------------------------------
faults '[{"failMachines": ["db-3"], "jobTypes": ["TEST_LAUNCH"]}]'
ansible-playbook replication.recovery.application "${common[@]}" | tee output.txt
grep -q "PASSED" output.txt
grep -q "db: optional machines failed, not counted against it: db-3." output.txt
"${apps[@]}" launches app 2
"${apps[@]}" empty

# -- a critical failure in db: app not launched, the report says why ----------------------------------------------------
faults '[{"failMachines": ["db-1"], "jobTypes": ["TEST_LAUNCH"]}]'
if ansible-playbook replication.recovery.application "${common[@]}" > output.txt 2>&1; then
    cat output.txt; echo "a critical failure must fail the application"; exit 1
fi
grep -q "app: blocked - after db, which failed." output.txt
"${apps[@]}" launches app 2
"${apps[@]}" empty
python -c "import json, sys; r = json.load(open(sys.argv[1])); s = dict((n['name'], n['state']) for n in r['nodes']); \
assert s == dict(identity='passed', cache='passed', db='failed', app='blocked') and r['result'] == 'failed', s" "$reports/application_shop.json"

# -- retry 1: only the failed machine is launched again, and the application passes (db's first launch is the first ------
# -- test launch after the fault is set, which it fails once) ------------------------------------------------------------
faults '[{"failMachines": ["db-1"], "count": 1, "jobTypes": ["TEST_LAUNCH"]}]'
ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"db": {"project": "db", "retry": 1},
    "app": {"project": "app", "after": ["db"]}}}' | tee output.txt
grep -q "PASSED" output.txt
"${apps[@]}" launches db 5 1
"${apps[@]}" launches app 3

# -- on_failure skip: db fails, app runs all the same; the application fails (db is critical) ---------------------------
faults '[{"failMachines": ["db-1"], "jobTypes": ["TEST_LAUNCH"]}]'
if ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"db": {"project": "db", "on_failure": "skip"},
        "app": {"project": "app", "after": ["db"]}}}' > output.txt 2>&1; then
    cat output.txt; echo "a failed critical node must fail the application"; exit 1
fi
"${apps[@]}" launches app 4
"${apps[@]}" empty

# -- a node in a second account ----------------------------------------------------------------------------------------
faults '[]'
ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"identity": {"project": "identity"},
    "edge": {"project": "edge", "after": ["identity"], "connection": {"username": "partner@example.test", "password": "partner-password"}}}}' \
    -vvv > output.txt 2>&1 || { cat output.txt; exit 1; }
grep -q "PASSED" output.txt
if grep -rq "partner-password" output.txt "$reports"; then echo "the partner's password is in the output or a report"; exit 1; fi
"${apps[@]}" launches edge 1
"${apps[@]}" empty

# -- approval without a terminal: the run ends rc 0 before app, waiting; the next run with the approval launches app once --
ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"identity": {"project": "identity"},
    "app": {"project": "app", "after": ["identity"], "approval": true}}}' < /dev/null | tee output.txt
grep -q "app: waiting for approval - needs approval" output.txt
grep -q "Application shop (dr_test): WAITING FOR APPROVAL" output.txt
"${apps[@]}" launches app 4
ansible-playbook replication.recovery.application "${common[@]}" -e '{"application_nodes": {"identity": {"project": "identity"},
    "app": {"project": "app", "after": ["identity"], "approval": true}}}' \
    -e '{"application_approve": {"node": "app", "by": "Dana Night", "comment": "change 4711"}}' < /dev/null | tee output.txt
grep -q "identity: passed in an earlier run of the application; adopted, not run again." output.txt
grep -q "app: approved by Dana Night: change 4711" output.txt
"${apps[@]}" launches app 5
"${apps[@]}" launches identity 5
grep -l '"by": "Dana Night"' "$ledger"/*.json

# -- approval at a terminal, asked once the nodes before it ended: approved there, app launched in the same run ----------
approval='{"application_nodes": {"identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"], "approval": true}}}'
ANSIBLE_NOCOLOR=1 python files/terminal.py output.txt --answer "Type your name and Enter=Robin Day" --answer "A comment=at the prompt" -- \
    ansible-playbook replication.recovery.application "${common[@]}" -e "$approval" -e application_name=shop-terminal
grep -q "app: approved by Robin Day at the terminal" output.txt
grep -q "Application shop-terminal (dr_test): PASSED" output.txt
"${apps[@]}" launches app 6
"${apps[@]}" empty

# -- and a timeout that approves nothing: the run ends with rc 0, app waiting ----------------------------------------------
ANSIBLE_NOCOLOR=1 python files/terminal.py output.txt -- ansible-playbook replication.recovery.application "${common[@]}" -e "$approval" \
    -e application_name=shop-timeout -e application_approval_timeout=3
grep -q "app: no answer within 3 s; not approved, it waits." output.txt
grep -q "Application shop-timeout (dr_test): WAITING FOR APPROVAL" output.txt
"${apps[@]}" launches app 6

# -- the forecast under --check, from the ledgered runs, as computed by hand ---------------------------------------------
expected="$("${apps[@]}" forecast "$ledger")"
ansible-playbook replication.recovery.application --check "${common[@]}" | tee output.txt
python - "$expected" <<'PY'
import re, sys
p50, p90 = (float(v) for v in sys.argv[1].split())
said = re.search(r"Forecast RTO: p50 ([0-9.]+) s \([^)]*\), p90 ([0-9.]+) s", open("output.txt").read())
assert said and abs(float(said.group(1)) - p50) < 0.01 and abs(float(said.group(2)) - p90) < 0.01, (said and said.group(0), p50, p90)
PY

# -- a failover of the application, committed; then run again with other arguments: nothing terminated, nothing launched --
failover=(-e application_runbook=failover -e application_name=shop-failover -e application_report_dir="$reports" -e failover_poll_interval=1)
two='{"application_nodes": {"identity": {"project": "identity"}, "app": {"project": "app", "after": ["identity"]}}}'
ansible-playbook replication.recovery.application "${failover[@]}" -e "$two" | tee output.txt
grep -q "Application shop-failover (failover): PASSED" output.txt
"${apps[@]}" cloud > cloud-committed.txt
test "$(grep -c RECOVERY cloud-committed.txt)" = 4
ansible-playbook replication.recovery.application "${failover[@]}" -e "$two" | tee output.txt  # the same again: it stands
ansible-playbook replication.recovery.application "${failover[@]}" -e '{"application_nodes": {"app": {"project": "app"}}}' \
    -e failover_machines=app-1 | tee output.txt  # fewer nodes, fewer machines
ansible-playbook replication.recovery.application "${failover[@]}" -e "$two" -e failover_point_in_time=latest > output.txt 2>&1 || true
"${apps[@]}" cloud > cloud-again.txt
diff cloud-committed.txt cloud-again.txt
"${apps[@]}" recoveries identity 1
"${apps[@]}" recoveries app 1

# -- stopped at moments of its steps (SIGINT, SIGTERM, SIGKILL, rotating from a printed seed), then run again -------------
ANSIBLE_CALLBACK_PLUGINS="$(pwd)/../dr_test_stopped/callback_plugins" ANSIBLE_CALLBACKS_ENABLED=hold_at \
    python files/stopped.py --simulator "$url" --work "$(pwd)/work" --simulators 2
rm -rf work
