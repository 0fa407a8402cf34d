"""The report of a DR test of the shop in three waves (db-1; web-1; web-2) whose second wave failed:
the first wave launched, checked and cleaned up; the second failed for web-1; the third never
launched - and the service saw two launch jobs, the first for db-1 alone.

    python waves.py REPORT SIMULATOR_URL
"""

import json
import sys

import requests

report_path, simulator = sys.argv[1:3]
with open(report_path) as handle:
    report = json.load(handle)
waves = [(wave["machines"], wave["status"]) for wave in report["waves"]]
assert waves == [(["db-1"], "launched"), (["web-1"], "failed"), (["web-2"], "not launched")], waves
assert report["waves"][2]["message"] == "wave 2 failed: web-1 did not launch", report["waves"][2]
machines = dict((machine["name"], machine) for machine in report["machines"])


def checks(name):
    return dict((check["name"], check) for check in machines[name]["checks"])


assert machines["db-1"]["passed"] and machines["db-1"]["wave"] == 1 and machines["db-1"]["cleanup"] == "removed"
assert checks("db-1")["checks"]["status"] == "passed", checks("db-1")  # the first wave was checked
assert checks("web-1")["launch"]["status"] == "failed" and machines["web-1"]["target"] is None
assert checks("web-2")["launch"] == {"name": "launch", "status": "skipped", "message": "wave 2 failed: web-1 did not launch"}
assert machines["web-2"]["target"] is None and machines["web-2"]["cleanup"] == "nothing to remove"

session = requests.Session()
session.post(simulator + "/api/latest/login", json={"username": "fleet@example.test", "password": "fleet-password"}, timeout=30).raise_for_status()
project = next(p for p in session.get(simulator + "/api/latest/projects", timeout=30).json()["items"] if p["name"] == "shop")
jobs = session.get("%s/api/latest/projects/%s/jobs" % (simulator, project["id"]), params={"limit": 10}, timeout=30).json()["items"]
ids = dict((machine["name"], machine["id"]) for machine in report["machines"])
launches = [job for job in jobs if job["type"] == "TEST_LAUNCH" and job["creationDateTime"] >= report["started"]]
assert [job["participatingMachines"] for job in reversed(launches)] == [[ids["db-1"]], [ids["web-1"]]], launches
print("three waves: the first launched, checked and cleaned up; the second failed; the third not launched")
