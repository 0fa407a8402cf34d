"""What the launch policy's target reads in the service and the simulator, outside the collection.

    python policy.py URL blueprints       project demo's blueprints, by machine name: the members a policy sets, as JSON
    python policy.py URL writes           how many blueprint writes the simulator served since its statistics were cleared
    python policy.py URL clear            clear the simulator's statistics
    python policy.py URL drop             the next blueprint write is done, and its answer lost (the connection drops)
    python policy.py URL subnet NAME      the ID of subnet NAME in us-east-1
"""

import json
import sys

import requests

API = "/api/latest"
MEMBERS = ("instanceType", "subnetIDs", "securityGroupIDs", "privateIPAction", "privateIPs", "publicIPAction", "staticIp", "staticIpAction",
           "iamRole", "placementGroup", "tags", "tenancy", "runAfterLaunch")


def session(url):
    found = requests.Session()
    found.post(url + API + "/login", json={"username": "policy@example.test", "password": "policy-password"}, timeout=30).raise_for_status()
    return found


def main(url, what, *args):
    if what == "writes":
        rows = requests.get(url + "/_simulator/stats", timeout=30).json()["requests"]
        print(sum(row["count"] for row in rows if row["method"] == "PATCH" and row["route"].startswith("/projects/{projectId}/blueprints")))
        return
    if what == "clear":
        requests.delete(url + "/_simulator/stats", timeout=30).raise_for_status()
        return
    if what == "drop":
        requests.post(url + "/_simulator/faults", json={"rules": [{"method": "PATCH", "route": "/projects/{projectId}/blueprints/{blueprintId}",
                                                                   "dropAfterWrite": True, "count": 1}]}, timeout=30).raise_for_status()
        return
    api = session(url)
    project = next(p for p in api.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == "demo")
    if what == "subnet":
        credentials = api.get(url + API + "/cloudCredentials", timeout=30).json()["items"][0]["id"]
        regions = api.get("%s%s/cloudCredentials/%s/regions" % (url, API, credentials), timeout=30).json()["items"]
        region = next(r for r in regions if r["name"] == "us-east-1")
        print(next(s["subnetId"] for s in region["subnets"] if s["name"] == args[0]))
        return
    names = dict((m["id"], m["sourceProperties"]["name"]) for m in api.get("%s%s/projects/%s/machines" % (url, API, project["id"]), timeout=30).json()["items"])
    blueprints = api.get("%s%s/projects/%s/blueprints" % (url, API, project["id"]), timeout=30).json()["items"]
    print(json.dumps(dict((names[b["machineId"]], dict((member, b.get(member)) for member in MEMBERS)) for b in blueprints), indent=1, sort_keys=True))


if __name__ == "__main__":
    main(*sys.argv[1:])
