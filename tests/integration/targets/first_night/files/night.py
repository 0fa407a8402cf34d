"""What the first night's cases read and do in the service and the simulator, outside the collection.

    python night.py URL jump SECONDS                 move the service's clock on
    python night.py URL faults JSON                  the simulator's fault rules (a JSON list; [] clears them); its statistics zeroed
    python night.py URL writes                       how many writes the simulator saw since its statistics were zeroed
    python night.py URL cloud PROJECT                the live target machines of PROJECT, a JSON line each (sorted)
    python night.py URL launches PROJECT TYPE        how many jobs of TYPE PROJECT holds
    python night.py URL running PROJECT TYPE         exits 0 while a job of TYPE runs in PROJECT
    python night.py URL pinned RECORD                the points a stopped run's record pinned: name point-ID, a line each
    python night.py URL launched-from PROJECT        each live target machine's point: name point-ID, a line each
    python night.py URL checksum DIR...              one SHA-256 of every file under the DIRs (names and contents)
"""

import glob
import hashlib
import json
import os
import sys

import requests

API = "/api/latest"


def service(url, project):
    session = requests.Session()
    session.post(url + API + "/login", json={"username": "night@example.test", "password": "night-password"}, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == project)
    return session, "%s%s/projects/%s" % (url, API, found["id"])


def jump(url, seconds):
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": float(seconds)}, timeout=30).raise_for_status()


def faults(url, rules):
    requests.delete(url + "/_simulator/faults", timeout=30).raise_for_status()
    if json.loads(rules):
        requests.post(url + "/_simulator/faults", json={"rules": json.loads(rules)}, timeout=30).raise_for_status()
    requests.delete(url + "/_simulator/stats", timeout=30).raise_for_status()


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
        for root, dirs, files in sorted(os.walk(directory)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                digest.update(path.encode("utf-8") + b"\0")
                with open(path, "rb") as handle:
                    digest.update(handle.read())
    print(digest.hexdigest())


if __name__ == "__main__":
    COMMANDS = dict(jump=jump, faults=faults, writes=writes, cloud=cloud, launches=launches, running=running, pinned=pinned,
                    launched_from=launched_from, checksum=checksum)
    COMMANDS[sys.argv[2].replace("-", "_")](sys.argv[1], *sys.argv[3:])
