"""What the lever's and the game days' tests read in the service and the simulator, outside the collection (signed in as
REPLICATION_SERVICE_USERNAME).

    python lever.py URL writes                 the writes the simulator has taken so far
    python lever.py URL cloud PROJECT          the project's live target machines: machine name and launch type, one a line
    python lever.py URL launches PROJECT       how many launch jobs the project has had
    python lever.py URL plan PROJECT           the lever's plan as the service keeps it (JSON), or nothing
    python lever.py URL audit PROJECT          the project's audit log's descriptions of the lever's plan, one a line
"""

import json
import os
import sys

import requests

API = "/api/latest"


def service(url, name):
    session = requests.Session()
    credentials = {"username": os.environ["REPLICATION_SERVICE_USERNAME"], "password": os.environ["REPLICATION_SERVICE_PASSWORD"]}
    session.post(url + API + "/login", json=credentials, timeout=30).raise_for_status()
    project = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == name)
    return session, "%s%s/projects/%s" % (url, API, project["id"]), project["id"]


def main(url, what, name=None):
    if what == "writes":
        print(requests.get(url + "/_simulator/stats", timeout=30).json()["writes"])
        return
    session, base, project_id = service(url, name)
    if what == "cloud":
        live = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
        for item in sorted("%s %s" % (item["sourceMachineName"], item["launchType"]) for item in live if item["projectId"] == project_id):
            print(item)
    elif what == "launches":
        jobs = session.get(base + "/jobs", timeout=30).json()["items"]
        print(sum(1 for job in jobs if job["type"].endswith("_LAUNCH")))
    elif what == "plan":
        for plan in session.get(base + "/recoveryPlans", timeout=30).json()["items"]:
            if plan["name"] == "replication.recovery safety lever":
                print(json.dumps(plan, sort_keys=True))
    elif what == "audit":
        for entry in session.get(base + "/auditLog", params={"limit": 100}, timeout=30).json()["items"]:
            if "safety lever" in (entry.get("description") or ""):
                print("%s %s %s" % (entry["eventName"], entry["username"], json.dumps(entry.get("changedFields") or [])))


if __name__ == "__main__":
    main(*sys.argv[1:])
