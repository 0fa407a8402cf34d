"""The audit programme's OSCAL documents validated with compliance-trestle (a published OSCAL library), and held to the
programme they export: every control judged, every finding, a POA&M item for each finding not closed, the results
importing the plan written beside them.

    python oscal_valid.py EVIDENCE_DIR
"""

import json
import os
import pathlib
import sys

from trestle.oscal.assessment_plan import AssessmentPlan
from trestle.oscal.assessment_results import AssessmentResults
from trestle.oscal.poam import PlanOfActionAndMilestones


def main(directory):
    with open(os.path.join(directory, "evidence_programme.json"), encoding="utf-8") as handle:
        programme = json.load(handle)
    stem = os.path.join(directory, programme["run"]["files"])
    results = AssessmentResults.oscal_read(pathlib.Path(stem + ".oscal.json"))
    plan = AssessmentPlan.oscal_read(pathlib.Path(stem + ".oscal-plan.json"))
    poam = PlanOfActionAndMilestones.oscal_read(pathlib.Path(stem + ".oscal-poam.json"))
    assert os.path.isfile(os.path.join(directory, results.import_ap.href)), results.import_ap.href
    assert sorted(activity.title for activity in plan.local_definitions.activities) == sorted(c["id"] for c in programme["controls"])
    [result] = results.results
    titles = [finding.title for finding in result.findings]
    assert all("%s: %s" % (c["id"], c["status"]) in titles for c in programme["controls"]), titles
    assert all(f["id"] in titles for f in programme["findings"]), titles
    pending = sorted(f["id"] for f in programme["findings"] if f["status"] != "closed")
    assert sorted(item.title for item in poam.poam_items) == (pending or ["No open finding"]), (poam.poam_items, pending)
    print("OSCAL valid: %d controls, %d findings, %d POA&M items" % (len(programme["controls"]), len(programme["findings"]), len(pending)))


if __name__ == "__main__":
    main(sys.argv[1])
