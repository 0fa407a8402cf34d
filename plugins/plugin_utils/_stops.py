# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A rehearsal's stop conditions: probes watched while it runs - when it begins, before each launch, and at each look at a
running job - that stop it once one fails so many times in a row (``after_failures``, 2 by default). A probe that cannot
run (no answer, a read that fails) counts as failing. The service cannot cancel a job: a stop launches nothing more, lets
a running job end, and the run's finish cleans up what it launched.

Probes, as a game day's scenario (``stop_when``) or a runbook's ``<prefix>stop_when`` gives them:

- ``{name, url, status}``: an HTTP GET from the controller answers ``status`` (a code or a list; 200 when not given);
- ``{name, health: {max_lag, states}}``: every machine of the run's project replicates in one of ``states`` (continuous
  when not given) with a lag of at most ``max_lag`` seconds - one read of the project's machines;
- ``{name, tasks}``: your tasks, run by the game day before it starts (a failing task is a failing probe); the engine
  itself runs no tasks between its looks.
"""

import time
from fnmatch import fnmatchcase
from urllib.error import HTTPError

from ansible.module_utils.urls import open_url

from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, lever_said
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import replication_out
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed

PROBE_TIMEOUT = 10  # seconds an HTTP probe waits for its answer: a probe that waits longer fails
TIMELINE_KEPT = 200  # the newest looks of the probes a run's record keeps
TAG = "tag:"  # a blast radius's entry that takes in the machines of a tag
CLEANUP_PHASE = "the cleanup"  # the phase of a lever seen as the run cleans up: after its checks, whose verdict stands


def watched(probes):
    """The probes the engine looks at itself (a tasks probe is the game day's, before the run)."""
    return [probe for probe in probes if probe["kind"] != "tasks"]


def new_watch(probes):
    """The record's stop conditions: the probes, the failures in a row of each, a timeline of their looks, the one that
    stopped the run (None while none did), and when the safety lever was last read (epoch seconds)."""
    return dict(probes=probes, failures_in_a_row=dict((probe["name"], 0) for probe in probes), looks=0, timeline=[], stopped_by=None,
                lever_read=None)


def look_at_url(probe):
    """Whether the URL answers one of the probe's statuses, and what it answered."""
    try:
        answer = open_url(probe["url"], method="GET", timeout=PROBE_TIMEOUT, validate_certs=True, follow_redirects="safe")
        status = answer.getcode()
    except HTTPError as error:
        status = error.code
    except Exception as error:  # pylint: disable=broad-exception-caught  # a probe that cannot run counts as failing
        return False, "could not be reached: %s" % error
    return status in probe["status"], "answered %s" % status


def look_at_health(probe, machines):
    """Whether every machine replicates within the probe's thresholds, and which do not (service_machine_info's view)."""
    health = probe["health"]
    outs = [(machine, replication_out(machine, health["states"], health["max_lag"])) for machine in machines]
    off = ["%s %s" % (machine["name"], machine["replication_state"]) for machine, out in outs if out["state"]]
    off += ["%s %s" % (machine["name"], "has no consistent point in time yet" if machine.get("lag_seconds") is None else
                       "lags %d s" % machine["lag_seconds"]) for machine, out in outs if out["lag"] and not out["state"]]
    return not off, "every machine within it" if not off else "; ".join(off[:5]) + (" and %d more" % (len(off) - 5) if len(off) > 5 else "")


def note(watch, probe, passed, said, at):
    """One look at a probe, in the record's watch: answers the probe's stop (a dict) when this look is its after_failures-th
    failure in a row, else None."""
    failures = watch["failures_in_a_row"]
    failures[probe["name"]] = 0 if passed else failures.get(probe["name"], 0) + 1
    watch["timeline"] = (watch["timeline"] + [dict(at=at, probe=probe["name"], passed=passed, said=said)])[-TIMELINE_KEPT:]
    if failures[probe["name"]] >= probe["after_failures"] and watch["stopped_by"] is None:
        watch["stopped_by"] = dict(probe=probe["name"], at=at, failures=failures[probe["name"]], said=said)
        return watch["stopped_by"]
    return None


def stop_said(stop):
    """A stop condition's stop in words."""
    return "the stop condition %s failed %d times in a row (%s, at %s)" % (stop["probe"], stop["failures"], stop["said"], stop["at"])


def look_at_stops(step, project):
    """One look at each of the run's probes (a step of plugin_utils._step, whose record keeps them), noted in the record;
    the project's machines are read once for every health probe. Answers the stop when a probe failed its after_failures-th
    time in a row now, or stopped the run before; else None."""
    watch = step.record.get("stop_when") or {}
    if not watch.get("probes") or watch.get("stopped_by"):
        return watch.get("stopped_by")
    machines = None
    watch["looks"] += 1
    for probe in watch["probes"]:
        if probe["kind"] == "url":
            passed, said = look_at_url(probe)
        else:
            if machines is None:
                try:
                    machines = step.machines(project=project)["machines"]
                except StepFailed as failure:
                    machines = "the machines could not be read: %s" % failure
            passed, said = look_at_health(probe, machines) if isinstance(machines, list) else (False, machines)
        stop = note(watch, probe, passed, said, controller_now())
        if stop:
            return stop
    return None


def look_at_lever(step, phase, stops=True, fresh=False):
    """One look at the project's safety lever for a rehearsal, in ``phase`` (the launch of wave 1, the checks of wave 1, the
    cleanup): seen engaged, it is the run's from then on - who pulled it, when and why, the phase and the moment of the look
    that saw it - and obeyed when it ``stops`` the run there. Answers the lever as the run keeps it, or None. A lever the
    run has seen is not read again; a run that is no rehearsal, or under --check, does not look. With ``fresh``, a lever
    read within the progress interval is not read again: what that read said stands (the run watches at that pace)."""
    record = step.record
    if (record.get("lever") or {}).get("seen"):
        return record["lever"]
    if step.check_mode or not record.rehearses or not record.get("project_id"):
        return None
    if fresh and time.time() - (record["stop_when"].get("lever_read") or 0) < record.settings["progress_interval"]:
        return None
    lever = read_lever(step)
    if lever["state"] != ENGAGED:
        return None
    record["lever"] = dict(lever, obeyed=stops, seen=controller_now(), phase=phase)
    return record["lever"]


def read_lever(step):
    """The run's project's safety lever as the service has it now - the one read of it a run makes, as it begins, before a
    launch, at a look at a wave or at its cleanup - noted with its moment, so that the looks after it keep the run's pace."""
    lever = step.service("service_safety_lever", project=step.record["project_id"])["lever"]
    step.record["stop_when"]["lever_read"] = time.time()
    return lever


def lever_seen_said(lever):
    """The lever a run saw, as its outcome line and its stop say it: who engaged it, when and why, and in which phase."""
    when = "after the checks" if lever.get("phase") == CLEANUP_PHASE else "during %s" % lever.get("phase") if lever.get("phase") else "as it began"
    return "Lever engaged at %s by %s: %s, %s (seen %s)" % (
        lever.get("at") or "?", lever.get("by") or "?", lever.get("reason") or "no reason given", when, lever.get("seen") or "?")


def lever_stop_said(lever, project):
    """The lever a run stopped for, as its failure says it."""
    return "%s (seen %s, during %s)" % (lever_said(lever, project), lever["seen"], lever["phase"])


def outside_the_blast_radius(machines, radius):
    """The names of the machines (service_machine_info's view) that none of the blast radius's entries takes in: a name, a
    glob pattern, or tag:<tag>. None when the run has no blast radius."""
    if not radius:
        return []
    names = [entry for entry in radius if not entry.startswith(TAG)]
    tags = set(entry[len(TAG):] for entry in radius if entry.startswith(TAG))
    return [machine["name"] for machine in machines
            if not any(fnmatchcase(machine["name"], name) for name in names) and not tags & set(machine.get("tags") or [])]
