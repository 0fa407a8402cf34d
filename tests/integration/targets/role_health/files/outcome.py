"""The health report in REPORT_DIR against what the caller expects; then the simulator's statistics zeroed for the next run.

    python outcome.py URL REPORT_DIR passed|failed [--failures JSON] [--passed JSON] [--excluded JSON] [--projects-read N]

--failures: patterns, each matched by exactly one failure; --passed: the machines that passed (project/machine);
--excluded: the machines excluded; --projects-read: the machine lists the run cost (one per project), and nothing read
per machine. The report follows its schema and the JUnit file agrees with it (setup_simulator/files/validate_report.py),
and the summary's title says the result.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import requests

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("url")
    parser.add_argument("report_dir")
    parser.add_argument("expect", choices=("passed", "failed"))
    parser.add_argument("--failures", type=json.loads, default=[])
    parser.add_argument("--passed", type=json.loads)
    parser.add_argument("--excluded", type=json.loads)
    parser.add_argument("--projects-read", type=int)
    args = parser.parse_args()
    collection = os.environ["ANSIBLE_COLLECTIONS_PATH"].split(":")[0] + "/ansible_collections/replication/recovery"
    junit = json.loads(subprocess.check_output([
        sys.executable, os.path.join(HERE, "..", "..", "setup_simulator", "files", "validate_report.py"),
        collection + "/roles/health/files/report.schema.json", os.path.join(args.report_dir, "health.json"),
        os.path.join(args.report_dir, "health.junit.xml")]))
    with open(os.path.join(args.report_dir, "health.json")) as handle:
        report = json.load(handle)
    with open(os.path.join(args.report_dir, "health.md")) as handle:
        summary = handle.read()
    said = "%s; passed: %s; excluded: %s" % (report["failures"], junit["passed"], report["excluded"])
    assert report["result"] == args.expect, said
    assert (junit["failures"] == 0) == (args.expect == "passed") and junit["failures"] == len(report["failures"]), said
    assert re.search("# Fleet health: " + args.expect.upper(), summary), summary
    assert args.passed is None or junit["passed"] == args.passed, said
    assert args.excluded is None or report["excluded"] == args.excluded, said
    for pattern in args.failures:
        assert len([failure for failure in report["failures"] if re.search(pattern, failure)]) == 1, "%s is not one of %s" % (
            pattern, report["failures"])
    requests_seen = requests.get(args.url + "/_simulator/stats", timeout=30).json()["requests"]
    if args.projects_read is not None:
        lists = sum(row["count"] for row in requests_seen if row["route"] == "/projects/{projectId}/machines")
        per_machine = [row for row in requests_seen if re.search(r"\{(machineId|replicaId)\}", row["route"])]
        assert lists == args.projects_read and per_machine == [], (lists, per_machine)
    requests.delete(args.url + "/_simulator/stats", timeout=30).raise_for_status()


if __name__ == "__main__":
    main()
