"""What the failover safety test reads and does in the service and the simulator, outside the collection.

    python safe.py URL now                         the service's time
    python safe.py URL moment HOURS                a moment HOURS ago whose newest point of each machine is an hourly one that
                                                   a jump of a day thins out (not in the last hour of a day, which a day keeps)
    python safe.py URL jump SECONDS                move the service's clock on
    python safe.py URL cloud                       the live target machines of project safe, a JSON line each (sorted)
    python safe.py URL launches TYPE N             project safe's jobs hold N jobs of TYPE
    python safe.py URL running TYPE                exits 0 while a job of TYPE runs in project safe
    python safe.py URL drift NAME                  the subnet NAME of the account is deleted in eu-west-1, as somebody does
    python safe.py URL token PLAN                  the confirmation token the plan PLAN prints
    python safe.py URL same-points PLAN REPORT [NAME...]   the report launched each machine from the plan's point, but the NAMEs
    python safe.py URL repinned REPORT NAME WAVE   NAME's planned point was thinned out before WAVE: launched from the newest
                                                   point before it, the extra data lost said, in the JSON and the Markdown
    python safe.py URL listed PROJECT NAME POINT   exits 0 when the service lists POINT among NAME's points in time
    python safe.py URL numbers FILE...             no None, null said as a number, or negative number in any of the FILEs
    python safe.py URL ledger DIR N                the ledger DIR holds N entries, chained
    python safe.py URL no-writes                   the simulator saw no write since its statistics were zeroed
"""

import json
import re
import sys
from datetime import datetime, timedelta, timezone

import requests

API = "/api/latest"


def service(url, project="safe"):
    session = requests.Session()
    session.post(url + API + "/login", json={"username": "safe@example.test", "password": "safe-password"}, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == project)
    return session, "%s%s/projects/%s" % (url, API, found["id"])


def service_now(url):
    session, unused = service(url)
    return datetime.fromisoformat(session.get(url + API + "/extendedAccountInfo", timeout=30).json()["dateTime"]["dateTime"])


def said(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def now(url):
    print(said(service_now(url)))


def moment(url, hours):
    # Half past an hour, hours ago: the points of that hour before it are thinned out already (an hour keeps every point),
    # so the newest at or before it is the newest of the hour before, which a jump of a day thins out - unless that hour
    # is the last of its day (the moment in the first hour of a day): the newest of a day is kept for thirty days.
    at = (service_now(url) - timedelta(hours=float(hours))).replace(minute=30, second=0, microsecond=0)
    if at.hour == 0:
        at -= timedelta(hours=1)
    print(said(at))


def jump(url, seconds):
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": float(seconds)}, timeout=30).raise_for_status()


def cloud(url):
    items = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    for item in sorted(items, key=lambda i: i["id"]):
        if item["projectName"] == "safe":
            print(json.dumps(dict((key, item[key]) for key in ("id", "sourceMachineName", "launchType")), sort_keys=True))


def jobs_of(url):
    session, base = service(url)
    return session.get(base + "/jobs", timeout=30).json()["items"]


def launches(url, kind, count):
    found = [job for job in jobs_of(url) if job["type"] == kind]
    assert len(found) == int(count), (kind, len(found), count)


def running(url, kind):
    sys.exit(0 if any(job["type"] == kind and job["status"] in ("PENDING", "STARTED") for job in jobs_of(url)) else 1)


def drift(url, name):
    session, base = service(url, "drifted")
    project = session.get(base, timeout=30).json()
    config = next(c for c in session.get(base + "/replicationConfigurations", timeout=30).json()["items"] if c["id"] == project["replicationConfiguration"])
    regions = session.get("%s%s/cloudCredentials/%s/regions" % (url, API, config["cloudCredentials"]), timeout=30).json()["items"]
    region = next(r for r in regions if r["id"] == config["region"])
    subnet = next(s["subnetId"] for s in region["subnets"] if s["name"] == name)
    requests.post(url + "/_simulator/drift", json={"regionId": region["id"], "remove": {"subnets": [subnet]}}, timeout=30).raise_for_status()


def token(url, plan):
    print(json.load(open(plan))["replace"]["token"])


def same_points(url, plan, report, *but):
    planned = dict((m["name"], m["point_in_time"]["id"]) for m in json.load(open(plan))["machines"])
    launched = dict((m["name"], m["point_in_time"]["id"]) for m in json.load(open(report))["machines"])
    assert set(planned) == set(launched), (planned, launched)
    for name in planned:
        assert (launched[name] == planned[name]) == (name not in but), (name, planned[name], launched[name])
    print("every machine launched from the plan's point%s" % (", but %s" % ", ".join(but) if but else ""))


def repinned(url, report, name, wave):
    data = json.load(open(report))
    entry = data["repinned"][name]
    machine = next(m for m in data["machines"] if m["name"] == name)
    assert entry["wave"] == int(wave) and entry["extra_seconds"] > 0, entry
    assert machine["point_in_time"]["id"] == entry["launched"]["id"] != entry["planned"]["id"], (machine, entry)
    assert machine["planned_point_in_time"]["id"] == entry["planned"]["id"] and machine["extra_data_loss_seconds"] == entry["extra_seconds"]
    assert entry["launched"]["date_time"] < entry["planned"]["date_time"], entry
    assert data["result"] == "passed", data["failures"]
    markdown = open(report[:-len(".json")] + ".md").read()
    assert "## Points in time thinned out during the run" in markdown and "- %s: " % name in markdown, markdown
    session, base = service(url)
    machine_id = next(m["id"] for m in session.get(base + "/machines", timeout=30).json()["items"] if m["sourceProperties"]["name"] == name)
    listed = [p["id"] for p in session.get("%s/machines/%s/pointsintime" % (base, machine_id), timeout=30).json()["items"]]
    assert entry["planned"]["id"] not in listed and entry["launched"]["id"] in listed
    print("%s launched from the newest point before its thinned one, %s s more data lost" % (name, entry["extra_seconds"]))


# A number with a minus sign in front, where text says a figure: "-5 s", ": -3", "-0.5".
NEGATIVE = re.compile(r"(?<![\w.:/-])-\d+(\.\d+)?(?![\w-])")


def numbers(url, *files):
    for path in files:
        text = open(path, encoding="utf-8").read()
        said = [line for line in text.splitlines() if re.search(r"\bNone\b", line)]
        assert not said, "%s says None: %s" % (path, said[:3])
        if path.endswith(".json"):
            def walk(value, where):
                if isinstance(value, bool):
                    return
                if isinstance(value, (int, float)):
                    assert value >= 0, "%s: %s is negative: %s" % (path, where, value)
                elif isinstance(value, dict):
                    for key, item in value.items():
                        walk(item, where + "." + key)
                elif isinstance(value, list):
                    for index, item in enumerate(value):
                        walk(item, "%s[%d]" % (where, index))
            walk(json.loads(text), "")
        else:
            found = [match.group(0) for match in NEGATIVE.finditer(re.sub(r"\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})?|[0-9a-f-]{36}", "", text))]
            assert not found, "%s has negative numbers: %s" % (path, found[:5])
    print("no None and no negative number in %d files" % len(files))


def ledger(url, directory, count):
    import os
    entries = sorted(name for name in os.listdir(directory) if re.match(r"^\d{8}\.json$", name))
    assert len(entries) == int(count), (len(entries), count, entries)
    previous = None
    for name in entries:
        entry = json.load(open(os.path.join(directory, name)))
        assert entry["previous"] == previous, name
        previous = entry["sha256"]
    print("the ledger holds %d entries, chained" % len(entries))


def listed(url, project, name, point):
    session, base = service(url, project)
    machine_id = next(m["id"] for m in session.get(base + "/machines", timeout=30).json()["items"] if m["sourceProperties"]["name"] == name)
    points = [p["id"] for p in session.get("%s/machines/%s/pointsintime" % (base, machine_id), timeout=30).json()["items"]]
    sys.exit(0 if point in points else 1)


def no_writes(url):
    stats = requests.get(url + "/_simulator/stats", timeout=30).json()
    assert stats["writes"] == 0, [row for row in stats["requests"] if row["method"] not in ("GET", "HEAD")]


if __name__ == "__main__":
    COMMANDS = dict(now=now, moment=moment, jump=jump, cloud=cloud, launches=launches, running=running, drift=drift, token=token,
                    same_points=same_points, repinned=repinned, numbers=numbers, ledger=ledger, listed=listed, no_writes=no_writes)
    COMMANDS[sys.argv[2].replace("-", "_")](sys.argv[1], *sys.argv[3:])
