#!/usr/bin/env bash
# The ledger of runs as an auditor reads it: three DR tests and a health run entered into one ledger,
# each chained to the one before it; the evidence playbook verifies it and summarises it; one byte
# edited in the second entry, or the second entry deleted, or the newest one removed (against a kept
# head) makes it fail naming that entry; under --check it verifies and writes nothing. A blueprint changed
# after the passing DR tests makes its machine changed since last proven in the health report, the DR test
# of the unproven machines tests it alone, and it is proven again; a write to the project's replication
# configuration makes every machine changed. The two modules on
# their own (modules.yml): a report entered again changes nothing, check mode, bad input.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=proof@example.test
export REPLICATION_SERVICE_PASSWORD=proof-password
export ANSIBLE_ROLES_PATH=..
work="$(pwd)/work"
ledger="$work/ledger"
evidence=(-e replication_recovery_ledger_dir="$ledger" -e evidence_report_dir="$work/evidence")
rm -rf "$work" output.txt
mkdir -p "$work"

python ../setup_simulator/files/simulator.py "$url" seed files/proof.json

# -- three DR tests and a health run, into one ledger -----------------------------------------------
for run in 1 2 3; do
    ansible-playbook replication.recovery.dr_test -e dr_test_project=proof -e dr_test_report_dir="$work/reports" -e dr_test_poll_interval=1 \
        -e dr_test_rto_target=7200 -e replication_recovery_ledger_dir="$ledger" | tee output.txt
    grep -q "Ledger: entry $run in $ledger, SHA-256 [0-9a-f]\{64\}" output.txt
done
ansible-playbook replication.recovery.health -e health_projects=proof -e health_report_dir="$work/reports" \
    -e replication_recovery_ledger_dir="$ledger" -e health_tested_within_days=30
[ "$(ls "$ledger")" = "$(printf '00000001.json\n00000002.json\n00000003.json\n00000004.json')" ]
python -c "import json, sys; [p] = json.load(open(sys.argv[1]))['projects']; f = p['rto_forecast']; \
assert p['passed'] and f['meets_target'] is True and f['target_seconds'] == 7200 and sorted(f['machines']) == ['db-1', 'web-1'], p" \
    "$work/reports/health.json"
grep -q "<h1>Fleet health: PASSED</h1>" "$work/reports/health.html"
grep -q "Entry 4, SHA-256" "$work/reports/health.html"
echo '{"schema": "replication.recovery.nothing/v1"}' > "$ledger-summary.json"
echo '{"schema": "replication.recovery.evidence/v1"}' > "$ledger-partial.json"
ansible-playbook modules.yml -e ledger="$ledger" -e reports="$work/reports"
head="$(python -c "import json, sys; print(json.load(open(sys.argv[1]))['sha256'])" "$ledger/00000004.json")"

# -- verified and summarised ---------------------------------------------------------------------------
ansible-playbook replication.recovery.evidence "${evidence[@]}" -e evidence_period=month -e evidence_expected_head="$head" | tee output.txt
grep -q "The ledger is whole: 4 entries, head $head." output.txt
grep -q "proof: 2 machines, each proven by a passing DR test or failover; RTO forecast p90 " output.txt
python files/summary.py "$work/evidence/evidence.json" "$head"
grep -q "^# Evidence: the ledger is whole" "$work/evidence/evidence.md"
grep -q "The ledger is whole" "$work/evidence/evidence.html"
python -c "import sys, xml.etree.ElementTree as tree; case = tree.parse(sys.argv[1]).find('testsuite/testcase'); sys.exit(case.get('name') != 'ledger whole' or case.find('failure') is not None)" "$work/evidence/evidence.junit.xml"

# -- under --check: verified, nothing written -----------------------------------------------------------
rm -rf "$work/evidence"
ansible-playbook replication.recovery.evidence --check "${evidence[@]}" | tee output.txt
grep -q "The ledger is whole: 4 entries" output.txt
if [ -e "$work/evidence" ]; then echo "check mode wrote the summary"; exit 1; fi

# -- one byte edited in the second entry ------------------------------------------------------------------
cp "$ledger/00000002.json" "$work/kept.json"
python files/edit_byte.py "$ledger/00000002.json"
if ansible-playbook replication.recovery.evidence "${evidence[@]}" | tee output.txt; then
    echo "an edited entry must fail the evidence"; exit 1
fi
grep -q "Entry 2 (00000002.json: dr_test of proof, recorded [0-9T:Z-]*) was changed after it was written" output.txt
if grep -q "Entry [134] " output.txt; then echo "an entry that was not edited was named"; exit 1; fi
grep -q "THE LEDGER IS BROKEN" "$work/evidence/evidence.md"
grep -q '<failure message="Entry 2 ' "$work/evidence/evidence.junit.xml"
cp "$work/kept.json" "$ledger/00000002.json"
ansible-playbook replication.recovery.evidence "${evidence[@]}"

# -- the second entry deleted -------------------------------------------------------------------------
rm "$ledger/00000002.json"
if ansible-playbook replication.recovery.evidence "${evidence[@]}" | tee output.txt; then
    echo "a deleted entry must fail the evidence"; exit 1
fi
grep -q "Entry 2 is missing: removed from the ledger." output.txt
cp "$work/kept.json" "$ledger/00000002.json"

# -- the newest entry removed: the chain is whole, the kept head is not in it ------------------------------
mv "$ledger/00000004.json" "$work/newest.json"
ansible-playbook replication.recovery.evidence "${evidence[@]}"
if ansible-playbook replication.recovery.evidence "${evidence[@]}" -e evidence_expected_head="$head" | tee output.txt; then
    echo "a ledger without its kept head must fail the evidence"; exit 1
fi
grep -q "No entry has the SHA-256 $head" output.txt
mv "$work/newest.json" "$ledger/00000004.json"

# -- a blueprint changed after the passing DR tests: web-1 is changed since last proven, and the DR test of -----
#    the unproven machines tests it alone; then it is proven again, and that DR test has nothing to test
ansible localhost -m replication.recovery.service_blueprint -a "project=proof machine=web-1 instance_type=m5.xlarge"
health=(replication.recovery.health -e health_projects=proof -e health_report_dir="$work/reports" -e replication_recovery_ledger_dir="$ledger")
ansible-playbook "${health[@]}" | tee output.txt
python files/proofs.py "$work/reports/health.json" web-1=changed:3 db-1=proven:3
grep -q "proof/web-1: changed since last proven on [0-9T:.+-]* (entry 3 of the ledger, dr_test): [0-9T:.+-]* BLUEPRINT_UPDATED by proof@example.test" output.txt
grep -q "; 1 not proven by a passing DR test or failover (changed since last proven, or never proven; a restore test verifies a backup, it proves no recovery)." output.txt
grep -q "^- web-1: .* BLUEPRINT_UPDATED by proof@example.test" "$work/reports/health.md"
if ansible-playbook "${health[@]}" -e health_require_proven=true | tee output.txt; then
    echo "a machine changed since last proven must fail the health run that requires proof"; exit 1
fi
grep -q "proof/web-1: proven: changed since last proven" output.txt
dr_test=(replication.recovery.dr_test -e dr_test_project=proof -e dr_test_report_dir="$work/reports" -e dr_test_poll_interval=1
         -e dr_test_rto_target=7200 -e replication_recovery_ledger_dir="$ledger" -e dr_test_machines=unproven)
ansible-playbook "${dr_test[@]}" | tee output.txt
grep -q "1 of 2 machines are not proven (the ledger of runs): web-1: changed since last proven" output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); \
assert r['result'] == 'passed' and [m['name'] for m in r['machines']] == ['web-1'] and r['machines'][0]['passed'], r['machines']" \
    "$work/reports/dr_test_proof.json"
unproven_run="$(basename "$(printf '%s\n' "$ledger"/* | tail -n 1)")"
ansible-playbook "${health[@]}" -e health_require_proven=true
python files/proofs.py "$work/reports/health.json" "web-1=proven:${unproven_run:0:8}" db-1=proven:3
ansible-playbook "${dr_test[@]}" | tee output.txt
grep -q "Every machine of project proof is proven (the ledger of runs): none changed since it last passed; nothing to test." output.txt
python -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['result'] == 'passed' and r['machines'] == [], r" \
    "$work/reports/dr_test_proof.json"

# -- a write to the project that names no machine (its replication configuration): each machine is changed ------
ansible localhost -m replication.recovery.service_replication_config -a "project=proof region=us-east-1 server_type=t3.medium"
ansible-playbook "${health[@]}" | tee output.txt
python files/proofs.py "$work/reports/health.json" web-1=changed:project db-1=changed:project
grep -q "; 2 not proven by a passing DR test or failover (changed since last proven, or never proven; a restore test verifies a backup, it proves no recovery)." output.txt

# -- the RTO target cut below what the recorded runs took: the health report names the project ----------------
if ansible-playbook replication.recovery.dr_test -e dr_test_project=proof -e dr_test_report_dir="$work/reports" -e dr_test_poll_interval=1 \
        -e dr_test_rto_target=1 -e replication_recovery_ledger_dir="$ledger"; then
    echo "a DR test over its RTO target must fail"; exit 1
fi
if ansible-playbook replication.recovery.health -e health_projects=proof -e health_report_dir="$work/reports" \
        -e replication_recovery_ledger_dir="$ledger" | tee output.txt; then
    echo "a project whose RTO forecast misses its target must fail the health run"; exit 1
fi
grep -q "proof: RTO forecast: a full recovery would take [0-9.]* s (the slowest machine's 90th percentile over its recent passing runs in the ledger), over the target of 1 s" output.txt
grep -q "against a target of 1 s: MISSED" "$work/reports/health.md"
grep -q "0 of 2 machines in 1 projects missed a threshold; 2 not proven by a passing DR test or failover (changed since last proven, or never proven; a restore test verifies a backup, it proves no recovery); the RTO forecast of proof misses its target." output.txt
ansible-playbook replication.recovery.evidence "${evidence[@]}" | tee output.txt
grep -q "The ledger is whole: 12 entries" output.txt

# -- without a ledger named: the default one every runbook on this controller shares; none yet is an empty ledger ---
XDG_DATA_HOME="$work/data" ansible-playbook replication.recovery.evidence -e evidence_report_dir="$work/evidence-default" | tee output.txt
grep -q "The ledger is whole: 0 entries, head none yet." output.txt
grep -q "The ledger is $work/data/replication.recovery/ledger (the default; no run entered a report in it yet)." output.txt
rm -rf "$work" output.txt
