#!/usr/bin/env bash
# Could a project fail over now? The readiness runbook as a pipeline and AWX run it, from a directory of their own,
# credentials in the environment, options as text. A steady project passes - one read of its machines, one points read a
# machine, nothing written to the service - with its report in every form and in the ledger; strict launch settings fail
# it (its subnets are the service's defaults). A troubled project fails naming each machine and why: paused, no point
# yet, a newest point too old, a subnet the region no longer has, failed over. --check judges alike and writes no file;
# readiness_fail=false reports without failing; an unknown project is refused by name, with no file.
set -euxo pipefail

url="$(sed -n 's/^simulator_url: //p' ../../integration_config.yml)"
export REPLICATION_SERVICE_URL="$url/api/latest"
export REPLICATION_SERVICE_USERNAME=ready@example.test
export REPLICATION_SERVICE_PASSWORD=ready-password
export ANSIBLE_ROLES_PATH="$PWD/.."
export XDG_DATA_HOME="$PWD/work/data"  # the default ledger of runs, this test's own
here="$(pwd)"
sim=(python "$here/files/readiness.py" "$url")
# The schema of the collection under test, where Ansible finds it (ansible-test runs a copy of this target elsewhere).
schema="${ANSIBLE_COLLECTIONS_PATH%%:*}/ansible_collections/replication/recovery/roles/readiness/files/report.schema.json"
rm -rf work && mkdir -p work/started-here
python ../setup_simulator/files/simulator.py "$url" seed files/readiness.json
cd work/started-here  # where ansible-playbook is started: the report directory is taken from here
ledger="$XDG_DATA_HOME/replication.recovery/ledger"

# -- a steady project: ready, read once, nothing written ------------------------------------------------------------------
"${sim[@]}" clear
ANSIBLE_SHOW_CUSTOM_STATS=true ansible-playbook replication.recovery.readiness -e readiness_project=steady -e readiness_rpo_target=1800 | tee output.txt
# The default callback shows what set_stats published as one line of JSON: "	RUN: {...}".
python - output.txt "$(pwd)" <<'PY'
import json, sys
line = next(line for line in open(sys.argv[1]) if line.lstrip().startswith("RUN: "))
stats = json.loads(line.split("RUN: ", 1)[1])["readiness"]
assert (stats["project"], stats["result"], stats["outcome"], stats["not_ready"]) == ("steady", "passed", "passed", []), stats
assert stats["counts"] == {"machines": 3, "ready": 3, "not_ready": 0, "failed_over": 0}, stats
assert stats["report"]["json"].startswith(sys.argv[2] + "/readiness_report/readiness_steady.20") and stats["ledger"]["sequence"] == 1, stats
PY
grep -q "Readiness of steady: PASSED. 3 of 3 machines could fail over now." output.txt
grep -q "Every machine of steady could fail over now, from a point in time within 30 min 0 s. Nothing was changed." output.txt
"${sim[@]}" requests 3
for form in json junit.xml md html; do test -s "readiness_report/readiness_steady.$form"; done
ls readiness_report/readiness_steady.20*.json
grep -q "Report: $(pwd)/readiness_report/readiness_steady.20" output.txt  # every path printed is absolute
"${sim[@]}" check "$schema" readiness_report/readiness_steady.json | grep -q '"result": "passed", "not_ready": \[\]'
grep -q "^# Readiness of steady: PASSED" readiness_report/readiness_steady.md
grep -q "Readiness of steady: PASSED" readiness_report/readiness_steady.html
python - "$ledger" <<'PY'
import json, os, sys
entries = [json.load(open(os.path.join(sys.argv[1], name))) for name in sorted(os.listdir(sys.argv[1]))]
assert [(e["runbook"], e["projects"], e["result"]) for e in entries] == [("readiness", ["steady"], "passed")], entries
PY
grep -q "Entry 1, SHA-256" readiness_report/readiness_steady.html

# -- as an AWX survey gives it: every value text; strict launch settings: the service's default subnet cannot be proven --
if ansible-playbook replication.recovery.readiness -e readiness_project=steady -e readiness_rpo_target="1800" \
        -e readiness_states="continuous,lagging" -e readiness_launch_settings_strict="true" >output.txt 2>&1; then
    cat output.txt; echo "strict launch settings must fail machines whose subnet is the service's default"; exit 1
fi
grep -q "Readiness of steady: FAILED. 0 of 3 machines could fail over now." output.txt
grep -q "web-1: launch settings: left to the service's default, which cannot be proven: subnet" output.txt

# -- a troubled project: each machine that is not ready named, with why -----------------------------------------------
"${sim[@]}" trouble
"${sim[@]}" advance 3600
"${sim[@]}" clear
if ansible-playbook replication.recovery.readiness -e readiness_project=trouble -e readiness_rpo_target=1800 >output.txt 2>&1; then
    cat output.txt; echo "a troubled project must fail"; exit 1
fi
cat output.txt
grep -q "Readiness of trouble: FAILED. 1 of 6 machines could fail over now." output.txt
grep -q "paused-1: replicating: paused" output.txt
grep -q "new-1: newest point: no point in time yet" output.txt
grep -Eq "old-1: newest point: [0-9T:.+-]+ \(.*\), 1 h [0-9]+ min old against a target of 30 min 0 s" output.txt
grep -Eq "db-1: launch settings: subnet subnet-[0-9a-f]+ is not in region us-east-1" output.txt
grep -q "app-1: not failed over: failed over since" output.txt
grep -q "5 of 6 machines of trouble are not ready: each names what to fix in its checks. Nothing was changed" output.txt
"${sim[@]}" requests 6
"${sim[@]}" check "$schema" readiness_report/readiness_trouble.json | tee checked.json
python -c "import json, sys; found = json.load(open(sys.argv[1])); assert found['not_ready'] == ['app-1', 'db-1', 'new-1', 'old-1', 'paused-1'], found" checked.json

# -- reported, not failed; then --check: the same verdict, no file -------------------------------------------------------
ansible-playbook replication.recovery.readiness -e readiness_project=trouble -e readiness_rpo_target=1800 -e readiness_fail=false | tee output.txt
grep -q "Readiness of trouble: FAILED. 1 of 6 machines could fail over now." output.txt
rm -rf readiness_report
if ansible-playbook replication.recovery.readiness --check -e readiness_project=trouble -e readiness_rpo_target=1800 >output.txt 2>&1; then
    cat output.txt; echo "--check must fail as the real run does"; exit 1
fi
grep -q "Readiness of trouble: FAILED. 1 of 6 machines could fail over now (check mode: no file written)." output.txt
grep -q "Check mode: no report is written, and nothing is entered in the ledger" output.txt
test ! -e readiness_report
test "$(find "$ledger" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)" = 4  # steady, steady strict, trouble, trouble reported: none under --check

# -- a project that is not there: refused by name, no file (an RPO target that is no number, and a project not given: ------
# -- test_runbook_options.py, test_a_value_that_is_not_of_its_options_type_is_refused_by_name_before_anything_is_read and --
# -- test_a_misspelt_required_option_is_refused_naming_both_in_one_line; the target options_meant gives one end to end) -----
if ansible-playbook replication.recovery.readiness -e readiness_project=stedy -e readiness_rpo_target=1800 >output.txt 2>&1; then
    cat output.txt; echo "an unknown project must be refused"; exit 1
fi
grep -q "stedy" output.txt
test ! -e readiness_report

cd "$here" && rm -rf work
