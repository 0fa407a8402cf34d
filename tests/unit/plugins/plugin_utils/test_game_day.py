# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A game day's scenario, as a file or an AWX survey gives it: what its DR test, restore test, clean point drill, failover or application is given
(each name an option of that runbook's), and every way it cannot run refused by name before anything is read or written."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import pytest
import yaml

from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION
from ansible_collections.replication.recovery.plugins.plugin_utils._game_day import BETWEEN, RUNBOOKS, ScenarioRefused, plan_of
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME

SCENARIO = dict(name="nightly-shop", hypothesis="the shop recovers within 15 minutes", with_={},
                blast_radius=dict(projects=["shop"], machines=["db-*", "tag:web"]), targets=dict(rto_seconds="900"),
                stop_when=[dict(name="storefront", url="https://shop.example/health", status=200),
                           dict(name="network", tasks="probes/network.yml", after_failures=1)])


def scenario(**changes):
    given = dict(SCENARIO, **changes)
    given["with"] = given.pop("with_")
    return given


def test_the_dr_test_is_given_every_option_it_may_take_the_blast_radius_targets_and_the_probes_it_watches():
    plan = plan_of(scenario(with_=dict(waves="db-*;web-*", poll_interval="1")))
    assert (plan["runbook"], plan["project"], plan["projects"], plan["machines"]) == ("dr_test", "shop", ["shop"], ["db-*", "tag:web"])
    assert set(plan["with"]) == set(RUNBOOKS["dr_test"]) and plan["with"]["waves"] == "db-*;web-*" and plan["with"]["project"] == "shop"
    assert plan["with"]["point_in_time"] == "latest" and plan["with"]["progress_interval"] == 60  # the DR test's own defaults
    assert plan["own"] == dict(stop_when=[SCENARIO["stop_when"][0]], blast_radius=["db-*", "tag:web"], rpo_target=None, rto_target=900)
    assert [probe["name"] for probe in plan["tasks_probes"]] == ["network"]  # the game day runs those before the start
    assert plan["given"]["dr_test_waves"] == "db-*;web-*" and plan["given"]["dr_test_rto_target"] == 900
    assert plan["given"]["dr_test_after_wave_tasks"] == BETWEEN  # the probe of your tasks, looked at again after each wave
    assert plan_of(scenario(stop_when=SCENARIO["stop_when"][:1]))["given"]["dr_test_after_wave_tasks"] is None


def test_a_restore_test_is_given_its_own_options_and_none_of_the_dr_tests():
    plan = plan_of(scenario(runbook="restore_test", with_=dict(point_in_time="before:2026-11-20T03:00:00Z")))
    assert plan["runbook"] == "restore_test" and set(plan["with"]) == set(RUNBOOKS["restore_test"])
    assert plan["given"]["restore_test_point_in_time"] == "before:2026-11-20T03:00:00Z" and plan["given"]["restore_test_project"] == "shop"
    assert plan["with"]["report_dir"] == "restore_test_report"  # the restore test's default, where the game day's report goes too
    assert not [name for name in plan["given"] if not name.startswith("restore_test_")]
    with pytest.raises(ScenarioRefused, match="with gives waves, which a game day does not pass to its restore_test"):
        plan_of(scenario(runbook="restore_test", with_=dict(waves="db-*")))


NETWORK = dict(subnets=["isolated-a"], security_groups=["isolated"], public_ip_action="DONT_ALLOCATE")


def test_a_failover_is_given_its_test_network_and_always_rolls_back():
    plan = plan_of(scenario(runbook="failover", with_=dict(network=json.dumps(NETWORK), waves="db-*;web-*")))
    assert plan["title"] == "Failover" and set(plan["with"]) == set(RUNBOOKS["failover"])
    assert plan["given"]["failover_commit"] is False and plan["given"]["failover_network"] == json.dumps(NETWORK)
    assert plan["given"]["failover_waves"] == "db-*;web-*" and plan["given"]["failover_rto_target"] == 900
    assert plan["given"]["failover_stop_when"] == SCENARIO["stop_when"][:1] and plan["given"]["failover_blast_radius"] == ["db-*", "tag:web"]
    assert not [name for name in plan["given"] if not name.startswith("failover_")]


def test_a_clean_point_drill_is_given_its_search_options_and_stop_conditions_and_no_targets():
    plan = plan_of(scenario(runbook="clean_point", targets=None, with_=dict(after="2026-11-20T00:00:00Z", checks_tasks="checks.yml")))
    assert plan["given"]["clean_point_after"] == "2026-11-20T00:00:00Z" and plan["given"]["clean_point_blast_radius"] == ["db-*", "tag:web"]
    assert "clean_point_rto_target" not in plan["given"] and plan["title"] == "Clean point search"
    with pytest.raises(ScenarioRefused, match="with gives point_in_time, which a game day does not pass to its clean_point"):
        plan_of(scenario(runbook="clean_point", targets=None, with_=dict(point_in_time="latest")))


NODES = dict(db=dict(project="shop"), web=dict(project="web", after=["db"], machines=["web-1"], vars=dict(dr_test_poll_interval="1")))
APPLICATION = dict(runbook="application", blast_radius=dict(projects=["shop", "web"], machines=["db-*", "tag:web"]))


def options_of(runbook):
    with open(os.path.join(COLLECTION, "roles", runbook, "meta", "argument_specs.yml"), encoding="utf-8") as handle:
        return yaml.safe_load(handle)["argument_specs"]["main"]["options"]


@pytest.mark.parametrize("runbook", sorted(RUNBOOKS))
def test_every_option_it_gives_a_runbook_is_an_option_of_that_runbooks_and_the_game_day_uses_it(runbook):
    changes = dict(APPLICATION, with_=dict(nodes=NODES)) if runbook == "application" else dict(
        runbook=runbook, with_=dict(network=NETWORK) if runbook == "failover" else {})
    given = plan_of(scenario(**dict(changes, targets=None if runbook == "clean_point" else SCENARIO["targets"])))["given"]
    assert set(given) - set(options_of(runbook)) == set() and runbook in BY_NAME["game_day"].uses
    if runbook == "application":  # its nodes' DR tests look at your probes' tasks after each wave
        assert all(set(node["vars"]) - set(options_of("dr_test")) == set() for node in given["application_nodes"].values())
        given = given["application_nodes"]["db"]["vars"]
        runbook = "dr_test"
    assert os.path.isfile(given["%s_after_wave_tasks" % runbook])


def test_an_application_runs_its_nodes_dr_tests_each_given_the_scenarios_own_members():
    plan = plan_of(scenario(with_=dict(nodes=NODES), **APPLICATION))
    assert (plan["runbook"], plan["project"], plan["projects"], plan["subject"]) == ("application", None, ["shop", "web"], "application nightly-shop")
    assert plan["given"]["application_runbook"] == "dr_test" and plan["given"]["application_name"] == "nightly-shop"
    assert set(plan["given"]) == {"application_name", "application_nodes", "application_report_dir", "application_runbook"}
    web = plan["given"]["application_nodes"]["web"]
    assert web["after"] == ["db"] and web["machines"] == ["web-1"] and web["vars"]["dr_test_poll_interval"] == "1"  # its own, kept
    assert web["vars"]["dr_test_stop_when"] == SCENARIO["stop_when"][:1] and web["vars"]["dr_test_blast_radius"] == ["db-*", "tag:web"]
    assert web["vars"]["dr_test_rto_target"] == 900 and web["vars"]["dr_test_after_wave_tasks"] == BETWEEN
    named = plan_of(scenario(with_=dict(nodes=json.dumps(NODES), name="storefront"), **APPLICATION))  # an AWX survey's text
    assert named["given"]["application_name"] == "storefront" and named["given"]["application_nodes"] == plan["given"]["application_nodes"]


@pytest.mark.parametrize("nodes, said", [
    (dict(NODES, web=dict(project="payroll")), "node web's project payroll is outside the blast radius of game day nightly-shop (its projects: shop, web)"),
    (dict(NODES, web=dict(project="web", approval=True)), "node web needs an approval, and a game day runs unattended"),
    (dict(NODES, web=dict(project="web", vars=dict(dr_test_stop_when=[]))), "node web's vars give dr_test_stop_when, which the game day gives every "
                                                                            "node from the scenario's own stop_when"),
    (dict(NODES, web="web"), "node web is no mapping"),
    (dict(NODES, web=dict(project="web", vars="dr_test_waves=db")), "node web's vars are no mapping"),
    ({}, "application has no with.nodes"),
    ("{db: [", "with.nodes is text that is neither JSON nor YAML"),
])
def test_an_application_that_cannot_run_is_refused_by_name(nodes, said):
    with pytest.raises(ScenarioRefused, match=said.replace("(", r"\(").replace(")", r"\)")):
        plan_of(scenario(with_=dict(nodes=nodes), **APPLICATION))


def test_the_scenario_as_an_awx_survey_gives_it_json_text_reads_the_same():
    given = scenario()
    assert plan_of(json.dumps(given)) == plan_of(given)
    assert plan_of(dict(given, stop_when=json.dumps(given["stop_when"]))) == plan_of(given)


@pytest.mark.parametrize("changes, said", [
    (dict(with_=dict(project="payroll")), "project payroll is outside the blast radius of game day nightly-shop (its projects: shop)"),
    (dict(blast_radius=dict(projects=["shop", "web"])), "has 2 projects: name the one the dr_test runs in"),
    (dict(blast_radius=dict(machines=["web-*"])), "blast_radius names no project"),
    (dict(blast_radius=None), "blast_radius names no project"),
    (dict(hypothesis=""), "has no hypothesis"),
    (dict(name=None), "has no name"),
    (dict(runbook="payroll"), "runbook is payroll: a game day rehearses a DR test .dr_test., a restore test .restore_test., a clean "
                              "point drill .clean_point., a failover that rolls back in a test network .failover. or the DR tests of an "
                              "application .application."),
    (dict(blast_radius=dict(projects=5)), "blast_radius.projects must be a list, or text with items separated by commas, not int"),
    (dict(blast_radius=dict(projects=["shop"], machines={"web": 1})), "blast_radius.machines must be a list"),
    (dict(runbook=["dr_test"]), "runbook is \\['dr_test'\\]: a game day rehearses a DR test"),  # a list: refused by name, not a crash
    (dict(runbook="application", with_=dict(nodes=NODES, project="shop")), "with gives project, which a game day does not pass to its application"),
    (dict(runbook="failover"), "failover has no with.network: a game day's failover launches its recovery machines only into an isolated"),
    (dict(runbook="failover", with_=dict(network=dict(subnets=["a"]), commit=True)), "with gives commit: a game day's failover always rolls back"),
    (dict(runbook="failover", with_=dict(network=dict(subnets=["a"]), commit=False)), "with gives commit: a game day's failover always rolls back"),
    (dict(runbook="clean_point"), "gives targets, which a clean point search has none of"),
    (dict(with_=dict(stop_when=[])), "with gives stop_when: give it as the scenario's own stop_when"),
    (dict(with_=dict(rto_target=5)), "give it as the scenario's own targets.rto_seconds"),
    (dict(with_=dict(replace=["db-1"])), "with gives replace, which a game day does not pass to its dr_test"),
    (dict(targets=dict(rto=5)), "targets are rpo_seconds and rto_seconds, not rto"),
    (dict(targets=dict(rto_seconds="soon")), "targets.rto_seconds"),
    (dict(stop_when=[dict(name="x")]), "probe x has none of url, health and tasks"),
    (dict(stop=[]), "game_day_scenario has stop, which a scenario does not"),
])
def test_what_cannot_run_is_refused_by_name(changes, said):
    with pytest.raises(ScenarioRefused, match=said.replace("(", r"\(").replace(")", r"\)")):
        plan_of(scenario(**changes))


def test_text_that_is_no_scenario_is_refused():
    with pytest.raises(ScenarioRefused, match="game_day_scenario"):
        plan_of("name: [unclosed")
    with pytest.raises(ScenarioRefused, match="game_day_scenario"):
        plan_of("just words")


def test_a_refusal_names_the_game_day_as_far_as_its_text_can_be_read():
    from ansible.errors import AnsibleFilterError
    from ansible_collections.replication.recovery.plugins.filter.game_day import game_day_scenario
    from ansible_collections.replication.recovery.plugins.plugin_utils._game_day import name_of
    outside = scenario(with_=dict(project="payroll"))
    for given in (outside, json.dumps(outside), yaml.safe_dump(outside)):  # a mapping, JSON text, YAML text (an AWX survey's)
        with pytest.raises(AnsibleFilterError, match=r"^Game day nightly-shop: REFUSED\. project payroll is outside the blast radius"):
            game_day_scenario(given)
    assert [name_of(given) for given in ("name: [unclosed", "just words", {"name": 7}, {"name": " "}, None)] == [None] * 5
    with pytest.raises(AnsibleFilterError, match=r"^Game day \(no name\): REFUSED\. game_day_scenario has no name"):
        game_day_scenario(dict(outside, name=None))
