"""What the clean point tests read and do in the service and the simulator, outside the collection (signed in as
REPLICATION_SERVICE_USERNAME, ransom@example.test when not set).

    python site.py URL window                          after and before of the window: the service's time 20 h and 2 h ago
    python site.py URL damage PROJECT NAME HOURS       NAME's data is damaged from its first point in time at least HOURS ago, plus a minute
    python site.py URL expect PROJECT FILE NAME...     the newest point of each NAME before its damage, within the window FILE (JSON of after/before)
    python site.py URL found REPORT EXPECTED           the report found exactly the points of EXPECTED (JSON name -> point ID)
    python site.py URL launches PROJECT N              the project's jobs hold exactly N test launches
    python site.py URL cloud-empty                     nothing runs in the target cloud
    python site.py URL recovered PROJECT REPORT        each recovery machine runs from the clean point the report names
    python site.py URL expect-common PROJECT FILE NAME... the newest common moment before the earliest damage, and each NAME's point at it
    python site.py URL alternating PROJECT             every test launch was cleaned up before the next began, and nothing is left
    python site.py URL running PROJECT TYPE N          the project's Nth job of TYPE is running now
    python site.py URL no-writes                       the simulator saw no write since its statistics were zeroed
    python site.py URL jobs PROJECT                    the project's jobs, newest first (for a diagnosis)
    python site.py URL thinning-window PROJECT NAME    six hourly points of NAME, the first three of one day and the third under 21 h
                                                       old; NAME damaged from the fourth; JSON of after, before, expected (the third's ID)
    python site.py URL thin-now FILE                   the clock moves on until the first two points of the window FILE are over a day
                                                       old and its third is 45 minutes short of it
    python site.py URL plant-journal PROJECT FILE      a search's journal of PROJECT's ID in another account, at FILE
    python site.py URL time-scale N                    the service's clock runs N times real time from now on
"""

import json
import os
import sys
from datetime import datetime, timedelta

import requests

API = "/api/latest"


def service(url, project):
    session = requests.Session()
    credentials = {"username": os.environ.get("REPLICATION_SERVICE_USERNAME", "ransom@example.test"),
                   "password": os.environ.get("REPLICATION_SERVICE_PASSWORD", "ransom-password")}
    session.post(url + API + "/login", json=credentials, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == project)
    return session, "%s%s/projects/%s" % (url, API, found["id"])


def machines(session, base):
    return dict((m["sourceProperties"]["name"], m) for m in session.get(base + "/machines", timeout=30).json()["items"])


def points(session, base, machine):
    return session.get("%s/machines/%s/pointsintime" % (base, machine["id"]), timeout=30).json()["items"]


def moment(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def now(url):
    session, unused = service(url, "hit")
    return moment(session.get(url + API + "/extendedAccountInfo", timeout=30).json()["dateTime"]["dateTime"])


def window(url):
    current = now(url)
    print(json.dumps({"after": (current - timedelta(hours=20)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                      "before": (current - timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")}))


def damage(url, project, name, hours):
    session, base = service(url, project)
    limit = now(url) - timedelta(hours=float(hours))
    first = next(p for p in reversed(points(session, base, machines(session, base)[name])) if moment(p["dateTime"]) <= limit)
    start = (moment(first["dateTime"]) + timedelta(minutes=1)).isoformat()
    requests.post(url + "/_simulator/damage", json={"machines": [name], "from": start, "project": project}, timeout=30).raise_for_status()
    print(start)


def in_window(url, project, window_file, names):
    """Each machine's points in the window FILE, and when each damaged one was damaged (FILE.damage)."""
    session, base = service(url, project)
    bounds = json.load(open(window_file))
    after, before = moment(bounds["after"]), moment(bounds["before"])
    listed = machines(session, base)
    inside = dict((name, [p for p in points(session, base, listed[name]) if after <= moment(p["dateTime"]) <= before]) for name in names)
    return inside, json.load(open(window_file + ".damage"))


def expect(url, project, window_file, *names):
    """Each machine's newest point in the window taken before its damage (read back from the simulator's damage)."""
    inside, damaged = in_window(url, project, window_file, names)
    print(json.dumps(dict((name, [p for p in inside[name] if name not in damaged or moment(p["dateTime"]) < moment(damaged[name])][-1]["id"])
                          for name in names)))


def expect_common(url, project, window_file, *names):
    inside, damaged = in_window(url, project, window_file, names)
    first = max(moment(pts[0]["dateTime"]) for pts in inside.values())
    moments = sorted(set(moment(p["dateTime"]) for pts in inside.values() for p in pts if moment(p["dateTime"]) >= first))

    def at(name, when):
        return [p for p in inside[name] if moment(p["dateTime"]) <= when][-1]

    clean = [when for when in moments if all(name not in damaged or moment(at(name, when)["dateTime"]) < moment(damaged[name]) for name in names)]
    newest = clean[-1]
    print(json.dumps(dict((name, at(name, newest)["id"]) for name in names)))


def alternating(url, project):
    session, base = service(url, project)
    jobs = list(reversed(session.get(base + "/jobs", timeout=30).json()["items"]))
    kinds = [job["type"] for job in jobs if job["type"] in ("TEST_LAUNCH", "CLEANUP")]
    assert kinds == ["TEST_LAUNCH", "CLEANUP"] * (len(kinds) // 2) and len(kinds) % 2 == 0, kinds
    cloud_empty(url)


def running(url, project, job_type, count):
    session, base = service(url, project)
    of_type = [job for job in session.get(base + "/jobs", timeout=30).json()["items"] if job["type"] == job_type]
    sys.exit(0 if len(of_type) == int(count) and of_type[0]["status"] in ("PENDING", "STARTED") else 1)


def found(url, report_file, expected_json):
    report = json.load(open(report_file))
    expected = json.loads(expected_json)
    got = dict((m["name"], (m["clean_point"] or {}).get("id")) for m in report["machines"])
    assert got == expected, (got, expected)
    assert report["complete"] and report["result"] == "passed", report["failures"]


def launches(url, project, count):
    session, base = service(url, project)
    jobs = session.get(base + "/jobs", timeout=30).json()["items"]
    tests = [job for job in jobs if job["type"] == "TEST_LAUNCH"]
    assert len(tests) == int(count), [(job["type"], job["status"], job["creationDateTime"]) for job in jobs]


def cloud_empty(url):
    items = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    assert not items, items


def recovered(url, project, report_file):
    session, base = service(url, project)
    report = json.load(open(report_file))
    clean = dict((m["name"], m["clean_point"]["id"]) for m in report["machines"])
    listed = machines(session, base)
    for name, point in clean.items():
        replica = session.get("%s/replicas/%s" % (base, listed[name]["replica"]), timeout=30).json()
        assert replica["pointInTime"] == point, (name, replica["pointInTime"], point)
        assert "lastRecoveryLaunchDateTime" in listed[name]["lifeCycle"], listed[name]["lifeCycle"]


def no_writes(url):
    stats = requests.get(url + "/_simulator/stats", timeout=30).json()
    assert stats["writes"] == 0, stats


def jobs(url, project):
    session, base = service(url, project)
    for job in session.get(base + "/jobs", timeout=30).json()["items"]:
        print(job["type"], job["status"], job["creationDateTime"], job.get("initiatedBy"), len(job.get("participatingMachines") or []))


DAY = 86400


def thinning_window(url, project, name):
    session, base = service(url, project)
    current = now(url)
    machine = machines(session, base)[name]
    listed = points(session, base, machine)  # oldest first
    for end in range(len(listed) - 1, 4, -1):
        six = listed[end - 5:end + 1]
        ages = [(current - moment(p["dateTime"])).total_seconds() for p in six]
        days = set(moment(p["dateTime"]).date() for p in six[:3])
        hourly = all(3000 <= ages[i] - ages[i + 1] <= 4200 for i in range(5))
        if hourly and len(days) == 1 and 3 * 3600 < ages[2] < 21 * 3600:
            break
    else:
        raise SystemExit("no six hourly points of %s with the first three in one day" % name)
    requests.post(url + "/_simulator/damage", json={"machines": [name], "from": six[3]["dateTime"], "project": project}, timeout=30).raise_for_status()
    print(json.dumps(dict(after=six[0]["dateTime"], before=six[5]["dateTime"], expected=six[2]["id"], third=six[2]["dateTime"])))


def thin_now(url, window_file):
    third = moment(json.load(open(window_file))["third"])
    age = (now(url) - third).total_seconds()
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": max(0, DAY - 45 * 60 - age)}, timeout=30).raise_for_status()


def time_scale(url, scale):
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": 0, "timeScale": float(scale)}, timeout=30).raise_for_status()


def plant_journal(url, project, path):
    session, base = service(url, project)
    project_id = base.rsplit("/", 1)[1]
    journal = {"schema": "replication.recovery.clean_point.journal/v1", "project": project, "project_id": project_id, "account": "another-account",
               "inputs": {}, "mode": "launch", "consistent": False, "window": {"after": None, "before": "2026-01-01T00:00:00Z"}, "machines": {},
               "rounds": [], "started": "2026-01-01T00:00:00Z"}
    with open(path, "w") as handle:
        json.dump(journal, handle)


if __name__ == "__main__":
    command = sys.argv[2].replace("-", "_")
    globals()[command](sys.argv[1], *sys.argv[3:])
