"""What the failover tests read and do in the service and the simulator's cloud, outside the collection (signed in as
REPLICATION_SERVICE_USERNAME, in the project SITE_PROJECT: the failover's account and its project site when not set).

    python site.py URL moment                      the service's time two days ago (for before:)
    python site.py URL launch-test NAME            a DR test machine for NAME, left up
    python site.py URL cloud                       the live target machines, as JSON lines (sorted)
    python site.py URL points FILE MOMENT          the plan or report FILE took each machine's newest point at or before MOMENT
    python site.py URL launches TYPE N             the project's jobs hold N launch jobs of TYPE
    python site.py URL jobs                        the project's jobs, newest first (for a diagnosis)
    python site.py URL write-rate NAME MBPS        NAME's source writes that fast (a backlog when faster than replication)
    python site.py URL direction original|reversed the project replicates in that direction
    python site.py URL failed-back REMOVED         each machine's newest target machine is a cutover machine in the original
                                                   site, and the recovery machines are gone (REMOVED=yes) or still up (no)
    python site.py URL blueprints                  the project's blueprints, whole, as JSON (sorted by machine)
    python site.py URL subnet NAME                 the ID of the subnet NAME of the project's target region
    python site.py URL patch-blueprint NAME M JSON another client sets the member M of NAME's blueprint to the JSON value
    python site.py URL tested-in FILE SUBNET       the DR test report FILE says each machine launched into SUBNET
    python site.py URL marked yes|named|no         each machine's tags name its recovery machine, which runs (yes), or name one
                                                   (named), or none (no)
    python site.py URL drills                      the machines whose tags mark a DR test's (or a rehearsal's) drill, one a line
"""

import json
import os
import sys
import time
from datetime import datetime, timedelta

import requests

API = "/api/latest"
PROJECT = os.environ.get("SITE_PROJECT", "site")


def service(url):
    session = requests.Session()
    credentials = dict(username=os.environ.get("REPLICATION_SERVICE_USERNAME", "failover@example.test"),
                       password=os.environ.get("REPLICATION_SERVICE_PASSWORD", "failover-password"))
    session.post(url + API + "/login", json=credentials, timeout=30).raise_for_status()
    project = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == PROJECT)
    return session, "%s%s/projects/%s" % (url, API, project["id"])


def machines(session, base):
    return dict((m["sourceProperties"]["name"], m) for m in session.get(base + "/machines", timeout=30).json()["items"])


def moment(url):
    session, unused = service(url)
    now = session.get(url + API + "/extendedAccountInfo", timeout=30).json()["dateTime"]["dateTime"]
    print((datetime.fromisoformat(now) - timedelta(days=2, hours=5)).strftime("%Y-%m-%dT%H:%M:%SZ"))


def launch_test(url, name):
    session, base = service(url)
    machine = machines(session, base)[name]
    job = session.post(base + "/launchMachines", json={"launchType": "TEST", "items": [{"machineId": machine["id"]}]},
                       timeout=30, headers={"X-XSRF-TOKEN": session.cookies.get("XSRF-TOKEN")})
    job.raise_for_status()
    job = job.json()
    while job["status"] in ("PENDING", "STARTED"):
        time.sleep(1)
        job = session.get("%s/jobs/%s" % (base, job["id"]), timeout=30).json()
    assert job["status"] == "COMPLETED", job


def cloud(url):
    items = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    for item in sorted(items, key=lambda i: i["id"]):
        if item["projectName"] == PROJECT:
            print(json.dumps(dict((key, item[key]) for key in ("id", "sourceMachineName", "launchType", "regionId")), sort_keys=True))


def points(url, path, at):
    limit = datetime.fromisoformat(at.replace("Z", "+00:00"))
    session, base = service(url)
    with open(path) as handle:
        document = json.load(handle)
    by_name = machines(session, base)
    for entry in document["machines"]:
        listed = session.get("%s/machines/%s/pointsintime" % (base, by_name[entry["name"]]["id"]), timeout=30).json()["items"]
        expected = [p for p in listed if datetime.fromisoformat(p["dateTime"]) <= limit][-1]
        got = entry["point_in_time"]
        assert got["id"] == expected["id"] and got["date_time"] == expected["dateTime"], (entry["name"], got, expected)
        loss = entry.get("data_loss_seconds", entry.get("rpo_seconds"))
        assert loss is not None and loss >= 2 * 86400, (entry["name"], loss)
    print("every machine takes its newest point at or before %s" % at)


def launches(url, kind, count):
    session, base = service(url)
    jobs = session.get(base + "/jobs", timeout=30).json()["items"]
    found = [job for job in jobs if job["type"] == kind]
    assert len(found) == int(count), (kind, len(found), count)


def jobs(url):
    session, base = service(url)
    for job in session.get(base + "/jobs", timeout=30).json()["items"]:
        print(job["creationDateTime"], job["type"], job["status"], job["initiatedBy"], len(job.get("participatingMachines") or []), job["id"])


def running(url, kind):
    """Exits 0 while a job of ``kind`` runs in the project, 1 otherwise."""
    session, base = service(url)
    jobs = session.get(base + "/jobs", timeout=30).json()["items"]
    sys.exit(0 if any(job["type"] == kind and job["status"] in ("PENDING", "STARTED") for job in jobs) else 1)


def write_rate(url, name, mbps):
    session, base = service(url)
    machine = machines(session, base)[name]
    requests.patch("%s/_simulator/machines/%s" % (url, machine["id"]), json={"writeRateMbps": float(mbps)}, timeout=30).raise_for_status()


def direction(url, expected):
    session, base = service(url)
    project = session.get(base, timeout=30).json()
    assert project["replicationReversed"] == (expected == "reversed"), project["replicationReversed"]


def failed_back(url, removed):
    session, base = service(url)
    project = session.get(base, timeout=30).json()
    live = [item for item in requests.get(url + "/_simulator/cloud", timeout=30).json()["items"] if item["projectName"] == PROJECT]
    for name, machine in machines(session, base).items():
        target = session.get("%s/replicas/%s" % (base, machine["replica"]), timeout=30).json()
        assert target["regionId"] == project["sourceRegion"] and target["machineCloudState"] == "running", (name, target)
        kinds = sorted(item["launchType"] for item in live if item["sourceMachineName"] == name)
        assert kinds == (["CUTOVER"] if removed == "yes" else ["CUTOVER", "RECOVERY"]), (name, kinds)
    print("every machine runs in the original site (%s)" % project["sourceRegion"])


def blueprints(url):
    session, base = service(url)
    items = session.get(base + "/blueprints", timeout=30).json()["items"]
    print(json.dumps(sorted(items, key=lambda b: b["machineName"]), indent=1, sort_keys=True))


def subnet(url, name):
    session, base = service(url)
    project = session.get(base, timeout=30).json()
    config = next(c for c in session.get(base + "/replicationConfigurations", timeout=30).json()["items"] if c["id"] == project["replicationConfiguration"])
    regions = session.get("%s%s/cloudCredentials/%s/regions" % (url, API, config["cloudCredentials"]), timeout=30).json()["items"]
    region = next(r for r in regions if r["id"] == config["region"])
    print(next(s["subnetId"] for s in region["subnets"] if s["name"] == name))


def patch_blueprint(url, name, member, value):
    session, base = service(url)
    blueprint = next(b for b in session.get(base + "/blueprints", timeout=30).json()["items"] if b["machineName"] == name)
    session.patch("%s/blueprints/%s" % (base, blueprint["id"]), json={member: json.loads(value)}, timeout=30,
                  headers={"X-XSRF-TOKEN": session.cookies.get("XSRF-TOKEN")}).raise_for_status()


def tested_in(url, path, subnet_id):
    with open(path) as handle:
        report = json.load(handle)
    tested = dict((m["name"], (m.get("test_network") or {}).get("subnetIDs")) for m in report["machines"])
    assert tested and all(subnets == [subnet_id] for subnets in tested.values()), tested
    print("every machine was tested in %s" % subnet_id)


def marked(url, expected):
    session, base = service(url)
    live = dict((item["id"], item) for item in requests.get(url + "/_simulator/cloud", timeout=30).json()["items"])
    for name, machine in machines(session, base).items():
        marks = [tag.split("=", 1)[1] for tag in machine.get("tags") or [] if tag.startswith("replication.recovery/recovered=")]
        if expected == "no":
            assert not marks, (name, machine.get("tags"))
            continue
        assert len(marks) == 1, (name, machine.get("tags"))
        if expected == "named":
            continue
        recovery = session.get("%s/replicas/%s" % (base, marks[0]), timeout=30).json()
        assert recovery["machineCloudState"] == "running" and live[recovery["machineCloudId"]]["launchType"] == "RECOVERY", (name, recovery)
    print("each machine's recovery machine is %s in the service" % ("named" if expected == "yes" else "named no more"))


def drills(url):
    session, base = service(url)
    for name, machine in sorted(machines(session, base).items()):
        if any(tag.startswith("replication.recovery/drill=") for tag in machine.get("tags") or []):
            print(name)


if __name__ == "__main__":
    COMMANDS = dict(moment=moment, launch_test=launch_test, cloud=cloud, points=points, launches=launches, jobs=jobs, running=running, write_rate=write_rate,
                    direction=direction, failed_back=failed_back, blueprints=blueprints, subnet=subnet, patch_blueprint=patch_blueprint,
                    tested_in=tested_in, marked=marked, drills=drills)
    COMMANDS[sys.argv[2].replace("-", "_")](sys.argv[1], *sys.argv[3:])
