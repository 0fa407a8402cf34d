# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The health of machines, judged: whether each may take part in a runbook (the health gate), and
the fleet's health - for every machine of every project, its replication against the states, lag
and backlog allowed, and how long ago it was last DR-tested. The role replication.recovery.health
writes the fleet's report; its schema is in that role's README and in
roles/health/files/report.schema.json."""

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_flag, parse_list, parse_number, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import last_tested
from ansible_collections.replication.recovery.plugins.plugin_utils import _judgement, _proof
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import FAILED, PASSED, check_of
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME

REPORT_SCHEMA = BY_NAME["health"].schema
DAY = 86400


def health_gate(machines, max_lag=None, no_backlog=False, states=("continuous",)):
    """For each machine of service_machine_info, whether it may take part in a runbook, and why not."""
    try:
        return _judgement.health_gate(machines, max_lag=max_lag, no_backlog=no_backlog, states=states)
    except ValueError as error:
        raise AnsibleFilterError("health_gate: %s." % error)


def _check(name, passed, message):
    return check_of(name, PASSED if passed else FAILED, message)


def _machine(machine, now, states, max_lag, max_backlog, tested_within, proof, require_proven):
    state, lag, backlog = machine.get("replication_state"), machine.get("lag_seconds"), machine.get("backlog_bytes") or 0
    out = _judgement.replication_out(machine, states, max_lag, max_backlog)
    checks = [_check("replication", not out["state"], "%s%s" % (state, ", not " + " or ".join(states) if out["state"] else ""))]
    if max_lag is not None:
        checks.append(_check("lag", not out["lag"], "no consistent point in time yet" if lag is None else "%d s (at most %d s)" % (lag, max_lag)))
    if max_backlog is not None:
        checks.append(_check("backlog", not out["backlog"], "%d bytes (at most %d)" % (backlog, max_backlog)))
    tested = last_tested(machine)
    days = None if tested is None else round((now - parse_time(tested)) / DAY, 1)
    if tested_within is not None:
        checks.append(_check("DR tested", days is not None and days <= tested_within,
                             "never" if days is None else "%s days ago, on %s (within %s days)" % (days, tested, tested_within)))
    if proof and require_proven:
        checks.append(_check("proven", proof["status"] == _proof.PROVEN, _proof.said(proof)))
    return dict(name=machine.get("name"), id=machine.get("id"), replication_state=state, lag_seconds=lag, backlog_bytes=backlog,
                last_tested=tested, tested_days_ago=days, passed=all(check["status"] == PASSED for check in checks), checks=checks,
                proof=dict(status=proof["status"], proven=proof["proven"], changes=proof["changes"]) if proof else None)


def _backups(project, machines, now, evidence, within_days):
    """A backup project's last backup (its machines' newest consistent moment: no read of its own) and last verified restore
    (the ledger's newest passing restore test), and a failure when it was not verified within ``within_days``."""
    backed_up = [parse_time(machine["replicationInfo"]["lastConsistencyDateTime"]) for machine in machines
                 if (machine.get("replicationInfo") or {}).get("lastConsistencyDateTime")]
    verified = (evidence or {}).get("last_verified")
    days = int((now - parse_time(verified["time"])) // DAY) if verified and verified.get("time") else None
    backup = dict(last_backed_up=iso_time(max(backed_up)) if backed_up else None, last_verified=verified and verified.get("time"),
                  verified_days_ago=days)
    failure = None
    if within_days is not None and (days is None or days > within_days):
        failure = "%s: backups: %s, not within %s days (restore_test)" % (
            project["name"], "a restore was never verified" if days is None else "restores last verified %d days ago" % days, within_days)
    return backup, failure


def fleet_health(projects, service_time, states=("continuous",), max_lag=None, max_backlog=None, tested_within_days=None,
                 exclude_stopped=True, rto_forecasts=None, proofs=None, require_proven=False, restore_verified_within_days=None):
    """The health report of a fleet: the C(projects) of service_project_info with C(machines=true). With
    C(rto_forecasts) (the C(projects) of ledger_evidence), each project's RTO forecast, and a failure for each project
    whose forecast misses its RTO target; and each backup project's last verified restore, failing one not verified within
    C(restore_verified_within_days) when it is given. With C(proofs) (the C(projects) of ledger_proof_info), each machine's
    proof: proven, changed since last proven (with the changes) or never proven; a failure when not proven if
    C(require_proven)."""
    if not isinstance(projects, list) or not service_time:
        raise AnsibleFilterError("fleet_health expects the projects of service_project_info with machines=true, and its service_time.")
    try:
        limits = dict(states=parse_list(states, "states") or ["continuous"], max_lag=parse_number(max_lag, "max_lag"),
                      max_backlog=parse_number(max_backlog, "max_backlog"), tested_within=parse_number(tested_within_days, "tested_within_days"),
                      verified_within=parse_number(restore_verified_within_days, "restore_verified_within_days"),
                      stopped_out=parse_flag(exclude_stopped, "exclude_stopped", default=True),
                      require_proven=parse_flag(require_proven, "require_proven"))
    except ValueError as error:
        raise AnsibleFilterError("fleet_health: %s." % error)
    now = parse_time(service_time)
    evidence = dict((project.get("name"), project) for project in rto_forecasts or [] if isinstance(project, dict))
    proven = dict((project.get("id"), dict((machine["id"], machine) for machine in project.get("machines") or []))
                  for project in proofs or [] if isinstance(project, dict))
    report_projects, failures, excluded = [], [], []
    for project in projects:
        forecast = (evidence.get(project["name"]) or {}).get("rto_forecast")
        judged, said = _project(project, now, limits, forecast, evidence.get(project["name"]), proven.get(project["id"], {}), excluded)
        report_projects.append(judged)
        failures.extend(said)
    return dict(
        schema=REPORT_SCHEMA,
        service_time=service_time,
        result=FAILED if failures else PASSED,
        outcome=FAILED if failures else PASSED,  # a word of the runbooks' outcomes (plugin_utils._outcomes)
        failures=failures,
        thresholds=dict(states=list(limits["states"]), max_lag_seconds=limits["max_lag"], max_backlog_bytes=limits["max_backlog"],
                        tested_within_days=limits["tested_within"], require_proven=limits["require_proven"],
                        restore_verified_within_days=limits["verified_within"]),
        proofs_from=(proofs[0].get("source") if proofs and isinstance(proofs[0], dict) else None),
        counts=_counts(report_projects, excluded),
        excluded=excluded,
        projects=report_projects,
    )


def _counts(projects, excluded):
    checked = [machine for project in projects for machine in project["machines"]]
    return dict(projects=len(projects), machines=len(checked), passed=sum(1 for m in checked if m["passed"]),
                failed=sum(1 for m in checked if not m["passed"]), excluded=len(excluded),
                unproven=sum(1 for m in checked if m["proof"] and m["proof"]["status"] != _proof.PROVEN))


def _project(project, now, limits, forecast, evidence, proofs, excluded):
    """One project's health: each machine judged (those whose replication is stopped left out, in ``excluded``, when
    ``limits`` say so), its RTO forecast against its target, a backup project's last verified restore. Answers the project
    as the report has it, and its failures."""
    machines, failures = [], []
    left_out = [limits["stopped_out"] and machine.get("replicationStatus") == "STOPPED" for machine in project.get("machines", [])]
    kept = [machine for machine, out in zip(project.get("machines", []), left_out) if not out]
    excluded.extend("%s/%s" % (project["name"], machine.get("name")) for machine, out in zip(project.get("machines", []), left_out) if out)
    for machine in kept:
        judged = _machine(machine, now, limits["states"], limits["max_lag"], limits["max_backlog"], limits["tested_within"],
                          proofs.get(machine.get("id")), limits["require_proven"])
        machines.append(judged)
        failures.extend("%s/%s: %s: %s" % (project["name"], judged["name"], check["name"], check["message"])
                        for check in judged["checks"] if check["status"] == FAILED)
    missed = bool(forecast) and forecast.get("meets_target") is False
    if missed:
        failures.append("%s: RTO forecast: a full recovery would take %s s (the slowest machine's 90th percentile over its recent "
                        "passing runs in the ledger), over the target of %s s" % (project["name"], forecast["p90_seconds"],
                                                                                  forecast["target_seconds"]))
    backup, unverified = _backups(project, kept, now, evidence, limits["verified_within"]) if project.get("type") == "BACKUP" else (None, None)
    if unverified:
        failures.append(unverified)
    return dict(name=project["name"], id=project["id"], passed=all(m["passed"] for m in machines) and not missed and not unverified,
                machines=machines, rto_forecast=forecast, **(dict(backup=backup) if backup else {})), failures


class FilterModule(object):
    def filters(self):
        return {"health_gate": health_gate, "fleet_health": fleet_health}
