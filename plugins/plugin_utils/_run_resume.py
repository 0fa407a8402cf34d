# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's phase (plugin_utils._run): finish what an earlier run of the same runbook left, before this run launches
anything - follow its cleanup to the end, and clean up the target machines of its that this run does not adopt (and
someone else's, when the run was told to)."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import active
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed
from ansible_collections.replication.recovery.plugins.module_utils._words import reasons, shown
from ansible_collections.replication.recovery.plugins.plugin_utils._switching import put_back_blueprints
from ansible_collections.replication.recovery.plugins.plugin_utils._following import cleaned_in_jobs, follow
from ansible_collections.replication.recovery.plugins.plugin_utils._record import parts_of


class Resuming(object):
    """What an earlier run left, finished before this run launches."""

    def resume(self):
        """Put back what an earlier run left switched, follow its cleanup, clean up what this run does not adopt: answers what
        it cleaned up."""
        self.phase = "preflight"
        record = self.record
        earlier, settings = record["earlier"], record.settings
        messages = earlier.setdefault("messages", [])
        self.put_back_first(messages)
        if earlier.get("running_is") == "cleanup":
            job = follow(self, earlier["running"], "earlier run's cleanup job", settings["cleanup_timeout"])
            messages.append("the cleanup job %s of an earlier run was followed to its end: %s" % (job["id"], job["status"]))
        blocking = record.get("blocking") or {}
        leftovers = earlier.get("clean", []) + (earlier.get("foreign", []) if record["clean_leftovers"] else []) + (
            blocking.get("machines", []) if blocking.get("clean") else [])
        if not leftovers:
            return dict(cleaned=[])
        # The runbook's own leftovers and a DR test's drills may be recovery machines: they are no production, and are named
        # as such; anything else that runs production is refused by the cleanup, and stops the run.
        own = [left["replica"] for left in earlier.get("clean", [])] + [left["replica"] for left in blocking.get("machines", [])
                                                                        if blocking.get("clean") and "drill" in left["kind"]]
        # More than a job may take (the service's limits) are cleaned up in several jobs, one after another.
        removed, jobs = cleaned_in_jobs(
            self, [left["replica"] for left in leftovers],
            lambda replicas: self.service("service_replica_cleanup", project=record["project_id"], replicas=replicas,
                                          terminate_production=own or None, wait=False, wait_timeout=settings["cleanup_timeout"],
                                          poll_interval=settings["poll_interval"]),
            lambda job: follow(self, job, "cleanup job", settings["cleanup_timeout"]),
            lambda job: "The cleanup of what an earlier run left, job %s, %s" % (job["id"], job["status"]))
        jobs = [job["id"] for job in jobs]
        earlier["cleaned"] = dict(job=jobs[0] if jobs else None, removed_machines=removed, **(dict(jobs=jobs) if len(jobs) > 1 else {}))
        messages.append("%s the target machines an earlier run left, of %s" % (
            "would clean up" if self.check_mode else "cleaned up", shown(removed)))
        self.say(messages[-1][0].upper() + messages[-1][1:] + ".")
        return dict(cleaned=removed)

    def put_back_first(self, messages):
        """Put back the blueprints an earlier run left switched to a test network, before anything else: a
        failover never launches into a test network. Those of a launch this run adopts and that still runs
        are put back once it ends (the launch). One changed by somebody else since stops the run."""
        record = self.record
        running = set(name for index, jobs in (record["earlier"].get("adopted") or {}).items() for number, job in enumerate(jobs) if active(job)
                      for name in parts_of(record["waves"][int(index)])[number])
        first = [name for name in record.test_network["found"] if name not in running]
        if not first:
            return
        result = put_back_blueprints(self, first)
        if result["restored"]:
            messages.append("%s the blueprints of %s, which an earlier run left switched to a test network, as they were" % (
                "would put back" if self.check_mode else "put back", shown(result["restored"])))
        if result["refused"]:
            raise StepFailed("The blueprints of %s were switched to a test network by an earlier run, and are not put back: %s. Nothing was "
                             "launched. Set them as they should be (replication.recovery.service_test_network with on_change), or exclude "
                             "the machines." % (shown(sorted(result["refused"])), reasons(result["refused"])))
