# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The integration targets' shell scripts check what a run did with commands that stop the script when they fail
(``set -e``). Two forms look like checks and are not: bash's ``set -e`` ignores a command whose status ``!`` inverts,
and every command of an ``&&`` list but the last - ``! grep -q "no hosts matched" output.txt`` and
``[ "$count" = 1 ] && grep -q ...`` each pass whatever the run printed."""

import glob
import os
import re

import pytest

TARGETS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "integration", "targets"))
SCRIPTS = sorted(glob.glob(os.path.join(TARGETS, "*", "runme.sh")) + glob.glob(os.path.join(TARGETS, "*", "files", "*.sh")))
# What begins a check: a test, or a grep that answers by its status.
CHECK = re.compile(r"^(test |\[ |\[\[ |grep )")
# Where bash reads a command's status itself rather than stopping on it.
CONDITION = re.compile(r"^(if|elif|while|until)\b")


def unstoppable(line):
    """Why ``set -e`` would not stop on a check of ``line`` (a line of a script), or None."""
    command = line.split("  # ")[0].strip()
    if not command or command.startswith("#") or CONDITION.match(command):
        return None
    if command.startswith("! "):
        return "set -e ignores a status that ! inverts"
    first = command.split(" && ")
    if len(first) > 1 and CHECK.match(first[0]) and not re.search(r"\|\|", command):
        return "set -e ignores every command of an && list but the last"
    return None


@pytest.mark.parametrize("line, why", [
    ('! grep -q "no hosts matched" output.txt', "! inverts"),
    ('[ "$(grep -c PLAY output.txt)" = 1 ] && ! grep -q "no hosts matched" output.txt', "&& list"),
    ('test -s "$plan" && test -s "$reports/plan.md"', "&& list"),
    ('    grep -q "un-1" output.txt && grep -q "un-2" output.txt', "&& list"),
])
def test_a_check_set_e_cannot_stop_on_is_found(line, why):
    assert why in unstoppable(line)


@pytest.mark.parametrize("line", [
    '[ "$(grep -c "no hosts matched" output.txt)" = 0 ]',
    'if ! grep -q "x" output.txt; then cat output.txt; exit 1; fi',
    'grep -q "resumed" output.txt || { cat output.txt; exit 1; }',
    'rm -rf work && mkdir -p work',  # set-up, not a check: its last command stops the script
    'until grep -q "runs" stopped.txt; do sleep 0.2; done',
])
def test_a_check_set_e_stops_on_is_not_found(line):
    assert unstoppable(line) is None


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: os.path.relpath(path, TARGETS))
def test_every_check_of_a_targets_script_can_fail(script):
    with open(script, encoding="utf-8") as handle:
        found = ["%d: %s (%s)" % (number, line.strip(), unstoppable(line)) for number, line in enumerate(handle, 1) if unstoppable(line)]
    assert found == []


@pytest.mark.parametrize("script", sorted(glob.glob(os.path.join(TARGETS, "*", "runme.sh"))), ids=lambda path: path.split(os.sep)[-2])
def test_every_targets_script_stops_at_its_first_failing_command(script):
    """Each script runs under set -e (first_night, each of its cases in a subshell of its own)."""
    with open(script, encoding="utf-8") as handle:
        assert re.search(r"(^|\( )set -[a-z]*e[a-z]*( |;|$)", handle.read(), re.MULTILINE), "no set -e"
