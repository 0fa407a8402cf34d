"""What the first night's cases read and do in the service and the simulator, outside the collection.

    python night.py URL jump SECONDS                 move the service's clock on
    python night.py URL writes                       how many writes the simulator saw since its statistics were zeroed
    python night.py URL cloud PROJECT                the live target machines of PROJECT, a JSON line each (sorted)
    python night.py URL launches PROJECT TYPE        how many jobs of TYPE PROJECT holds
    python night.py URL running PROJECT TYPE         exits 0 while a job of TYPE runs in PROJECT
    python night.py URL pinned RECORD                the points a stopped run's record pinned: name point-ID, a line each
    python night.py URL launched-from PROJECT        each live target machine's point: name point-ID, a line each
    python night.py URL checksum DIR...              one SHA-256 of every file under the DIRs (names and contents), Python's
                                                     byte-code caches left out
    python night.py URL moment HOURS                 a moment HOURS ago whose newest point of each machine is an hourly one that
                                                     a jump of a day thins out
    python night.py URL marked PROJECT               each machine's pin mark (replication.recovery/pin=...): name point-ID, a line each
    python night.py URL plan-points PLAN             the points a plan (.plan.json) pins: name point-ID, a line each
    python night.py URL report-points REPORT         the points a report's machines launched from: name point-ID, a line each

The user is the one the collection signs in as: REPLICATION_SERVICE_USERNAME and _PASSWORD.
"""

import glob
import hashlib
import json
import os
import sys
from datetime import datetime, timedelta, timezone

import requests

API = "/api/latest"


def service(url, project):
    session = requests.Session()
    session.post(url + API + "/login", json={"username": os.environ["REPLICATION_SERVICE_USERNAME"],
                                             "password": os.environ["REPLICATION_SERVICE_PASSWORD"]}, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == project)
    return session, "%s%s/projects/%s" % (url, API, found["id"])


def jump(url, seconds):
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": float(seconds)}, timeout=30).raise_for_status()


def writes(url):
    print(requests.get(url + "/_simulator/stats", timeout=30).json()["writes"])


def live(url, project):
    items = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    return sorted((item for item in items if item["projectName"] == project), key=lambda item: item["sourceMachineName"])


def cloud(url, project):
    for item in live(url, project):
        print(json.dumps(dict((key, item[key]) for key in ("id", "sourceMachineName", "launchType")), sort_keys=True))


def launches(url, project, kind):
    session, base = service(url, project)
    print(sum(1 for job in session.get(base + "/jobs", timeout=30).json()["items"] if job["type"] == kind))


def running(url, project, kind):
    session, base = service(url, project)
    jobs = session.get(base + "/jobs", timeout=30).json()["items"]
    sys.exit(0 if any(job["type"] == kind and job["status"] in ("PENDING", "STARTED") for job in jobs) else 1)


def pinned(url, record):
    found = glob.glob(record)
    assert len(found) == 1, found
    with open(found[0], encoding="utf-8") as handle:
        points = json.load(handle)["pinned"]
    for name in sorted(points):
        print("%s %s" % (name, points[name]["id"]))


def launched_from(url, project):
    for item in live(url, project):
        print("%s %s" % (item["sourceMachineName"], item["pointInTimeId"]))


def checksum(url, *directories):
    digest = hashlib.sha256()
    for directory in directories:
        for root, dirs, files in os.walk(directory):  # top-down, each level in order
            dirs[:] = sorted(name for name in dirs if name != "__pycache__")  # Python's byte-code caches of what it imported
            for name in sorted(files):
                path = os.path.join(root, name)
                digest.update(path.encode("utf-8") + b"\0")
                with open(path, "rb") as handle:
                    digest.update(handle.read())
    print(digest.hexdigest())


def moment(url, hours):
    # Half past an hour, hours ago: the newest point at or before it is the newest of the hour before (an hour keeps every point
    # of the last hour only), which a jump of a day thins out - unless that hour is the last of its day, which a day keeps.
    session = requests.Session()
    now = datetime.fromisoformat(session.get(url + "/_simulator/clock", timeout=30).json()["now"])
    at = (now - timedelta(hours=float(hours))).replace(minute=30, second=0, microsecond=0)
    if at.hour == 0:
        at -= timedelta(hours=1)
    print(at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))


def marked(url, project):
    session, base = service(url, project)
    for machine in sorted(session.get(base + "/machines", timeout=30).json()["items"], key=lambda m: m["sourceProperties"]["name"]):
        pins = [tag.split(":")[2] for tag in machine.get("tags") or [] if tag.startswith("replication.recovery/pin=")]
        if pins:
            print("%s %s" % (machine["sourceProperties"]["name"], pins[0]))


def plan_points(url, plan):
    with open(plan, encoding="utf-8") as handle:
        for machine in sorted(json.load(handle)["machines"], key=lambda m: m["name"]):
            print("%s %s" % (machine["name"], machine["point_in_time"]["id"]))


def report_points(url, report):
    with open(report, encoding="utf-8") as handle:
        for machine in sorted(json.load(handle)["machines"], key=lambda m: m["name"]):
            print("%s %s" % (machine["name"], (machine.get("point_in_time") or {}).get("id")))


if __name__ == "__main__":
    COMMANDS = dict(jump=jump, writes=writes, cloud=cloud, launches=launches, running=running, pinned=pinned,
                    launched_from=launched_from, checksum=checksum, moment=moment, marked=marked, plan_points=plan_points,
                    report_points=report_points)
    COMMANDS[sys.argv[2].replace("-", "_")](sys.argv[1], *sys.argv[3:])
