# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One wave of a run in one task: launch it (or adopt an earlier run's launch of it) and follow the job, look at its
machines until they run, answer the hosts they become, and make the next wave next - the run's phases launch_wave and
look_at_wave (plugin_utils._run). Documented in plugins/modules/runbook_wave.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import STOPPED_OPTION, RunbookStep


class ActionModule(RunbookStep):
    PHASE = "launch"
    OPTIONS = dict(wave=dict(type="int", default=1), stopped=STOPPED_OPTION)

    def step(self, args):
        run = self.drive(Run(self, self.path, self.record))
        # A search's round is the one wave of its run: the plays number it by the round.
        number = 1 if run.record.get("round") else args["wave"]
        with self.timed("launch"):
            result = run.launch_wave(number, args["stopped"])
        if result.get("stopped") is None:
            with self.timed("look"):
                result.update(run.look_at_wave(number))
        if result.get("next_wave"):
            # The project's host joins the group of the next wave, whose plays run on it, as group_by would make it. ansible-core
            # then says the task changed the inventory: what the wave changed stays in wave_changed, for the task's changed_when.
            result.update(add_group="%s_wave_%d" % (run.record["runbook"], result["next_wave"]), parent_groups=["all"],
                          wave_changed=bool(result.get("changed")))
        return result
