#!/usr/bin/env bash
# The audit programme over a ledger built by real runs (docs/programme.md): a DR test of db-1 and web-1 that fails opens a
# finding; a passing DR test of app-1 leaves it open; the clock moved past its due date fails the evidence run naming it; a
# waiver given as an AWX survey gives it (JSON text) turns it waived, and the clock past the waiver's expiry reopens it; a
# passing DR test of db-1 and web-1 closes it. A sign-off made with an SSH key is verified; the failed entry it covers
# edited and every hash after it recomputed (the chain alone holds) - the evidence run names the entry and the sign-off.
# Under --check a waiver and a sign-off enter nothing; a waiver without an expiry, or one already expired, is refused with
# nothing written; the controls read the service's projects (one request). The OSCAL export is validated with
# compliance-trestle, with findings open, waived and all closed.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=auditor@example.test
export REPLICATION_SERVICE_PASSWORD=audit-password-9
export ANSIBLE_ROLES_PATH=..
work="$(pwd)/work"
ledger="$work/ledger"
# The entries of a ledger (what ls lists: its dot files left out).
entries_in() { find "$1" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l; }
evidence=(replication.recovery.evidence -e replication_recovery_ledger_dir="$ledger" -e evidence_report_dir="$work/evidence")
programme="$work/evidence/evidence_programme.json"
dr_test=(replication.recovery.dr_test -e dr_test_project=payments -e dr_test_report_dir="$work/reports" -e dr_test_poll_interval=1
         -e replication_recovery_ledger_dir="$ledger")
rm -rf "$work" output.txt
mkdir -p "$work"
later() { python -c "import sys, time; print(time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(time.time() + int(sys.argv[1]) * 86400)))" "$1"; }
moment="[0-9T:Z-]*"
# said TEXT: the evidence run's outcome line says what the programme judged, in these words (output.txt).
said() {
    grep -q "Audit programme as of [0-9T:Z-]*: $1" output.txt || { grep -o "Audit programme as of [^\"]*" output.txt; echo "not said: $1"; exit 1; }
}
# The finding's status in the programme, and the programme's result: finding STATUS RESULT
finding() {
    python -c "import json, sys; p = json.load(open(sys.argv[1])); [f] = [f for f in p['findings'] if f['id'] == 'FAILED-RUN:payments:1']; \
assert (f['status'], p['result']) == (sys.argv[2], sys.argv[3]), (f, p['result'], p['failures']); \
assert f['scope']['machines'] == ['db-1', 'web-1'] and f['control'] == 'DR-TEST-YEARLY', f" "$programme" "$1" "$2"
}

python ../setup_simulator/files/simulator.py "$url" seed files/programme.json

# -- a DR test of db-1 and web-1 over its RTO target: a finding, open, due in 30 days (severity high) -------------------
if ansible-playbook "${dr_test[@]}" -e dr_test_machines=db-1,web-1 -e dr_test_rto_target=1; then
    echo "a DR test over its RTO target must fail"; exit 1
fi
# A date in the wrong form is refused before any file is written.
if ansible-playbook "${evidence[@]}" -e evidence_as_of=15/01/2027 | tee output.txt; then
    echo "a date in the wrong form must be refused"; exit 1
fi
grep -q "evidence_as_of is '15/01/2027', not a date or an RFC 3339 moment .* Nothing was written." output.txt
if [ -e "$work/evidence" ]; then echo "a refused run wrote files"; exit 1; fi
curl -sf -X DELETE "$url/_simulator/stats"
ansible-playbook "${evidence[@]}" | tee output.txt
curl -sf "$url/_simulator/stats" >"$work/stats.json"
# One read of the service's projects (and the session's sign-in and sign-out); no write.
python -c "import json, sys; s = json.load(open(sys.argv[1])); routes = sorted((r['method'], r['route'], r['count']) for r in s['requests']); \
assert routes == [('GET', '/projects', 1), ('POST', '/login', 1), ('POST', '/logout', 1)] and s['writes'] == 0, s" "$work/stats.json"
# No control is met by a run that never ran: the DR test failed, no clean point search ran (each within its first year:
# not yet due), and no backup project or application is there to judge.
said "0 of 4 controls met; 2 not yet due (CLEAN-POINT-DRILL-YEARLY over payments, due $moment; DR-TEST-YEARLY over payments, due \
$moment); 2 with nothing to judge (FAILOVER-ROLLBACK-YEARLY: no applications; RESTORE-TEST-90-DAYS: no backup projects); findings: 3 open, 0 \
overdue, 0 waived, 0 closed."
python -c "import json, sys; p = json.load(open(sys.argv[1])); [c] = [c for c in p['controls'] if c['id'] == 'CLEAN-POINT-DRILL-YEARLY']; \
[s] = c['scopes']; assert (c['status'], s['status'], s['met'], s['last_run']) == ('not yet due', 'not yet due', False, None) and s['next_due'], c; \
assert p['counts']['controls_met'] == 0 and p['counts']['controls_not_yet_due'] == 2, p['counts']" "$programme"
finding open passed
python -c "import json, sys; p = json.load(open(sys.argv[1])); assert p['projects_from'] == 'service', p['projects_from']; \
[c] = [c for c in p['controls'] if c['id'] == 'DR-TEST-YEARLY']; assert [s['name'] for s in c['scopes']] == ['payments'], c" "$programme"
grep -q "^# Audit programme as of" "$work/evidence/evidence_programme.md"
python files/oscal_valid.py "$work/evidence"  # the OSCAL export, validated by compliance-trestle
python -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
    "$programme" "${ANSIBLE_COLLECTIONS_PATH%%:*}/ansible_collections/replication/recovery/roles/evidence/files/programme.schema.json"

# Once their first year has ended, they are not met.
ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 400)" | tee output.txt || true
said "0 of 4 controls met; 2 not met (CLEAN-POINT-DRILL-YEARLY over payments; DR-TEST-YEARLY over payments); 2 with nothing to judge"

# -- a passing DR test of other machines leaves it open; 40 days on it is overdue, and the evidence run fails naming it ---
# The control it counts for is met, naming its ledger entry.
ansible-playbook "${dr_test[@]}" -e dr_test_machines=app-1 -e dr_test_rto_target=7200
ansible-playbook "${evidence[@]}" | tee output.txt
said "1 of 4 controls met (DR-TEST-YEARLY over payments by entry 2); 1 not yet due (CLEAN-POINT-DRILL-YEARLY over payments, due $moment)"
python -c "import json, sys; [c] = [c for c in json.load(open(sys.argv[1]))['controls'] if c['id'] == 'DR-TEST-YEARLY']; \
assert (c['status'], c['scopes'][0]['last_run']['sequence']) == ('met', 2), c" "$programme"
finding open passed
if ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 40)" | tee output.txt; then
    echo "an overdue finding must fail the evidence run"; exit 1
fi
grep -q "Finding FAILED-RUN:payments:1 (the DR test of payments failed (entry 1): db-1, web-1) was due by [0-9T:Z-]* and is still open: overdue." output.txt
finding overdue failed

# -- waived until 60 days on, as AWX gives it (JSON text); --check enters nothing; 70 days on it is open again -----------
waiver="{\"finding\": \"FAILED-RUN:payments:*\", \"owner\": \"cio@example.test\", \"reason\": \"CHG-31: RTO target under review\", \"expires\": \"$(later 60)\"}"
never="{\"finding\": \"NEVER-PROVEN:payments:*\", \"owner\": \"cio@example.test\", \"reason\": \"CHG-31: RTO target under review\", \"expires\": \"$(later 60)\"}"
waivers="$(python -c "import json, sys; print(json.dumps({'evidence_waive': '[%s, %s]' % (sys.argv[1], sys.argv[2])}))" "$waiver" "$never")"
entries="$(entries_in "$ledger")"
ansible-playbook "${evidence[@]}" --check -e evidence_as_of="$(later 40)" -e "$waivers" | tee output.txt
grep -q "Would enter a waiver of FAILED-RUN:payments:\* by cio@example.test until" output.txt
[ "$(entries_in "$ledger")" = "$entries" ]
ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 40)" -e "$waivers" | tee output.txt
grep -q "Entered a waiver of FAILED-RUN:payments:\* by cio@example.test until" output.txt
[ "$(entries_in "$ledger")" = "$((entries + 2))" ]
finding waived passed
python files/oscal_valid.py "$work/evidence"
grep -q "waived by cio@example.test until [0-9T:Z-]*: CHG-31: RTO target under review" "$work/evidence/evidence_programme.md"
ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 40)" -e "$waivers" | tee output.txt  # the same waivers again: entered once
grep -q "Entered before (a run again): the waiver of FAILED-RUN:payments:\* by cio@example.test until" output.txt
grep -q "changed=0 " output.txt
[ "$(entries_in "$ledger")" = "$((entries + 2))" ]
if ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 70)" | tee output.txt; then
    echo "a finding whose waiver expired must be overdue again"; exit 1
fi
finding overdue failed
python -c "import json, sys; [f] = [f for f in json.load(open(sys.argv[1]))['findings'] if f['id'] == 'FAILED-RUN:payments:1']; \
assert f['waiver']['expired'] and f['waiver']['owner'] == 'cio@example.test', f" "$programme"

# -- wrong waivers are refused, naming what is wrong, with nothing entered ---------------------------------------------
for wrong in '{"finding": "FAILED-RUN:payments:1", "owner": "cio", "reason": "r"}' \
             '{"finding": "FAILED-RUN:payments:1", "owner": "cio", "reason": "r", "expires": "2020-01-01"}' \
             '{"finding": "FAILED-RUN:payments:1", "owner": "cio", "reason": "r", "expires": "31/12/2099"}'; do
    if ansible-playbook "${evidence[@]}" -e "$(python -c "import json, sys; print(json.dumps({'evidence_waive': sys.argv[1]}))" "$wrong")" \
            | tee output.txt; then
        echo "a wrong waiver must be refused: $wrong"; exit 1
    fi
    grep -q "Waiver 1.*Nothing was written." output.txt
    [ "$(entries_in "$ledger")" = "$((entries + 2))" ]
done

# -- a passing DR test of the same machines closes it -----------------------------------------------------------------
ansible-playbook "${dr_test[@]}" -e dr_test_machines=db-1,web-1 -e dr_test_rto_target=7200
ansible-playbook "${evidence[@]}" -e evidence_as_of="$(later 70)"
finding closed passed
python files/oscal_valid.py "$work/evidence" | grep -q "OSCAL valid: 4 controls, 3 findings, 0 POA&M items"
python -c "import json, sys; [f] = [f for f in json.load(open(sys.argv[1]))['findings'] if f['id'] == 'FAILED-RUN:payments:1']; \
assert f['closed']['by'] == $((entries + 3)) and f['closed']['runbook'] == 'dr_test', f" "$programme"

# -- signed off with an SSH key; verified; the failed entry edited and the chain recomputed: named with the sign-off -------
ssh-keygen -q -t ed25519 -N "" -C dr-manager -f "$work/dr-manager"
echo "dr-manager@example.test $(cut -d' ' -f1,2 "$work/dr-manager.pub")" > "$work/allowed_signers"
signing=(-e evidence_sign_key="$work/dr-manager" -e evidence_allowed_signers="$work/allowed_signers")
ansible-playbook "${evidence[@]}" --check "${signing[@]}" | tee output.txt
grep -q "Would sign by dr-manager@example.test over entry $((entries + 3))" output.txt
[ "$(entries_in "$ledger")" = "$((entries + 3))" ]
ansible-playbook "${evidence[@]}" "${signing[@]}" | tee output.txt
# The sign-off signs what the programme says, in its words.
grep -q "Signed by dr-manager@example.test over entry $((entries + 3)): Audit programme as of [0-9T:Z-]*: 1 of 4 controls met \
(DR-TEST-YEARLY over payments by entry $((entries + 3))); 1 not yet due" output.txt
python -c "import re, sys; text = open(sys.argv[1]).read(); [signed] = re.findall(r'over entry [0-9]+: (Audit programme as of [^\"]*)', text); \
assert re.search(r'\"' + re.escape(signed) + r'\"', text.replace('Signed by', '')), signed" output.txt
signoff=$((entries + 4))
ansible-playbook "${evidence[@]}" -e evidence_allowed_signers="$work/allowed_signers" | tee output.txt
grep -q "Sign-off entry $signoff by dr-manager@example.test: holds, its signature verified." output.txt
if ansible-playbook "${evidence[@]}" "${signing[@]}" -e evidence_as_of="$(later 1)" | tee output.txt; then
    echo "a sign-off with evidence_as_of must be refused"; exit 1
fi
grep -q "A sign-off approves the ledger as it is now" output.txt
python files/rechain.py "$ledger" 1
if ansible-playbook "${evidence[@]}" -e evidence_allowed_signers="$work/allowed_signers" | tee output.txt; then
    echo "an entry edited after its sign-off must fail the evidence run"; exit 1
fi
grep -q "The ledger is whole: $signoff entries" output.txt  # the chain alone holds
grep -q "Entry 1 (dr_test of payments, recorded [0-9T:Z-]*) was changed after sign-off entry $signoff (by dr-manager@example.test, [0-9T:Z-]*) signed it" output.txt
if grep -q "Entry 2 (" output.txt; then echo "an entry that was not edited was named"; exit 1; fi
# ...and a ledger a sign-off no longer holds over is signed no more.
if ansible-playbook "${evidence[@]}" "${signing[@]}" | tee output.txt; then
    echo "signing a broken ledger must be refused"; exit 1
fi
grep -q "a sign-off would approve what broke; nothing was signed." output.txt
[ "$(entries_in "$ledger")" = "$signoff" ]
rm -rf "$work" output.txt
