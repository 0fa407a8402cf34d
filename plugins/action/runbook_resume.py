# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Finish what an earlier run of the same runbook left, before this run launches anything: follow
its cleanup to the end, and clean up the target machines of its that this run does not adopt (and
someone else's, when the run was told to). Documented in plugins/modules/runbook_resume.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import shown
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed


class ActionModule(RunbookStep):
    PHASE = "preflight"

    def step(self, args):
        record = self.record
        earlier, settings = record["earlier"], record["settings"]
        messages = earlier.setdefault("messages", [])
        if earlier.get("running_is") == "cleanup":
            job = self.follow(earlier["running"], "earlier run's cleanup job", settings["cleanup_timeout"])
            messages.append("the cleanup job %s of an earlier run was followed to its end: %s" % (job["id"], job["status"]))
        blocking = record.get("blocking") or {}
        leftovers = earlier.get("clean", []) + (earlier.get("foreign", []) if record["clean_leftovers"] else []) + (
            blocking.get("machines", []) if blocking.get("clean") else [])
        if not leftovers:
            return dict(cleaned=[])
        cleaned = self.service("service_replica_cleanup", project=record["project_id"], replicas=[left["replica"] for left in leftovers],
                               wait=False, wait_timeout=settings["cleanup_timeout"], poll_interval=settings["poll_interval"])
        if cleaned.get("job"):
            job = self.follow(cleaned["job"], "cleanup job", settings["cleanup_timeout"])
            if job["status"] != "COMPLETED":
                raise StepFailed("The cleanup of what an earlier run left, job %s, %s: %s" % (job["id"], job["status"], " ".join(
                    line["message"] for line in (job.get("log") or [])[-3:])))
        removed = cleaned.get("removed_machines") or []
        earlier["cleaned"] = dict(job=(cleaned.get("job") or {}).get("id"), removed_machines=removed)
        messages.append("%s the target machines an earlier run left, of %s" % (
            "would clean up" if self.check_mode else "cleaned up", shown(removed)))
        self.say(messages[-1][0].upper() + messages[-1][1:] + ".")
        return dict(cleaned=removed)
