# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The conventions test catches the breaks a newcomer made building a runbook by the guide, each of which once went
unnoticed by every test: each is made in a scratch copy of the collection, and the conventions test run there fails -
by the test that holds that convention - where it passes on the copy as it was."""

import os
import shutil
import subprocess
import sys

import ansible
import pytest

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# What the conventions test reads of the collection.
COPIED = ("plugins", "roles", "playbooks", "docs", os.path.join("tests", "unit", "golden"), os.path.join("tests", "unit", "test_conventions.py"))

# (the break, the file, the text, what it becomes, the test of tests/unit/test_conventions.py that fails on it)
BREAKS = [
    ("a playbook runs another runbook's role", "playbooks/evidence.yml", "- replication.recovery.evidence", "- replication.recovery.health",
     "test_its_playbook_runs_its_role_and_only_the_runbooks_its_row_uses"),
    ("a variable without its runbook's prefix, in its tasks", "roles/health/tasks/main.yml", "register: health_written",
     "register: written_report", "test_every_variable_its_role_makes_carries_its_prefix"),
    ("a variable without its runbook's prefix, in its defaults", "roles/evidence/defaults/main.yml", "evidence_period:", "period:",
     "test_every_variable_its_role_makes_carries_its_prefix"),
    ("a wrong ledger kind", "plugins/plugin_utils/_runbooks.py", 'row("launch_policy", "Launch policy", "policy")',
     'row("launch_policy", "Launch policy", "policy")._replace(ledger="health")', "test_every_role_has_a_row_and_each_row_its_own"),
    ("report files named otherwise than the runbook", "roles/launch_policy/tasks/main.yml", "name: launch_policy_{{", "name: policy_{{",
     "test_it_writes_and_enters_its_report_then_publishes_it_then_fails"),
    ("a role without a row in the table", "plugins/plugin_utils/_runbooks.py", '    row("protect", "Protect", None, ledger=False, uses=("agent",)),\n', "",
     "test_every_role_has_a_row_and_each_row_its_own"),
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A scratch copy of what the conventions test reads, as an importable collection."""
    root = tmp_path_factory.mktemp("pristine")
    copy = root / "ansible_collections" / "replication" / "recovery"
    for part in COPIED:
        source, target = os.path.join(COLLECTION, part), str(copy / part)
        if os.path.isdir(source):
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy(source, target)
    return root


def conventions(root, selected):
    """The conventions test run in the copy at ``root``, the tests named ``selected`` only: its exit code and output."""
    environment = dict((name, value) for name, value in os.environ.items() if not name.startswith(("PYTEST_", "PYTHON")))
    # The copy, and ansible-core where this test found it (ansible-test units puts it on the path, not in the venv).
    environment["PYTHONPATH"] = os.pathsep.join([str(root), os.path.dirname(os.path.dirname(ansible.__file__))])
    test = os.path.join(str(root), "ansible_collections", "replication", "recovery", "tests", "unit", "test_conventions.py")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(root), test, "-k", selected], check=False,
                          cwd=str(root), env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    return done.returncode, done.stdout


def test_the_conventions_hold_on_the_copy_as_it_is(pristine):
    code, output = conventions(pristine, " or ".join(sorted(set(test for unused, unused_path, unused_text, unused_made, test in BREAKS))))
    assert code == 0, output
    assert " passed" in output and " failed" not in output


@pytest.mark.parametrize("said, path, text, made, test", BREAKS, ids=[said for said, unused, unused_text, unused_made, unused_test in BREAKS])
def test_a_break_fails_the_conventions_test(said, path, text, made, test, pristine, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(str(pristine), str(root))
    broken = root / "ansible_collections" / "replication" / "recovery" / path
    source = broken.read_text(encoding="utf-8")
    assert source.count(text) == 1, "the break (%s) no longer applies to %s: write it again" % (said, path)
    broken.write_text(source.replace(text, made), encoding="utf-8")
    code, output = conventions(root, test)
    assert code == 1 and "FAILED" in output and test in output, output
