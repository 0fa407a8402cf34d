# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One run of the application runbook, as one object - as plugin_utils._run is one run of a runbook on the engine.

An application run is its record (plugin_utils._application's RunState: what it was asked, its levels, its approvals),
kept with one small file a node in a directory beside its report (``application_<name>.run/``), each file written whole:
the nodes of a level end side by side and never write one file. Each node is a run of its runbook on the engine, on a
host of its own; the application's phases, each a method, order those runs:

    begin    _application_begin  every node checked before any acts; the plan, the forecast; an earlier run that did not
                                 end resumed; the nodes as hosts, by level; an approval given
    level                        which nodes of a level run now
    approve                      the approvals asked at a terminal
    node                         a node's outcome once its run ended, from its report (and the machines of its retry)
    result, cleaned              the result so far; the test machines of a DR test's nodes cleaned up once it ended
    end                          the report, the page and the ledger entry

The step application_step drives one phase in each of its tasks (documented in plugins/modules/application_step.py).
"""

import os
import time

from ansible.errors import AnsiblePromptInterrupt, AnsiblePromptNoninteractive
from ansible.module_utils.common.text.converters import to_text
from ansible.utils.display import Display

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_number, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._words import shown, spoken
from ansible_collections.replication.recovery.plugins.plugin_utils import _application as app
from ansible_collections.replication.recovery.plugins.plugin_utils._application_begin import (
    Beginning, kept_state, node_file_in, outcomes_in, safe)
from ansible_collections.replication.recovery.plugins.plugin_utils._files import controller_now, report_path, write_also, write_json, write_run
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import directory_of
from ansible_collections.replication.recovery.plugins.plugin_utils._measures import worst
from ansible_collections.replication.recovery.plugins.plugin_utils._outcomes import of_report, said as said_outcome
from ansible_collections.replication.recovery.plugins.plugin_utils._report import watched_over
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of, page_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import Driven, StepFailed, into_ledger, read_report

SCHEMA = "replication.recovery.application/v1"
display = Display()


class ApplicationRun(Driven, Beginning):
    """An application's run: its record (``state``), the directory it is kept in, and the step that drives it now."""

    def __init__(self, step):
        Driven.__init__(self, step)
        self.directory, self.state, self.nodes, self.sessions = None, None, {}, {}

    def take_up(self, directory):
        """The run its begin kept in ``directory``, for a phase after it."""
        self.state = kept_state(directory) if directory else None
        if self.state is None:
            raise StepFailed("No application run at %s: the playbook's first play begins it." % directory)
        self.directory, self.nodes = directory, self.state["nodes"]

    def keep(self):
        """The run's record written back whole (run.json)."""
        write_json(os.path.join(self.directory, "run.json"), self.state, indent=1, sort_keys=True)

    # -- level, node ---------------------------------------------------------------------------------------------------

    def outcomes(self):
        return outcomes_in(self.directory, self.nodes)

    def node_file(self, name):
        return node_file_in(self.directory, name)

    def level(self, args):
        """Which nodes of the level run now: each node not ended yet whose nodes before it allow it; a node that needs an
        approval not given waits, and so does each node after it."""
        names = self.state["levels"][args["level"] - 1] if args["level"] <= len(self.state["levels"]) else []
        outcomes, decisions, lines = self.outcomes(), {}, []
        for name in names:
            node, ended = self.nodes[name], outcomes.get(name)
            if not (ended and ended["state"] in app.ENDED) and not self.check_mode:
                ended = self.ended_unkept(node) or ended
            if ended and ended["state"] in app.ENDED:
                decisions[name] = dict(run=False, state=ended["state"], reason="ended in an earlier run of the application, adopted")
                if not args["again"]:  # the levels run again after an approval: said once
                    lines.append("%s: %s in an earlier run of the application; adopted, not run again." % (name, ended["state"]))
                continue
            why = None if self.check_mode else app.why_not(self.nodes, name, outcomes)
            if why is None and node["approval"] and name not in self.state["approvals"]:
                why = dict(state=app.WAITING, reason="needs approval (application_approve: {node: %s, by: ...})" % name)
            if why:
                decisions[name] = dict(run=False, **why)
                lines.append("%s: %s - %s." % (name, why["state"], why["reason"]))
                if not self.check_mode:
                    write_json(self.node_file(name), dict(why, name=name, level=args["level"]))
                continue
            decisions[name] = dict(run=True, state="running", began=controller_now())
            lines.append("%s: runs now (project %s)." % (name, node["project"]))
        return dict(decisions=decisions, lines=["Level %d: %s" % (args["level"], line) for line in lines])

    def approve(self, args):
        """At a terminal, once the levels went as far as they could: ask for the approval of each node that waits for one,
        within ``approval_timeout`` seconds each. An answer is the approver's name (and then a comment); nothing, or no answer in
        time, approves nothing. Without a terminal (AWX) nothing is asked and the run does not wait."""
        outcomes = self.outcomes()
        waiting = [name for names in self.state["levels"] for name in names
                   if (outcomes.get(name) or {}).get("state") == app.WAITING and not outcomes[name].get("waits_behind")]
        if not waiting or args["approval_timeout"] <= 0 or self.check_mode:
            return dict(approved=[], lines=[])
        approved, lines = [], []
        for name in waiting:
            node = self.nodes[name]
            asked = ("Approve node %s of the application %s (%s of project %s, %s)? Type your name and Enter to approve it; nothing, "
                     "or no answer within %d s, approves nothing: " % (
                         name, self.state["name"], self.state["runbook"], node["project"],
                         "machines " + shown(node["machines"]) if node["machines"] else "every machine", args["approval_timeout"]))
            try:
                began = time.time()
                who = to_text(display.prompt_until(asked, seconds=args["approval_timeout"])).strip()
                if time.time() - began >= args["approval_timeout"]:
                    lines.append("%s: no answer within %d s; not approved, it waits." % (name, args["approval_timeout"]))
                    continue
                if not who:
                    lines.append("%s: not approved; it waits." % name)
                    continue
                comment = to_text(display.prompt_until("A comment (Enter for none): ", seconds=args["approval_timeout"])).strip()
            except AnsiblePromptNoninteractive:
                lines.append("No terminal: the run does not wait for an approval (give it with application_approve).")
                break
            except AnsiblePromptInterrupt:
                lines.append("%s: interrupted; not approved, it waits." % name)
                continue
            self.state["approvals"][name] = dict(node=name, by=who, comment=comment, at=controller_now(), at_terminal=True,
                                                 controller_user=self.controller_user())
            approved.append(name)
            lines.append("%s: approved by %s at the terminal; its level and those after it run again." % (name, who))
        if approved:
            self.keep()
        return dict(changed=bool(approved), approved=approved, lines=lines)

    def ended_unkept(self, node):
        """A node whose run ended in this application's run, but was stopped before its outcome was kept: its outcome, from
        the newest report of its runbook in the nodes' report directory (one its run wrote since the application's run
        began), kept now - or None."""
        path = report_path(os.path.join(self.state["report_dir"], "nodes"), self.state["runbook"], node["project"], ".json")
        try:
            written = read_report(path)
            ended_in_this_run = parse_time(written["run_began"]) >= parse_time(self.state["began"])
        except (StepFailed, KeyError, TypeError, ValueError):
            return None
        if not ended_in_this_run:
            return None
        outcome = app.node_outcome(node, written)
        outcome.update(name=node["name"], attempts=[attempt_of(0, outcome)], began=written.get("run_began"), ended=written.get("generated"),
                       retry_machines=[])
        write_json(self.node_file(node["name"]), outcome)
        return outcome

    def node(self, args):
        """A node's outcome once its run (an attempt) ended, from the run's report; with the machines to launch again when
        it failed and may retry."""
        node = self.nodes[args["node"]]
        earlier = self.outcomes().get(node["name"]) or {}
        if self.check_mode:
            return dict(outcome=dict(state=app.PLANNED))
        try:
            outcome = app.node_outcome(node, read_report(args["report"])) if args["report"] else None
        except StepFailed:
            outcome = None
        if outcome is None:
            outcome = dict(state=app.FAILED, failed_machines=[], optional_failed=[], critical_failed=[], machines=0, kept=[],
                           failures=[args["error"] or "the run wrote no report"], rto_seconds=None)
        attempts = (earlier.get("attempts") or []) + [attempt_of(args["attempt"], outcome)]
        if earlier.get("state") == app.FAILED and args["attempt"] > 0:  # a retry: the machines that passed before still count
            outcome["machines"] = max(outcome["machines"], earlier.get("machines") or 0)
            outcome["kept"] = sorted(set(earlier.get("kept") or []) | set(outcome["kept"]))
            outcome["points"] = app.points_taken([], earlier.get("points"), outcome.get("points"))
        outcome.update(name=node["name"], attempts=attempts, ended=controller_now(), began=earlier.get("began") or args["began"])
        retry_left = node["retry"] - args["attempt"]
        outcome["retry_machines"] = outcome["critical_failed"] if outcome["state"] == app.FAILED and retry_left > 0 else []
        write_json(self.node_file(node["name"]), outcome)
        return dict(outcome=outcome)

    # -- result, cleaned: a DR test's machines cleaned up when the application ends -----------------------------------

    def result(self, args):
        """The application's result so far, and what to clean up now: once it ended (no node waits for an approval), the
        test machines each node of a DR test kept, by its host."""
        outcomes = self.outcomes()
        result = app.result_of(self.nodes, outcomes)
        to_clean = {}
        if result != app.WAITING and self.state["runbook"] == "dr_test" and not self.check_mode:
            to_clean = dict(("%s.%s" % (self.state["name"], name), outcome["kept"]) for name, outcome in sorted(outcomes.items())
                            if outcome.get("kept") and not (outcome.get("cleanup") or {}).get("proven"))
        return dict(result=result, to_clean=to_clean)

    def cleaned(self, args):
        """What the cleanup of a node's kept test machines did: terminated and proven gone, or why not."""
        outcomes = self.outcomes()
        outcome = outcomes.get(args["node"]) or dict(name=args["node"], state=app.FAILED)
        outcome["cleanup"] = dict(proven=not args["error"], removed=args["removed"], error=args["error"])
        write_json(self.node_file(args["node"]), outcome)
        return dict(changed=True, cleanup=outcome["cleanup"])

    # -- end -----------------------------------------------------------------------------------------------------------

    def end(self, args):
        outcomes = self.outcomes()
        if self.check_mode:
            return dict(lines=["Check mode: nothing was launched, and no report was written."], outcome=dict(result="check mode"))
        for name in self.nodes:
            if name not in outcomes:  # its host failed outside its run (its level's play gave no outcome)
                outcomes[name] = dict(state=app.FAILED, reason="its level ended without an outcome of it: its host failed (see above)")
        result = app.result_of(self.nodes, outcomes)
        if any((outcome.get("cleanup") or {}).get("error") for outcome in outcomes.values()):
            result = app.FAILED
        report = self.report(outcomes, result, args["game_day"])
        name = "application_%s" % safe(self.state["name"])
        files = write_run(self.state["report_dir"], name, self.state["began"], files_of(report))
        ledger = None
        if result != app.WAITING:
            ledger = into_ledger(directory_of(args["ledger_dir"])[0], report, files["own"][".json"])
        write_also(files, ".html", page_of(report, ledger))
        if result != app.WAITING:
            self.state["ended"] = controller_now()
            self.keep()
        lines = report_lines(report) + ["Report: %s" % files["own"][".json"], "Page: %s" % files["own"][".html"]]
        if ledger:
            lines.append("Ledger: entry %d, SHA-256 %s" % (ledger["sequence"], ledger["sha256"]))
        waiting = [node["name"] for node in report["nodes"] if node["state"] == app.WAITING and not node.get("waits_behind")]
        outcome = dict(name=self.state["name"], result=result, outcome=report["outcome"], waiting=waiting,
                       nodes=dict((node["name"], node["state"]) for node in report["nodes"]), report=files["own"][".json"])
        answer = dict(changed=True, outcome=outcome, lines=lines)
        if result == app.FAILED:
            answer["message"] = "Application %s (%s): %s. %s. %s" % (
                self.state["name"], self.state["runbook"], said_outcome(report["outcome"]),
                "; ".join(failure.rstrip(".") for failure in report["failures"][:5]), report["next"])
        return answer

    def report(self, outcomes, result, game_day=None):
        runbook = self.state["runbook"]
        nodes = [self.node_reported(number, name, outcomes[name]) for number, names in enumerate(self.state["levels"], 1) for name in names]
        failures = nodes_failed(nodes)
        levels = self.levels_reported(dict((node["name"], node) for node in nodes))
        return dict(schema=SCHEMA, name=self.state["name"], runbook=self.state["runbook"], result=result, outcome=app.outcome_of(result, runbook, outcomes),
                    next=NEXT_RUN[runbook] if result == app.FAILED else None, began=self.state["began"],
                    started=self.state["began"], generated=controller_now(), controller_user=self.state["controller_user"],
                    projects=[dict(name=node["project"], node=node["name"]) for node in nodes], levels=levels, nodes=nodes,
                    critical_path=app.critical_path(self.nodes, dict((node["name"], node["seconds"]) for node in nodes)),
                    forecast=self.state["forecast"], approvals=self.state["approvals"], failures=failures,
                    points_as_of=self.state.get("points_as_of"), plan=self.state.get("plan"), run_began=self.state["began"],
                    measures=dict((key, worst(node[key] for node in nodes)) for key in ("rpo_seconds", "rto_seconds")),
                    targets=self.targets(runbook), counts=dict(machines=sum(node["machines"] for node in nodes)),
                    stop_conditions=watched_over(outcomes[name].get("stop_conditions") for names in self.state["levels"] for name in names),
                    game_day=game_day)

    def node_reported(self, number, name, outcome):
        """A node as the report has it: its settings, and what its run (or runs) came to."""
        node, moments, runbook = self.nodes[name], self.state.get("points_as_of") or {}, self.state["runbook"]
        seconds = None
        if outcome.get("began") and outcome.get("ended"):
            seconds = round(parse_time(outcome["ended"]) - parse_time(outcome["began"]), 3)
        return dict(name=name, project=node["project"], level=number, after=node["after"], impact=node["impact"],
                    on_failure=node["on_failure"], retry=node["retry"], state=outcome["state"], reason=outcome.get("reason") or "",
                    waits_behind=outcome.get("waits_behind"), approval=self.state["approvals"].get(name),
                    needs_approval=node["approval"], machines=outcome.get("machines") or 0,
                    failed_machines=outcome.get("failed_machines") or [], optional_failed=outcome.get("optional_failed") or [],
                    attempts=outcome.get("attempts") or [], outcome=outcome.get("outcome"), rto_seconds=outcome.get("rto_seconds"),
                    rpo_seconds=outcome.get("rpo_seconds"), began=outcome.get("began"),
                    ended=outcome.get("ended"), seconds=seconds, failures=outcome.get("failures") or [],
                    kept=outcome.get("kept") or [], cleanup=outcome.get("cleanup"), points=outcome.get("points"),
                    points_as_of=moments.get(name),
                    behind_seconds=app.behind_the_moment(outcome.get("points"), moments.get(name))
                    if app.follows_the_moment(node, runbook, self.task_vars.get(runbook + "_point_in_time")) else None)

    def levels_reported(self, by_name):
        """Each level's nodes, how long it took and its worst RTO, beside its forecast."""
        levels = []
        for number, names in enumerate(self.state["levels"], 1):
            took = [by_name[name]["seconds"] for name in names if by_name[name]["seconds"] is not None]
            rtos = [by_name[name]["rto_seconds"] for name in names if by_name[name]["rto_seconds"] is not None]
            planned = self.state["forecast"]["levels"][number - 1]
            levels.append(dict(level=number, nodes=names, seconds=max(took) if took else None, rto_seconds=max(rtos) if rtos else None,
                               forecast_p50_seconds=planned["p50_seconds"], forecast_p90_seconds=planned["p90_seconds"]))
        return levels

    def targets(self, runbook):
        """The nodes' RPO and RTO targets (each node's DR test judges its machines against its own): the strictest of them."""
        def target(node, key):
            try:
                return parse_number(node["vars"].get("%s_%s_target" % (runbook, key[:3])))
            except ValueError:  # its own run refused it
                return None
        strictest = {}
        for key in ("rpo_seconds", "rto_seconds"):
            known = [value for value in (target(node, key) for node in self.nodes.values()) if value is not None]
            strictest[key] = min(known) if known else None
        return strictest


# What running a failed application again does, by its runbook.
NEXT_RUN = dict(
    dr_test="Running it again is safe: it begins anew, and each node's DR test launches, checks and removes its test machines again.",
    failover="Running it again is safe: each node's machines failed over stand and are never launched again; the nodes that did not fail "
             "over launch, from their points as of the moment the new run begins (those that stand keep theirs).")


def nodes_failed(nodes):
    """The application's failures: each critical node that failed or was blocked, and each cleanup that failed."""
    failures = []
    for node in nodes:
        if node["impact"] == "critical" and node["state"] in (app.FAILED, app.BLOCKED):
            failures.append("%s: %s" % (node["name"], node["reason"] or "; ".join(node["failures"][:2]) or node["state"]))
        if (node["cleanup"] or {}).get("error"):
            failures.append("%s: the cleanup of its test machines failed: %s" % (node["name"], node["cleanup"]["error"]))
    return failures


def attempt_of(number, outcome):
    """What the report keeps of each launch of a node."""
    return dict(attempt=number, state=outcome["state"], report=outcome.get("report"), failed_machines=outcome["failed_machines"])


def report_lines(report):
    """The application's outcome as the operator reads it."""
    counts = {}
    for node in report["nodes"]:
        counts.setdefault(node["state"], []).append(node["name"])
    said = "; ".join("%s %s" % (state, ", ".join(names)) for state, names in sorted(counts.items()))
    lines = ["Application %s (%s): %s. %s." % (report["name"], report["runbook"], said_outcome(of_report(report)), said)]
    for node in report["nodes"]:
        if node["optional_failed"]:
            lines.append("%s: optional machines failed, not counted against it: %s." % (node["name"], shown(node["optional_failed"])))
        if node["state"] in (app.FAILED, app.BLOCKED) or node["state"] == app.WAITING:
            why = node["reason"] or "; ".join(failure.rstrip(".") for failure in node["failures"][:2])
            lines.append("%s: %s%s." % (node["name"], node["state"], " - " + why.rstrip(".") if why else ""))
        if node["cleanup"]:
            lines.append("%s: %s" % (node["name"], "its test machines were terminated and proven gone: %s." % shown(node["cleanup"]["removed"])
                                     if node["cleanup"]["proven"] else "the cleanup of its test machines failed: %s" % node["cleanup"]["error"]))
        elif node["kept"] and report["result"] == app.WAITING:
            lines.append("%s: its test machines run until the application ends: %s." % (node["name"], shown(node["kept"])))
        if node["approval"]:
            lines.append("%s: approved by %s%s (controller user %s, %s)." % (
                node["name"], node["approval"]["by"], ": " + node["approval"]["comment"] if node["approval"]["comment"] else "",
                node["approval"]["controller_user"], node["approval"]["at"]))
    took = [level["seconds"] for level in report["levels"] if level["seconds"] is not None]
    rtos = [level["rto_seconds"] for level in report["levels"] if level["rto_seconds"] is not None]
    if took:
        lines.append("Took %s over %d level%s; RTO %s (each level's slowest node, summed). %s" % (
            spoken(sum(took)), len(took), "" if len(took) == 1 else "s", spoken(sum(rtos)) if rtos else "-", app.forecast_said(report["forecast"])))
    return lines
