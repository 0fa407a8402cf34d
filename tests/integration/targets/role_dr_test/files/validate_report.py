#!/usr/bin/env python
"""Check a DR test report: the JSON follows the role's schema, and the JUnit XML parses and agrees with it.

validate_report.py SCHEMA JSON JUNIT -> prints a JSON summary of the JUnit file on success.
"""

import json
import sys
from xml.etree import ElementTree

import jsonschema

schema_path, report_path, junit_path = sys.argv[1:4]
with open(schema_path) as schema_file, open(report_path) as report_file:
    report = json.load(report_file)
    jsonschema.validate(report, json.load(schema_file))

suites = ElementTree.parse(junit_path).getroot()
assert suites.tag == "testsuites", suites.tag
cases = [(suite.get("name"), case.get("name"), "failed" if case.find("failure") is not None else
          "skipped" if case.find("skipped") is not None else "passed") for suite in suites for case in suite.findall("testcase")]
expected = [("dr_test.%s" % report["project"], check["name"], check["status"]) for check in report["checks"]]
expected += [("dr_test.%s.%s" % (report["project"], machine["name"]), check["name"], check["status"])
             for machine in report["machines"] for check in machine["checks"]]
assert cases == expected, (cases, expected)
assert int(suites.get("failures")) == sum(1 for case in cases if case[2] == "failed")
print(json.dumps({"testcases": len(cases), "failures": int(suites.get("failures")), "skipped": int(suites.get("skipped"))}))
