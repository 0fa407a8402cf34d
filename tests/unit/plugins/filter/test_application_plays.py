# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which plays the application's playbook reads: as many levels as its nodes have, the approvals only when one may be asked."""

import json

import pytest

from ansible_collections.replication.recovery.plugins.filter.application import FilterModule, application_level_plays, application_plays_after
from ansible_collections.replication.recovery.plugins.plugin_utils._application import MAX_LEVELS

SHOP = {"db": {"project": "db"}, "cache": {"project": "cache"}, "app": {"project": "app", "after": ["db", "cache"]},
        "edge": {"project": "edge", "after": ["app"]}}


def test_the_filters_are_named_as_their_documentation():
    assert FilterModule().filters() == {"application_level_plays": application_level_plays, "application_plays_after": application_plays_after}


@pytest.mark.parametrize("nodes, levels", [
    ({"db": {"project": "db"}}, 1),
    (SHOP, 3),
    (json.dumps(SHOP), 3),  # an AWX survey's JSON text
    ("db: {project: db}\napp: {project: app, after: [db]}\n", 2),  # YAML text
    (dict(("n%d" % level, {"project": "p%d" % level, "after": ["n%d" % (level - 1)] if level else []}) for level in range(6)), 6),
])
def test_as_many_levels_as_the_nodes_given_have_and_the_end_alone_without_an_approval(nodes, levels):
    assert application_level_plays(nodes) == application_level_plays(nodes, "failover", None) == levels
    assert application_plays_after(nodes) == application_plays_after(nodes, "dr_test", "") == "application_end"


def test_a_node_that_needs_an_approval_reads_the_approvals_and_the_levels_again():
    nodes = dict(SHOP, edge=dict(SHOP["edge"], approval=True))
    assert application_level_plays(nodes) == 3 and application_plays_after(nodes) == "application_again"


@pytest.mark.parametrize("nodes, runbook, plan", [
    (None, None, None), ("", None, None),  # not an extra variable: the inventory's, read only as the run begins
    (SHOP, None, "shop.plan.json"),  # a plan's nodes, read only as the run begins
    ({"db": {"project": "db", "after": ["nowhere"]}}, None, None),  # refused by the run, naming it
    ({"db": {"project": "db"}}, "failback", None),
    ("[unclosed", None, None), (["db"], None, None),
    (dict(("n%d" % level, {"project": "p%d" % level, "after": ["n%d" % (level - 1)] if level else []}) for level in range(7)), None, None),
])
def test_nodes_not_known_as_the_run_takes_them_read_the_most(nodes, runbook, plan):
    assert application_level_plays(nodes, runbook, plan) == MAX_LEVELS
    assert application_plays_after(nodes, runbook, plan) == "application_again"
