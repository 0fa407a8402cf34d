# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The domain's facts and the parsers of text are written once, in module_utils._domain: the parsers
work as documented, and nothing else in the collection defines one of those facts again."""

import ast
import os
import re

import pytest

from ansible_collections.replication.recovery.plugins.module_utils import _domain
from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    iso_duration, kind_of, launch_job_type, moment_said, parse_duration, parse_flag, parse_list, parse_moment, parse_number, parse_point_policy,
    parse_time)

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
DOMAIN = os.path.join("plugins", "module_utils", "_domain.py")
DOCS = ("DOCUMENTATION", "EXAMPLES", "RETURN")


# -- the facts and the parsers ----------------------------------------------------------------------


def test_a_debug_launch_is_a_test_launch():
    assert kind_of("debug") == "test" and launch_job_type("debug") == "TEST_LAUNCH"
    assert launch_job_type("recovery") == "RECOVERY_LAUNCH" and launch_job_type("cutover", plan=True) == "RECOVERY_PLAN_CUTOVER"
    with pytest.raises(ValueError, match="launch type must be one of test, recovery, cutover, debug"):
        kind_of("holiday")


def test_the_job_types_are_the_published_ones():
    assert sorted(_domain.JOB_TYPES) == sorted([
        "TEST_LAUNCH", "RECOVERY_LAUNCH", "CUTOVER_LAUNCH", "RESTORE_LAUNCH", "CLEANUP", "FILE_RESTORE", "CONSOLIDATE_VMDKS",
        "RECOVERY_PLAN_TEST", "RECOVERY_PLAN_RECOVERY", "RECOVERY_PLAN_CUTOVER", "RECOVERY_PLAN_CLEANUP"])
    assert set(_domain.LAUNCHING_JOBS) | set(_domain.CLEANUP_JOBS) < set(_domain.JOB_TYPES)


@pytest.mark.parametrize("text,seconds", [
    ("2026-11-22T10:00:00Z", 1795341600.0), ("2026-11-22T10:00:00+00:00", 1795341600.0), ("2026-11-22T11:00:00+01:00", 1795341600.0),
    ("2026-11-22T10:00:00", 1795341600.0), ("2026-11-22T10:00:00.500000+00:00", 1795341600.5),
])
def test_date_times(text, seconds):
    assert parse_time(text) == seconds


@pytest.mark.parametrize("value,expected", [
    (5, 5), (1.5, 1.5), ("7", 7), (" 2.5 ", 2.5), ("", None), (None, None), ("None", None), ("null", None), ("~", None),
])
def test_numbers(value, expected):
    assert parse_number(value) == expected


@pytest.mark.parametrize("value", ["soon", True, "1e", [1]])
def test_what_is_no_number(value):
    with pytest.raises(ValueError, match="must be a number"):
        parse_number(value, "the target")


@pytest.mark.parametrize("value,expected", [
    (True, True), ("true", True), ("Yes", True), ("on", True), ("1", True), ("y", True),
    (False, False), ("false", False), ("NO", False), ("off", False), ("0", False), ("n", False),
])
def test_flags(value, expected):
    assert parse_flag(value) is expected


def test_a_flag_without_a_value_is_its_default_and_other_text_is_refused():
    assert parse_flag(None, default=True) is True and parse_flag("", default=False) is False
    with pytest.raises(ValueError, match="keep must be true or false, not 'maybe'"):
        parse_flag("maybe", "keep")


@pytest.mark.parametrize("value,seconds", [("PT10M", 600), ("P1DT2H", 93600), ("PT1M30S", 90), ("90", 90), (45, 45), ("", 0), (None, 0)])
def test_durations(value, seconds):
    assert parse_duration(value) == seconds


@pytest.mark.parametrize("value", ["P", "PT", "P1DT", "ten minutes", "PT-5M"])
def test_what_is_no_duration(value):
    with pytest.raises(ValueError, match="ISO 8601 duration"):
        parse_duration(value)


@pytest.mark.parametrize("seconds,text", [(0, "PT0S"), (150, "PT2M30S"), (86400, "P1D"), (93600, "P1DT2H")])
def test_durations_written(seconds, text):
    assert iso_duration(seconds) == text and parse_duration(text) == seconds


@pytest.mark.parametrize("value,expected", [("a, b,,c", ["a", "b", "c"]), ("a\nb", ["a", "b"]), ('["a"]', ["a"]), (None, []), (("a",), ["a"])])
def test_lists(value, expected):
    assert parse_list(value) == expected


# -- each written once ----------------------------------------------------------------------------

JOB_TYPE_PATTERN = re.compile(r"\b(%s)\b" % "|".join(_domain.JOB_TYPES))
LIFE_CYCLE_PATTERN = re.compile(r"\b(%s)\b" % "|".join(member for unused, member in _domain.LIFE_CYCLE_MEMBERS))
FLAG_WORDS = set(("yes", "on", "true", "1", "y"))
# What a parser of text is called: parse_anything, or a value read by name (_number, as_flag, ...).
PARSER_NAME = re.compile(r"^(_?parse_\w+|_(number|flag|bool|seconds|duration|list)s?|(as|to)_(number|flag|bool|seconds|duration|list)s?)$")


def python_files():
    for folder in ("plugins",):
        for directory, unused, files in os.walk(os.path.join(COLLECTION, folder)):
            for name in files:
                path = os.path.join(directory, name)
                if name.endswith(".py") and os.path.relpath(path, COLLECTION) != DOMAIN:
                    yield os.path.relpath(path, COLLECTION), ast.parse(open(path).read())


def code_of(tree):
    """The module's code, without its documentation (DOCUMENTATION, EXAMPLES, RETURN, docstrings), as
    units small enough to hold one rule: each simple statement, and the condition of each if or while."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            node.body = node.body[1:]
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and any(getattr(target, "id", None) in DOCS for target in statement.targets):
            continue
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, (ast.If, ast.While)):
                yield node.test
            elif isinstance(node, (ast.For, ast.With, ast.Try)):
                continue
            elif isinstance(node, ast.stmt):
                yield node


def strings(unit):
    return [node.value for node in ast.walk(unit) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


POINT = "0b6c1e9a-2f3d-4c5b-8a7e-1d2c3b4a5f60"


@pytest.mark.parametrize("value, kind, given, said, member", [
    (None, "latest", False, "latest", None), ("", "latest", False, "latest", None), ("latest", "latest", True, "latest", None),
    (" Latest ", "latest", True, "latest", None),
    ("before:2026-11-20T03:00:00Z", "before", True, "before:2026-11-20T03:00:00Z", ("moment", 1795143600.0)),
    ("2026-11-20T04:00:00+01:00", "before", True, "before:2026-11-20T03:00:00Z", ("at", "2026-11-20T03:00:00Z")),
    ("before:2026-11-20 03:00:00Z", "before", True, "before:2026-11-20T03:00:00Z", ("moment", 1795143600.0)),
    (POINT, "point", True, POINT, ("id", POINT)),
    ({"db-1": POINT}, "per machine", True, "db-1=" + POINT, ("points", {"db-1": POINT})),
    ("db-1=%s, web-1 = %s" % (POINT, POINT), "per machine", True, "db-1=%s, web-1=%s" % (POINT, POINT), ("points", {"db-1": POINT, "web-1": POINT})),
    ("from:reports/clean_point_site.json", "from", True, "from:reports/clean_point_site.json", ("report", "reports/clean_point_site.json")),
])
def test_point_in_time_policies(value, kind, given, said, member):
    policy = parse_point_policy(value)
    assert (policy["kind"], policy["given"], policy["said"]) == (kind, given, said)
    assert member is None or policy[member[0]] == member[1]


@pytest.mark.parametrize("value, message", [
    ("before:yesterday", "before: must be an RFC 3339 date-time"), ("yesterday-ish", "must be latest, before:<date-time>"),
    ("db-1=", "per machine is name=ID"), (42, "must be latest"), ("from:", "from: takes the path"),
    # What -e key=value leaves of "before:2026-11-25 03:00", and moments a person could mean two ways.
    ("before:2026-11-25", "is a date without a time; give the time and Z or an offset, such as 2026-11-25T03:00:00Z (with -e, a value is cut"),
    ("2026-11-25T03:00:00", "has no Z or offset"), ("before:2026-02-30T03:00:00Z", "is no date-time of the calendar"),
])
def test_what_is_no_point_in_time_policy(value, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_point_policy(value)


def test_a_moment_is_said_to_the_second_in_utc():
    assert moment_said(1795143600.0) == "2026-11-20T03:00:00Z" and moment_said(1795143600.25) == "2026-11-20T03:00:00.25Z"
    assert parse_moment("2026-11-20T04:00+01:00", "at") == 1795143600.0


def test_no_python_outside_the_domain_defines_one_of_its_facts_again():
    found = []
    for path, tree in python_files():
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef) and PARSER_NAME.match(function.name) and not (
                    path.startswith(os.path.join("plugins", "filter")) and function.name.startswith("as_")):
                found.append("%s:%d: a parser of its own, %s" % (path, function.lineno, function.name))
        for statement in code_of(tree):
            texts = strings(statement)
            if any(text in _domain.JOB_TYPES or text in dict(_domain.LIFE_CYCLE_MEMBERS).values() for text in texts):
                found.append("%s:%d: a job type or a life-cycle member" % (path, statement.lineno))
            if "PENDING" in texts and "STARTED" in texts:
                found.append("%s:%d: the active states" % (path, statement.lineno))
            if "debug" in texts and "test" in texts:
                found.append("%s:%d: the debug-to-test rule" % (path, statement.lineno))
            if len(FLAG_WORDS & set(text.lower() for text in texts)) >= 3:
                found.append("%s:%d: a reading of flags from text" % (path, statement.lineno))
            for node in ast.walk(statement):
                if isinstance(node, ast.Attribute) and node.attr in ("fromisoformat", "strptime"):
                    found.append("%s:%d: a reading of date-times from text" % (path, node.lineno))
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("^P(?:"):
                    found.append("%s:%d: a reading of ISO 8601 durations" % (path, node.lineno))
    assert found == [], "domain facts written outside module_utils/_domain.py:\n" + "\n".join(found)


def yaml_files():
    for folder in ("roles", "playbooks"):
        for directory, unused, files in os.walk(os.path.join(COLLECTION, folder)):
            for name in files:
                path = os.path.relpath(os.path.join(directory, name), COLLECTION)
                # Argument specs list the choices (that is documentation); tasks, vars and templates compute.
                if name.endswith((".yml", ".yaml", ".j2")) and "argument_specs" not in name:
                    yield path, open(os.path.join(COLLECTION, path)).read().splitlines()


def test_no_role_or_playbook_defines_one_of_the_facts_or_reads_its_inputs_itself():
    found = []
    for path, lines in yaml_files():
        for number, line in enumerate(lines, 1):
            code = line.split("#")[0]
            if JOB_TYPE_PATTERN.search(code) or LIFE_CYCLE_PATTERN.search(code):
                found.append("%s:%d: a job type or a life-cycle member" % (path, number))
            if "PENDING" in code and "STARTED" in code:
                found.append("%s:%d: the active states" % (path, number))
            if re.search(r"'debug'|\"debug\"", code) and re.search(r"'test'|\"test\"", code):
                found.append("%s:%d: the debug-to-test rule" % (path, number))
            if not path.endswith(".j2") and re.search(r"\|\s*(int|bool|float)\b", code):
                found.append("%s:%d: an input read as a number or flag by Jinja, not by the collection's parsers" % (path, number))
            if re.search(r"in \[none, ''|'None'\]", code):
                found.append("%s:%d: a no-value rule of its own" % (path, number))
    assert found == [], "domain facts written in roles or playbooks:\n" + "\n".join(found)


def test_the_checks_find_what_they_look_for(tmp_path):
    """A check that cannot fail proves nothing: each rule finds a planted copy."""
    planted = ast.parse('JOBS = ("TEST_LAUNCH",)\nACTIVE = ("PENDING", "STARTED")\nKIND = {"debug": "test"}\n'
                        'TRUE = ("yes", "on", "true")\ndef _flag(value):\n    """Docs say debug and test."""\n'
                        '    if value == "debug" or value == "test":\n        return value\n')
    texts = [strings(unit) for unit in code_of(planted)]
    assert "TEST_LAUNCH" in texts[0] and "PENDING" in texts[1] and "debug" in texts[2] and len(FLAG_WORDS & set(texts[3])) == 3
    assert texts.count(["debug", "test"]) == 2 and not any("Docs say" in text for found in texts for text in found)
    assert PARSER_NAME.match("_flag") and PARSER_NAME.match("parse_waves") and not PARSER_NAME.match("list")
    assert JOB_TYPE_PATTERN.search("when: job.type == 'TEST_LAUNCH'") and re.search(r"\|\s*(int|bool|float)\b", "x | int")
