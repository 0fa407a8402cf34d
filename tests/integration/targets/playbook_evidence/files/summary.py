"""The evidence summary of three passing DR tests and a health run of the project proof: its figures."""

import json
import sys

summary = json.load(open(sys.argv[1]))
assert summary["schema"] == "replication.recovery.evidence/v1" and summary["verified"] is True and summary["breaks"] == [], summary
assert summary["entries"] == 4 and summary["head"] == sys.argv[2], summary
[period] = summary["periods"]
assert period["project"] == "proof" and period["drills"] == dict(run=3, passed=3, failed=0), period
assert period["runs"] == dict(dr_test=dict(run=3, passed=3, failed=0), health=dict(run=1, passed=1, failed=0)), period
assert period["entries"] == [1, 2, 3, 4] and period["worst_rto_seconds"] > 0 and period["worst_rpo_seconds"] >= 0, period
[project] = summary["projects"]
assert project["name"] == "proof" and project["machines"] == 2 and project["never_proven"] == [], project
forecast = project["rto_forecast"]
assert sorted(forecast["machines"]) == ["db-1", "web-1"] and all(m["runs"] == 3 for m in forecast["machines"].values()), forecast
assert forecast["p90_seconds"] == max(m["p90_seconds"] for m in forecast["machines"].values()), forecast
assert forecast["median_seconds"] <= forecast["p90_seconds"] and forecast["target_seconds"] == 7200 and forecast["meets_target"] is True, forecast
