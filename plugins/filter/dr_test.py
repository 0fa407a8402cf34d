# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Judgements of the dr_test role, in Python rather than Jinja: the health gate and the report.

The role's phases record what happened in one fact (the *record*); ``dr_test_report`` turns it
into the report, whose schema is documented in the role's README and in
``roles/dr_test/files/report.schema.json``. Every time is the service's: the RPO, the RTO and
the job's duration are differences of date-times the service gave.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.module_utils.machines import parse_time

REPORT_SCHEMA = "replication.recovery.dr_test/v1"
PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"


def health_gate(machines, max_lag=None, no_backlog=False, states=("continuous",)):
    """For each machine of service_machine_info, whether it may take part in a DR test, and why not."""
    if not isinstance(machines, list):
        raise AnsibleFilterError("health_gate expects the list of machines of service_machine_info, not %s." % type(machines).__name__)
    max_lag = _number(max_lag)
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
        if no_backlog and backlog > 0:
            reasons.append("backlog of %d bytes" % backlog)
        verdicts.append(dict(name=machine.get("name"), id=machine.get("id"), replication_state=state, lag_seconds=lag,
                             backlog_bytes=backlog, passed=not reasons, reasons=reasons))
    return verdicts


def _seconds(start, end):
    if not start or not end:
        return None
    return round(parse_time(end) - parse_time(start), 3)


def _number(value):
    """A number from role variables, which may be text (extra variables, older ansible-core's None as '' or 'None')."""
    if value in (None, "", "None"):
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


def _machine_report(name, record, requested):
    health = dict((entry["name"], entry) for entry in record.get("health") or [])
    launch = record.get("launch") or {}
    launched = dict((entry["machine_name"], entry) for entry in launch.get("launched") or [])
    failed_to_launch = launch.get("failed_machines") or []
    job_log = (launch.get("job") or {}).get("log") or []
    targets = record.get("targets") or {}
    cleanup = record.get("cleanup") or {}

    checks = []
    gate = health.get(name)
    if gate is None:
        checks.append(_check("health gate", SKIPPED, "not gated"))
    else:
        checks.append(_check("health gate", PASSED if gate["passed"] else FAILED, "; ".join(gate["reasons"]) or gate["replication_state"]))

    entry = launched.get(name)
    if entry is not None:
        checks.append(_check("launch", PASSED, "target machine %s" % entry.get("replica", {}).get("machineCloudId", "")))
    elif name in failed_to_launch:
        # The machine's last line in the job's log says why.
        lines = [line["message"] for line in job_log if line["message"].startswith(name + ":")]
        checks.append(_check("launch", FAILED, lines[-1] if lines else launch.get("message") or "nothing was launched"))
    else:
        checks.append(_check("launch", SKIPPED, "not launched"))

    checks.extend(_check(check["name"], PASSED if check["passed"] else FAILED, check.get("message", ""))
                  for check in record.get("checks") or [] if check.get("machine") == name)

    point_time = entry.get("point_in_time_date_time") if entry else None
    recovered = (record.get("recovered") or {}).get(name)
    rpo = _seconds(point_time, requested) if entry else None
    rto = _seconds(requested, recovered) if entry else None
    checks.append(_against("RPO", rpo, _number(targets.get("rpo_seconds")), "not launched"))
    checks.append(_against("RTO", rto, _number(targets.get("rto_seconds")), "its checks did not pass or did not run" if entry else "not launched"))

    replica = (entry or {}).get("replica") or {}
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
        target=dict(id=replica.get("id"), cloud_id=replica.get("machineCloudId"), state=replica.get("machineCloudState"),
                    public_ips=replica.get("publicIps") or []) if entry else None,
        point_in_time=dict(id=replica.get("pointInTime"), date_time=point_time) if entry else None,
        rpo_seconds=rpo,
        rto_seconds=rto,
        recovered=recovered,
        cleanup=left,
        checks=checks,
    )


def _worst(values):
    values = [value for value in values if value is not None]
    return max(values) if values else None


def dr_test_report(record):
    """The report of a DR test from the record its phases kept (see the role's README)."""
    if not isinstance(record, dict) or not record.get("project"):
        raise AnsibleFilterError("dr_test_report expects the record of a DR test (dr_test_record), with at least its project.")
    launch = record.get("launch") or {}
    job = launch.get("job") or {}
    requested = job.get("creationDateTime")
    machines = [_machine_report(name, record, requested) for name in record.get("machines") or []]

    run_checks = []
    failure = record.get("failure")
    if failure:
        run_checks.append(_check(failure["phase"], FAILED, failure["message"]))
    job_seconds = _seconds(requested, job.get("endDateTime"))
    if job:
        took = "" if job_seconds is None else " after %s s" % job_seconds
        run_checks.append(_check("launch job", PASSED if job.get("status") == "COMPLETED" else FAILED,
                                 "%s %s %s%s" % (job.get("type"), job.get("id"), job.get("status"), took), job_seconds))
    cleanup = record.get("cleanup") or {}
    if cleanup:
        run_checks.append(_check("cleanup", cleanup.get("status", SKIPPED), cleanup.get("message", "")))

    failures = ["%s: %s" % (check["name"], check["message"]) for check in run_checks if check["status"] == FAILED]
    failures.extend("%s: %s: %s" % (machine["name"], check["name"], check["message"])
                    for machine in machines for check in machine["checks"] if check["status"] == FAILED)
    if not machines and not failures:
        failures.append("no machine took part in the test")
    targets = record.get("targets") or {}
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


class FilterModule(object):
    def filters(self):
        return {"health_gate": health_gate, "dr_test_report": dr_test_report}
