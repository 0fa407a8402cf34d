# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What changed in the service since the last look, as events for Event-Driven Ansible: the engine
of the event source replication.recovery.service_events (extensions/eda/plugins/event_source).

Each look costs what the interface allows at the least: one read of the account (it holds the
projects and the service's clock), and per project one list of machines, one page of its
newest jobs and its recovery plans, which hold its safety lever (with the clock read again only next to a project whose reads had to be retried, so
that the retries count neither as the machines' silence nor hide any) (only one job runs at a time in a project, so a job under way is always among the
newest); the licences once in a while. Where it helps - a project in which a machine's replication
changed, or a machine left - its audit log since the last look says who did it. What was seen is kept in a state - a plain dict the source
writes to its state file - so that a change is told once, also across restarts.

The first look at a project tells nothing: it is what the next looks are compared with.
"""

import time

from ansible_collections.replication.recovery.plugins.module_utils._audit import read_audit_log
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import read_by_the_clock, select_projects
from ansible_collections.replication.recovery.plugins.module_utils._lever import lever_in
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import entry_files, read_entry

STATE_SCHEMA = "replication.recovery.service_events.state/v1"
EVENT_TYPES = ("job_started", "job_ended", "job_failed", "replication_state_changed", "lag_over_threshold", "lag_within_threshold",
               "backlog_growing", "machine_registered", "machine_removed", "license_expiring", "watch_failed", "watch_recovered",
               "lever_engaged", "lever_released", "game_day_stopped")
JOBS_READ = 20  # the newest jobs of a project read each look
LOG_TAIL = 5  # log lines a failed job's event carries
DAY = 86400.0
ENDED = ("COMPLETED", "FAILED")
TOLD_BY_WHOM = ("replication_state_changed", "machine_removed")  # the changes a user's write may have made


def replication_state(machine):
    """A machine's replication as events name it: stopped, paused, initial_sync (no consistent point yet),
    rescanning (a scan began after the last consistent point), or continuous."""
    status = machine.get("replicationStatus")
    if status in ("STOPPED", "PAUSED"):
        return status.lower()
    info = machine.get("replicationInfo") or {}
    consistent = info.get("lastConsistencyDateTime")
    if not consistent:
        return "initial_sync"
    scan = info.get("lastScanStartDateTime")
    if (info.get("rescannedStorageBytes") or 0) > 0 or (scan and parse_time(scan) > parse_time(consistent)):
        return "rescanning"
    return "continuous"


def new_state():
    return dict(schema=STATE_SCHEMA, projects={}, licenses={}, failing=None, ledger_sequence=None, pending=[])


def valid_state(state):
    """The state as read from a state file, or a ValueError naming what is wrong with it."""
    if not isinstance(state, dict) or state.get("schema") != STATE_SCHEMA:
        raise ValueError("it is not a state of replication.recovery.service_events (schema %s)" % STATE_SCHEMA)
    for member, kind in (("projects", dict), ("licenses", dict)):
        if not isinstance(state.get(member), kind):
            raise ValueError("its %s is not an object" % member)
    state.setdefault("failing", None)
    state.setdefault("ledger_sequence", None)  # the ledger's newest entry seen (ledger_dir), None before the first look at it
    # Events told and not yet taken by a rule (the source's feedback): told again first when the source starts.
    if not isinstance(state.setdefault("pending", []), list):
        raise ValueError("its pending is not a list")
    return state


class Watcher:
    """Looks at the service and tells what changed since the last look (``look``)."""

    def __init__(self, client, projects=None, lag_threshold=3600, backlog_looks=3, license_days=30, license_every=3600.0, state=None,
                 audit=True, ledger_dir=None):
        self.client = client
        self.ledger_dir = ledger_dir
        self.audit = audit
        self.wanted = list(projects or [])
        self.lag_threshold = lag_threshold
        self.backlog_looks = backlog_looks
        self.license_days = license_days
        self.license_every = license_every
        self.state = state if state is not None else new_state()
        self.licenses_read_at = None  # the service's time of the last read of the licences

    def look(self):
        """The events of one look, in order; the state is brought up to date with them. A look the service
        does not answer (after the client's retries) tells watch_failed once, and changes nothing else."""
        try:
            account = self.client.get("/extendedAccountInfo")
            now = parse_time(account["dateTime"]["dateTime"])
            seen, looked_at = [], now
            for project in select_projects((account.get("projects") or {}).get("items") or [], self.wanted):
                looked_at, (machines, jobs, lever) = read_by_the_clock(self.client, lambda project=project: self.read_project(project), looked_at)
                seen.append((project, looked_at, machines, jobs, lever))
            licenses = None
            if self.license_days is not None and (self.licenses_read_at is None or now - self.licenses_read_at >= self.license_every):
                licenses = self.client.list("/licenses")
        except Exception as error:  # pylint: disable=broad-exception-caught  # the watch goes on: it is told once, as an event
            return self.failed(str(error))
        events = []
        if self.state.get("failing"):
            events.append(dict(type="watch_recovered", time=iso_time(now), failing_since=self.state["failing"]["since"]))
            self.state["failing"] = None
        for project, looked_at, machines, jobs, lever in seen:
            known = self.state["projects"].get(project["id"])
            current = dict(name=project["name"], machines={}, jobs={}, seen=iso_time(looked_at), lever=lever)
            told = len(events)
            self.machines(project, machines, looked_at, (known or {}).get("machines"), current["machines"], events)
            if self.audit and known and known.get("seen"):
                self.who(project, parse_time(known["seen"]), looked_at, events[told:])
            self.jobs(project, jobs, looked_at, (known or {}).get("jobs"), current["jobs"], events)
            self.lever(project, lever, looked_at, known, events)
            self.state["projects"][project["id"]] = current
        for gone in set(self.state["projects"]) - set(seen_project[0]["id"] for seen_project in seen):
            del self.state["projects"][gone]  # no longer watched: no longer told
        if licenses is not None:
            self.licenses_read_at = now
            self.licenses(licenses, now, events)
        self.game_days(events)
        return events

    def game_days(self, events):
        """The game days entered in the ledger of runs since the last look that were stopped - by a stop condition or the
        safety lever. Only the entries after the last one seen are read; the first look tells none: it notes where the
        ledger ends."""
        if not self.ledger_dir:
            return
        entries = entry_files(self.ledger_dir)
        last = self.state.get("ledger_sequence")
        self.state["ledger_sequence"] = max([last or 0] + [sequence for sequence, unused in entries])
        for sequence, name in entries if last is not None else []:
            entry = read_entry(self.ledger_dir, name) if sequence > last else None
            report = (entry or {}).get("report") or {}
            if entry and entry.get("runbook") == "game_day" and report.get("outcome") == "stopped":
                stops = report.get("stop_conditions") or {}
                # An application's game day ran in its nodes' projects: the project is the first of them, projects all.
                projects = [project.get("name") for project in report.get("projects") or []] or [report.get("project")]
                events.append(dict(type="game_day_stopped", time=report.get("generated"), project=dict(name=report.get("project") or projects[0]),
                                   projects=projects,
                                   scenario=(report.get("scenario") or {}).get("name"), hypothesis=(report.get("scenario") or {}).get("hypothesis"),
                                   stopped_by=stops.get("stopped_by"), lever=stops.get("lever"), failures=(report.get("failures") or [])[:LOG_TAIL],
                                   ledger=dict(sequence=sequence, sha256=entry.get("sha256"))))

    def read_project(self, project):
        """A project's machines, its newest jobs and its safety lever (module_utils._lever). Measured against the clock read
        just before (the account's, or read again next to them when they had to be read again: module_utils._fleet.read_by_the_clock)."""
        return (self.client.list("/projects/%s/machines" % project["id"], dict(all="true")),
                self.client.get("/projects/%s/jobs" % project["id"], dict(limit=JOBS_READ)).get("items") or [],
                lever_in(self.client.get("/projects/%s/recoveryPlans" % project["id"]).get("items") or []))

    def lever(self, project, lever, now, known, events):
        """The project's safety lever engaged or released since the last look (a state kept before levers were watched
        knows none: it tells nothing until the next change)."""
        before = (known or {}).get("lever")
        if before is not None and before.get("state") != lever["state"]:
            events.append(dict(type="lever_%s" % lever["state"], project=dict(id=project["id"], name=project["name"]), time=iso_time(now),
                               by=lever.get("by"), at=lever.get("at"), reason=lever.get("reason")))

    def failed(self, message):
        if self.state.get("failing"):
            self.state["failing"]["count"] += 1
            return []
        # The service did not answer with its clock: the time is this machine's.
        self.state["failing"] = dict(since=iso_time(time.time()), count=1)
        return [dict(type="watch_failed", time=self.state["failing"]["since"], message=message)]

    def machines(self, project, machines, now, known, current, events):
        where = dict(id=project["id"], name=project["name"])
        for machine in machines:
            before = (known or {}).get(machine["id"])
            looked, lag, over = self.machine_looked_at(machine, now, before)
            current[machine["id"]] = looked
            if known is None:
                continue  # the first look at the project: nothing to compare with
            said = dict(project=where, machine=dict(id=machine["id"], name=name_of(machine)), time=iso_time(now))
            if before is None:
                events.append(dict(said, type="machine_registered", state=looked["state"],
                                   source=dict((key, (machine.get("sourceProperties") or {}).get(key)) for key in ("machineCloudId", "os"))))
                continue
            events.extend(self.machine_changes(said, machine, before, looked, lag, over))
        if known is not None:
            for machine_id in sorted(set(known) - set(current)):
                events.append(dict(type="machine_removed", project=where, machine=dict(id=machine_id, name=known[machine_id]["name"]),
                                   time=iso_time(now)))

    def machine_looked_at(self, machine, now, before):
        """What a look at a machine keeps for the next (its state, whether its lag is over the threshold, its backlog and how
        many looks it has grown), with its lag and whether it is over the threshold now (None: not told for its state)."""
        info = machine.get("replicationInfo") or {}
        consistent = info.get("lastConsistencyDateTime")
        state = replication_state(machine)
        lag = max(0, int(now - parse_time(consistent))) if consistent else None
        backlog = info.get("backloggedStorageBytes") or 0
        # Lag is told for machines that replicate: a paused or stopped one is told as such.
        over = lag is not None and lag > self.lag_threshold if state in ("continuous", "rescanning") else None
        growing = ((before or {}).get("growing", 0) + 1) if before and backlog > before.get("backlog", 0) else 0
        told_growing = bool(before and before.get("told_growing")) and growing > 0
        return dict(name=name_of(machine), state=state, over=over if over is not None else (before or {}).get("over"),
                    backlog=backlog, growing=growing, told_growing=told_growing), lag, over

    def machine_changes(self, said, machine, before, looked, lag, over):
        """The events of a machine known before: its state changed, its lag crossed the threshold, its backlog kept growing."""
        events = []
        if looked["state"] != before["state"]:
            events.append(dict(said, type="replication_state_changed", state=looked["state"], previous=before["state"],
                               replication_status=machine.get("replicationStatus")))
        if over is not None and over != bool(before.get("over")):
            events.append(dict(said, type="lag_over_threshold" if over else "lag_within_threshold", lag_seconds=lag,
                               threshold_seconds=self.lag_threshold))
        if looked["growing"] >= self.backlog_looks and not looked["told_growing"]:
            events.append(dict(said, type="backlog_growing", backlog_bytes=looked["backlog"], looks=looked["growing"]))
            looked["told_growing"] = True
        return events

    def who(self, project, since, now, events):
        """Who made the changes of ``events``: the newest write outside a job, between the two looks, that names the
        machine (``by``, ``audit_event``). Read only when there is such a change; a log that cannot be read names nobody."""
        asked = [event for event in events if event["type"] in TOLD_BY_WHOM]
        if not asked:
            return
        try:
            entries = read_audit_log(self.client, "/projects/%s/auditLog" % project["id"], since=since, until=now)
        except Exception:  # pylint: disable=broad-exception-caught  # the events stand without their author
            return
        newest = {}
        for entry in entries:
            if entry.get("jobId"):
                continue
            for machine in entry.get("participatingMachines") or []:
                newest[machine.get("machineCloudEndureId")] = entry  # oldest first: the last one stays
        for event in asked:
            entry = newest.get(event["machine"]["id"])
            if entry:
                event.update(by=entry.get("username"), audit_event=entry.get("eventName"))

    def jobs(self, project, jobs, now, known, current, events):
        where = dict(id=project["id"], name=project["name"])
        for job in reversed(jobs):  # oldest first: events in the order things happened
            status = job.get("status")
            current[job["id"]] = status
            if known is None:
                continue
            before = known.get(job["id"])
            said = dict(type=None, project=where, time=iso_time(now), job=dict(
                id=job["id"], type=job.get("type"), status=status, created=job.get("creationDateTime"), ended=job.get("endDateTime"),
                initiated_by=job.get("initiatedBy"), machines=list(job.get("participatingMachines") or [])))
            if before is None:
                events.append(dict(said, type="job_started"))
            if status in ENDED and before not in ENDED:
                ended = dict(said, type="job_failed" if status == "FAILED" else "job_ended")
                if status == "FAILED":
                    ended["log_tail"] = [line.get("message") for line in (job.get("log") or [])[-LOG_TAIL:]]
                events.append(ended)
        if known is not None:
            # A job under way is always among the newest; one that fell off the page had ended: it is forgotten.
            current.update((job_id, status) for job_id, status in known.items() if job_id not in current and status not in ENDED)

    def licenses(self, licenses, now, events):
        told = self.state["licenses"]
        for license_ in licenses:
            ends = license_.get("expirationDateTime")
            if not ends:
                continue
            days = (parse_time(ends) - now) / DAY
            if days <= self.license_days and told.get(license_["id"]) != ends:
                told[license_["id"]] = ends  # told once for each end: a licence renewed is told again when its new end nears
                events.append(dict(type="license_expiring", time=iso_time(now), license=dict(
                    id=license_["id"], type=license_.get("type"), count=license_.get("count"), used=license_.get("used"), expires=ends),
                    days_left=round(days, 1), threshold_days=self.license_days))
