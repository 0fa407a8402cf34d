# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which plays the application's playbook reads: as many levels as its nodes have, and the approvals at the terminal and
the levels again only when a node may wait for one - when the extra variables say so as the playbook is read."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value
from ansible_collections.replication.recovery.plugins.plugin_utils._application import ApplicationError, MAX_LEVELS, levels_of, nodes_of
from ansible_collections.replication.recovery.plugins.plugin_utils._options import OptionRefused, typed


def _known(nodes, runbook, plan):
    """The nodes as the run will settle them, or None when they are not known as the playbook is read: not an extra
    variable (the inventory's, a plan file's) or not as the run takes them (it refuses them by name)."""
    if no_value(nodes) or not no_value(plan):
        return None
    try:  # typed and settled as the run types and settles them
        return nodes_of(typed("application_nodes", dict(type="dict"), nodes), "dr_test" if no_value(runbook) else runbook)
    except (OptionRefused, ApplicationError):
        return None


def application_level_plays(nodes, runbook=None, plan=None):
    """How many levels' plays: as many as the nodes known have, else the most (playbooks/parts/application_levels/<N>.yml)."""
    known = _known(nodes, runbook, plan)
    return len(levels_of(known)) if known else MAX_LEVELS


def application_plays_after(nodes, runbook=None, plan=None):
    """The plays after the levels (playbooks/parts/<answer>.yml): the approvals at the terminal, the levels again and the end
    (application_again) - unless the nodes are known and none needs an approval: the end alone (application_end)."""
    known = _known(nodes, runbook, plan)
    return "application_end" if known and not any(node["approval"] for node in known.values()) else "application_again"


class FilterModule(object):
    def filters(self):
        return {"application_level_plays": application_level_plays, "application_plays_after": application_plays_after}
