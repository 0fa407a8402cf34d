"""After one DR test of the shop: its report (JSON, JUnit) and the target cloud, against what the caller expects.

    python outcome.py URL REPORT_DIR passed|failed [CHECKS [MACHINES]]

CHECKS and MACHINES are JSON lists: the run's checks and machines, by name and in order (any, when not given). The report
follows its schema and the JUnit file agrees with it (setup_simulator/files/validate_report.py), and the target cloud
is empty.
"""

import json
import os
import subprocess
import sys

import requests

HERE = os.path.dirname(os.path.abspath(__file__))


def main(url, report_dir, expect, checks=None, machines=None):
    collection = os.environ["ANSIBLE_COLLECTIONS_PATH"].split(":")[0] + "/ansible_collections/replication/recovery"
    report_path = os.path.join(report_dir, "dr_test_shop.json")
    junit = json.loads(subprocess.check_output([
        sys.executable, os.path.join(HERE, "..", "..", "setup_simulator", "files", "validate_report.py"),
        collection + "/roles/runbook/files/report.schema.json", report_path, os.path.join(report_dir, "dr_test_shop.junit.xml")]))
    with open(report_path) as handle:
        report = json.load(handle)
    cloud = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    assert report["result"] == expect, report["failures"]
    assert (junit["failures"] == 0) == (expect == "passed"), (junit, report["failures"])
    if checks is not None:
        assert [check["name"] for check in report["checks"]] == json.loads(checks), report["checks"]
    if machines is not None:
        assert [machine["name"] for machine in report["machines"]] == json.loads(machines), report["machines"]
    assert cloud == [], cloud


if __name__ == "__main__":
    if not 4 <= len(sys.argv) <= 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
