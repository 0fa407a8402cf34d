# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Wait until machines replicate - initial sync done, or continuously - with a line of each machine's
progress at every look. Documented in plugins/modules/runbook_wait_replication.py."""

import time

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_list, parse_number
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep

UNTIL = ("synced", "continuous", "caught_up")
PROGRESS_SHOWN = 50
# What the step answers of each machine: the facts service_machine_info computes, not the whole machine.
SHOWN = ("id", "name", "replication_state", "sync_percent", "lag_seconds", "backlog_bytes")


class ActionModule(RunbookStep):
    PHASE = "wait"
    WITH_RUN = False
    OPTIONS = dict(
        project=dict(type="str", required=True),
        machines=dict(type="raw"),
        until=dict(type="str", choices=list(UNTIL), default="synced"),
        wait_timeout=dict(type="raw", default=7200),
        poll_interval=dict(type="raw", default=30),
        max_lag=dict(type="raw"),
    )

    def step(self, args):
        machines = parse_list(args["machines"], "machines") or None
        timeout = parse_number(args["wait_timeout"], "wait_timeout")
        interval = max(parse_number(args["poll_interval"], "poll_interval") or 1, 1)
        deadline = time.monotonic() + (7200 if timeout is None else timeout)
        self.max_lag = parse_number(args["max_lag"], "max_lag")
        while True:
            read = self.service("service_machine_info", project=args["project"], machines=machines,
                                lag_threshold=self.max_lag if args["until"] == "caught_up" else None)["machines"]
            done = all(self.done(machine, args["until"]) for machine in read)
            progress = ["%s %s %s%%" % (machine["name"], machine["replication_state"], machine["sync_percent"]) for machine in read]
            if args["until"] == "synced":
                more = " and %d more" % (len(progress) - PROGRESS_SHOWN) if len(progress) > PROGRESS_SHOWN else ""
                self.say("Initial sync %s: %s%s" % ("done" if done else "in progress", ", ".join(progress[:PROGRESS_SHOWN]), more))
            elif args["until"] == "continuous":
                self.say("%d of %d machines replicate continuously" % (sum(1 for machine in read if self.done(machine, "continuous")), len(read)))
            else:
                behind = ["%s %s, lag %s s, backlog %d bytes" % (machine["name"], machine["replication_state"], machine["lag_seconds"],
                                                                 machine["backlog_bytes"] or 0) for machine in read if not self.done(machine, "caught_up")]
                self.say("%d of %d machines have caught up%s" % (len(read) - len(behind), len(read), "; not yet: " + ", ".join(
                    behind[:PROGRESS_SHOWN]) if behind else ""))
            if done or time.monotonic() + interval > deadline:
                break
            time.sleep(interval)
        result = dict(done=done, progress=progress, machines=[dict((key, machine.get(key)) for key in SHOWN) for machine in read])
        if not done:
            result.update(failed=True, msg="The machines did not %s within %s seconds: %s" % (
                dict(synced="finish initial sync", continuous="replicate continuously", caught_up="catch up")[args["until"]],
                args["wait_timeout"], ", ".join(progress)))
        return result

    def done(self, machine, until):
        if until == "synced":
            return machine.get("lag_seconds") is not None
        continuous = machine.get("replication_state") == "continuous"
        if until == "continuous":
            return continuous
        # Caught up: nothing left to send, and no more lag than allowed.
        return continuous and not machine.get("backlog_bytes") and (self.max_lag is None or machine["lag_seconds"] <= self.max_lag)
