# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which plays the game_day playbook reads: an application's only for a game day that may be one, as many of its levels
as its nodes have."""

import json

import pytest

from ansible_collections.replication.recovery.plugins.filter.application import application_level_plays, application_plays_after
from ansible_collections.replication.recovery.plugins.filter.game_day import FilterModule, game_day_nodes, game_day_plays, game_day_scenario
from ansible_collections.replication.recovery.plugins.plugin_utils._application import MAX_LEVELS

SCENARIO = dict(name="nightly-shop", hypothesis="the shop recovers within an hour", blast_radius=dict(projects=["shop"]))


def test_the_filters_are_named_as_their_documentation():
    assert FilterModule().filters() == {"game_day_scenario": game_day_scenario, "game_day_plays": game_day_plays, "game_day_nodes": game_day_nodes}


@pytest.mark.parametrize("scenario", [
    SCENARIO,  # a DR test, the default
    dict(SCENARIO, runbook="restore_test"),
    dict(SCENARIO, runbook=None),
    json.dumps(dict(SCENARIO, runbook="failover", **{"with": {"network": {"subnets": ["isolated-a"]}}})),  # an AWX survey's JSON text
    "name: nightly-shop\nhypothesis: the shop has a clean point\nrunbook: clean_point\nblast_radius: {projects: [shop]}\n",  # YAML
])
def test_a_scenario_of_another_runbook_reads_the_game_days_play_alone(scenario):
    assert game_day_plays(scenario) == game_day_plays(scenario, None) == game_day_plays(scenario, "") == "game_day"


APPLICATION = dict(SCENARIO, runbook="application", **{"with": {"nodes": {"web": {"project": "shop"}}}})


@pytest.mark.parametrize("scenario", [APPLICATION, json.dumps(APPLICATION)])
def test_an_applications_scenario_reads_its_plays(scenario):
    assert game_day_plays(scenario) == "game_day_application"


@pytest.mark.parametrize("scenario", [
    None, "", "none",  # not an extra variable: in the inventory's variables, read only as the game day runs
    "[unclosed", "just words", ["a", "list"],  # text the game day refuses by name as it runs
    dict(SCENARIO, runbook="failover"),  # refused as it runs: a game day's failover needs its test network
])
def test_a_scenario_that_cannot_be_read_as_the_playbook_is_read_reads_the_applications_plays(scenario):
    assert game_day_plays(scenario) == "game_day_application"


@pytest.mark.parametrize("lever", ["engaged", "released"])
def test_a_lever_pulled_reads_the_game_days_play_alone(lever):
    assert game_day_plays(None, lever) == game_day_plays(APPLICATION, lever) == "game_day"


def test_an_applications_game_day_gives_its_nodes_to_count_its_plays_by():
    """As many levels' plays as the nodes have, and the approvals' plays only when a node needs one."""
    nodes = {"db": {"project": "db"}, "web": {"project": "shop", "after": ["db"]}}
    scenario = dict(SCENARIO, runbook="application", **{"with": {"nodes": nodes}}, blast_radius=dict(projects=["db", "shop"]))
    for given in (scenario, json.dumps(scenario)):
        assert sorted(game_day_nodes(given)) == ["db", "web"]
        assert application_level_plays(game_day_nodes(given), "dr_test") == 2
        assert application_plays_after(game_day_nodes(given), "dr_test") == "application_end"
    nodes["web"]["approval"] = True
    assert application_plays_after(game_day_nodes(scenario), "dr_test") == "application_again"


@pytest.mark.parametrize("scenario", [
    None, "", "[unclosed", dict(SCENARIO, runbook="failover"),  # not read here, or refused as the game day runs
    SCENARIO, dict(SCENARIO, runbook="restore_test"),  # another runbook's
])
def test_a_game_day_whose_nodes_are_not_known_as_the_playbook_is_read_reads_the_most_levels(scenario):
    assert game_day_nodes(scenario) is None
    assert application_level_plays(game_day_nodes(scenario), "dr_test") == MAX_LEVELS
    assert application_plays_after(game_day_nodes(scenario), "dr_test") == "application_again"


@pytest.mark.parametrize("dry_run, check_mode", [(True, False), ("true", False), ("yes", False), (None, True), ("false", True)])
def test_a_dry_run_or_check_mode_reads_the_game_days_play_alone_which_plans_the_application(dry_run, check_mode):
    assert game_day_plays(APPLICATION, None, dry_run, check_mode) == game_day_plays(None, None, dry_run, check_mode) == "game_day"


@pytest.mark.parametrize("dry_run", [False, "false", "no", None, "", "perhaps"])  # "perhaps": refused by name as it runs
def test_a_game_day_that_runs_its_application_reads_its_plays(dry_run):
    assert game_day_plays(APPLICATION, None, dry_run, False) == game_day_plays(APPLICATION, "", dry_run) == "game_day_application"
