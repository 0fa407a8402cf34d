# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""An application across projects: its nodes (a project each), the order they recover in, what a node's outcome means to
the nodes after it, the forecast of how long it takes, and the record of its run. Pure: the application's run
(plugin_utils._application_run) reads and writes the files and runs nothing here but these functions."""

import os

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import RECENT_RUNS
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import percentile
from ansible_collections.replication.recovery.plugins.plugin_utils._record import Declared
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import CANCELLED, COMMITTED, NOTHING_DONE, ROLLED_BACK, STOPPED, of_report
from ansible_collections.replication.recovery.plugins.plugin_utils._options import ROLES, known_names, meant, unknown
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, PROVING
from ansible_collections.replication.recovery.plugins.module_utils._words import figure, shown, spoken


RUNBOOKS = ("dr_test", "failover")
IMPACTS = ("critical", "optional")
ON_FAILURE = ("stop", "skip")
MAX_LEVELS = 6  # the levels the playbook unrolls (playbooks/application.yml)
MAX_RETRY = 3
CONNECTION = ("url", "username", "password", "api_token")
NODE_KEYS = ("project", "connection", "machines", "optional_machines", "after", "impact", "retry", "on_failure", "approval",
             "point_in_time", "checks_tasks", "vars")

# A node's outcome. PASSED and FAILED come from its run; the others are the application's.
PASSED, FAILED, BLOCKED, WAITING, PLANNED = "passed", "failed", "blocked", "waiting for approval", "planned"
ENDED = (PASSED, FAILED, BLOCKED)


# The record of an application's run (its run.json), made by its begin: (member, what it holds). A node's outcome is a
# file of its own (plugin_utils._application_run).
MEMBERS = (
    ("name", "The application's name (application_name): its report and its run's state are named after it."),
    ("runbook", "The runbook every node runs: dr_test or failover."),
    ("began", "When the run began, on the controller's clock (a run resumed keeps it)."),
    ("resumed", "Whether this run resumed one that had not ended (stopped, or waiting for an approval)."),
    ("nodes", "Each node by name, settled with its defaults (nodes_of), its connection without a password or token."),
    ("levels", "The nodes by level (levels_of): the names of each level's nodes."),
    ("approvals", "Each node approved, by name: by whom, when, with what comment, and whether at a terminal."),
    ("report_dir", "The directory of the application's report, its run's state and its nodes' reports (nodes/)."),
    ("forecast", "The RTO forecast from the ledger (forecast): each level's and the application's p50 and p90."),
    ("controller_user", "Who runs the application: AWX's user, or the controller's."),
    ("points_as_of", "Each node's moment for its points in time, on its service's clock: when the run began, or its plan was made."),
    ("plan", "The plan written under --check that the run carries out (its path), or None."),
    ("ended", "When the run ended (no node waits for an approval), on the controller's clock: the next run begins anew."),
)


class RunState(Declared):
    """The record of an application's run: only the members MEMBERS declares."""

    DECLARED = frozenset(name for name, unused_what in MEMBERS)
    WHAT = "The application run's record"
    WHERE = "plugins/plugin_utils/_application.py"


class ApplicationError(ValueError):
    """What is wrong with the application as given, every fault at once."""


def _names(value):
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return list(value)
    raise TypeError("a list of names")


def nodes_of(given, runbook):
    """The nodes as given (``application_nodes``: a mapping of a node's name to its settings), each settled with its
    defaults - or an ApplicationError that names every fault: an unknown setting, a missing project, an unknown node
    after, a bad impact, retry or on_failure, two nodes of one project (the service runs one job a project, so two
    nodes of it would wait on each other), and a cycle."""
    if runbook not in RUNBOOKS:
        raise ApplicationError("application_runbook must be one of %s, not %r." % (", ".join(RUNBOOKS), runbook))
    if not isinstance(given, dict) or not given:
        raise ApplicationError("application_nodes must be a mapping of at least one node's name to its settings (project, after, ...).")
    faults, nodes = [], {}
    for name, settings in given.items():
        if not isinstance(settings, dict):
            faults.append("node %s: its settings must be a mapping (project, after, ...)" % name)
            continue
        nodes[name] = _node(name, settings, given, runbook, faults)
    by_project = {}
    for name, node in sorted(nodes.items()):
        key = (node["connection"].get("url"), str(node["project"]).strip())
        if key in by_project:
            faults.append("nodes %s and %s are both project %s: the service runs one job a project at a time, so make them one node "
                          "(its waves order its machines)" % (by_project[key], name, node["project"]))
        by_project.setdefault(key, name)
    if not faults:
        cycle = _cycle(nodes)
        if cycle:
            faults.append("the nodes are after each other in a cycle: %s" % ", ".join(
                "%s after %s" % (name, after) for name, after in zip(cycle, cycle[1:] + cycle[:1])))
    if faults:
        raise ApplicationError("The application cannot run, and nothing was written: %s." % "; ".join(faults))
    levels = levels_of(nodes)
    if len(levels) > MAX_LEVELS:
        raise ApplicationError("The application has %d levels; the playbook runs at most %d. Nothing was written." % (len(levels), MAX_LEVELS))
    return nodes


def _node(name, settings, given, runbook, faults):
    """One node settled with its defaults; what is wrong with its settings is added to ``faults``."""
    strange = sorted(set(settings) - set(NODE_KEYS))
    if strange:
        faults.append("node %s: unknown settings %s (known: %s)" % (name, ", ".join(strange), ", ".join(NODE_KEYS)))
    node = dict(name=name, project=settings.get("project"), connection=settings.get("connection") or {},
                impact=settings.get("impact") or "critical", approval=bool(settings.get("approval")),
                point_in_time=settings.get("point_in_time"), checks_tasks=settings.get("checks_tasks"), vars=settings.get("vars") or {})
    if not isinstance(node["project"], str) or not node["project"].strip():
        faults.append("node %s: project is required (a project's name or ID)" % name)
    for key in ("machines", "optional_machines", "after"):
        try:
            node[key] = _names(settings.get(key))
        except TypeError:
            faults.append("node %s: %s must be a list of names" % (name, key))
            node[key] = []
    _settle_failure(node, settings, faults)
    if not isinstance(node["connection"], dict) or set(node["connection"]) - set(CONNECTION):
        faults.append("node %s: connection may have only %s" % (name, ", ".join(CONNECTION)))
        node["connection"] = {}
    if not isinstance(node["vars"], dict) or any(not str(key).startswith(runbook + "_") for key in node["vars"]):
        faults.append("node %s: vars must be the %s runbook's own variables (%s_...)" % (name, runbook, runbook))
        node["vars"] = {}
    # A typo here would be refused by the node's own run - after the levels before it ran (a failover's, committed).
    row = BY_NAME[runbook]
    for key, near in sorted(unknown(node["vars"], known_names(os.path.join(ROLES, row.role), row), (row.prefix,)).items()):
        guess = meant(key, near)
        faults.append("node %s: vars %s is no option of the %s%s" % (name, key, row.title, " (did you mean %s?)" % guess if guess else ""))
    for machine in node["optional_machines"]:
        if node["machines"] and machine not in node["machines"]:
            faults.append("node %s: optional machine %s is not one of its machines" % (name, machine))
    for before in node["after"]:
        if before not in given:
            faults.append("node %s: after names %s, which is not a node (nodes: %s)" % (name, before, ", ".join(sorted(given))))
        elif before == name:
            faults.append("node %s is after itself" % name)
    return node


def _settle_failure(node, settings, faults):
    """A node's impact, what its failure does (on_failure) and its retries."""
    name = node["name"]
    if node["impact"] not in IMPACTS:
        faults.append("node %s: impact must be critical or optional, not %r" % (name, node["impact"]))
    node["on_failure"] = settings.get("on_failure") or ("skip" if node["impact"] == "optional" else "stop")
    if node["on_failure"] not in ON_FAILURE:
        faults.append("node %s: on_failure must be stop or skip, not %r" % (name, node["on_failure"]))
    retry = settings.get("retry", 0)
    node["retry"] = int(retry) if isinstance(retry, int) or (isinstance(retry, str) and retry.strip().isdigit()) else -1
    if not 0 <= node["retry"] <= MAX_RETRY:
        faults.append("node %s: retry must be a whole number from 0 to %d, not %r" % (name, MAX_RETRY, retry))


def _cycle(nodes):
    """A cycle of the nodes' ``after``, as a list of names, or None."""
    state = {}

    def visit(name, path):
        state[name] = "visiting"
        for before in nodes[name]["after"]:
            if state.get(before) == "visiting":
                return path[path.index(before):] if before in path else [before]
            if before not in state:
                found = visit(before, path + [before])
                if found:
                    return found
        state[name] = "done"
        return None

    for name in sorted(nodes):
        if name not in state:
            found = visit(name, [name])
            if found:
                return found
    return None


def levels_of(nodes):
    """The nodes by level: a node is one level after the latest of those it is after (the first level, 1, is after
    nothing). A list of the levels, each the sorted names of its nodes."""
    level = {}

    def of(name):
        if name not in level:
            level[name] = 1 + max((of(before) for before in nodes[name]["after"]), default=0)
        return level[name]

    for name in nodes:
        of(name)
    return [sorted(name for name in nodes if level[name] == number) for number in range(1, max(level.values(), default=0) + 1)]


def why_not(nodes, name, outcomes):
    """Why a node does not run now, given the outcomes of the nodes before it, or None when it runs. A node waits while a
    node it is after waits for approval; it is blocked by a node it is after that was blocked, or that failed and stops
    what follows it (on_failure: stop) - and by any node a stop condition or the safety lever stopped: a stopped
    rehearsal launches nothing more, whatever the nodes' impact."""
    stopped = sorted(other for other, outcome in outcomes.items() if outcome.get("outcome") == STOPPED)
    if stopped:
        return dict(state=BLOCKED, reason="the application was stopped: %s %s stopped (%s)" % (
            ", ".join(stopped), "was" if len(stopped) == 1 else "were", outcomes[stopped[0]].get("stopped_by") or "by a stop condition"))
    for before in sorted(nodes[name]["after"]):
        outcome = outcomes.get(before) or {}
        state = outcome.get("state")
        if state == WAITING or outcome.get("waits_behind"):
            return dict(state=WAITING, waits_behind=outcome.get("waits_behind") or before,
                        reason="after %s, which waits for approval" % (outcome.get("waits_behind") or before))
        if state == BLOCKED:
            return dict(state=BLOCKED, reason="after %s, which did not run (%s)" % (before, outcome.get("reason")))
        if state == FAILED and nodes[before]["on_failure"] == "stop":
            return dict(state=BLOCKED, reason="after %s, which failed" % before)
        if state not in ENDED:
            return dict(state=BLOCKED, reason="after %s, which has not ended" % before)
    return None


def node_outcome(node, report):
    """A node's outcome from its run's report (the runbook's JSON report): passed when every machine that failed is one of
    its optional machines and the run's own checks passed (but the launch job's, which failed with them); the optional
    machines that failed are named."""
    machines = report.get("machines") or []
    failed = [m["name"] for m in machines if not m.get("passed")]
    optional_failed = [name for name in failed if name in node["optional_machines"]]
    critical_failed = [name for name in failed if name not in node["optional_machines"]]
    # A launch job with a machine failed ends FAILED: when each machine that failed is optional, so is that check.
    run_failures = [check for check in report.get("checks") or [] if check.get("status") == FAILED
                    and not (check.get("name", "").startswith("launch job") and failed and not critical_failed)]
    passed = report.get("result") == PASSED or (not run_failures and not critical_failed and bool(machines))
    measures = report.get("measures") or {}
    stops = report.get("stop_conditions")
    return dict(state=PASSED if passed else FAILED, failed_machines=failed, optional_failed=optional_failed, kept=report.get("kept") or [],
                critical_failed=critical_failed, rto_seconds=measures.get("rto_seconds"), rpo_seconds=measures.get("rpo_seconds"),
                report=report.get("run", {}).get("files"), started=report.get("launch_requested") or report.get("started"),
                machines=len(machines), failures=(report.get("failures") or [])[:5], points=points_taken(machines),
                outcome=of_report(report), stop_conditions=stops, stopped_by=stop_said(stops) if of_report(report) == STOPPED else None)


def stop_said(stops):
    """Who or what stopped a node's run, in a few words."""
    stops = stops or {}
    if stops.get("stopped_by"):
        return "by the stop condition %s" % stops["stopped_by"]["probe"]
    return "by the safety lever" if (stops.get("lever") or {}).get("obeyed") else "by a stop condition"


def points_taken(machines, *earlier):
    """The oldest and newest point in time the machines launched from ({oldest, newest} date-times, or None), with those
    of the node's ``earlier`` launches (their points): how far the node's data reaches, beside the application's moment."""
    taken = [m["point_in_time"]["date_time"] for m in machines if (m.get("point_in_time") or {}).get("date_time")]
    taken += [moment for points in earlier if points for moment in points.values() if moment]
    if not taken:
        return None
    ordered = sorted(taken, key=parse_time)
    return dict(oldest=ordered[0], newest=ordered[-1])


def follows_the_moment(node, runbook, given=None):
    """Whether a node takes its points as of the application's moment: it names no point in time of its own, or latest -
    nor does the runbook's variable ``given`` to every node (an extra variable, which outranks a node's own)."""
    own = given or node["point_in_time"] or node["vars"].get(runbook + "_point_in_time")
    return not own or str(own).strip().lower() == "latest"


def behind_the_moment(points, moment):
    """How far the oldest point a node launched from is before the application's moment, in seconds (None without
    either). Nodes that follow one moment are each a few minutes behind it; one a great deal further behind lost data
    the others kept - the service thinned its points of that moment out before it ran, say, after a long approval."""
    if not points or not moment:
        return None
    return round(parse_time(moment) - parse_time(points["oldest"]), 3)


def furthest_behind(nodes):
    """The node furthest behind its moment (a node of the report: name, behind_seconds), or None when none is behind."""
    behind = [node for node in nodes if (node.get("behind_seconds") or 0) > 0]
    return max(behind, key=lambda node: node["behind_seconds"]) if behind else None


def rto_samples(nodes, entries):
    """Each node's RTO samples: its project's last RECENT_RUNS passing DR tests and failovers (each run's RTO, the slowest
    machine's), from the ledger's ``entries`` newest first - read only until every node has its samples."""
    samples = dict((name, []) for name in nodes)
    for entry in entries:
        report = entry.get("report") or {}
        rto = (report.get("measures") or {}).get("rto_seconds")
        if entry.get("runbook") not in PROVING or entry.get("result") != PASSED or rto is None:
            continue
        for name, node in nodes.items():
            if len(samples[name]) < RECENT_RUNS and node["project"] in (report.get("project"), report.get("project_id") or None):
                samples[name].append(rto)
        if all(len(found) >= RECENT_RUNS for found in samples.values()):
            break  # no older entry is read
    return samples


def forecast(nodes, levels, entries):
    """The application's RTO forecast from the ledger's entries, newest first: a node's samples are its rto_samples; a
    level takes as long as its slowest node (its nodes run side by side); the application, the sum over its levels, at p50
    and p90 (the evidence's percentile rule). Nodes never measured are named, and the forecast is then at least the
    figures."""
    samples = rto_samples(nodes, entries)
    per_node = {}
    for name in nodes:
        recent = samples[name]
        per_node[name] = dict(runs=len(recent), p50_seconds=percentile(recent, 0.5), p90_seconds=percentile(recent, 0.9))
    per_level, total50, total90 = [], 0.0, 0.0
    for number, names in enumerate(levels, 1):
        measured = [name for name in names if per_node[name]["runs"]]
        p50 = max((per_node[name]["p50_seconds"] for name in measured), default=None)
        p90 = max((per_node[name]["p90_seconds"] for name in measured), default=None)
        slowest = max(measured, key=lambda name: per_node[name]["p90_seconds"]) if measured else None
        per_level.append(dict(level=number, nodes=names, p50_seconds=p50, p90_seconds=p90, slowest=slowest,
                              unmeasured=[name for name in names if not per_node[name]["runs"]]))
        total50 += p50 or 0
        total90 += p90 or 0
    unmeasured = [name for name in sorted(nodes) if not per_node[name]["runs"]]
    return dict(p50_seconds=round(total50, 3), p90_seconds=round(total90, 3), at_least=bool(unmeasured), unmeasured=unmeasured,
                levels=per_level, nodes=per_node)


def forecast_said(estimate):
    """The forecast in a line: "Forecast RTO: at least p50 510 s (8 min 30 s), p90 656 s (10 min 56 s) (never measured: app)"."""
    if len(estimate["unmeasured"]) == len(estimate["nodes"]):
        return "Forecast RTO: none - no node was ever measured (the ledger has no passing DR test or failover of %s)." % shown(estimate["unmeasured"])
    p50, p90 = estimate["p50_seconds"], estimate["p90_seconds"]
    said = "Forecast RTO: p50 %s s (%s), p90 %s s (%s)" % (figure(p50), spoken(p50), figure(p90), spoken(p90))
    if estimate["at_least"]:
        said = said.replace("Forecast RTO: ", "Forecast RTO: at least ") + " (never measured: %s)" % shown(estimate["unmeasured"])
    return said + "."


def result_of(nodes, outcomes):
    """The application's result: failed when a critical node failed or was blocked, waiting while a node waits for its
    approval (and nothing critical failed), passed when every node ended and no critical one failed."""
    critical = [name for name in sorted(nodes) if nodes[name]["impact"] == "critical"]
    if any((outcomes.get(name) or {}).get("state") in (FAILED, BLOCKED) for name in critical):
        return FAILED
    if any((outcomes.get(name) or {}).get("state") not in ENDED for name in nodes):
        return WAITING
    return PASSED


def outcome_of(result, runbook, outcomes):
    """The application's outcome word (plugin_utils._outcomes): stopped when a stop condition or the safety lever stopped a
    node; cancelled when every node that ran was cancelled before its first write (the lever was engaged); else by its
    result - a passing DR test passed, one waiting for an approval waits, one whose critical node failed failed; a passing
    failover as its nodes left production: committed when a node committed it (or no node ran in this run), else rolled
    back when a node rolled back (failover_commit=false), else nothing done (every node stood, failed over already)."""
    words = [outcome.get("outcome") for outcome in outcomes.values() if outcome.get("outcome")]
    if STOPPED in words:
        return STOPPED
    if words and set(words) == {CANCELLED}:
        return CANCELLED
    if result == PASSED and runbook == "failover":
        if COMMITTED in words or not words:
            return COMMITTED
        return ROLLED_BACK if ROLLED_BACK in words else NOTHING_DONE
    if result == PASSED:
        return PASSED
    return WAITING if result == WAITING else FAILED  # the node's word is the outcome's


def critical_path(nodes, seconds):
    """The slowest path through the nodes (by ``after``), by the seconds each took (a node not measured counts 0): the
    names from the first level to the last."""
    best = {}

    def longest(name):
        if name not in best:
            before = max((longest(earlier) for earlier in nodes[name]["after"]), key=lambda path: path[0], default=(0.0, []))
            best[name] = (before[0] + (seconds.get(name) or 0), before[1] + [name])
        return best[name]

    paths = [longest(name) for name in sorted(nodes)]
    return max(paths, key=lambda path: path[0])[1] if paths else []
