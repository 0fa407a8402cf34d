# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which plays the game_day playbook reads: an application's only for a game day that may be one."""

import json

import pytest

from ansible_collections.replication.recovery.plugins.filter.game_day import FilterModule, game_day_plays, game_day_scenario

SCENARIO = dict(name="nightly-shop", hypothesis="the shop recovers within an hour", blast_radius=dict(projects=["shop"]))


def test_the_filters_are_named_as_their_documentation():
    assert FilterModule().filters() == {"game_day_scenario": game_day_scenario, "game_day_plays": game_day_plays}


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
