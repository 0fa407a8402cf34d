"""What the application's target reads in the service and the simulator, outside the collection.

    python apps.py URL launches PROJECT N [M]   PROJECT's jobs hold N test launches (the last one of M machines, if given)
    python apps.py URL order                           identity's launch ended before db's and cache's began, theirs before app's
    python apps.py URL overlap A B                     the launch jobs of projects A and B ran at the same time
    python apps.py URL recoveries PROJECT N            PROJECT's jobs hold N recovery launches
    python apps.py URL cloud                           the live machines in the target cloud, a JSON line each
    python apps.py URL up-until-the-end                identity's test machines were cleaned up only after app's launch ended
    python apps.py URL empty                           no live machine of the accounts' projects in the target cloud
    python apps.py URL forecast LEDGER                 the forecast, computed here from the ledger's entries, as --check says it
    python apps.py URL advance SECONDS                 the service's clock moved on (its points in time with it)
    python apps.py URL as-of REPORT [PLAN]             every node of the application's REPORT launched from points at or before
                                                       its moment (PLAN's, if given), and each has a newer point it did not take
"""

import glob
import json
import sys
from datetime import datetime

import requests

API = "/api/latest"
ACCOUNTS = {"apps@example.test": "apps-password", "partner@example.test": "partner-password"}
OWNER = {"edge": "partner@example.test"}


def jobs(url, name, kind="TEST_LAUNCH"):
    user = OWNER.get(name, "apps@example.test")
    session = requests.Session()
    session.post(url + API + "/login", json={"username": user, "password": ACCOUNTS[user]}, timeout=30).raise_for_status()
    found = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == name)
    items = session.get("%s%s/projects/%s/jobs" % (url, API, found["id"]), timeout=30).json()["items"]
    return sorted((job for job in items if job["type"] == kind), key=lambda job: job["creationDateTime"]), found["id"]


def moment(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def span(url, name):
    [job], unused = jobs(url, name)
    return moment(job["creationDateTime"]), moment(job["endDateTime"])


def launches(url, name, count, machines=None):
    found, unused = jobs(url, name)
    assert len(found) == int(count), "%s: %d test launches, not %s" % (name, len(found), count)
    if machines:
        assert len(found[-1]["participatingMachines"]) == int(machines), "%s's last launch: %d machines, not %s" % (
            name, len(found[-1]["participatingMachines"]), machines)


def recoveries(url, name, count):
    found, unused = jobs(url, name, "RECOVERY_LAUNCH")
    assert len(found) == int(count), "%s: %d recovery launches, not %s" % (name, len(found), count)


def cloud(url):
    for machine in sorted(requests.get(url + "/_simulator/cloud", timeout=30).json()["items"], key=lambda m: m["id"]):
        print(json.dumps(machine, sort_keys=True))


def order(url):
    identity, db, cache, app = (span(url, name) for name in ("identity", "db", "cache", "app"))
    assert identity[1] <= db[0] and identity[1] <= cache[0], "identity must end before db and cache begin"
    assert db[1] <= app[0] and cache[1] <= app[0], "db and cache must end before app begins"


def up_until_the_end(url):
    """identity's test machines were still up when app's launch job ended: terminated by cleanups after it."""
    app_ended = span(url, "app")[1]
    unused, project = jobs(url, "identity")
    user = "apps@example.test"
    session = requests.Session()
    session.post(url + API + "/login", json={"username": user, "password": ACCOUNTS[user]}, timeout=30).raise_for_status()
    items = session.get("%s%s/projects/%s/jobs" % (url, API, project), timeout=30).json()["items"]
    cleanups = [job for job in items if job["type"] == "CLEANUP"]
    assert cleanups and all(moment(job["creationDateTime"]) >= app_ended for job in cleanups), (
        "identity's test machines were cleaned up before app's launch ended: %s" % [job["creationDateTime"] for job in cleanups])


def overlap(url, first, second):
    (a0, a1), (b0, b1) = span(url, first), span(url, second)
    assert a0 < b1 and b0 < a1, "the launches of %s and %s did not overlap: %s-%s, %s-%s" % (first, second, a0, a1, b0, b1)


def empty(url):
    live = requests.get(url + "/_simulator/cloud", timeout=30).json()["items"]
    assert not live, "left in the target cloud: %s" % [m.get("name") or m["id"] for m in live]


def as_of(url, report, plan=None):
    with open(report) as handle:
        application = json.load(handle)
    moments = application["points_as_of"]
    if plan:
        with open(plan) as handle:
            assert moments == json.load(handle)["points_as_of"], "the run did not take the plan's moments"
    for node in application["nodes"]:
        # Each attempt names its run's files by their stem, in nodes/ beside the application's report.
        with open("%s/nodes/%s.json" % (report.rsplit("/", 1)[0], node["attempts"][-1]["report"])) as handle:
            machines = json.load(handle)["machines"]
        name, moment_of_node = node["name"], moment(moments[node["name"]])
        taken = [moment(machine["point_in_time"]["date_time"]) for machine in machines if machine["point_in_time"]]  # not a launch that failed
        assert taken and max(taken) <= moment_of_node, "%s launched from a point after its moment %s" % (name, moments[name])
        assert moment(node["points"]["newest"]) == max(taken), "%s: the application's report says another newest point" % name
        # Behind the moment: by its oldest point, an earlier attempt's included.
        oldest = moment(node["points"]["oldest"])
        assert oldest <= min(taken) and abs(node["behind_seconds"] - (moment_of_node - oldest)) < 0.01, "%s: behind the moment by %s, not %s" % (
            name, node["behind_seconds"], moment_of_node - oldest)
        user = OWNER.get(node["project"], "apps@example.test")
        session = requests.Session()
        session.post(url + API + "/login", json={"username": user, "password": ACCOUNTS[user]}, timeout=30).raise_for_status()
        project = next(p for p in session.get(url + API + "/projects", timeout=30).json()["items"] if p["name"] == node["project"])
        machine = next(m for m in session.get("%s%s/projects/%s/machines" % (url, API, project["id"]), timeout=30).json()["items"]
                       if m["sourceProperties"]["name"] == machines[0]["name"])
        points = session.get("%s%s/projects/%s/machines/%s/pointsintime" % (url, API, project["id"], machine["id"]), timeout=30).json()["items"]
        assert any(moment(point["dateTime"]) > moment_of_node for point in points), "%s: no point newer than its moment: nothing proven" % name
    print("behind the moment: " + ", ".join("%s %s s" % (node["name"], node["behind_seconds"]) for node in application["nodes"]))
    behind = [node for node in application["nodes"] if (node.get("behind_seconds") or 0) > 0]
    if behind:
        furthest = max(behind, key=lambda node: node["behind_seconds"])
        with open(report[:-len(".json")] + ".md") as handle:
            assert "Furthest behind it: %s, whose oldest point is" % furthest["name"] in handle.read(), "the summary does not name %s" % furthest["name"]


def advance(url, seconds):
    requests.post(url + "/_simulator/clock", json={"advanceSeconds": float(seconds)}, timeout=30).raise_for_status()


def percentile(values, share):
    ordered = sorted(values)
    rank = share * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def forecast(unused_url, ledger):
    """Sum over the levels (identity; db and cache; app) of the slowest node's p50 and p90 of its passing runs' RTO."""
    rtos = {}
    for path in sorted(glob.glob(ledger + "/*.json")):
        with open(path) as handle:
            entry = json.load(handle)
        if entry["runbook"] == "dr_test" and entry["result"] == "passed":
            rtos.setdefault(entry["report"]["project"], []).append(entry["report"]["measures"]["rto_seconds"])
    total = {}
    for share in (0.5, 0.9):
        total[share] = sum(max(percentile(rtos[name][-10:], share) for name in level)
                           for level in (["identity"], ["db", "cache"], ["app"]))
    print("%.3f %.3f" % (total[0.5], total[0.9]))


if __name__ == "__main__":
    command, arguments = sys.argv[2], sys.argv[3:]
    dict(launches=launches, recoveries=recoveries, cloud=cloud, order=order, overlap=overlap, empty=empty, forecast=forecast,
         advance=advance, **{"up-until-the-end": up_until_the_end, "as-of": as_of})[command](sys.argv[1], *arguments)
