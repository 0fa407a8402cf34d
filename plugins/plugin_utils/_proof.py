# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Whether each machine is proven today: when it last passed a DR test or a failover (the ledger of runs), or,
without a ledger, when it was last test-launched (the service's life cycle: launched, not necessarily passed); and
the writes since then that can change how it recovers (the project's audit log, module_utils._audit).

A run proves a machine as it was when the run asked for its launch: a change after that moment is not proven.
Read by the health role (ledger_proof_info) and by the runbooks' ``machines: unproven`` (the read of runbook_start)."""

import os

from ansible_collections.replication.recovery.plugins.module_utils._audit import PROJECT_WIDE, machine_changes
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._fleet import last_tested
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import verify
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import PROVING

PROVEN = "proven"
CHANGED = "changed since last proven"
NEVER = "never proven"
FROM_LEDGER = "ledger"
FROM_LIFE_CYCLE = "last test launch"
# The word that asks a runbook for the machines not proven (its machines option).
UNPROVEN = "unproven"


def read_ledger(directory):
    """The ledger's entries and breaks (plugin_utils._ledger.verify); a ledger not made yet has neither."""
    return verify(directory) if os.path.isdir(os.path.expanduser(directory)) else ([], [])


def ledger_proofs(entries, project):
    """{machine ID: proof} for the machines of ``project`` (its name and ID) that a passing DR test or failover in the
    ledger's ``entries`` proved: the newest such run's moment (its first launch request, on the service's clock),
    runbook, entry and start."""
    proofs = {}
    for entry in entries:
        report = entry.get("report") or {}
        if entry.get("runbook") not in PROVING or report.get("project") not in (project["name"], project["id"]):
            continue
        moment = report.get("launch_requested") or report.get("started")
        if not moment:
            continue
        for machine in report.get("machines") or []:
            key = machine.get("id") or machine.get("name")
            if machine.get("passed") and key and (key not in proofs or parse_time(moment) >= parse_time(proofs[key]["time"])):
                proofs[key] = dict(time=moment, source=FROM_LEDGER, runbook=entry.get("runbook"), entry=entry.get("sequence"),
                                   run=report.get("started"))
    return proofs


def life_cycle_proofs(machines):
    """{machine ID: proof} from the service's own record of each machine's last test or recovery launch: a launch,
    which the service does not judge; used without a ledger, and said so."""
    proofs = {}
    for machine in machines:
        tested = last_tested(machine)
        if tested:
            proofs[machine["id"]] = dict(time=tested, source=FROM_LIFE_CYCLE, runbook=None, entry=None, run=None)
    return proofs


def proofs_of(project, machines, ledger_entries):
    """The proofs of ``machines`` of ``project``: from the ledger's entries, or from their life cycle when None (no ledger)."""
    return life_cycle_proofs(machines) if ledger_entries is None else ledger_proofs(ledger_entries, project)


def audit_since(machines, proofs):
    """Where the audit log must be read from to judge ``machines``: the oldest of their proofs (None: none is proven,
    and nothing need be read)."""
    moments = [parse_time(proofs[key]["time"]) for key in _keys(machines, proofs)]
    return iso_time(min(moments)) if moments else None


def _keys(machines, proofs):
    return [key for key in (_key(machine, proofs) for machine in machines) if key]


def _key(machine, proofs):
    return next((key for key in (machine.get("id"), machine.get("name")) if key in proofs), None)


def judge(machines, proofs, audit_entries, ignore_events=()):
    """Each machine's proof: C(status) proven, changed since last proven or never proven; C(proven), the proof; and
    C(changes), the writes since it - its own and the project's - oldest first (module_utils._audit.machine_changes)."""
    changes = machine_changes(audit_entries, ignore_events)
    judged = []
    for machine in machines:
        proof = proofs.get(_key(machine, proofs))
        since = []
        if proof:
            proven_at = parse_time(proof["time"])
            since = sorted((change for change in changes.get(machine["id"], []) + changes.get(PROJECT_WIDE, [])
                            if change["time"] and parse_time(change["time"]) > proven_at), key=lambda change: parse_time(change["time"]))
        judged.append(dict(name=machine.get("name"), id=machine["id"], status=NEVER if not proof else CHANGED if since else PROVEN,
                           proven=proof, changes=since))
    return judged


def said(judged):
    """A machine's proof in a few words, for a failure or a line of output."""
    if judged["status"] == NEVER:
        return NEVER
    proof = judged["proven"]
    when = "%s (%s)" % (proof["time"], "entry %s of the ledger, %s" % (proof["entry"], proof["runbook"]) if proof["source"] == FROM_LEDGER
                        else "its last test launch, no ledger")
    if judged["status"] == PROVEN:
        return "proven on %s" % when
    return "changed since last proven on %s: %s" % (when, "; ".join(
        "%s %s by %s: %s" % (change["time"], change["event"], change["username"] or "?", (change["description"] or ", ".join(change["fields"])).rstrip("."))
        for change in judged["changes"]))


def unproven(judged):
    """The machines to test: changed since their last proof, or never proven."""
    return [machine for machine in judged if machine["status"] != PROVEN]


def judged_by_audit(step, project, machines, proofs, until, ignore_events=()):
    """Each of ``machines`` of ``project`` judged by plugin_utils._proof against its ``proofs`` (proofs_of): one
    read of the project's audit log, from the oldest proof on to ``until`` (the service's time the machines were read)."""
    since = audit_since(machines, proofs)
    audit = step.service("service_audit_log_info", project=project["id"], since=since, until=until)["entries"] if since else []
    return judge(machines, proofs, audit, ignore_events)
