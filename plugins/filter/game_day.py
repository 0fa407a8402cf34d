# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A game day's scenario, read and checked before anything is read or written (plugin_utils._game_day); and which plays
the game day's playbook reads, and of an application's, the nodes its levels' plays are counted by."""

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value, parse_flag
from ansible_collections.replication.recovery.plugins.plugin_utils._game_day import ScenarioRefused, plan_of, refused_said


def game_day_scenario(scenario):
    try:
        return plan_of(scenario)
    except ScenarioRefused as refused:
        raise AnsibleFilterError(refused_said(scenario, refused))


def game_day_plays(scenario, lever=None, dry_run=None, check_mode=False):
    """The plays the game_day playbook reads, from the extra variables it sees as it is read (playbooks/parts/<answer>.yml):
    those of an application's run (game_day_application) only when the scenario may be an application's - its runbook is
    application, or it cannot be read here (not an extra variable: in the inventory; or one the run refuses by name) - and
    the game day runs it; else the game day's own play alone (game_day): a lever pulled, a dry run or --check (the game
    day's play plans the application), or a scenario of another runbook."""
    try:
        planned = check_mode is True or parse_flag(dry_run, "game_day_dry_run")
    except ValueError:  # refused by name as the game day runs
        planned = False
    if not no_value(lever) or planned:
        return "game_day"
    try:  # read as the game day reads it
        runbook = None if no_value(scenario) else plan_of(scenario)["runbook"]
    except ScenarioRefused:
        runbook = None
    return "game_day_application" if runbook in (None, "application") else "game_day"


def game_day_nodes(scenario):
    """The nodes an application's game day gives its run, read as the game day reads the scenario, for the application's
    own filters to count its plays by (application_level_plays, application_plays_after); none when it is no application's
    or cannot be read here - those filters then read the most plays."""
    try:
        plan = None if no_value(scenario) else plan_of(scenario)
    except ScenarioRefused:
        plan = None
    return plan["with"]["nodes"] if plan and plan["runbook"] == "application" else None


class FilterModule(object):
    def filters(self):
        return {"game_day_scenario": game_day_scenario, "game_day_plays": game_day_plays, "game_day_nodes": game_day_nodes}
