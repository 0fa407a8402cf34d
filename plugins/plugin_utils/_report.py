# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The report of a run, from its record (a versioned schema, roles/runbook/files/report.schema.json), and the plan a run
under --check writes; their files, in every form (each report shape's, plugin_utils._shapes).

Times: a machine's RPO is its wave's launch request minus the date-time of the point in time it
was launched from, both on the service's clock. Its RTO runs from the run's first launch request
(the recovery begins) to the moment the service first showed its target machine running (its
*up* moment), plus the time its own checks took, measured on the controller for that machine
alone: it does not depend on how many machines there are, in which order they are checked, or on
forks.
"""

import json
import os

from ansible_collections.replication.recovery.plugins.module_utils._domain import PRODUCTION_KINDS, moment_said, parse_number, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import shown, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import target_of
from ansible_collections.replication.recovery.plugins.plugin_utils._render import point_said
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_run import plan_markdown, plan_page
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import (
    FAILED, PASSED, SKIPPED, against, check_of, plus, seconds_between, worst)
from ansible_collections.replication.recovery.plugins.plugin_utils._record import parts_of
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import (
    ADOPTED, CANCELLED, COMMITTED, DATA_LOSS_ACCEPTED, FAILED as FAILED_OUTCOME, NOTHING_DONE, PASSED as PASSED_OUTCOME, REFUSED, ROLLED_BACK, STOPPED)
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME

WORST_SHOWN = 5


def _own_check(result, settings):
    """The user's checks of one machine, and how long they took (None unless they passed)."""
    label = settings.get("checks_name") or "checks"
    if result is None:
        return check_of(label, FAILED, "did not run"), None
    seconds = seconds_between(result.get("began"), result.get("ended"))
    if result.get("passed") is True:
        return check_of(label, PASSED, result.get("message") or "passed", seconds), seconds
    if result.get("passed") is False:
        return check_of(label, FAILED, result.get("message") or "failed"), None
    return check_of(label, FAILED, "started and did not finish (the host failed or was unreachable)"), None


class _Run:
    """The record, indexed once: every machine's report reads it in constant time."""

    def __init__(self, record):
        self.record = record
        self.settings = record.get("settings") or {}
        self.targets = record.get("targets") or {}
        self.health = record.get("health") or {}
        self.gate_name = (record.get("gate") or {}).get("name") or "health gate"
        self.launch_settings = record.get("launch_settings") or {}
        self.test_network = record.get("test_network") or {}
        self.launched = record.get("launched") or {}
        self.failed = record.get("failed_machines") or {}
        self.view = record.get("view") or {}
        self.checked = record.get("checked") or {}
        self.cleanup = record.get("cleanup") or {}
        self.waves = record.get("waves") or []
        self.wave_of = dict((name, number) for number, wave in enumerate(self.waves, 1) for name in wave["machines"])
        self.first_request = (_first_job(self.waves) or {}).get("created")
        self.kept = set(self.cleanup.get("kept") or [])
        self.removed = set(self.cleanup.get("removed_machines") or [])
        self.stands = record.get("stands") or {}
        # What the stopped run this one takes up launched, this run not (yet): it stands, and a run again adopts it.
        self.left = set(left_standing(record))
        self.repinned = record.get("repinned") or {}
        # The machines whose points the run pinned, and when (the service's clock as it read them).
        self.pinned = set(record.get("pinned") or {}) if record.get("started") else set()
        self.pinned_at = record.get("started")
        self.private_ips = self.launch_settings.get("private_ips") or {}

    def standing(self, machine):
        """A machine failed over already, which the run did not launch: reported as it stands."""
        name, entry = machine["name"], self.stands[machine["name"]]
        target, point = entry.get("target") or {}, entry.get("point")
        rpo = seconds_between(point.get("date_time"), entry.get("since")) if point else None
        return dict(
            name=name, id=machine.get("id"), wave=self.wave_of.get(name), passed=True, stands=entry["said"],
            target=dict(id=entry["replica"], cloud_id=target.get("machineCloudId"), state=target.get("machineCloudState"),
                        public_ips=target.get("publicIps") or []),
            addresses=self.addresses(name, target.get("publicIps")),
            point_in_time=dict(id=point["id"], date_time=point["date_time"]) if point else (
                dict(id=target.get("pointInTime"), date_time=None) if target.get("pointInTime") else None),
            rpo_seconds=rpo, rto_seconds=None, launch_requested=entry.get("since"), running=None, recovered=None,
            cleanup="kept", test_network=None,
            checks=[check_of("stands", PASSED, "%s; not launched by this run" % entry["said"]),
                    check_of("RPO", PASSED if rpo is not None else SKIPPED,
                             "%s s when it was launched" % rpo if rpo is not None else "its point in time is no longer listed")])

    def addresses(self, name, public_ips):
        """What the incident channel repoints DNS to: the public addresses the service reports, and the private ones the
        blueprint sets (the service reports no private address)."""
        said = ["public %s" % address for address in public_ips or []] + ["private %s (set by its blueprint)" % address
                                                                          for address in self.private_ips.get(name) or []]
        return said or ["not reported by the service"]

    def launch_check(self, name, entry):
        if entry is not None:
            return check_of("launch", PASSED, "target machine %s" % (entry["target"].get("machineCloudId") or ""))
        if name in self.failed:
            return check_of("launch", FAILED, self.failed[name])
        if name in self.left:
            return check_of("launch", SKIPPED, LEFT_SAID)
        wave = self.waves[self.wave_of[name] - 1] if name in self.wave_of else {}
        return check_of("launch", SKIPPED, wave.get("message") or "not launched")

    def service_checks(self, seen, name=None):
        """The built-in checks, from what the service shows: running, and a public address - unless the machine was
        launched into a test network that allocates none."""
        if not seen.get("running"):
            return [check_of("running", FAILED, "%s is %s, not running, after %s s" % (
                seen.get("cloud_id") or "the target machine", seen.get("state") or "not there", self.settings.get("boot_timeout", "?")))]
        checks = [check_of("running", PASSED, "%s is running" % seen.get("cloud_id"))]
        network = (self.test_network.get("tested_in") or {}).get(name)
        if isinstance(network, dict) and network.get("publicIPAction") == "DONT_ALLOCATE" and not seen.get("public_ips"):
            checks.append(check_of("public address", PASSED, "none, as the test network says (public_ip_action DONT_ALLOCATE)"))
        elif name in (self.test_network.get("unseen") or []) and not seen.get("public_ips"):
            checks.append(check_of("public address", SKIPPED, "none, and not judged: an earlier run launched it, and its blueprint, put back "
                                                              "since, no longer says the network it was launched into (your checks judge it)"))
        elif self.settings.get("check_public_ip", True):
            addresses = seen.get("public_ips") or []
            checks.append(check_of("public address", PASSED if addresses else FAILED,
                                   ", ".join(addresses) if addresses else "%s has no public IP address" % seen.get("cloud_id")))
        return checks

    def machine(self, machine):
        name = machine["name"]
        if name in self.stands:
            return self.standing(machine)
        entry = self.launched.get(name)
        checks = self.before_launch_checks(name) + [self.launch_check(name, entry)]
        repinned = self.repinned.get(name) if entry is not None else None
        if repinned:
            checks.append(check_of("point in time", PASSED, "the point of %s pinned when the run began was thinned out by the service before wave "
                                   "%d: launched from the newest point before it, %s more data lost" % (
                                       point_said(repinned["planned"]), repinned["wave"], spoken(repinned["extra_seconds"]))))
        seen = self.view.get(name) if entry else None
        up, own_seconds, unmeasured = self.after_launch_checks(name, entry, seen, checks)
        point = (entry or {}).get("point_in_time") or {}
        # Its own job's request: a wave larger than a job may take is sent in several.
        requested = entry and (entry.get("requested") or (self.waves[entry["wave"] - 1].get("job") or {}).get("creationDateTime"))
        rpo, rto = self.measured(name, entry, point, requested, up, own_seconds, unmeasured, checks)
        target = target_of((entry or {}).get("target"))
        public_ips = (seen or {}).get("public_ips") or target.get("public_ips")
        return dict(
            name=name,
            id=machine.get("id"),
            wave=self.wave_of.get(name),
            # Passed: launched, checked (its RTO ended) and nothing failed.
            passed=rto is not None and all(check["status"] != FAILED for check in checks),
            target=dict(id=target.get("id"), cloud_id=target.get("cloud_id"), state=(seen or {}).get("state") or target.get("state"),
                        public_ips=public_ips or []) if entry else None,
            addresses=self.addresses(name, public_ips) if entry else [],
            point_in_time=dict(id=point.get("id"), date_time=point.get("date_time")) if entry else None,
            planned_point_in_time=repinned["planned"] if repinned else None,
            extra_data_loss_seconds=repinned["extra_seconds"] if repinned else None,
            rpo_seconds=rpo,
            rto_seconds=rto,
            left_standing=name in self.left and not entry,
            # The machine's timeline (the service's clock): its wave's launch request, running, and checked.
            launch_requested=requested,
            running=up,
            recovered=plus(up, own_seconds) if rto is not None else None,
            cleanup=self.left_by_cleanup(name, entry),
            checks=checks,
            # The test network's settings the machine was launched with (its blueprint's members), or None.
            test_network=self.test_network.get("tested_in", {}).get(name),
        )

    def before_launch_checks(self, name):
        """The health gate's check of the machine, and its launch settings' when they were checked."""
        gate, gate_name = self.health.get(name), self.gate_name
        if gate is None:
            checks = [check_of(gate_name, SKIPPED, "not gated")]
        elif gate.get("forced"):
            checks = [check_of(gate_name, SKIPPED, "%s: %s" % (gate.get("forced_because") or "launched anyway, as asked", "; ".join(gate["reasons"])))]
        else:
            checks = [check_of(gate_name, PASSED if gate["passed"] else FAILED, "; ".join(gate["reasons"]) or gate["replication_state"])]
        if self.launch_settings.get("checked"):
            problems = self.launch_settings["problems"].get(name)
            unchecked = (self.launch_settings.get("unchecked") or {}).get(name)
            checks.append(check_of("launch settings", FAILED if problems else PASSED,
                                   "; ".join(problems) if problems else "as region %s offers%s" % (
                                       self.launch_settings.get("region"), "; not checked: " + "; ".join(unchecked) if unchecked else "")))
        return checks

    def after_launch_checks(self, name, entry, seen, checks):
        """The checks of a launched machine as the service shows it and as the user's checks found it, added to ``checks``:
        when it came up, the seconds its own checks took, and what its RTO is unmeasured for when it is."""
        if seen is None:
            return None, 0, "its checks did not run" if entry is not None else "not launched"
        checks.extend(self.service_checks(seen, name))
        if not (seen.get("running") and self.settings.get("checks_tasks")):
            return seen.get("up"), 0, "not running"
        own, own_seconds = _own_check(self.checked.get(name), self.settings)
        checks.append(own)
        return seen.get("up"), own_seconds, "its checks did not pass"

    def measured(self, name, entry, point, requested, up, own_seconds, unmeasured, checks):
        """The machine's RPO and RTO, their checks against the targets added to ``checks``."""
        # A machine launched from the point the run pinned lost the data after that point at the moment of pinning (the
        # run's disaster): its RPO is the point's age then, wherever its launch request fell - waves, waits and throttling
        # age nothing. One the service chose the point of at the launch (the latest, a recovery plan) is measured to it.
        rpo = seconds_between(point.get("date_time"), self.pinned_at if name in self.pinned else requested) if entry else None
        rto = seconds_between(self.first_request, up)
        rto = round(rto + own_seconds, 3) if rto is not None and own_seconds is not None else None
        # A point thinned out by the service's retention before it was read leaves its time unknown.
        rpo_unmeasured = "not launched" if not entry else (
            "the time of point in time %s was not read: this runbook launches each machine from its latest and reads no points" % (
                point.get("id") or "-") if self.record.get("pin") is False else
            "the time of point in time %s is unknown: it was no longer listed when read" % (point.get("id") or "-"))
        checks.append(against("RPO", rpo, parse_number(self.targets.get("rpo_seconds")), rpo_unmeasured))
        checks.append(against("RTO", rto, parse_number(self.targets.get("rto_seconds")), unmeasured))
        return rpo, rto

    def left_by_cleanup(self, name, entry):
        """What the cleanup left of the machine's target machine."""
        if name in self.kept:
            return "kept"
        if name in self.removed:
            return "removed"
        if self.cleanup.get("status") == PASSED or (entry is None and self.cleanup.get("status") != FAILED):
            return "nothing to remove"
        return "not cleaned up"

    def network_check(self):
        """Whether every blueprint switched to the test network was put back as it was."""
        network = self.test_network
        switched = set(network.get("tested_in") or {}) | set(network.get("found") or [])
        if not switched:
            return None
        refused = network.get("refused") or {}
        left = sorted(switched - set(network.get("restored") or []) - set(refused))
        if refused or left:
            said = ["changed by somebody else since the switch, left as they set it: %s" % "; ".join(
                "%s (%s)" % item for item in sorted(refused.items()))] if refused else []
            said += ["not put back yet (the next run of a DR test or a failover puts them back first): %s" % ", ".join(left)] if left else []
            return check_of("test network", FAILED, "; ".join(said))
        return check_of("test network", PASSED, "%d blueprints put back as they were: %s" % (len(switched), ", ".join(sorted(switched))))

    def run_checks(self):
        checks = []
        failure = self.record.get("failure")
        if failure:
            checks.append(check_of(failure["phase"], FAILED, failure["message"]))
        earlier = self.record.get("earlier") or {}
        for message in earlier.get("messages") or []:
            checks.append(check_of("earlier run", PASSED, message))
        for number, wave in enumerate(self.waves, 1):
            jobs = wave.get("jobs") or ([dict(wave["job"], adopted=wave.get("adopted"))] if wave.get("job") else [])
            for part, job in enumerate(jobs, 1):
                took = seconds_between(job.get("creationDateTime"), job.get("endDateTime"))
                name = "launch job" + ("" if len(self.waves) == 1 else ", wave %d" % number) + (
                    "" if len(jobs) == 1 else " (%d of %d jobs)" % (part, len(parts_of(wave))))
                checks.append(check_of(name, PASSED if job.get("status") == "COMPLETED" else FAILED, "%s %s %s%s%s" % (
                    job.get("type"), job.get("id"), job.get("status"), "" if took is None else " after %s s" % took,
                    " (adopted from an earlier run)" if job.get("adopted") else ""), took))
        for number, wave in enumerate(self.waves, 1):
            if wave.get("status") == "not launched" and wave["machines"]:
                checks.append(check_of("wave %d" % number, FAILED, wave.get("message") or "not launched"))
            elif wave.get("status") == "pending" and wave["machines"] and not failure:
                # Nothing stopped the run, yet it finished with this wave still to launch: no play of the wave ran on the
                # project's host (on ansible-core 2.22 the host once joined no wave's group), and the run did not do what
                # it was asked - never "nothing done".
                checks.append(check_of("wave %d" % number, FAILED, "never run: the run finished with its %d machines still to launch, and "
                                       "nothing had stopped it - no play of the wave ran on the project's host" % len(wave["machines"])))
        if self.cleanup:
            checks.append(check_of("cleanup", self.cleanup.get("status", SKIPPED), self.cleanup.get("message", "")))
        network_check = self.network_check()
        if network_check:
            checks.append(network_check)
        # Checks of the run that a runbook's own steps add (the failback's reverse and return).
        checks.extend(check_of(check["name"], check["status"], check.get("message", "")) for check in self.record.get("run_checks") or [])
        return checks


def _failback(state):
    """What the report says of a failback: where it stood, and its recovery machines."""
    if not state:
        return None
    return dict(stage=state.get("stage"), began=state.get("began"), message=state.get("message"), reversed_at=state.get("reversed_at"),
                returned_at=state.get("returned_at"), recovery_machines=sorted(state.get("recovery") or {}),
                recovery_removed=state.get("removed") or [])


def report_of(record, schema, generated=None):
    """The report of a run, from the record its steps kept."""
    run = _Run(record)
    machines = [run.machine(machine) for machine in record.get("machines") or []]
    run_checks = run.run_checks()
    failures = _failures(run_checks, machines, record)
    word = outcome_of(record, FAILED if failures else PASSED)
    return dict(
        schema=schema,
        project=record["project"],
        project_id=record.get("project_id"),
        run_began=record.get("began"),
        reached_service=bool(record.get("project_id")),
        launch_type=record.get("launch_type"),
        point_in_time=record.get("point_in_time"),
        points_said=points_said(record),
        points_in_time=record.get("points_in_time") or {},
        recovery_plan=record.get("recovery_plan"),
        started=record.get("started"),
        launch_requested=run.first_request,
        result=FAILED if failures else PASSED,
        outcome=word,
        next=next_run(record, word),
        failures=failures,
        counts=_counts(machines),
        targets=dict(rpo_seconds=parse_number(run.targets.get("rpo_seconds")), rto_seconds=parse_number(run.targets.get("rto_seconds"))),
        measures=_measures(run, machines),
        excluded=record.get("excluded") or [],
        kept=run.cleanup.get("kept") or [],
        cleanup=run.cleanup.get("message") or "",
        cleanup_job=run.cleanup.get("job"),  # id, status, created and ended, as runbook_clean_up keeps it
        job=_first_job(run.waves),
        waves=[_wave(number, wave) for number, wave in enumerate(run.waves, 1)],
        checks=run_checks,
        failback=_failback(record.get("failback")),
        replaced=sorted(record.get("replaced") or {}),
        repinned=dict((name, dict(planned=entry["planned"], launched=entry["replacement"], extra_seconds=entry["extra_seconds"], wave=entry["wave"]))
                      for name, entry in sorted((record.get("repinned") or {}).items())),
        points_span=points_span(machines),
        pins_from=(record.get("pins_from") or {}).get("run"),
        stop_conditions=stop_conditions_of(record),
        game_day=record.get("game_day"),
        machines=machines,
        generated=generated or controller_now(),
    )


def _failures(run_checks, machines, record):
    """Every check that failed, the run's then each machine's; a run in which no machine took part (and that had some to
    test) fails for that."""
    failures = ["%s: %s" % (check["name"], check["message"]) for check in run_checks if check["status"] == FAILED]
    failures.extend("%s: %s: %s" % (machine["name"], check["name"], check["message"])
                    for machine in machines for check in machine["checks"] if check["status"] == FAILED)
    if not machines and not failures and not record.get("nothing_to_test"):
        failures.append("no machine took part in the run")
    return failures


def _counts(machines):
    return dict(machines=len(machines), passed=sum(1 for m in machines if m["passed"]), failed=sum(1 for m in machines if not m["passed"]),
                launched=sum(1 for m in machines if m["target"] is not None and not m.get("stands")),
                stands=sum(1 for m in machines if m.get("stands")), left_standing=sum(1 for m in machines if m.get("left_standing")))


def _measures(run, machines):
    """The run's worst RPO (of what it launched) and RTO, and its launch jobs' time, from the first request to the last end."""
    last_end = [wave["job"].get("endDateTime") for wave in run.waves if wave.get("job") and wave["job"].get("endDateTime")]
    return dict(rpo_seconds=worst(m["rpo_seconds"] for m in machines if not m.get("stands")),
                rto_seconds=worst(m["rto_seconds"] for m in machines),
                launch_job_seconds=seconds_between(run.first_request, max(last_end, key=parse_time) if last_end else None))


def _first_job(waves):
    """The run's first launch job, as the report names it; None before one."""
    job = next((wave["job"] for wave in waves if wave.get("job")), None)
    if not job:
        return None
    return dict(id=job.get("id"), type=job.get("type"), status=job.get("status"), created=job.get("creationDateTime"), ended=job.get("endDateTime"))


def _wave(number, wave):
    """A wave as the report says it: its machines, status, message and jobs."""
    jobs = [job["id"] for job in wave.get("jobs") or []] or [wave["job"]["id"]] if wave.get("job") else []
    return dict(number=number, machines=wave["machines"], status=wave.get("status") or "pending", message=wave.get("message") or "",
                adopted=bool(wave.get("adopted")), job=(wave.get("job") or {}).get("id"), jobs=jobs)


def stop_conditions_of(record):
    """What watched the run as it went on, for its report: the safety lever when it was seen engaged, the probes with their
    failures in a row, the one that stopped the run, and the timeline of their looks; None for a run that had neither."""
    watch, lever = record.get("stop_when") or {}, record.get("lever")
    if not watch.get("probes") and not lever:
        return None
    return dict(lever=lever, probes=[dict(name=probe["name"], kind=probe["kind"], after_failures=probe["after_failures"],
                                          failures_in_a_row=(watch.get("failures_in_a_row") or {}).get(probe["name"], 0))
                                     for probe in watch.get("probes") or []],
                looks=watch.get("looks", 0), stopped_by=watch.get("stopped_by"), timeline=watch.get("timeline") or [])


def watched_over(watches):
    """What watched a run made of runs (a clean point search's rounds, an application's nodes), from each one's
    stop_conditions (None for one nothing watched): the lever when one saw it, the probes as the last left them, every look
    in time order, and the probe that stopped it; None when nothing watched any."""
    watched = [watch for watch in watches if watch]
    if not watched:
        return None
    return dict(lever=next((w["lever"] for w in reversed(watched) if w.get("lever")), None), probes=watched[-1]["probes"],
                looks=sum(w["looks"] for w in watched), stopped_by=next((w["stopped_by"] for w in watched if w.get("stopped_by")), None),
                timeline=sorted((look for w in watched for look in w["timeline"]), key=lambda look: look["at"]))


# The phases a failure stops a run in before its first write: its sign-in, its read and judgement, and a failback's
# reverse until its first write is sent (its state says so: written).
BEFORE_ANY_WRITE = ("login", "preflight", "wait", "reverse")


NOTHING_CHANGED = "Nothing was launched or changed: "


def launched_by_itself(record):
    """Whether the run started a job of its own (a launch, or a cleanup that had to go first)."""
    return any(wave.get("job") and not wave.get("adopted") for wave in record.get("waves") or [])


def before_any_write(record):
    """What a run stopped before its first write came to: cancelled by the project's safety lever or a stop condition, else
    refused."""
    stopped = (record.get("lever") or {}).get("obeyed") or (record.get("stop_when") or {}).get("stopped_by")
    return CANCELLED if stopped else REFUSED


def _stopped(record, launched):
    """What a run that a failure stopped came to: refused (or cancelled) when it stopped before its first write - nothing
    launched or adopted, no write of a failback's sent - else stopped."""
    failback = record.get("failback") or {}
    wrote = launched or failback.get("written") or failback.get("stage") not in (None, "would reverse")
    return before_any_write(record) if record["failure"].get("phase") in BEFORE_ANY_WRITE and not wrote else STOPPED


def outcome_of(record, result):
    """What the run came to, as one word of plugin_utils._outcomes: refused (stopped before its first write), stopped (after
    it), failed (a check); else nothing done, committed (production now on what it launched), data loss accepted (a failback
    past its data-loss guard, as accepted), rolled back, adopted (it launched nothing itself) or passed."""
    waves = record.get("waves") or []
    launched = launched_by_itself(record)
    adopted = any(wave.get("adopted") for wave in waves)
    if record.get("failure"):
        return _stopped(record, launched or adopted)
    if result == FAILED:
        return FAILED_OUTCOME
    if not launched and not adopted:
        return NOTHING_DONE
    kept = bool((record.get("cleanup") or {}).get("kept"))
    if record.get("kind") in PRODUCTION_KINDS and (kept or record.get("keeps_launched")) and not record.get("roll_back"):
        forced = [verdict for verdict in (record.get("health") or {}).values() if verdict.get("forced")]
        guard = (record.get("gate") or {}).get("name") == "data-loss guard"
        return DATA_LOSS_ACCEPTED if guard and forced else COMMITTED
    if record.get("roll_back"):
        return ROLLED_BACK
    return PASSED_OUTCOME if launched else ADOPTED


LEFT_SAID = "launched by the stopped run this one takes up: it stands, and a run again adopts it"


def left_standing(record):
    """The machines the stopped run this one takes up launched, which this run has not launched or adopted (yet): refused or
    stopped before it came to them, they stand all the same."""
    launched = record.get("launched") or {}
    return sorted(name for name in (record.get("earlier") or {}).get("launched") or [] if name not in launched)


def next_run(record, word):
    """Whether running the runbook again is safe, and what it will do - for a run that did not pass; None for one that did."""
    title = record.get("title") or "run"
    left = left_standing(record)
    if word in (REFUSED, CANCELLED) and left:
        # Never "nothing was launched": what the stopped run launched stands, and the next run takes it up.
        return ("This run launched and changed nothing, but %d machines that the stopped run it takes up launched stand (%s): running "
                "the %s again, once %s, adopts them and launches only the rest." % (
                    len(left), shown(left), title, "the lever is released" if (record.get("lever") or {}).get("obeyed") else
                    "what its stop condition watches is well" if word == CANCELLED else "what it refused is mended"))
    if word == REFUSED:
        return NOTHING_CHANGED + "running the %s again is safe, once what it refused is mended; it begins anew." % title
    if word == CANCELLED and (record.get("lever") or {}).get("obeyed"):
        return NOTHING_CHANGED + "run the %s again once the lever is released (the playbook replication.recovery.game_day with " \
            "game_day_lever=released, or the module service_safety_lever)." % title
    if word == CANCELLED:
        return NOTHING_CHANGED + "run the %s again once what its stop condition watches is well." % title
    if word not in (STOPPED, FAILED_OUTCOME):
        return None
    return _next_after_a_write(record, word, title)


def _next_after_a_write(record, word, title):
    """What running again does after a run that stopped or failed once it had written."""
    cleanup = record.get("cleanup") or {}
    stands = record.get("stands") or {}
    if record.get("on_failed_over") == "own" or record.get("keeps_launched"):
        said = ("Running the %s again is safe: it goes on from where the service stands - what it launched back stays, and is not "
                "launched again." % title)
        if str((record.get("failure") or {}).get("message", "")).startswith("The data-loss guard stopped"):
            said = ("Replication stays reversed and goes on: wait until every machine named above has caught up, then run the %s again; "
                    "or accept the data they have not sent yet with %s_accept_data_loss=true, which its outcome then records (data loss "
                    "accepted)." % (title, record.get("runbook") or "failback"))
        return said
    if record.get("kind") in PRODUCTION_KINDS and cleanup.get("kept") and not record.get("roll_back"):
        waiting = [name for wave in record.get("waves") or [] if wave.get("status") == "not launched" for name in wave["machines"]]
        launches = "what was not launched (%s), from the points in time this run pinned" % shown(waiting) if waiting else "nothing"
        return ("The machines it launched stay, failed over, and are never launched again: running the %s again is safe - they stand, "
                "and it launches %s%s." % (title, launches, ", once the cause above is mended" if word == STOPPED else ""))
    if cleanup.get("status") == FAILED:
        return ("Its cleanup did not finish: running the %s again is safe - it finishes the cleanup first (or clean up on its own with the "
                "role's cleanup entry point)." % title)
    if cleanup.get("status") == SKIPPED and cleanup.get("kept"):
        return "Its machines were kept, as asked (%s): clean them up with the role's cleanup entry point before running the %s again." % (
            shown(cleanup["kept"]), title)
    said = "What it launched was removed and proven gone" if cleanup.get("removed_machines") else "Nothing it launched is left"
    if stands:
        said += "; %d machines stand, failed over already, and are left as they are" % len(stands)
    return "%s: running the %s again is safe - it begins anew." % (said, title)


def points_span(machines):
    """How far apart the points in time the machines launched from (or would launch from) are: {seconds, oldest, newest}
    ({name, id, date_time} each), or None with fewer than two points of known time. A run that resumed one stopped in
    between, or whose pinned point was thinned out before its wave, launches from points further apart than it pinned."""
    points = sorted((parse_time(point["date_time"]), machine["name"], point) for machine, point in (
        (machine, machine.get("point_in_time")) for machine in machines if not machine.get("stands")) if point and point.get("date_time"))
    if len(points) < 2:
        return None
    (first, oldest, old_point), (last, newest, new_point) = points[0], points[-1]
    return dict(seconds=round(last - first, 3), oldest=dict(old_point, name=oldest), newest=dict(new_point, name=newest))


def points_said(record):
    """Where the run's machines launch from, in words: the policy, and that each point was pinned when the run began."""
    policy = record.get("policy") or {}
    kind = policy.get("kind")
    if record.get("points_from"):
        return "the clean points of the search report %s" % record["points_from"]["report"]
    if policy.get("planned"):
        return "the points in time of %s" % policy["said"]
    if kind == "before":
        return "each machine's newest point in time at or before %s" % policy["at"]
    if kind == "point":
        return "the point in time %s (the others from their newest at or before it)" % policy["id"]
    if kind == "per machine":
        return "the points in time given per machine (%s; the others from their latest)" % policy["said"]
    return "each machine's latest point in time"


def failure_message(report, path=None, what="DR test"):
    """A run that did not pass in a few lines: its outcome, what failed for the run, how many machines failed and the worst
    five of them with their failed checks, whether running it again is safe, and the report's path (the details are there).

    Worst first: machines that failed more checks, then the longer RTO.
    """
    lines = ["%s: %s" % (check["name"], check["message"]) for check in report.get("checks", []) if check["status"] == FAILED]
    failed = [machine for machine in report.get("machines", []) if any(check["status"] == FAILED for check in machine["checks"])]
    if failed:
        failed.sort(key=lambda m: (-sum(1 for c in m["checks"] if c["status"] == FAILED), -(m["rto_seconds"] or 0), m["name"]))
        said = ["%s (%s)" % (machine["name"], "; ".join(
            "%s: %s" % (check["name"], check["message"]) for check in machine["checks"] if check["status"] == FAILED)[:200])
            for machine in failed]
        lines.append("%d of %d machines failed%s: %s" % (
            len(failed), len(report["machines"]), ", the worst" if len(failed) > WORST_SHOWN else "", shown(said, WORST_SHOWN)))
    if not lines:
        lines.extend(report.get("failures", [])[:WORST_SHOWN])
    message = "%s of %s: %s. %s." % (what, report.get("project"), (report.get("outcome") or report.get("result") or FAILED).upper(),
                                     ". ".join(line.rstrip(".") for line in lines))
    said_next = report.get("next") or ""
    if said_next.startswith(NOTHING_CHANGED) and "othing was launched" in message:  # said once
        rest = said_next[len(NOTHING_CHANGED):]
        said_next = rest[:1].upper() + rest[1:]  # not capitalize(), which would lower "DR test"
    if said_next:
        message += " " + said_next
    return message + (" Report: %s" % path if path else "")


# -- the forms ----------------------------------------------------------------------------------


# -- the plan (check mode) ----------------------------------------------------------------------


def plan_of(record, schema, generated=None):
    """What a run would do, from the record of a run under --check: every destructive or surprising step first, in words;
    then its machines in their waves, the exact point in time each launches from (pinned as a real run pins it) and the
    data-loss window that implies (the service's time when the run read the machines minus the point's time), the
    machines that stand (failed over already), and what the run would refuse. A run given this plan (runbook_start's
    plan) carries it out exactly: the same machines, waves and points."""
    replaced = record.get("replaced") or {}
    wave_of, adopted = _waves_of(record)
    machines = [_planned(record, machine, wave_of, adopted) for machine in record.get("machines") or []]
    failure = record.get("failure")
    launching = [m["name"] for m in machines if not m.get("stands") and not m.get("adopted")]
    replace = record.get("replace") or {}
    plan = dict(
        schema=schema, runbook=record["runbook"], project=record["project"], project_id=record.get("project_id"), account=record.get("account"),
        launch_type=record.get("launch_type"), point_in_time=record.get("point_in_time"), points_in_time=record.get("points_in_time") or {},
        recovery_plan=record.get("recovery_plan"), service_time=record.get("started"), began=record.get("began"),
        would="stop" if failure else "launch" if launching else "nothing",
        refused=dict(phase=failure["phase"], message=failure["message"]) if failure else None,
        first=first_steps(record, machines),
        replace=dict(machines=sorted(replaced), token=replace.get("token")) if replaced else None,
        waves=[dict(number=number, machines=wave["machines"], jobs=len(parts_of(wave))) for number, wave in enumerate(record.get("waves") or [], 1)],
        machines=machines, excluded=record.get("excluded") or [],
        points_span=points_span(machines), pins_from=(record.get("pins_from") or {}).get("run"),
        put_back_first=(record.get("test_network") or {}).get("found") or [],
        earlier=_earlier_planned(record.get("earlier") or {}),
        blocking=_blocking_planned(record.get("blocking") or {}),
        generated=generated or controller_now(),
    )
    if record.get("failback_plan"):  # what a failback given this plan is bound to (runbook_reverse.bound_by_the_plan)
        plan["failback"] = record["failback_plan"]
    return plan


def _waves_of(record):
    """Each machine's wave by its name, and the names of the machines of the launches the run adopts."""
    wave_of = dict((name, number) for number, wave in enumerate(record.get("waves") or [], 1) for name in wave["machines"])
    adopted = set(name for index, jobs in ((record.get("earlier") or {}).get("adopted") or {}).items()
                  for part in parts_of(record["waves"][int(index)])[:len(jobs)] for name in part)
    return wave_of, adopted


def _earlier_planned(earlier):
    return dict(adopted_waves=sorted(int(index) + 1 for index in earlier.get("adopted") or {}),
                cleaned_first=[left["name"] for left in earlier.get("clean") or []],
                running=earlier.get("running_said"), messages=earlier.get("messages") or [])


def _blocking_planned(blocking):
    return dict(machines=[dict(name=left["name"], kind=left["kind"]) for left in blocking.get("machines") or []],
                cleaned_first=bool(blocking.get("clean")))


def _planned(record, machine, wave_of, adopted):
    """A machine of a plan: its wave (``wave_of``: by name), the point it launches from and the data-loss window, its gate,
    launch settings and test network; whether it stands, is adopted (``adopted``: the names) or replaces a production machine."""
    pinned, stands, replaced = record.get("pinned") or {}, record.get("stands") or {}, record.get("replaced") or {}
    name, gate = machine["name"], (record.get("health") or {}).get(machine["name"]) or {}
    point = (stands.get(name) or {}).get("point") if name in stands else pinned.get(name)
    entry = dict(name=name, id=machine["id"], wave=wave_of.get(name), point_in_time=point,
                 data_loss_seconds=_window(point, stands[name]["since"] if name in stands else record.get("started")),
                 gate=dict(passed=gate.get("passed"), forced=bool(gate.get("forced")), reasons=gate.get("reasons") or []),
                 launch_settings=((record.get("launch_settings") or {}).get("problems") or {}).get(name) or [],
                 test_network=((record.get("test_network") or {}).get("tested_in") or {}).get(name))
    if name in stands:
        entry.update(stands=True, said=stands[name]["said"])
    elif name in adopted:
        entry.update(adopted=True)
    if name in replaced:
        entry.update(replaces=dict(target=(replaced[name].get("target") or {}).get("machineCloudId") or replaced[name]["replica"],
                                   since=replaced[name].get("since")))
    return entry


def _window(point, until):
    """The data-loss window of a point in time: seconds from its time to ``until``; None when either is unknown."""
    if not point or not point.get("date_time") or not until:
        return None
    return max(0.0, seconds_between(point["date_time"], until))


def first_steps(record, machines):
    """Every destructive or surprising step of a planned run, in words an approver reads first."""
    return _replacing_steps(record, machines) + _steps_before_the_launch(record) + _launching_steps(record, machines)


def _replacing_steps(record, machines):
    """The production machines the run terminates and launches again, and what rolls back."""
    steps = []
    replace = record.get("replace") or {}
    for machine in machines:
        if machine.get("replaces"):
            since = machine["replaces"]["since"]
            steps.append("TERMINATES the %s machine %s of %s, which runs production since %s, and launches a new one from the point in "
                         "time of %s: confirm with %s_confirm=%s" % (
                             (record.get("replaced") or {}).get(machine["name"], {}).get("kind", "recovery"), machine["replaces"]["target"],
                             machine["name"], moment_said(parse_time(since), whole=True) if since else "an unknown moment",
                             point_said(machine["point_in_time"]) if machine.get("point_in_time") else "the latest point",
                             record.get("runbook", "failover"), replace.get("token")))
    if record.get("roll_back"):
        steps.append("Rolls back at its end: every machine it launches is terminated again once it is checked (a rehearsal)")
    return steps


def _steps_before_the_launch(record):
    """What the run terminates, puts back, waits for or adopts before it launches."""
    steps = []
    blocking = record.get("blocking") or {}
    if blocking.get("machines") and blocking.get("clean"):
        steps.append("Terminates first the DR test machines in the way: %s" % ", ".join(left["name"] for left in blocking["machines"]))
    earlier = record.get("earlier") or {}
    if earlier.get("clean"):
        steps.append("Terminates first the target machines an earlier run of this %s left: %s" % (
            record.get("title", "run"), ", ".join(left["name"] for left in earlier["clean"])))
    if (record.get("test_network") or {}).get("found"):
        steps.append("Puts back first the blueprints an earlier run left switched to a test network: %s" % ", ".join(record["test_network"]["found"]))
    if earlier.get("running_said"):
        steps.append(earlier["running_said"][0].upper() + earlier["running_said"][1:])
    for index, jobs in sorted((earlier.get("adopted") or {}).items()):
        for job in jobs:
            steps.append("Adopts the launch job %s of an earlier run as %swave %d (%s): nothing of it is launched again" % (
                job["id"], "part of " if len(parts_of(record["waves"][int(index)])) > 1 else "", int(index) + 1, job.get("status")))
    return steps


def _launching_steps(record, machines):
    """What stands, what launches though not ready or unproven, and the largest data-loss window."""
    steps = []
    stands = [machine for machine in machines if machine.get("stands")]
    if stands:
        steps.append("Launches nothing for %d machines that are failed over already, and reports them: %s" % (
            len(stands), shown(("%s: %s" % (machine["name"], machine["said"]) for machine in stands), 5, "; ")))
    forced = [machine["name"] for machine in machines if machine["gate"]["forced"] and not machine.get("stands")]
    if forced:
        steps.append("Launches machines that are not ready, as forced: %s" % ", ".join(forced))
    defaults = (record.get("launch_settings") or {}).get("unproven") or {}
    if defaults:
        steps.append("Launches machines whose launch settings cannot be proven (left to the service's defaults): %s" % ", ".join(sorted(defaults)))
    windows = [(machine["data_loss_seconds"], machine["name"]) for machine in machines
               if machine["data_loss_seconds"] is not None and not machine.get("stands")]
    if windows:
        largest = max(windows)
        steps.append("The largest data-loss window is %s (%s)" % (spoken(largest[0]), largest[1]))
    return steps


def write_plan(plan, directory, name, newest=True):
    """The plan's files (JSON, Markdown and an HTML page), as write_run writes a run's: their paths. A plan that would stop
    never takes the plain names, which an approved plan may hold."""
    return write_run(directory, name, plan["began"], [(".plan.json", plan), (".plan.md", plan_markdown), (".plan.html", plan_page)],
                     newest=newest, take_plain=plan.get("would") != "stop")


def read_plan(path, runbook):
    """A plan written under --check, for the run that carries it out: its members, and ``path``."""
    schema = BY_NAME[runbook].plan_schema
    try:
        with open(os.path.expanduser(path), encoding="utf-8") as handle:
            plan = json.load(handle)
    except (OSError, ValueError) as error:
        raise ValueError("the plan %s cannot be read: %s" % (path, error))
    if not isinstance(plan, dict) or plan.get("schema") != schema:
        raise ValueError("%s is not a plan of the %s (schema %s): the plan is the .plan.json a run under --check wrote" % (
            path, runbook.replace("_", " "), schema))
    return dict(plan, path=os.path.realpath(os.path.expanduser(path)))


def write(report, directory, name, newest=True):
    """The report's files - JSON, JUnit XML and Markdown, its shape's (plugin_utils._shapes) - as write_run writes a run's:
    their paths. Its page comes after, once it is in the ledger (write_also)."""
    return write_run(directory, name, report["run_began"], files_of(report), newest=newest)
