# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A game day's scenario, read and checked before anything is read or written (plugin_utils._game_day)."""

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.plugin_utils._game_day import ScenarioRefused, name_of, plan_of


def game_day_scenario(scenario):
    try:
        return plan_of(scenario)
    except ScenarioRefused as refused:
        raise AnsibleFilterError("Game day %s: REFUSED. %s. Nothing was read or written." % (name_of(scenario) or "(no name)", str(refused).rstrip(".")))


class FilterModule(object):
    def filters(self):
        return {"game_day_scenario": game_day_scenario}
