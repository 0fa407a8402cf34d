# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's phase (plugin_utils._run): look at the target machines a wave launched as the service shows them - whether each
runs, waiting up to the boot timeout for those that do not yet, and its addresses - and answer the inventory hosts they
become."""

from ansible_collections.replication.recovery.plugins.module_utils._wait import Poll, Waiter
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import service_view
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import lever_stop_said, look_at_lever
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._following import machines_now
from ansible_collections.replication.recovery.plugins.plugin_utils._hosts import hosts_of


class Looking(object):
    """A wave's machines looked at, until they run, and made hosts."""

    def look_at_wave(self, number):
        """Look at the machines wave ``number`` launched: answers the hosts for add_host, and how many run."""
        self.phase = "checks"
        args = dict(wave=number)
        record = self.record
        wave = record.wave(args["wave"])
        names = [name for name in wave.get("machines", []) if name in record["launched"]]
        if not names:
            return dict(hosts=[], running=0, not_running=[], to_check=0)
        # The lever before the checks of each wave, whenever it was read last (the checks' phase has a look of its own):
        # engaged, no check of the wave runs.
        self.obey_the_lever(args["wave"])
        entries = [dict(machine_name=name, machine_id=record["launched"][name]["id"], target=record["launched"][name]["target"])
                   for name in names]
        record["view"] = service_view(entries, view=record["view"], job_end=(wave.get("job") or {}).get("endDateTime"))
        self.wait_until_they_run(names, args["wave"])
        waiting = [name for name in names if not record["view"][name]["running"]]
        self.say("%d of %d launched machines of wave %d run, as the service sees them%s." % (
            len(names) - len(waiting), len(names), args["wave"], "; not: " + shown(waiting) if waiting else ""))
        # A run that began before the setting was kept made hosts always.
        hosts = hosts_of(record, names, run_host=self.task_vars.get("inventory_hostname", "localhost")) if record.settings.get("add_hosts", True) else []
        group = record.settings["group"] + "_to_check"
        return dict(hosts=hosts, running=len(names) - len(waiting), not_running=waiting,
                    to_check=sum(1 for host in hosts if group in host["groups"]))

    def obey_the_lever(self, wave, fresh=False):
        """Engaged, the lever stops the run before the checks of ``wave``: none of its machines is checked, no later wave
        launched, and what the run launched is cleaned up (look_at_lever: only a rehearsal obeys)."""
        record = self.record
        lever = look_at_lever(self, "the checks of wave %d" % wave, fresh=fresh)
        if lever and lever.get("obeyed"):
            for later in record["waves"][wave:]:
                if later.get("status") == "pending":
                    later.update(status="not launched", message="stopped: the safety lever")
            raise StepFailed("Stopped: %s. Its machines are not checked; what the run launched is cleaned up." % lever_stop_said(lever, record["project"]))

    def wait_until_they_run(self, names, wave):
        """Look again, every poll interval, at the target machines that do not run yet; a machine that runs
        at a look is up since that look (its service time). The lever is looked at too, at most a progress interval
        apart: a boot wait can last up to the boot timeout."""
        record, settings = self.record, self.record.settings
        ids = dict((name, record["launched"][name]["id"]) for name in names)

        def waiting():
            return [name for name in names if not record["view"][name]["running"]]

        def look():
            self.obey_the_lever(wave, fresh=True)
            looked = machines_now(self, names=[ids[name] for name in waiting()], targets=True)
            record["view"] = service_view(looked["machines"], view=record["view"], seen_at=looked["service_time"])
            return waiting()

        they_run = Waiter("the target machines run", look=look, done=lambda left: not left, said=lambda left: (
            "%d of %d launched machines run; waiting for %s." % (len(names) - len(left), len(names), shown(left))))
        # Looks at an even pace, not backing off: a machine is up since the look that saw it run, and that is its RTO.
        Poll(settings["boot_timeout"], settings["poll_interval"], backoff=1).until(
            they_run, value=waiting(), progress_every=settings["progress_interval"], say=self.say)
