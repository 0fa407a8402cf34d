#!/usr/bin/env bash
# The restore test of a backup project: restore servers of a pinned point launched, validated as hosts, removed and proven
# gone, the report entered in the ledger; a validation that fails (reported, cleaned up, entered); the health role's last
# verified restore of the project from that ledger, apart from its last backup. The test stopped at each step and run
# again is dr_test_stopped's (files/stopped.py --runbook restore_test).
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=restore@example.test
export REPLICATION_SERVICE_PASSWORD=restore-password
export ANSIBLE_ROLES_PATH=..
export XDG_DATA_HOME="$PWD/data"  # the default ledger of runs, this test's own
reports="$(pwd)/reports"
ledger="$XDG_DATA_HOME/replication.recovery/ledger"
rm -rf "$reports" "$XDG_DATA_HOME" output.txt
common=(-e restore_test_project=backups -e restore_test_report_dir="$reports" -e restore_test_poll_interval=1
        -e restore_test_checks_tasks="$(pwd)/files/validate.yml")
backups=(python files/backups.py "$url")

python ../setup_simulator/files/simulator.py "$url" seed files/backups.json

# -- under --check: what it would restore, and nothing launched ------------------------------------------------------
ansible-playbook replication.recovery.restore_test --check "${common[@]}" | tee output.txt
grep -q "PLANNED. Would launch 3 machines (files-1, files-2, mail-1)." output.txt
"${backups[@]}" launches 0

# -- a restore test that passes: validated as hosts, removed, proven gone, in the ledger (under the free strategy, ----
# -- as under linear: every play of the playbook is linear) ----------------------------------------------------------
ANSIBLE_STRATEGY=free ansible-playbook replication.recovery.restore_test "${common[@]}" -e restore_test_point_in_time=latest | tee output.txt
grep -q "Restore test of backups: PASSED. 3 of 3 machines passed." output.txt
grep -q "Terminated 3 target machines: files-1, files-2, mail-1" output.txt
"${backups[@]}" report "$reports/restore_test_backups.json"
"${backups[@]}" launches 1
test -z "$("${backups[@]}" cloud)"
test -s "$ledger/00000001.json"
test -s "$reports/restore_test_backups.html"
test -s "$reports/restore_test_backups.junit.xml"

# -- a validation that fails: reported, the restore servers removed all the same, entered in the ledger (the role in ---
# -- one play: the validation of each server on this host) -------------------------------------------------------------
if ansible-playbook ../playbook_dr_test/one_play.yml -e one_play=restore_test "${common[@]}" -e fail_on=mail-1 > output.txt 2>&1; then
    cat output.txt; echo "a failed validation must fail the run"; exit 1
fi
grep -q "Restore test of backups: FAILED. 2 of 3 machines passed." output.txt
grep -q "mail-1 (validation: the restored files of mail-1 do not match their checksums" output.txt
"${backups[@]}" launches 2
test -z "$("${backups[@]}" cloud)"
python -c "import json, sys; e = json.load(open(sys.argv[1])); assert e['runbook'] == 'restore_test' and e['result'] == 'failed', e['result']" \
    "$ledger/00000002.json"

# -- health: the project's last verified restore (the passing one), apart from its last backup ------------------------
ansible-playbook replication.recovery.health -e health_projects=backups -e health_report_dir="$reports" -e '{"health_tested_within_days": null}' \
    -e health_restore_verified_within_days=7 | tee output.txt
python - "$reports/health.json" "$ledger/00000001.json" <<'PYTHON'
import json, sys
report, entry = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
[project] = report["projects"]
assert project["backup"]["last_verified"] == entry["report"]["launch_requested"], (project["backup"], entry["report"]["launch_requested"])
assert project["backup"]["verified_days_ago"] == 0 and project["backup"]["last_backed_up"], project["backup"]
assert report["thresholds"]["restore_verified_within_days"] == 7 and project["passed"] is True, report["failures"]
PYTHON
grep -q "restores last verified 20" "$reports/health.md"
# The evidence says why a project only restore-tested has its machines never proven: a restore test proves no recovery.
ansible-playbook replication.recovery.evidence -e replication_recovery_ledger_dir="$ledger" -e evidence_report_dir="$reports/evidence" | tee output.txt
grep -q "backups: 3 machines, 3 never proven by a passing DR test or failover (a restore test verified its backups, entry 1: it proves no \
recovery)" output.txt
# Against a ledger without a restore test: never verified, and the project fails.
if XDG_DATA_HOME="$(pwd)/empty" ansible-playbook replication.recovery.health -e health_projects=backups -e health_report_dir="$reports/empty" \
    -e '{"health_tested_within_days": null}' -e health_restore_verified_within_days=7 > output.txt 2>&1; then
    cat output.txt; echo "a backup project never verified must fail the health role"; exit 1
fi
grep -q "backups: backups: a restore was never verified, not within 7 days (restore_test)" output.txt

rm -rf "$reports" "$XDG_DATA_HOME" "$(pwd)/empty" output.txt
