# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Wait until machines replicate - initial sync done, or continuously - with a line of each machine's
progress at every look. Documented in plugins/modules/runbook_wait_replication.py."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_list, parse_number
from ansible_collections.replication.recovery.plugins.module_utils._wait import Poll, Waiter, wait_options
from ansible_collections.replication.recovery.plugins.module_utils._words import shown, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed

UNTIL = ("registered", "synced", "continuous", "caught_up")
PROGRESS_SHOWN = 50
# What the step answers of each machine: the facts service_machine_info computes, not the whole machine.
SHOWN = ("id", "name", "replication_state", "sync_percent", "lag_seconds", "backlog_bytes")


def behind_said(machine):
    """A machine that has not caught up, as the progress line says it: its state, and its lag and backlog once measured (a
    machine that initiates, or has not finished initial sync, has none yet)."""
    if machine.get("lag_seconds") is None:
        return "%s %s (no point in time yet: lag not measured)" % (machine["name"], machine["replication_state"])
    return "%s %s, lag %s, backlog %d bytes" % (machine["name"], machine["replication_state"], spoken(machine["lag_seconds"]),
                                                machine.get("backlog_bytes") or 0)


class ActionModule(RunbookStep):
    PHASE = "wait"
    WITH_RUN = False
    OPTIONS = dict(
        project=dict(type="str", required=True),
        machines=dict(type="raw"),
        until=dict(type="str", choices=list(UNTIL), default="synced"),
        max_lag=dict(type="raw"),
        **wait_options(7200)
    )

    def step(self, args):
        machines = parse_list(args["machines"], "machines") or None
        self.max_lag = parse_number(args["max_lag"], "max_lag")
        until = args["until"]
        if until == "registered":
            return self.registered(args, machines)

        def look():
            return self.machines(project=args["project"], machines=machines,
                                 lag_threshold=self.max_lag if until == "caught_up" else None)["machines"]

        def said(read):
            progress = ["%s %s %s%%" % (machine["name"], machine["replication_state"], machine["sync_percent"]) for machine in read]
            if until == "synced":
                return "Initial sync %s: %s" % ("done" if replicating(read) else "in progress", shown(progress, PROGRESS_SHOWN))
            if until == "continuous":
                return "%d of %d machines replicate continuously" % (sum(1 for machine in read if self.done(machine, "continuous")), len(read))
            behind = [behind_said(machine) for machine in read if not self.done(machine, "caught_up")]
            return "%d of %d machines have caught up%s" % (len(read) - len(behind), len(read), "; not yet: " + shown(
                behind, PROGRESS_SHOWN) if behind else "")

        def replicating(read):
            return all(self.done(machine, until) for machine in read)

        # A line of each machine's progress at every look, the last one too.
        waiter = Waiter(dict(synced="finish initial sync", continuous="replicate continuously", caught_up="catch up")[until],
                        look=lambda: self.said(said, look()), done=replicating)
        read, done = Poll(args["wait_timeout"], max(args["poll_interval"], 1)).until(waiter)
        progress = ["%s %s %s%%" % (machine["name"], machine["replication_state"], machine["sync_percent"]) for machine in read]
        result = dict(done=done, progress=progress, machines=[dict((key, machine.get(key)) for key in SHOWN) for machine in read])
        if not done:
            result.update(failed=True, msg="The machines did not %s within %s seconds: %s" % (waiter.name, args["wait_timeout"], ", ".join(progress)))
        return result

    def registered(self, args, names):
        """Until every machine named is a machine of the project with its agent installed: the machine list, once a look."""
        if not names:
            raise StepFailed("until=registered needs the machines to wait for.")

        def look():
            listed = self.machines(project=args["project"])["machines"]
            return [machine for machine in listed if machine["name"] in names and machine.get("isAgentInstalled", True)]

        def missing(read):
            return sorted(set(names) - set(machine["name"] for machine in read))

        def said(read):
            return "%d of %d machines registered%s" % (len(names) - len(missing(read)), len(names),
                                                       "; not yet: " + shown(missing(read), PROGRESS_SHOWN) if missing(read) else "")

        waiter = Waiter("register", look=lambda: self.said(said, look()), done=lambda read: not missing(read))
        read, done = Poll(args["wait_timeout"], max(args["poll_interval"], 1)).until(waiter)
        result = dict(done=done, progress=[said(read)], machines=[dict((key, machine.get(key)) for key in SHOWN) for machine in read])
        if not done:
            result.update(failed=True, msg="These machines did not register within %s seconds: %s. Their hosts ran the installer; see its "
                                           "output, and whether they reach the service." % (args["wait_timeout"], ", ".join(missing(read))))
        return result

    def said(self, line_of, read):
        self.say(line_of(read))
        return read

    def done(self, machine, until):
        if until == "synced":
            return machine.get("lag_seconds") is not None
        continuous = machine.get("replication_state") == "continuous"
        if until == "continuous":
            return continuous
        # Caught up: nothing left to send, and no more lag than allowed.
        return continuous and not machine.get("backlog_bytes") and (self.max_lag is None or machine["lag_seconds"] <= self.max_lag)
