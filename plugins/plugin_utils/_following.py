# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a step follows in the service while a run goes on: a job to its end, with progress, and the run's machines as
the service shows them now. Functions of the step (plugin_utils._step.RunbookStep) that runs them."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import RESTORE, active
from ansible_collections.replication.recovery.plugins.module_utils._limits import job_size, parts
from ansible_collections.replication.recovery.plugins.module_utils._wait import Poll, Waiter
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed


def follow(step, job, label, timeout, watch=None):
    """Follow a job to its end, a line of progress every progress interval. Answers the job as it
    ended; stops the step when it did not end within ``timeout`` seconds (it goes on in the service).
    ``watch(job)`` is called at each look with the job as it looked (the safety lever), the one that sees the job end
    included - so that a job shorter than the progress interval is watched at least once: the job is followed to its end
    all the same."""
    settings = step.record.settings
    # Each look waits in service_job_info, up to the progress interval: no sleep of the step's own between looks. The
    # progress is said of a job that goes on only: the step reads what a job that ended did itself.
    poll = Poll(timeout, interval=0)
    progress = {}

    def look():
        looked = step.service("service_job_info", project=step.record["project_id"], job=job["id"], wait=True,
                              return_after=min(settings["progress_interval"], poll.left()), wait_timeout=int(poll.left()) + 300,
                              poll_interval=settings["poll_interval"], progress=True, progress_when_ended=False)
        progress.update(looked.get("progress") or {})
        if watch is not None:
            watch(looked["job"])
        return looked["job"]

    ended = Waiter("the %s ended" % label, look=look, done=lambda looked: not active(looked), said=lambda looked: (
        "%s %s %s: %d of %d machines done, %d running, %d failed." % (
            label[0].upper() + label[1:], looked["id"], looked["status"], progress["done"], progress["machines"], progress["running"],
            progress["failed"])))
    job, done = poll.until(ended, value=job, progress_every=0, say=step.say)
    if not done:
        raise StepFailed("The %s %s did not end within %s seconds; it is %s and goes on in the service." % (
            label, job["id"], timeout, job["status"]))
    return job


def machines_now(step, names=None, targets=False):
    """The run's machines (or ``names``) as the service shows them now, with their replication and, when asked, their
    target machines - for a run of restore servers, the one this run launched of each machine."""
    record = step.record
    restore = targets and record.get("kind") == RESTORE
    looked = step.machines(project=record["project_id"], machines=names, lag_threshold=record["gate"]["lag_threshold"],
                           include_target_machine=targets and not restore, include_restore_servers=restore)
    if restore:
        for machine in looked["machines"]:
            launched = ((record["launched"].get(machine["name"]) or {}).get("target") or {}).get("id")
            ours = [server for server in machine.pop("restore_servers") if server["id"] == launched]
            if ours:
                machine["target_machine"] = ours[0]
    return looked


def cleaned_in_jobs(step, selection, clean, follow_job, failed):
    """Clean up ``selection`` (machines, or target machines; None: what ``clean`` picks) in jobs of no more machines than a
    job may take (the service's limits), one after another: ``clean(group)`` runs the cleanup module for a group and
    answers its result, ``follow_job(job)`` follows a job to its end. A job that did not complete stops the cleanup with
    ``failed(job)`` and its last lines. Answers the machines removed (each once) and the jobs as they ended."""
    removed, jobs = [], []
    for group in (parts(selection, job_size(step.limits)) if selection else [selection]):
        cleaned = clean(group)
        removed.extend(cleaned.get("removed_machines") or [])
        if cleaned.get("job"):
            job = follow_job(cleaned["job"])
            if job["status"] != "COMPLETED":
                raise StepFailed("%s: %s" % (failed(job), " ".join(line["message"] for line in (job.get("log") or [])[-3:])))
            jobs.append(job)
    return list(dict.fromkeys(removed)), jobs
