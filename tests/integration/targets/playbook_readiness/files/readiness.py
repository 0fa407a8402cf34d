"""What the readiness target reads and does in the service and the simulator, outside the collection.

    python readiness.py URL clear                  clear the simulator's statistics
    python readiness.py URL requests MACHINES      what the service saw since: no write, the machines read once, the
                                                   points of each machine read once (MACHINES of them), no launch
    python readiness.py URL trouble                project trouble's troubles: old-1's agent silent (its newest point
                                                   ages), db-1's blueprint in subnet private-b, which is then deleted
    python readiness.py URL advance SECONDS        move the service's clock
    python readiness.py URL check SCHEMA REPORT    the report follows its schema, and its JUnit XML agrees with it
"""

import json
import sys
from xml.etree import ElementTree

import jsonschema
import requests

API = "/api/latest"


def session(url):
    found = requests.Session()
    found.post(url + API + "/login", json={"username": "ready@example.test", "password": "ready-password"}, timeout=30).raise_for_status()
    found.headers["X-XSRF-TOKEN"] = found.cookies.get("XSRF-TOKEN", "")  # a write carries it back
    return found


def requests_seen(url, machines):
    stats = requests.get(url + "/_simulator/stats", timeout=30).json()
    counts = dict(("%s %s" % (row["method"], row["route"]), row["count"]) for row in stats["requests"])
    print(json.dumps(counts, indent=1, sort_keys=True))
    assert stats["writes"] == 0, "readiness wrote to the service: %s" % counts
    assert counts.get("GET /projects/{projectId}/machines") == 1, counts
    assert counts.get("GET /projects/{projectId}/machines/{machineId}/pointsintime") == int(machines), counts
    assert not any("launch" in key.lower() or key.startswith(("POST", "PATCH", "PUT", "DELETE")) and "login" not in key and "logout" not in key
                   for key in counts), counts


def trouble(url):
    api = session(url)
    project = next(p for p in api.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == "trouble")
    listed = api.get("%s%s/projects/%s/machines" % (url, API, project["id"]), timeout=30).json()["items"]
    machines = dict((machine["sourceProperties"]["name"], machine["id"]) for machine in listed)
    requests.patch("%s/_simulator/machines/%s" % (url, machines["old-1"]), json={"agentConnected": False}, timeout=30).raise_for_status()
    credentials = api.get(url + API + "/cloudCredentials", timeout=30).json()["items"][0]["id"]
    region = next(r for r in api.get("%s%s/cloudCredentials/%s/regions" % (url, API, credentials), timeout=30).json()["items"] if r["name"] == "us-east-1")
    subnet = next(s["subnetId"] for s in region["subnets"] if s["name"] == "private-b")
    blueprint = next(b for b in api.get("%s%s/projects/%s/blueprints" % (url, API, project["id"]), timeout=30).json()["items"]
                     if b["machineId"] == machines["db-1"])
    api.patch("%s%s/projects/%s/blueprints/%s" % (url, API, project["id"], blueprint["id"]), json={"subnetIDs": [subnet]},
              timeout=30).raise_for_status()
    requests.post(url + "/_simulator/drift", json={"regionId": region["id"], "remove": {"subnets": ["private-b"]}}, timeout=30).raise_for_status()


def check(schema, path):
    with open(schema, encoding="utf-8") as handle, open(path, encoding="utf-8") as report_file:
        schema, report = json.load(handle), json.load(report_file)
    jsonschema.validate(report, schema)
    cases = ElementTree.parse(path[:-len(".json")] + ".junit.xml").getroot().findall("testsuite/testcase")
    failed = sorted("%s: %s" % (case.get("classname").rsplit(".", 1)[1], case.get("name")) for case in cases if case.find("failure") is not None)
    assert failed == sorted("%s: %s" % (m["name"], c["name"]) for m in report["machines"] for c in m["checks"] if c["status"] == "failed"), failed
    print(json.dumps(dict(result=report["result"], not_ready=[m["name"] for m in report["machines"] if not m["ready"]], failed=failed)))


def main(url, what, *args):
    if what == "clear":
        requests.delete(url + "/_simulator/stats", timeout=30).raise_for_status()
    elif what == "requests":
        requests_seen(url, *args)
    elif what == "trouble":
        trouble(url)
    elif what == "advance":
        requests.post(url + "/_simulator/clock", json={"advanceSeconds": int(args[0])}, timeout=30).raise_for_status()
    elif what == "check":
        check(*args)


if __name__ == "__main__":
    main(*sys.argv[1:])
