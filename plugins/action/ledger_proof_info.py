# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Which machines of a fleet are proven today, from the ledger of runs and the projects' audit logs. Documented in
plugins/modules/ledger_proof_info.py."""

from ansible_collections.replication.recovery.plugins.plugin_utils import _proof
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed
from ansible_collections.replication.recovery.plugins.plugin_utils._proof import judged_by_audit

UNPROVEN_SHOWN = 10
NO_LEDGER = " (no ledger: proven means test-launched, by the service's record)"


class ActionModule(RunbookStep):
    WITH_RUN = False
    OPTIONS = dict(
        fleet=dict(type="dict", required=True),
        ledger_dir=dict(type="path"),
        ignore_events=dict(type="list", elements="str", default=[]),
    )

    def step(self, args):
        fleet = args["fleet"]
        projects = fleet.get("projects")
        if not isinstance(projects, list) or any(not isinstance(project, dict) or "machines" not in project for project in projects):
            raise StepFailed("fleet must be the result of replication.recovery.service_project_info with machines=true.")
        ledger = to_read(args["ledger_dir"])
        source = _proof.FROM_LEDGER if ledger else _proof.FROM_LIFE_CYCLE
        entries, breaks = _proof.read_ledger(ledger) if ledger else (None, [])
        # One session for every project's audit log, unless the task brings one: a login per read would double the requests.
        proofs = [_proof.proofs_of(project, project["machines"], entries) for project in projects]
        reads = sum(1 for project, found in zip(projects, proofs) if _proof.audit_since(project["machines"], found))
        with self.one_session(needed=reads > 1):
            judged_projects, lines = self.judge_projects(zip(projects, proofs), source, fleet.get("service_time"), args["ignore_events"])
        if breaks:
            lines.append("The ledger is broken (%d breaks): the proofs read from it may not hold. Run replication.recovery.evidence." % len(breaks))
        return dict(changed=False, projects=judged_projects, source=source, breaks=breaks, lines=lines)

    def judge_projects(self, projects_and_proofs, source, until, ignore_events):
        judged_projects, lines = [], []
        for project, proofs in projects_and_proofs:
            judged = judged_by_audit(self, project, project["machines"], proofs, until, ignore_events)
            unproven = _proof.unproven(judged)
            judged_projects.append(dict(name=project["name"], id=project["id"], source=source, machines=judged,
                                        unproven=[machine["name"] for machine in unproven]))
            lines.append("%s: %d of %d machines proven%s." % (project["name"], len(judged) - len(unproven), len(judged),
                                                              "" if source == _proof.FROM_LEDGER else NO_LEDGER))
            lines.extend("%s/%s: %s" % (project["name"], machine["name"], _proof.said(machine)) for machine in unproven[:UNPROVEN_SHOWN])
        return judged_projects, lines
