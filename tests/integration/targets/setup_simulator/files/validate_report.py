#!/usr/bin/env python
"""Check a report of the collection's roles, dr_test or health: the JSON follows the role's schema, and
the JUnit XML parses and agrees with it, test case by test case.

validate_report.py SCHEMA JSON JUNIT -> prints a JSON summary on success: the JUnit file's test cases,
failures and skipped ones, and the machines that passed (project/machine for health).
"""

import json
import sys
from xml.etree import ElementTree

import jsonschema


def dr_test_cases(report):
    """(suite, class, test case, status): a suite for the run, and one per machine, with the checks as cases."""
    run = "dr_test.%s" % report["project"]
    cases = [(run, run, check["name"], check["status"]) for check in report["checks"]]
    for machine in report["machines"]:
        suite = "%s.%s" % (run, machine["name"])
        cases.extend((suite, suite, check["name"], check["status"]) for check in machine["checks"])
    passed = [machine["name"] for machine in report["machines"] if machine["passed"]]
    return cases, passed


def health_cases(report):
    """(suite, class, test case, status): a suite per project, a case per machine (the class) and check."""
    cases, passed = [], []
    for project in report["projects"]:
        for machine in project["machines"]:
            machine_class = "health.%s.%s" % (project["name"], machine["name"])
            cases.extend(("health.%s" % project["name"], machine_class, check["name"], check["status"]) for check in machine["checks"])
            if machine["passed"]:
                passed.append("%s/%s" % (project["name"], machine["name"]))
    return cases, passed


schema_path, report_path, junit_path = sys.argv[1:4]
with open(schema_path) as schema_file, open(report_path) as report_file:
    report = json.load(report_file)
    jsonschema.validate(report, json.load(schema_file))
expected, passed = (health_cases if report["schema"].startswith("replication.recovery.health/") else dr_test_cases)(report)

suites = ElementTree.parse(junit_path).getroot()
assert suites.tag == "testsuites", suites.tag
cases = [(suite.get("name"), case.get("classname"), case.get("name"),
          "failed" if case.find("failure") is not None else "skipped" if case.find("skipped") is not None else "passed")
         for suite in suites for case in suite.findall("testcase")]
assert cases == expected, (cases, expected)
for count in ("tests", "failures", "skipped"):
    status = {"tests": None, "failures": "failed", "skipped": "skipped"}[count]
    assert int(suites.get(count, 0)) == sum(1 for case in cases if status in (None, case[3])), count
print(json.dumps({"testcases": len(cases), "failures": int(suites.get("failures")), "skipped": int(suites.get("skipped", 0)), "passed": passed}))
