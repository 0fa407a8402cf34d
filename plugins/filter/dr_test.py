# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Judgements of the dr_test role, in Python rather than Jinja, so that they are unit-tested:
which machines take part, the health gate, what an earlier run left behind, what the service
shows of the launched machines, the hosts they become, and the report.

The role's phases record what happened in one fact (the *record*); ``dr_test_report`` turns it
into the report, whose schema is documented in the role's README and in
``roles/dr_test/files/report.schema.json``.

Times: the RPO is the launch request minus the point in time, both on the service's clock. A
machine's RTO is the time from the launch request to the moment the service first showed its
target machine running (its *up* moment, see ``dr_test_service_view``), plus the time its own
checks took, measured on the controller for that machine alone. So it does not depend on how
many machines there are, in which order they are checked, or on forks.
"""

from datetime import datetime, timezone

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.inputs import as_list
from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica, name_of

REPORT_SCHEMA = "replication.recovery.dr_test/v1"
PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"
WORST_SHOWN = 5

# The launch kind of the target machines a launch type makes (a debug launch makes test machines),
# the jobs that launch that kind, and the job a DR test starts itself (a launch or a plan run).
KIND = {"test": "test", "debug": "test", "recovery": "recovery", "cutover": "cutover"}
LAUNCHING = {"test": ("TEST_LAUNCH", "RECOVERY_PLAN_TEST"), "recovery": ("RECOVERY_LAUNCH", "RECOVERY_PLAN_RECOVERY"),
             "cutover": ("CUTOVER_LAUNCH", "RECOVERY_PLAN_CUTOVER")}
LIFE_CYCLE_MEMBER = {"test": "lastTestLaunchDateTime", "recovery": "lastRecoveryLaunchDateTime", "cutover": "lastCutoverDateTime"}
CLEANUPS = ("CLEANUP", "RECOVERY_PLAN_CLEANUP")
ACTIVE = ("PENDING", "STARTED")


# -- preflight ----------------------------------------------------------------------------------


def health_gate(machines, max_lag=None, no_backlog=False, states=("continuous",)):
    """For each machine of service_machine_info, whether it may take part in a DR test, and why not."""
    if not isinstance(machines, list):
        raise AnsibleFilterError("health_gate expects the list of machines of service_machine_info, not %s." % type(machines).__name__)
    max_lag = _number(max_lag)
    states = as_list(states)
    verdicts = []
    for machine in machines:
        reasons = []
        state, lag, backlog = machine.get("replication_state"), machine.get("lag_seconds"), machine.get("backlog_bytes") or 0
        if states and state not in states:
            reasons.append("replication is %s, not %s" % (state, " or ".join(states)))
        if max_lag is not None and lag is None:
            reasons.append("no consistent point in time yet")
        elif max_lag is not None and lag > max_lag:
            reasons.append("lag %d s is over %d s" % (lag, max_lag))
        if _flag(no_backlog) and backlog > 0:
            reasons.append("backlog of %d bytes" % backlog)
        verdicts.append(dict(name=machine.get("name"), id=machine.get("id"), replication_state=state, lag_seconds=lag,
                             backlog_bytes=backlog, passed=not reasons, reasons=reasons))
    return verdicts


def dr_test_selection(machines, exclude=None, named=False):
    """Which of the machines read in preflight take part in the test.

    Left out: those ``exclude`` names (by name or ID) and, unless the machines were named (by
    ``dr_test_machines`` or a recovery plan), those whose replication is stopped, as
    service_launch leaves them out. ``unknown`` lists the exclusions that match no machine.
    """
    excluded = as_list(exclude)
    known = set(machine["id"] for machine in machines) | set(machine.get("name") for machine in machines)
    left_out = [machine for machine in machines if machine.get("name") in excluded or machine["id"] in excluded
                or (not _flag(named) and machine.get("replicationStatus") == "STOPPED")]
    return dict(machines=[machine for machine in machines if machine not in left_out],
                excluded=[machine.get("name") for machine in left_out],
                unknown=[value for value in excluded if value not in known])


def dr_test_earlier_run(machines, jobs, username, launch_type="test", plan=False):
    """What an earlier run of this DR test started and left: a job that still runs, target machines.

    ``machines`` are those the test is for (as service_machine_info read them, before any are
    left out), ``jobs`` the project's newest jobs (service_job_info), ``username`` who runs the
    test. A job is the earlier run's when this user started it, it is the kind of job the test
    starts (a launch of this type, or a run of a recovery plan in this mode; or the cleanup of
    either) and all its machines are among the test's. Each target machine of the test's kind
    is traced to the job that launched it: the newest launching job of that kind that has the
    machine and began before it was launched. Target machines launched by anything else are
    someone else's: the test never touches them on its own.
    """
    kind = KIND.get(launch_type)
    if kind is None:
        raise AnsibleFilterError("launch_type must be one of %s, not %r." % (", ".join(sorted(KIND)), launch_type))
    own_type = LAUNCHING[kind][1 if _flag(plan) else 0]
    ids = set(machine["id"] for machine in machines)

    def started_by_the_test(job, types):
        return (job.get("initiatedBy") == username and job.get("type") in types
                and bool(job.get("participatingMachines")) and set(job["participatingMachines"]) <= ids)

    newest = jobs[0] if jobs else None
    running = None
    if newest is not None and newest.get("status") in ACTIVE:
        running = dict(newest, earlier_run=started_by_the_test(newest, (own_type,) + CLEANUPS))

    launching = [job for job in jobs if job.get("type") in LAUNCHING[kind]]  # newest first, as the service lists them
    leftovers = []
    for machine in machines:
        if not machine.get("replica") or launch_type_of_replica(machine) != kind:
            continue
        launched_at = parse_time(machine["lifeCycle"][LIFE_CYCLE_MEMBER[kind]])
        job = next((job for job in launching if machine["id"] in job.get("participatingMachines", [])
                    and parse_time(job["creationDateTime"]) <= launched_at), None)
        leftovers.append(dict(name=name_of(machine), id=machine["id"], replica=machine["replica"], job=(job or {}).get("id"),
                              earlier_run=job is not None and started_by_the_test(job, (own_type,))))
    return dict(running=running, leftovers=leftovers)


# -- the launched machines ----------------------------------------------------------------------


def dr_test_service_view(entries, view=None, job=None, seen_at=None):
    """What the service shows of each launched machine: whether its target machine runs, its
    addresses, and its *up* moment - when the service first showed it running.

    ``entries`` are the ``launched`` of service_launch (or the machines of service_recovery_plan_run's
    steps), or the machines of service_machine_info with ``include_target_machine``. On the first look
    (``job`` given, the launch job) a running target machine is up since the service created it
    (its ``cloudEndureCreationDateTime``; the job's end if the service does not say). On a later
    look (``seen_at``, that look's service time) a machine that runs for the first time is up
    since then. Machines already up are left as they are.
    """
    view = dict(view or {})
    for entry in entries:
        name = entry.get("machine_name") or entry.get("name")
        target = entry.get("target_machine") or {}
        if view.get(name, {}).get("running"):
            continue
        running = target.get("machineCloudState") == "running"
        if not running:
            up = None
        elif seen_at is not None:
            up = seen_at
        else:
            up = target.get("cloudEndureCreationDateTime") or (job or {}).get("endDateTime")
        view[name] = dict(id=entry.get("machine_id") or entry.get("id"), running=running, up=up, state=target.get("machineCloudState"),
                          cloud_id=target.get("machineCloudId"),
                          target_id=target.get("id"), public_ips=target.get("publicIps") or [])
    return view


def dr_test_hosts(record, prefix="dr-test-", group="dr_test_machines", checks=None, checks_name="checks", run_host="localhost",
                  launch_type="test"):
    """The inventory hosts of the machines a run launched, as ``add_host`` takes them.

    A host is named ``<prefix><project>/<machine>``: machine names have no ``/``, so hosts of
    several projects never collide. Machines that run, as the service sees them, also join
    ``<group>_to_check`` when the run has checks of the user's (``checks``, a tasks file), for
    the play that runs them; they carry the run's check settings with them.
    """
    view = record.get("service_view") or {}
    targets = dict((entry["machine_name"], entry.get("target_machine")) for entry in (record.get("launch") or {}).get("launched") or [])
    hosts = []
    for name, seen in view.items():
        to_check = bool(checks) and seen["running"]
        host = dict(name="%s%s/%s" % (prefix, record["project"], name),
                    groups=[group] + (["%s_to_check" % group] if to_check else []),
                    dr_test_project=record["project"], dr_test_run_host=run_host, dr_test_source_name=name,
                    dr_test_source_id=seen.get("id"), dr_test_public_ips=seen["public_ips"], dr_test_target=targets.get(name, {}),
                    dr_test_target_id=seen["target_id"], dr_test_cloud_id=seen["cloud_id"], dr_test_launch_type=launch_type)
        if to_check:
            host.update(dr_test_checks_tasks=checks, dr_test_checks_name=checks_name)
        if seen["public_ips"]:
            host["ansible_host"] = seen["public_ips"][0]
        hosts.append(host)
    return hosts


def dr_test_checked(hostvars, hosts, own=None):
    """The results of the user's checks of a run's machines: ``own`` (checked on the run's host)
    and those the launched hosts recorded in a play of their own."""
    checked = dict(own or {})
    for host in hosts:
        name = host["name"] if isinstance(host, dict) else host
        try:
            found = hostvars[name].get("dr_test_checked") if name in hostvars else None
        except KeyError:
            found = None
        if found:
            checked.update(found)
    return checked


# -- the report ---------------------------------------------------------------------------------


def _flag(value):
    return value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes", "on", "y")


def _seconds(start, end):
    if not start or not end:
        return None
    return round(parse_time(end) - parse_time(start), 3)


def _plus(moment, seconds):
    if moment is None or not seconds:
        return moment
    return datetime.fromtimestamp(parse_time(moment) + seconds, timezone.utc).isoformat()


def _number(value):
    """A number from role variables, which may be text (extra variables, older ansible-core's None as '' or 'None')."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "None")):
        return None
    try:
        return float(value) if "." in str(value) else int(value)
    except ValueError:
        raise AnsibleFilterError("A target must be a number of seconds, not %r." % (value,))


def _check(name, status, message="", seconds=None):
    check = dict(name=name, status=status, message=message)
    if seconds is not None:
        check["seconds"] = seconds
    return check


def _against(name, measured, target, unmeasured):
    """A measure compared with its target: missing a target fails; no target only reports."""
    if measured is None:
        return _check(name, SKIPPED, unmeasured)
    if target is None:
        return _check(name, PASSED, "%s s (no target)" % measured, measured)
    if measured > target:
        return _check(name, FAILED, "%s s is over the target of %s s" % (measured, target), measured)
    return _check(name, PASSED, "%s s, within the target of %s s" % (measured, target), measured)


def _launch_check(name, entry, launch):
    if entry is not None:
        return _check("launch", PASSED, "target machine %s" % entry.get("target_machine", {}).get("machineCloudId", ""))
    if name in (launch.get("failed_machines") or []):
        # The machine's last line in the job's log says why.
        lines = [line["message"] for line in (launch.get("job") or {}).get("log") or [] if line["message"].startswith(name + ":")]
        return _check("launch", FAILED, lines[-1] if lines else launch.get("message") or "nothing was launched")
    return _check("launch", SKIPPED, "not launched")


def _service_checks(name, seen, settings):
    """The built-in checks, from what the service shows: running, and a public address."""
    if not seen.get("running"):
        return [_check("running", FAILED, "%s is %s, not running, after %s s" % (
            seen.get("cloud_id") or "the target machine", seen.get("state") or "not there", settings.get("boot_timeout", "?")))]
    checks = [_check("running", PASSED, "%s is running" % seen.get("cloud_id"))]
    if _flag(settings.get("check_public_ip", True)):
        addresses = seen.get("public_ips") or []
        checks.append(_check("public address", PASSED if addresses else FAILED,
                             ", ".join(addresses) if addresses else "%s has no public IP address" % seen.get("cloud_id")))
    return checks


def _own_check(name, result, settings):
    """The user's checks of one machine, and how long they took (None unless they passed)."""
    label = settings.get("checks_name") or "checks"
    if result is None:
        return _check(label, FAILED, "did not run"), None
    seconds = _seconds(result.get("began"), result.get("ended"))
    if result.get("passed") is True:
        return _check(label, PASSED, result.get("message") or "passed", seconds), seconds
    if result.get("passed") is False:
        return _check(label, FAILED, result.get("message") or "failed"), None
    return _check(label, FAILED, "started and did not finish (the host failed or was unreachable)"), None


def _machine_report(name, record, requested):
    health = dict((entry["name"], entry) for entry in record.get("health") or [])
    launch = record.get("launch") or {}
    launched = dict((entry["machine_name"], entry) for entry in launch.get("launched") or [])
    settings = record.get("settings") or {}
    targets = record.get("targets") or {}
    cleanup = record.get("cleanup") or {}

    checks = []
    gate = health.get(name)
    if gate is None:
        checks.append(_check("health gate", SKIPPED, "not gated"))
    else:
        checks.append(_check("health gate", PASSED if gate["passed"] else FAILED, "; ".join(gate["reasons"]) or gate["replication_state"]))
    entry = launched.get(name)
    checks.append(_launch_check(name, entry, launch))

    seen = (record.get("service_view") or {}).get(name) if entry else None
    up, own_seconds, unmeasured = None, 0, "not launched"
    if seen is not None:
        checks.extend(_service_checks(name, seen, settings))
        up, unmeasured = seen.get("up"), "not running"
        if seen.get("running") and settings.get("checks_tasks"):
            own, own_seconds = _own_check(name, (record.get("checked") or {}).get(name), settings)
            checks.append(own)
            unmeasured = "its checks did not pass"
    elif entry is not None:
        unmeasured = "its checks did not run"

    point_time = entry.get("point_in_time_date_time") if entry else None
    rpo = _seconds(point_time, requested) if entry else None
    rto = _seconds(requested, up)
    rto = round(rto + own_seconds, 3) if rto is not None and own_seconds is not None else None
    checks.append(_against("RPO", rpo, _number(targets.get("rpo_seconds")), "not launched"))
    checks.append(_against("RTO", rto, _number(targets.get("rto_seconds")), unmeasured))

    replica = (entry or {}).get("target_machine") or {}
    if name in (cleanup.get("kept") or []):
        left = "kept"
    elif name in (cleanup.get("removed_machines") or []):
        left = "removed"
    elif cleanup.get("status") == PASSED or (entry is None and cleanup.get("status") != FAILED):
        left = "nothing to remove"
    else:
        left = "not cleaned up"
    return dict(
        name=name,
        id=(gate or {}).get("id") or (entry or {}).get("machine_id"),
        # Passed: launched, checked (its RTO ended) and nothing failed.
        passed=rto is not None and all(check["status"] != FAILED for check in checks),
        target=dict(id=replica.get("id"), cloud_id=replica.get("machineCloudId"), state=(seen or {}).get("state") or replica.get("machineCloudState"),
                    public_ips=(seen or {}).get("public_ips") or replica.get("publicIps") or []) if entry else None,
        point_in_time=dict(id=replica.get("pointInTime"), date_time=point_time) if entry else None,
        rpo_seconds=rpo,
        rto_seconds=rto,
        recovered=_plus(up, own_seconds) if rto is not None else None,
        cleanup=left,
        checks=checks,
    )


def _worst(values):
    values = [value for value in values if value is not None]
    return max(values) if values else None


def _run_checks(record, job, job_seconds):
    checks = []
    failure = record.get("failure")
    if failure:
        checks.append(_check(failure["phase"], FAILED, failure["message"]))
    resumed = record.get("resumed")
    if resumed:
        checks.append(_check("earlier run", PASSED, resumed.get("message", "")))
    if job:
        took = "" if job_seconds is None else " after %s s" % job_seconds
        checks.append(_check("launch job", PASSED if job.get("status") == "COMPLETED" else FAILED,
                             "%s %s %s%s" % (job.get("type"), job.get("id"), job.get("status"), took), job_seconds))
    cleanup = record.get("cleanup") or {}
    if cleanup:
        checks.append(_check("cleanup", cleanup.get("status", SKIPPED), cleanup.get("message", "")))
    return checks


def dr_test_report(record):
    """The report of a DR test from the record its phases kept (see the role's README)."""
    if not isinstance(record, dict) or not record.get("project"):
        raise AnsibleFilterError("dr_test_report expects the record of a DR test (dr_test_record), with at least its project.")
    launch = record.get("launch") or {}
    job = launch.get("job") or {}
    requested = job.get("creationDateTime")
    machines = [_machine_report(name, record, requested) for name in record.get("machines") or []]
    job_seconds = _seconds(requested, job.get("endDateTime"))
    run_checks = _run_checks(record, job, job_seconds)

    failures = ["%s: %s" % (check["name"], check["message"]) for check in run_checks if check["status"] == FAILED]
    failures.extend("%s: %s: %s" % (machine["name"], check["name"], check["message"])
                    for machine in machines for check in machine["checks"] if check["status"] == FAILED)
    if not machines and not failures:
        failures.append("no machine took part in the test")
    targets = record.get("targets") or {}
    cleanup = record.get("cleanup") or {}
    return dict(
        schema=REPORT_SCHEMA,
        project=record["project"],
        launch_type=record.get("launch_type"),
        point_in_time=record.get("point_in_time"),
        recovery_plan=record.get("recovery_plan"),
        started=record.get("started"),
        launch_requested=requested,
        result=FAILED if failures else PASSED,
        failures=failures,
        counts=dict(machines=len(machines), passed=sum(1 for m in machines if m["passed"]),
                    failed=sum(1 for m in machines if not m["passed"]),
                    launched=sum(1 for m in machines if m["target"] is not None)),
        targets=dict(rpo_seconds=_number(targets.get("rpo_seconds")), rto_seconds=_number(targets.get("rto_seconds"))),
        measures=dict(rpo_seconds=_worst(m["rpo_seconds"] for m in machines), rto_seconds=_worst(m["rto_seconds"] for m in machines),
                      launch_job_seconds=job_seconds),
        excluded=record.get("excluded") or [],
        kept=cleanup.get("kept") or [],
        job=dict(id=job.get("id"), type=job.get("type"), status=job.get("status"), created=job.get("creationDateTime"),
                 ended=job.get("endDateTime")) if job else None,
        checks=run_checks,
        machines=machines,
    )


def dr_test_failure_message(report, path=None):
    """A failed test in a few lines: what failed for the run, how many machines failed and the
    worst five of them with their failed checks, and the report's path (the details are there).

    Worst first: machines that failed more checks, then the longer RTO.
    """
    lines = ["%s: %s" % (check["name"], check["message"]) for check in report.get("checks", []) if check["status"] == FAILED]
    failed = [machine for machine in report.get("machines", []) if any(check["status"] == FAILED for check in machine["checks"])]
    if failed:
        failed.sort(key=lambda m: (-sum(1 for c in m["checks"] if c["status"] == FAILED), -(m["rto_seconds"] or 0), m["name"]))
        shown = ["%s (%s)" % (machine["name"], "; ".join(
            "%s: %s" % (check["name"], check["message"]) for check in machine["checks"] if check["status"] == FAILED)[:200])
            for machine in failed[:WORST_SHOWN]]
        more = len(failed) - len(shown)
        lines.append("%d of %d machines failed%s: %s%s" % (
            len(failed), len(report["machines"]), ", the worst" if more > 0 else "", ", ".join(shown),
            " and %d more" % more if more > 0 else ""))
    if not lines:
        lines.extend(report.get("failures", [])[:WORST_SHOWN])
    message = "The DR test of %s failed. %s." % (report.get("project"), ". ".join(line.rstrip(".") for line in lines))
    return message + (" Report: %s" % path if path else "")


def _record_read(record, view):
    return dict(record, project_id=view["project"]["id"])


def _record_preflight(record, view, selected, gate):
    return dict(record, started=view["service_time"], machines=[machine["name"] for machine in selected["machines"]],
                excluded=selected["excluded"], health=health_gate(selected["machines"], **gate))


def _record_resumed(record, cleaned, check_mode=False):
    removed = cleaned["removed_machines"]
    return dict(record, resumed=dict(job=(cleaned.get("job") or {}).get("id"), removed_machines=removed, message="%s the target machines an "
                                     "earlier run left, of %s" % ("would clean up" if check_mode else "cleaned up", _truncated(removed))))


def _record_launch(record):
    return dict(record, launch=dict(attempted=record["machines"]))


def _record_started(record, started):
    if started.get("job") is not None:
        return dict(record, launch=dict(record.get("launch") or {}, job=started["job"]))
    return dict(record, predicted=dict(would_launch=started.get("would_launch") or record["machines"]))


def _record_launched(record, outcome, followed, plan=False):
    """What the launch did: service_launch's ``launched``, or the machines of service_recovery_plan_run's steps."""
    launched = [entry for step in outcome.get("steps") or [] for entry in step["machines"]] if _flag(plan) else outcome.get("launched") or []
    return dict(record, launch=dict(record.get("launch") or {}, job=outcome.get("job") or followed, launched=launched,
                                    failed_machines=outcome.get("failed_machines") or [], message=outcome.get("msg") or ""))


def _record_looked(record, machines=None, seen_at=None):
    """What the service shows of the launched machines: first from the launch, then from later looks."""
    if machines is None:
        return dict(record, service_view=dr_test_service_view(record["launch"]["launched"], job=record["launch"]["job"]))
    return dict(record, service_view=dr_test_service_view(machines, view=record["service_view"], seen_at=seen_at))


def _record_checked(record, hostvars, hosts, own=None):
    return dict(record, checked=dr_test_checked(hostvars, hosts, own=own))


def _record_cleanup(record, status, removed=None, kept=None, message=None):
    """The cleanup: passed (``removed``, the machines whose target machines were terminated), skipped (``kept`` on
    failure, or with a ``message``) or failed (with the error's ``message``)."""
    if removed is not None:
        message = "terminated %d target machines%s" % (len(removed), ": " + _truncated(removed) if removed else "")
        return dict(record, cleanup=dict(status=status, removed_machines=removed, message=message))
    if kept is not None:
        return dict(record, cleanup=dict(status=status, kept=kept, message="kept on failure: " + ", ".join(kept)))
    return dict(record, cleanup=dict(status=status, message=message))


def _record_failure(record, phase, task, message):
    return dict(record, failure=dict(phase=phase, task=task, message=message))


def _truncated(names, length=300):
    text = ", ".join(names)
    return text if len(text) <= length else text[:length - 3] + "..."


RECORD_STEPS = dict(read=_record_read, preflight=_record_preflight, resumed=_record_resumed, launch=_record_launch, started=_record_started,
                    launched=_record_launched, looked=_record_looked, checked=_record_checked, cleanup=_record_cleanup, failure=_record_failure)


def dr_test_recorded(record, step, **results):
    """The run record after a step of the DR test, from the results of that step's tasks: the one
    place that says what the record holds (each step is a function above, named ``_record_<step>``).
    The report is computed from the record by ``dr_test_report``."""
    if step not in RECORD_STEPS:
        raise AnsibleFilterError("dr_test_recorded: step must be one of %s, not %r." % (", ".join(sorted(RECORD_STEPS)), step))
    try:
        return RECORD_STEPS[step](dict(record), **results)
    except TypeError as error:
        raise AnsibleFilterError("dr_test_recorded(%r): %s" % (step, error))


class FilterModule(object):
    def filters(self):
        return {
            "health_gate": health_gate,
            "dr_test_selection": dr_test_selection,
            "dr_test_earlier_run": dr_test_earlier_run,
            "dr_test_service_view": dr_test_service_view,
            "dr_test_hosts": dr_test_hosts,
            "dr_test_checked": dr_test_checked,
            "dr_test_report": dr_test_report,
            "dr_test_failure_message": dr_test_failure_message,
            "dr_test_recorded": dr_test_recorded,
        }
