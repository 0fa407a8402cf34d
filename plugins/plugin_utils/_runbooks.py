# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every runbook of the collection in one table: its name and title, its role and playbook, the prefix of its variables,
the kind it enters its reports in the ledger under, the shape of its report, and whether it launches machines. Everything
that handles a runbook or a report by its kind reads it here - the report shapes (plugin_utils._shapes), the ledger, the
report's files - and tests/unit/test_conventions.py holds each role and playbook to its row (docs/developing.md)."""

from collections import namedtuple

# A report's shape is a module of its own, plugin_utils._shape_<shape> (plugin_utils._shapes): its schema, JUnit XML,
# Markdown and page. The runbooks on the engine of steps (roles/runbook) write one of these two; the others are plain roles.
RUN, SEARCH = "run", "search"
ON_THE_ENGINE = (RUN, SEARCH)
PREFIX = "replication.recovery."


class Runbook(namedtuple("Runbook", "name title role playbook prefix ledger shape launches proves verifies uses rehearses")):
    """name: the runbook's, as its report's schema and its files say it; title: in words; role and playbook: where it is
    (roles/<role>, playbooks/<playbook>.yml); prefix: of every variable of its role; ledger: the kind its reports are
    entered in the ledger of runs under, or None when it enters none; shape: of its report (None: it writes none);
    launches: it launches machines; proves: a passing run proves its machines (the ledger's proofs, "changed since
    last proven"); verifies: a passing run verifies its project's backups (the health role's "last verified"); uses:
    the other runbooks its playbook or role runs (an application's nodes, the agent a protect installs); rehearses: it
    rehearses and obeys a project's safety lever (module_utils._lever) - cancelled at its start, stopped while it runs (an
    application is a failover or a rehearsal by its nodes: each of its DR tests obeys the lever; a failover that rolls back
    in a test network, a game day's, rehearses too: plugin_utils._record's Record.rehearses)."""

    @property
    def on_the_engine(self):
        return self.shape in ON_THE_ENGINE

    @property
    def schema(self):
        return "%s%s/v1" % (PREFIX, self.name)

    @property
    def plan_schema(self):
        return "%s%s.plan/v1" % (PREFIX, self.name)


def row(name, title, shape, ledger=True, launches=False, proves=False, verifies=False, uses=(), rehearses=False):
    """A runbook's row, its role, playbook and prefix named after it, its ledger kind its name (ledger=False: none)."""
    return Runbook(name, title, name, name, name + "_", name if ledger else None, shape, launches, proves, verifies, tuple(uses),
                   rehearses)


RUNBOOKS = (
    row("dr_test", "DR test", "run", launches=True, proves=True, rehearses=True),
    row("failover", "Failover", "run", launches=True, proves=True),
    row("failback", "Failback", "run", launches=True),
    row("restore_test", "Restore test", "run", launches=True, verifies=True, rehearses=True),
    row("clean_point", "Clean point search", "search", launches=True, rehearses=True),
    row("health", "Fleet health", "health"),
    row("launch_policy", "Launch policy", "policy"),
    row("application", "Application", "application", launches=True, uses=("dr_test", "failover")),
    row("evidence", "Evidence", "evidence", ledger=False),
    row("agent", "Replication agent", None, ledger=False),
    row("protect", "Protect", None, ledger=False, uses=("agent",)),
    row("readiness", "Readiness", "readiness"),
    row("game_day", "Game day", "game_day", rehearses=True, uses=("dr_test", "restore_test", "clean_point", "failover", "application")),
)
BY_NAME = dict((runbook.name, runbook) for runbook in RUNBOOKS)
# The runbooks whose passing runs prove their machines (the ledger's proofs, "changed since last proven").
PROVING = tuple(runbook.name for runbook in RUNBOOKS if runbook.proves)
# The runbooks whose passing runs verify a backup project's restores (the health role's "last verified").
VERIFYING = tuple(runbook.name for runbook in RUNBOOKS if runbook.verifies)


def runbook_of(report):
    """The runbook that wrote ``report``, by its schema; a ValueError for a report of none of them."""
    schema = str(report.get("schema") or "") if isinstance(report, dict) else ""
    name = schema[len(PREFIX):].partition("/")[0] if schema.startswith(PREFIX) else None
    if name not in BY_NAME or BY_NAME[name].schema != schema:
        raise ValueError("not a report of the collection's runbooks (its schema is %s)" % (schema or "missing"))
    return BY_NAME[name]


def ledger_kind_of(report):
    """The kind ``report`` is entered in the ledger of runs under (its runbook's); a ValueError for a report of a runbook
    that enters none."""
    runbook = runbook_of(report)
    if not runbook.ledger:
        raise ValueError("the %s runbook enters no report in the ledger of runs" % runbook.name)
    return runbook.ledger
