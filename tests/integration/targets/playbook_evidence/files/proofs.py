"""Check the proofs in a health report: proofs.py <health.json> <machine>=<status>[:<entry>] ...

Each machine named must have that status ("proven", "changed", "never"); a proven machine, the ledger entry that
proves it, if given; a changed one, its blueprint change named, or with "changed:project" the project's replication
configuration changed."""

import json
import sys

STATUS = {"proven": "proven", "changed": "changed since last proven", "never": "never proven"}

with open(sys.argv[1]) as stream:
    report = json.load(stream)
[project] = report["projects"]
machines = dict((machine["name"], machine) for machine in project["machines"])
assert report["proofs_from"] == "ledger", report["proofs_from"]
for wanted in sys.argv[2:]:
    name, expected = wanted.split("=", 1)
    status, entry = (expected.split(":", 1) + [""])[:2]
    proof = machines[name]["proof"]
    assert proof["status"] == STATUS[status], (name, proof)
    if entry.isdigit():
        assert proof["proven"]["entry"] == int(entry), (name, proof)
    if status == "changed":
        event, scope = ("REPLICATION_CONFIGURATION_UPDATED", "project") if entry == "project" else ("BLUEPRINT_UPDATED", None)
        assert [(change["event"], change["username"], change.get("scope")) for change in proof["changes"]] == [
            (event, "proof@example.test", scope)], proof
    else:
        assert proof["changes"] == [], proof
unproven = sum(1 for machine in machines.values() if machine["proof"]["status"] != "proven")
assert report["counts"]["unproven"] == unproven, report["counts"]
