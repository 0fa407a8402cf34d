# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The runbooks of the collection, in one table: each one's name (its role, playbook, report files, ledger kind and
variables' prefix), its title, the shape of its report, and whether a passing run proves its machines. Everything that
handles a report by its kind - the page, the JUnit and Markdown, the ledger's proofs, the schemas - reads it here, and
a unit test holds the roles and playbooks to it (docs/developing.md)."""

from collections import namedtuple

# The shapes of report: a run of the runbook engine (machines launched, checked, cleaned up; roles/runbook's
# files/report.schema.json), a clean point search, the fleet's health, launch settings set by policy, an application's
# nodes recovered in order (each node a run of the DR test or the failover).
RUN, SEARCH, HEALTH, POLICY, APPLICATION = "run", "search", "health", "policy", "application"
PREFIX = "replication.recovery."


class Runbook(namedtuple("Runbook", "name title shape proves verifies")):
    """name: the runbook's; title: in words; shape: RUN, SEARCH, HEALTH, POLICY or APPLICATION; proves: a passing run proves its machines (DR
    readiness: the ledger's proofs, "changed since last proven"); verifies: a passing run verifies its project's backups
    (the health role's "last verified")."""

    @property
    def schema(self):
        return "%s%s/v1" % (PREFIX, self.name)

    @property
    def plan_schema(self):
        return "%s%s.plan/v1" % (PREFIX, self.name)


RUNBOOKS = (
    Runbook("dr_test", "DR test", RUN, True, False),
    Runbook("failover", "Failover", RUN, True, False),
    Runbook("failback", "Failback", RUN, False, False),
    Runbook("clean_point", "Clean point search", SEARCH, False, False),
    Runbook("health", "Fleet health", HEALTH, False, False),
    Runbook("restore_test", "Restore test", RUN, False, True),
    Runbook("launch_policy", "Launch policy", POLICY, False, False),
    Runbook("application", "Application", APPLICATION, False, False),
)
BY_NAME = dict((runbook.name, runbook) for runbook in RUNBOOKS)
# The runbooks whose passing runs prove their machines (the ledger's proofs, "changed since last proven").
PROVING = tuple(runbook.name for runbook in RUNBOOKS if runbook.proves)
# The runbooks whose passing runs verify a backup project's restores (the health role's "last verified").
VERIFYING = tuple(runbook.name for runbook in RUNBOOKS if runbook.verifies)


def runbook_of(report):
    """The runbook that wrote ``report``, by its schema; a ValueError for a report of none of them."""
    schema = str(report.get("schema") or "")
    name = schema[len(PREFIX):].partition("/")[0] if schema.startswith(PREFIX) else None
    if name not in BY_NAME or BY_NAME[name].schema != schema:
        raise ValueError("not a report of the collection's runbooks (its schema is %s)" % (schema or "missing"))
    return BY_NAME[name]
