"""What the restore test's target reads in the service and the simulator, outside the collection.

    python backups.py URL cloud            the live machines of project backups in the target cloud, a JSON line each
    python backups.py URL launches N       project backups' jobs hold N restore launches
    python backups.py URL report FILE      the report FILE: each machine restored from the point pinned, a restore server each
"""

import json
import sys

import requests

API = "/api/latest"


def project(url):
    session = requests.Session()
    session.post(url + API + "/login", json={"username": "restore@example.test", "password": "restore-password"}, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == "backups")
    return session, "%s%s/projects/%s" % (url, API, found["id"]), found["id"]


def cloud(url):
    unused, unused_path, project_id = project(url)
    for machine in sorted(requests.get(url + "/_simulator/cloud", timeout=30).json()["items"], key=lambda m: m["id"]):
        if machine.get("projectId") == project_id:
            print(json.dumps(machine, sort_keys=True))


def launches(url, count):
    session, path, unused = project(url)
    found = [job for job in session.get(path + "/jobs", timeout=30).json()["items"] if job["type"] == "RESTORE_LAUNCH"]
    assert len(found) == int(count), "%d restore launches, not %s: %s" % (len(found), count, [job["id"] for job in found])


def report(url, path):
    with open(path) as handle:
        said = json.load(handle)
    assert said["schema"] == "replication.recovery.restore_test/v1" and said["launch_type"] == "restore", said["schema"]
    assert [m["name"] for m in said["machines"]] == ["files-1", "files-2", "mail-1"], said["machines"]
    for machine in said["machines"]:
        assert machine["point_in_time"] and machine["point_in_time"]["id"], machine
        assert machine["target"] and machine["target"]["id"], machine
        assert machine["rto_seconds"] is not None and machine["rpo_seconds"] is not None, machine


if __name__ == "__main__":
    dict(cloud=cloud, launches=launches, report=report)[sys.argv[2]](sys.argv[1], *sys.argv[3:])
