#!/usr/bin/env bash
# Launch settings by policy over project demo: --check --diff writes nothing; a blueprint the region cannot launch
# stops the apply before any write; an apply (rule precedence, an exclusion, a
# subnet map keeping the host part) with a backup first; a second apply writes nothing; after a ledgered DR test and a
# change, health names exactly the re-configured machine; a restore makes every blueprint equal, member by member, to
# before; a CSV export with one cell and an address edited writes one blueprint; a bad row and a conflicting row are
# refused with nothing written; addresses come from the source hosts; a write done without an answer stops the run,
# which run again writes each blueprint once, and whose first backup puts them all back.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=policy@example.test
export REPLICATION_SERVICE_PASSWORD=policy-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # the default ledger of runs, this test's own
reports="$(pwd)/reports"
rm -rf "$reports" "$XDG_DATA_HOME" output.txt ./*.json ./*.csv ./*.yml.out
policy=(python files/policy.py "$url")
apply=(ansible-playbook replication.recovery.launch_policy -e @files/policy.yml -e launch_policy_report_dir="$reports")

python ../setup_simulator/files/simulator.py "$url" seed files/policy.json
"${policy[@]}" blueprints > before.json

# -- --check --diff: each machine's change shown, nothing written --------------------------------------------------------
"${policy[@]}" clear
"${apply[@]}" --check --diff | tee output.txt
grep -q "Launch policy of demo: PLANNED. 3 of 3 machines would change: db-1, web-1, web-2; 1 left out; 0 refused." output.txt
grep -q '"instance_type": "m5.xlarge"' output.txt  # the diff
test "$("${policy[@]}" writes)" = 0
"${policy[@]}" blueprints | diff before.json -

# -- a resolved blueprint the region cannot launch stops them all, before any write --------------------------------------
if "${apply[@]}" -e '{"launch_policy_machines": {"web-2": {"instance_type": "z9.mega"}}}' > output.txt 2>&1; then
    cat output.txt; echo "a blueprint the region cannot launch must stop the apply"; exit 1
fi
grep -q "1 problem stops them all; nothing was written: web-2: instance type z9.mega is not offered in region us-east-1" output.txt || { cat output.txt; exit 1; }
test "$("${policy[@]}" writes)" = 0
test ! -e "$reports/backups"

# -- the apply: the layers in order, a backup before the first write -----------------------------------------------------
"${apply[@]}" | tee output.txt
grep -q "Launch policy of demo: COMMITTED. 3 of 3 machines changed: db-1, web-1, web-2; 1 left out; 0 refused." output.txt
grep -q "Not re-addressed: db-1: no private source address" output.txt
test "$("${policy[@]}" writes)" = 3
"${policy[@]}" blueprints > applied.json
private_b="$("${policy[@]}" subnet private-b)"
python - applied.json before.json "$private_b" <<'PY'
import json, sys
applied, before, private_b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
owner = [{"key": "owner", "value": "dr-team"}]
assert applied["db-1"]["instanceType"] == "m5.xlarge" and applied["db-1"]["tenancy"] == "DEDICATED", applied["db-1"]  # the later rule wins
assert applied["web-1"]["instanceType"] == "t3.small" and applied["web-1"]["subnetIDs"] == [private_b], applied["web-1"]
assert applied["web-1"]["privateIPAction"] == "CUSTOM_IP" and applied["web-1"]["privateIPs"] == ["10.32.5.21"], applied["web-1"]
assert applied["web-2"]["publicIPAction"] == "DONT_ALLOCATE" and applied["web-2"]["tags"] == owner, applied["web-2"]
assert applied["scratch-1"] == before["scratch-1"]  # left out
PY
ls "$reports"/backups/launch_policy_demo.*.backup.json
for form in json md html junit.xml; do test -s "$reports/launch_policy_demo.$form"; done
grep -q "| db-1 | changed | instance_type (changed) | m5.xlarge | rules\[1\] |" "$reports/launch_policy_demo.md"
test -s "$XDG_DATA_HOME/replication.recovery/ledger/00000001.json"

# -- a second apply writes nothing ----------------------------------------------------------------------------------------
"${policy[@]}" clear
"${apply[@]}" | tee output.txt
grep -q "Launch policy of demo: NOTHING DONE. 0 of 3 machines changed" output.txt
grep -A1 "Launch settings of the machines of demo" output.txt | grep -q "^ok: \[localhost\]"  # the policy's task changed nothing
test "$("${policy[@]}" writes)" = 0

# -- after a ledgered DR test and a change of web-1, health names exactly web-1 ------------------------------------------
ansible-playbook replication.recovery.dr_test -e dr_test_project=demo -e dr_test_report_dir="$reports" -e dr_test_poll_interval=1 \
    -e dr_test_exclude=scratch-1 -e dr_test_check_public_ip=false | tee output.txt  # web-2 has none, by the policy
grep -q "DR test of demo: PASSED" output.txt
"${apply[@]}" -e '{"launch_policy_machines": {"web-1": {"instance_type": "t3.large"}, "web-2": {"public_ip_action": "DONT_ALLOCATE"}}}' \
    | tee output.txt
grep -q "1 of 3 machines changed: web-1;" output.txt
backup="$(sed -n 's/.*Backup: \(.*\.backup\.json\).*/\1/p' output.txt | head -1)"
test -s "$backup"
ansible-playbook replication.recovery.health -e health_projects=demo -e health_report_dir="$reports" -e health_fail=false | tee output.txt
grep -q "demo/web-1: changed since last proven on .* BLUEPRINT_UPDATED by policy@example.test" output.txt
test "$(grep -cE "demo/[a-z0-9-]+: changed since last proven" output.txt)" = 1  # exactly the re-configured machine

# -- the restore: every blueprint equal, member by member, to before the change ------------------------------------------
"${apply[@]}" -e launch_policy_restore="$backup" | tee output.txt
grep -q "Launch policy of demo: ROLLED BACK. 1 of 1 machines changed: web-1;" output.txt  # the backup held web-1 alone
"${policy[@]}" blueprints | diff applied.json -

# -- the CSV round trip: one cell edited, one blueprint written ----------------------------------------------------------
"${apply[@]}" -e launch_policy_export="$(pwd)/demo.csv" | tee output.txt
test -s demo.csv
test -s demo.yml
python - demo.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    if row["machine"] == "web-2":
        row["instance_type"] = "t3.medium"
        row["address"] = "192.168.10.40"  # re-addressed by the subnet map
with open(sys.argv[1], "w", newline="") as out:
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
PY
cp demo.csv edited.csv
"${policy[@]}" clear
"${apply[@]}" -e launch_policy_import="$(pwd)/edited.csv" | tee output.txt
grep -q "1 of 4 machines changed: web-2;" output.txt
test "$("${policy[@]}" writes)" = 1
"${policy[@]}" blueprints > imported.json
python - applied.json imported.json "$private_b" <<'PY'
import json, sys
applied, imported, private_b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert [name for name in applied if applied[name] != imported[name]] == ["web-2"]
web = imported["web-2"]
assert (web["instanceType"], web["subnetIDs"], web["privateIPAction"], web["privateIPs"]) == ("t3.medium", [private_b], "CUSTOM_IP", ["10.32.5.40"]), web
PY

# -- a bad row and a conflicting row: refused, named, nothing written ----------------------------------------------------
sed 's/^web-1,/web-9,/' edited.csv > bad.csv
"${policy[@]}" clear
if "${apply[@]}" -e launch_policy_import="$(pwd)/bad.csv" > output.txt 2>&1; then cat output.txt; echo "a bad row must be refused"; exit 1; fi
grep -q "row 4: web-9 is no machine of project demo" output.txt || { cat output.txt; exit 1; }
"${apply[@]}" -e '{"launch_policy_machines": {"db-1": {"instance_type": "c5.large"}}}' > /dev/null  # db-1 changes after the export
"${policy[@]}" clear
if "${apply[@]}" -e launch_policy_import="$(pwd)/edited.csv" > output.txt 2>&1; then cat output.txt; echo "a conflict must be refused"; exit 1; fi
grep -q "the blueprint of db-1 changed since the export" output.txt
test "$("${policy[@]}" writes)" = 0

# -- addresses from the source hosts: web-2's given, db-1's from its facts; web-1 has none and is named --------------------
cat > sources.yml <<'YML'
sources:
  hosts:
    web-2: {launch_policy_source_address: 192.168.10.30}
    db-1: {}
  vars: {ansible_connection: local, ansible_python_interpreter: "{{ ansible_playbook_python }}", agent_machine_name: "{{ inventory_hostname }}"}
YML
"${apply[@]}" -i sources.yml -e launch_policy_address_hosts=sources -e '{"launch_policy_addresses": {}}' | tee output.txt
grep -q "Not re-addressed: web-1: no private source address" output.txt
grep -q "Not re-addressed: db-1: " output.txt
"${policy[@]}" blueprints > addressed.json
python -c "import json, sys; web = json.load(open(sys.argv[1]))['web-2']; assert web['privateIPs'] == ['10.32.5.30'], web" addressed.json

# -- a write done without an answer stops the run; run again, each blueprint is written once, and the first backup puts
# -- them all back ---------------------------------------------------------------------------------------------------------
"${policy[@]}" blueprints > unanswered.json
micro=(-e '{"launch_policy_machines": {"web-1": {"instance_type": "t3.micro"}, "web-2": {"instance_type": "t3.micro"}}}'
       -e launch_policy_backup_dir="$reports/stopped")
"${policy[@]}" drop
"${policy[@]}" clear
if "${apply[@]}" "${micro[@]}" > output.txt 2>&1; then cat output.txt; echo "a write without an answer must stop the run"; exit 1; fi
grep -q "no answer from the service.* Blueprints may have been written before it stopped: run the policy again" output.txt
first_backup="$(ls "$reports"/stopped/*.backup.json)"
"${apply[@]}" "${micro[@]}" | tee output.txt
grep -q "Launch policy of demo: COMMITTED. 1 of 3 machines changed: web-2;" output.txt  # web-1 was written by the write without an answer
test "$("${policy[@]}" writes)" = 2
"${apply[@]}" -e launch_policy_restore="$first_backup" | tee output.txt
grep -q "Launch policy of demo: ROLLED BACK. 2 of 2 machines changed: web-1, web-2;" output.txt
"${policy[@]}" blueprints | diff unanswered.json -

# -- a rule sets the instance type of two machines whose blueprints had none (the service's default): the apply warns that
# -- its backup cannot undo that exactly; the restore names each machine and member it could not put back - never NOTHING DONE
unset=(ansible-playbook replication.recovery.launch_policy -e launch_policy_project=unset -e launch_policy_report_dir="$reports/unset")
"${unset[@]}" -e '{"launch_policy_defaults": {"instance_type": "t3.small"}}' 2>&1 | tee output.txt  # the warning is on stderr
grep -q "Launch policy of unset: COMMITTED. 2 of 2 machines changed: un-1, un-2;" output.txt
grep -q "cannot be undone exactly.*un-1 (instance_type), un-2 (instance_type)" output.txt
backup="$(ls "$reports"/unset/backups/*.backup.json)"
if "${unset[@]}" -e launch_policy_restore="$backup" > output.txt 2>&1; then cat output.txt; echo "a restore that cannot put back must fail"; exit 1; fi
grep -o '"Launch policy of unset: [^"]*"' output.txt
grep -q "Launch policy of unset: FAILED. 0 of 2 machines changed" output.txt
grep -q "un-1: instance_type could not be put back" output.txt
grep -q "un-2: instance_type could not be put back" output.txt
if grep -q "NOTHING DONE" output.txt; then echo "a restore that left members as they differ from the backup said nothing done"; exit 1; fi

rm -rf "$reports" "$XDG_DATA_HOME" output.txt ./*.json demo.csv demo.yml edited.csv bad.csv sources.yml
