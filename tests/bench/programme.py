"""The evidence runbook over a year of a 1,000-machine estate: a ledger of 100 projects of ten machines, a fleet health run
a day and ten DR tests a day (one in ten failing), 4,015 entries; the evidence playbook verifies and summarises it and
judges the audit programme (every control, 1,450 findings), as of the year's end. Its wall time against a target.

    python tests/bench/programme.py --output programme.json      (with the collection on ANSIBLE_COLLECTIONS_PATH)
"""

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time

START = 1767225600  # 2026-01-01T00:00:00Z
DAY = 86400
PROJECTS = ["p%03d" % number for number in range(100)]
TARGET_SECONDS = 60  # the evidence of a year of a thousand machines, programme included, within a minute


def moment(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def entry(sequence, previous, runbook, recorded, report):
    made = dict(schema="replication.recovery.ledger/v1", sequence=sequence, runbook=runbook, recorded=recorded, previous=previous,
                projects=[report["project"]] if report.get("project") else [p["name"] for p in report["projects"]],
                run="%s/" % recorded, result=report["result"], report=report)
    made["sha256"] = hashlib.sha256(json.dumps(made, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()
    return made


def ledger_of_a_year(directory):
    random.seed(54)
    os.makedirs(directory)
    previous, sequence = None, 0
    for day in range(365):
        runs = [("health", moment(START + day * DAY), dict(schema="replication.recovery.health/v1", result="passed", outcome="passed", projects=[
            dict(name=project, machines=[dict(name="m%d" % number) for number in range(10)]) for project in PROJECTS]))]
        for hour in range(1, 11):
            result = random.choice(["passed"] * 9 + ["failed"])
            runs.append(("dr_test", moment(START + day * DAY + hour * 3600), dict(
                schema="replication.recovery.dr_test/v1", project=random.choice(PROJECTS), result=result, outcome=result,
                machines=[dict(name="m%d" % number, passed=result == "passed", rto_seconds=300) for number in range(10)])))
        for runbook, recorded, report in runs:
            sequence += 1
            made = entry(sequence, previous, runbook, recorded, report)
            with open(os.path.join(directory, "%08d.json" % sequence), "w", encoding="utf-8") as handle:
                json.dump(made, handle)
            previous = made["sha256"]
    return sequence


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="bench-programme.")
    entries = ledger_of_a_year(os.path.join(work, "ledger"))
    began = time.monotonic()
    options = dict(replication_recovery_ledger_dir=os.path.join(work, "ledger"), evidence_report_dir=os.path.join(work, "evidence"),
                   evidence_as_of="2027-01-01T00:00:00Z", evidence_projects_from="ledger", evidence_fail=False)
    run = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "replication.recovery.evidence", "-e", json.dumps(options)],
                         capture_output=True, text=True, check=False)
    seconds = time.monotonic() - began
    if run.returncode != 0:
        sys.exit(run.stdout[-3000:] + run.stderr[-3000:])
    with open(os.path.join(work, "evidence", "evidence_programme.json"), encoding="utf-8") as handle:
        counts = json.load(handle)["counts"]
    result = dict(entries=entries, machines=len(PROJECTS) * 10, seconds=round(seconds, 1), target_seconds=TARGET_SECONDS,
                  within_target=seconds <= TARGET_SECONDS, counts=counts)
    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    print("The evidence of a year of %d machines (%d entries), programme included: %.1f s (target %d s: %s); %d findings" % (
        result["machines"], entries, seconds, TARGET_SECONDS, "met" if result["within_target"] else "MISSED", counts["findings"]))


if __name__ == "__main__":
    main()
