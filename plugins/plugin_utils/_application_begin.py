# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""An application run's first phase (plugin_utils._application_run): every node checked before any acts, the plan it
carries out or writes, an earlier run of the application that did not end resumed, the forecast, and the nodes as hosts
of the inventory by level."""

import getpass
import json
import os
import shutil

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._domain import FROM_REPORT, LATEST, parse_list, parse_point_policy, parse_time
from ansible_collections.replication.recovery.plugins.module_utils._lever import ENGAGED, lever_said
from ansible_collections.replication.recovery.plugins.module_utils._words import shown
from ansible_collections.replication.recovery.plugins.plugin_utils import _application as app
from ansible_collections.replication.recovery.plugins.plugin_utils._files import (
    TASK_FILES, controller_now, read_kept, task_files_refused, where_started, write_run)
from ansible_collections.replication.recovery.plugins.plugin_utils._judgement import launch_settings_refused, pin_points, points_refused
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import newest_first, to_read
from ansible_collections.replication.recovery.plugins.plugin_utils._options import OptionRefused, typed
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed
from ansible_collections.replication.recovery.plugins.plugin_utils._stops import outside_the_blast_radius

PLAN_SCHEMA = "replication.recovery.application.plan/v1"
# What of a node's connection the run keeps (in its state, its report and its answer): never its password or token, which
# the role's add_host takes from application_nodes itself, out of the log.
KEPT_OF_CONNECTION = ("url", "username")
# A node's connection as service_login takes it; how a connection is made (certificates, timeouts) is the run's own.
LOGIN_OF_CONNECTION = dict(url="api_url", username="username", password="password", api_token="api_token")
HOW_TO_CONNECT = ("validate_certs", "ca_path", "timeout", "retry_timeout")


class Beginning(object):
    """An application run's begin, which plugin_utils._application_run.ApplicationRun takes in."""

    def begin(self, args):
        """Begin the run, or resume one that did not end: the sessions it signed in with end with it."""
        self.sessions = {}
        try:
            return self.begun(args)
        finally:
            self.sign_out()

    def begun(self, args):
        plan = self.plan_to_carry_out(args) if args["plan"] else None
        nodes = plan["nodes"] if plan and args["nodes"] in (None, "", {}) else self.nodes_given(args)
        levels = app.levels_of(nodes)
        report_dir = os.path.realpath(os.path.expanduser(args["report_dir"] or "application_report"))
        state = os.path.join(report_dir, "application_%s.run" % safe(args["name"]))
        if plan:
            self.refuse_other_nodes(plan, nodes)
        earlier = self.earlier(state, nodes, args, plan)
        approvals = dict(earlier.get("approvals") or {})
        if args["approve"] is not None:
            approval = self.approval(as_mapping(args["approve"], "application_approve"), nodes)
            approvals[approval["node"]] = approval
        estimate = app.forecast(nodes, levels, newest_first(to_read(args["ledger_dir"])))
        # Every node's points in time as of one moment, on its service's clock: when the run began (a run resumed keeps
        # it), or when its plan was made. However long the levels before a node or an approval take, it launches from
        # its machines' newest points at or before that moment.
        points_as_of = self.moments(nodes, earlier.get("points_as_of") or (plan or {}).get("points_as_of") or {})
        ended = [name for name, outcome in outcomes_in(state, nodes).items() if outcome.get("state") in app.ENDED] if earlier else ()
        self.preflight(nodes, points_as_of, args["runbook"], ended=ended)
        for node in nodes.values():
            node["connection"] = kept_of(node["connection"])
        run = self.state = app.RunState(
            name=args["name"], runbook=args["runbook"], began=earlier.get("began") or controller_now(), nodes=nodes, levels=levels,
            approvals=approvals, report_dir=report_dir, forecast=estimate, resumed=bool(earlier.get("began")),
            controller_user=self.controller_user(), points_as_of=points_as_of, plan=earlier.get("plan") or (plan or {}).get("path"))
        self.directory = state
        if not self.check_mode:
            os.makedirs(state, exist_ok=True)
            self.keep()
        hosts = [self.host(node, number, args, state, report_dir, points_as_of[node["name"]]) for number, names in enumerate(levels, 1)
                 for node in (nodes[n] for n in names)]
        lines = self.begun_said(run)
        answer = dict(changed=not self.check_mode, state=state, hosts=hosts, levels=levels, forecast=estimate, points_as_of=points_as_of,
                      max_levels=app.MAX_LEVELS)
        if self.check_mode:
            files = self.write_plan(run, lines, report_dir)
            answer["plan"] = files["own"][".plan.json"]
            lines.append("Plan: %s - carry it out exactly with application_plan=%s." % (files["own"][".plan.json"], files["own"][".plan.json"]))
        answer["lines"] = lines
        return answer

    def begun_said(self, run):
        """What the run is about to do, in lines: its nodes by level, the moment of their points, the forecast."""
        nodes, levels = run["nodes"], run["levels"]
        lines = ["Application %s (%s): %d node%s in %d level%s%s." % (
            run["name"], run["runbook"], len(nodes), "" if len(nodes) == 1 else "s", len(levels), "" if len(levels) == 1 else "s",
            ", resuming the run begun %s" % run["began"] if run["resumed"] else "")]
        if run["plan"]:
            lines.append("Carries out the plan %s." % run["plan"])
        for number, names in enumerate(levels, 1):
            lines.append("Level %d: %s" % (number, "; ".join(self.plan_said(nodes[name], run["approvals"]) for name in names)))
        lines.append(moments_said(run["points_as_of"], "when the plan was made" if run["plan"] else "when the application's run began"))
        lines.append(app.forecast_said(run["forecast"]))
        return lines

    def moments(self, nodes, known):
        """Each node's moment for its points in time: the one known (the run resumed, its plan), else the service's
        now - one clock read for the nodes of the run's own connection (another account of the same service among them),
        one for each other service a node's connection names (its own clock)."""
        moments, read = dict((name, known[name]) for name in nodes if name in known), {}
        for name in sorted(set(nodes) - set(moments)):
            connection = nodes[name]["connection"] if nodes[name]["connection"].get("url") else {}
            if connection.get("url") not in read:
                read[connection.get("url")] = self.signed_in(connection)["service_time"]
            moments[name] = read[connection.get("url")]
        return moments

    def login_of(self, connection):
        """How a node's modules sign in: its connection (another account, another service), or the run's."""
        if not connection:
            return dict(self.step.connection)
        login = dict((LOGIN_OF_CONNECTION[key], value) for key, value in connection.items() if key in LOGIN_OF_CONNECTION)
        login.update((key, value) for key, value in self.step.connection.items() if key in HOW_TO_CONNECT)
        return login

    def signed_in(self, connection):
        """A session of a node's connection (the run's, when it has none), with the service's clock read at its sign-in:
        one a connection, kept for the nodes' checks and ended once begin is done (sign_out)."""
        key = json.dumps(connection, sort_keys=True)
        if key not in self.sessions:
            login = self.login_of(connection)
            answer = self.run_module("service_login", dict(login, read_time=True))
            if answer.get("failed"):
                raise StepFailed("The clock of the service at %s could not be read - every node's points in time are taken as of the moment "
                                 "the application's run begins: %s. Nothing was written." % (
                                     connection.get("url") or "the run's connection", answer.get("msg") or "its sign-in failed"))
            self.sessions[key] = dict(login=login, session=answer["session"], service_time=answer["service_time"])
        return self.sessions[key]

    def sign_out(self):
        """End the sessions begin signed in with (best effort: service_login warns of a sign-out not answered)."""
        for entry in self.sessions.values():
            self.run_module("service_login", dict(entry["login"], state="absent", session=entry["session"]))
        self.sessions = {}

    def preflight(self, nodes, moments, runbook, ended=()):
        """Every node checked before any node acts - in the real run and under --check alike: its project and machines, its
        connection, its machines' points in time as it takes them, and their launch settings. What a node's own run would
        refuse before its first write is refused here, in that run's words, for every node at once: no node of the
        application is left half-recovered by a fault one read finds."""
        faults = []
        if runbook == "dr_test":
            self.obey_the_levers(nodes, ended)
        for name in [name for names in app.levels_of(nodes) for name in names if name not in ended]:
            node = nodes[name]
            read = self.as_node(node, "service_machine_info", project=node["project"], machines=node["machines"] or None,
                                prove_launch_settings=True, include_points_in_time=not app.follows_the_moment(
                                    node, runbook, self.task_vars.get(runbook + "_point_in_time")))
            if read.get("failed"):
                faults.append("%s: %s" % (name, (read.get("msg") or "its project could not be read").rstrip(".")))
                continue
            radius = parse_list(node["vars"].get(runbook + "_blast_radius"), runbook + "_blast_radius")
            outside = outside_the_blast_radius(read["machines"], radius)
            if outside:
                faults.append("%s: %s %s outside the blast radius (%s)" % (name, shown(outside), "is" if len(outside) == 1 else "are", ", ".join(radius)))
            problems = (read.get("launch_settings") or {}).get("problems") or {}
            if problems:
                faults.append("%s: %s" % (name, launch_settings_refused(problems, len(read["machines"]), read["launch_settings"]["region"]["name"])))
            missing = self.points_missing(node, read["machines"], moments.get(name), runbook)
            if missing:
                faults.append("%s: %s" % (name, points_refused(missing, runbook)))
            faults.extend("%s: %s" % (name, fault) for fault in self.task_files_refused(node, runbook))
        if faults:
            raise StepFailed("Every node was checked before any acts: %d of %d would be refused, and no node acted; nothing was written. %s" % (
                len(faults), len(nodes) - len(ended), " ".join("Node %s." % fault.rstrip(".") for fault in faults)))

    def task_files_refused(self, node, runbook):
        """What is wrong with the task files of the user's a node's run includes (its checks, its hooks): each read as its run's
        first task reads them (runbook_options), here before any node acts."""
        given = dict((option, value) for option, value in node["vars"].items() if option.endswith(TASK_FILES))
        checks = node["checks_tasks"] or given.get(runbook + "_checks_tasks") or self.task_vars.get(runbook + "_checks_tasks")
        given[runbook + "_checks_tasks"] = checks
        paths = dict((option, where_started(value, option) if isinstance(value, str) else None) for option, value in given.items())
        return task_files_refused(paths, self.loader, self.variable_manager)

    def obey_the_levers(self, nodes, ended):
        """An application's DR tests are rehearsals: with the safety lever of any node's project engaged, the application is
        cancelled before any node acts (each node's own run would be cancelled at its start, and those before it would
        have run). A failover's nodes go on, and each says so."""
        engaged = []
        for name in [name for names in app.levels_of(nodes) for name in names if name not in ended]:
            read = self.as_node(nodes[name], "service_safety_lever", project=nodes[name]["project"])
            if read.get("failed"):  # its project unread: the preflight below says why
                continue
            if read["lever"]["state"] == ENGAGED:
                engaged.append(lever_said(read["lever"], nodes[name]["project"]))
        if engaged:
            raise StepFailed("Cancelled: %s. No node acted; nothing was written. Run it again once the lever is released." % "; ".join(engaged))

    def points_missing(self, node, machines, moment, runbook):
        """The machines of a node that have no such point in time as its run would take (pin_points' sentences): as of the
        application's moment - a machine with no point yet has none - or by the node's own point-in-time policy."""
        own = self.task_vars.get(runbook + "_point_in_time") or node["point_in_time"] or node["vars"].get(runbook + "_point_in_time")
        if app.follows_the_moment(node, runbook, self.task_vars.get(runbook + "_point_in_time")):
            policy = dict(kind=LATEST, given=False, said=LATEST, moment=parse_time(moment) if moment else None)
            without = [machine for machine in machines if machine.get("lag_seconds") is None]  # no point in time yet
            return pin_points(policy, without, {})[1]
        try:
            policy = parse_point_policy(own, "%s_point_in_time" % runbook)
        except ValueError as error:
            return [str(error)]
        if policy["kind"] == FROM_REPORT:  # a clean point search's report: its run reads it
            return []
        return pin_points(policy, machines, dict((machine["id"], machine.get("points_in_time") or []) for machine in machines),
                          policy.get("points"))[1]

    def as_node(self, node, module, **args):
        """One of the collection's modules run in the session of a node's connection (its own account, or the run's): its
        result, failed or not."""
        signed_in = self.signed_in(node["connection"])
        connection, self.step.connection = self.step.connection, dict(signed_in["login"], session=signed_in["session"])
        try:
            return self.service(module, failed_ok=True, **args)
        finally:
            self.step.connection = connection

    def nodes_given(self, args):
        """application_nodes checked - every fault named at once - with their connections (the secrets too, for the
        clock: begin keeps none of them)."""
        if args["nodes"] in (None, "", {}):
            raise StepFailed("application_nodes is required (or application_plan, a plan written under --check).")
        try:
            return app.nodes_of(as_mapping(args["nodes"], "application_nodes"), args["runbook"])
        except app.ApplicationError as error:
            raise StepFailed(to_text(error))

    def plan_to_carry_out(self, args):
        """The application's plan written under --check, which this run carries out: its nodes, and its moment for the
        points in time. Refused when it is no such plan, or another application's or runbook's."""
        path = os.path.realpath(os.path.expanduser(args["plan"]))
        try:
            with open(path, encoding="utf-8") as handle:
                plan = json.load(handle)
        except (OSError, ValueError) as error:
            raise StepFailed("The plan %s cannot be read (%s); nothing was written." % (args["plan"], error))
        if not isinstance(plan, dict) or plan.get("schema") != PLAN_SCHEMA:
            raise StepFailed("%s is not an application's plan (schema %s): the plan is the .plan.json the application's run under --check "
                             "wrote. Nothing was written." % (args["plan"], PLAN_SCHEMA))
        differs = ["%s %s, not %s" % (what, plan.get(key), args[key]) for what, key in (("the application", "name"), ("the runbook", "runbook"))
                   if plan.get(key) != args[key]]
        if differs:
            raise StepFailed("The plan %s is of %s; nothing was written. Plan again with --check." % (args["plan"], "; ".join(differs)))
        # The plain name is a copy of the newest plan, which the next --check replaces: the run names the plan's own file.
        own = os.path.join(os.path.dirname(path), "%s.plan.json" % (plan.get("run") or {}).get("files"))
        return dict(plan, path=own if os.path.isfile(own) else path)

    def refuse_other_nodes(self, plan, nodes):
        """The nodes given with a plan are the plan's: one changed since is refused, by name. A node in another account
        needs application_nodes, for its connection's secrets, which no plan holds."""
        planned = plan["nodes"]
        same = set(planned) & set(nodes)
        changed = sorted(set(planned) ^ set(nodes)) + sorted(
            name for name in same if planned[name] != dict(nodes[name], connection=kept_of(nodes[name]["connection"])))
        if changed:
            raise StepFailed("The plan %s was made for other nodes: %s differ%s from application_nodes. Nothing was written. Give the plan "
                             "alone, or plan again with --check." % (plan["path"], ", ".join(changed), "s" if len(changed) == 1 else ""))
        elsewhere = [name for name, node in sorted(nodes.items()) if node["connection"]]
        if elsewhere and nodes is planned:
            raise StepFailed("The plan %s has nodes in another account (%s), whose passwords or tokens no plan keeps: give application_nodes "
                             "too, as they were planned. Nothing was written." % (plan["path"], ", ".join(elsewhere)))

    def write_plan(self, run, lines, report_dir):
        """Under --check, the plan: what the run would do, and the moment of its points, for application_plan."""
        plan = dict(schema=PLAN_SCHEMA, name=run["name"], runbook=run["runbook"], began=controller_now(), points_as_of=run["points_as_of"],
                    nodes=run["nodes"], levels=run["levels"], forecast=run["forecast"], lines=lines)
        markdown = "# The plan of the application %s (%s)\n\n%s\n" % (run["name"], run["runbook"], "\n".join("- " + line for line in lines))
        return write_run(report_dir, "application_%s" % safe(run["name"]), plan["began"], [(".plan.json", plan), (".plan.md", markdown)])

    def earlier(self, state, nodes, args, plan):
        """An earlier run of the application that did not end (stopped, or waiting for an approval): resumed, its ended
        nodes adopted. One that ended is put aside: this is a new run. A plan given must be the one it carries out."""
        earlier = kept_state(state)
        if earlier is None or earlier.get("ended"):
            if earlier is not None and not self.check_mode:
                shutil.rmtree(state, ignore_errors=True)
            return app.RunState()
        if earlier.get("runbook") != args["runbook"]:
            raise StepFailed("The application's %s run begun %s has not ended (%s): this %s run is refused, and nothing was written. Run the %s "
                             "again to end it (without the nodes waiting for an approval, if you like), or give this run another "
                             "application_name." % (earlier.get("runbook"), earlier.get("began"), state, args["runbook"], earlier.get("runbook")))
        moved = [name for name in nodes if name in earlier.get("nodes", {}) and earlier["nodes"][name]["project"] != nodes[name]["project"]]
        if moved:
            raise StepFailed("The application's run begun %s has not ended, and its nodes %s were of other projects then. Run it again as it "
                             "was to end it, or remove %s to begin anew." % (earlier.get("began"), ", ".join(moved), state))
        if plan and earlier.get("points_as_of") and plan["points_as_of"] != earlier["points_as_of"]:
            raise StepFailed("The application's run begun %s has not ended, and it takes its points in time as of another moment than the plan "
                             "%s (%s, not %s). Nothing was written. Run it again without the plan to end it, or remove %s to begin anew." % (
                                 earlier.get("began"), plan["path"], moments_said(earlier["points_as_of"]), moments_said(plan["points_as_of"]),
                                 state))
        return earlier

    def approval(self, given, nodes):
        if not isinstance(given, dict) or not isinstance(given.get("node"), str) or not isinstance(given.get("by"), str) or not given["by"].strip():
            raise StepFailed("application_approve must be a mapping with node (the node approved), by (who approves) and, if you like, comment.")
        if given["node"] not in nodes:
            raise StepFailed("application_approve names %s, which is not a node (nodes: %s)." % (given["node"], ", ".join(sorted(nodes))))
        if not nodes[given["node"]]["approval"]:
            raise StepFailed("application_approve names %s, which needs no approval." % given["node"])
        return dict(node=given["node"], by=given["by"].strip(), comment=str(given.get("comment") or ""), at=controller_now(),
                    controller_user=self.controller_user())

    def controller_user(self):
        """Who runs the application: AWX's user when AWX gives it, else this machine's."""
        return self.task_vars.get("awx_user_name") or getpass.getuser()

    def host(self, node, level, args, state, report_dir, points_as_of):
        """The host a node is in the inventory: in the group of its level, with its runbook's variables (its connection
        is added by the role's add_host, from application_nodes)."""
        runbook = args["runbook"]
        variables = dict(node["vars"])
        variables.update({
            runbook + "_project": node["project"],
            runbook + "_report_dir": os.path.join(report_dir, "nodes"),
        })
        if node["machines"]:
            variables[runbook + "_machines"] = node["machines"]
        if node["point_in_time"]:
            variables[runbook + "_point_in_time"] = node["point_in_time"]
        if node["checks_tasks"]:
            variables[runbook + "_checks_tasks"] = node["checks_tasks"]
        if runbook == "dr_test":
            # A DR test's test machines stay up until the application ends, for the checks of the nodes after it.
            variables.update(runbook_keep=True, runbook_kept_because="kept for the nodes after it; the application cleans them up when it ends")
        # Its launched machines join the inventory only when its checks run on them: add_host is the controller's alone.
        variables.update(runbook_add_hosts=bool(variables.get(runbook + "_checks_tasks")), runbook_points_as_of=points_as_of,
                         application_project=node["project"],
                         application_poll_interval=self.runbook_setting(variables, runbook + "_poll_interval", 5),
                         application_progress_interval=self.runbook_setting(variables, runbook + "_progress_interval", 60),
                         application_node=node["name"], application_state=state, application_retry=node["retry"],
                         ansible_connection="local", ansible_python_interpreter=self.task_vars.get("ansible_playbook_python"))
        return dict(name="%s.%s" % (args["name"], node["name"]), groups=["application_level_%d" % level, "application_nodes"], **variables)

    def runbook_setting(self, variables, name, default):
        """A setting of the node's runbook that the application's own steps on its host follow too (its waits): the
        node's, else the run's, else the runbook's default."""
        return variables.get(name) or self.task_vars.get(name) or default

    def plan_said(self, node, approvals):
        said = "%s (project %s, %s%s" % (node["name"], node["project"], "machines " + shown(node["machines"]) if node["machines"] else "every machine",
                                         ", %s" % node["impact"])
        if node["after"]:
            said += ", after " + ", ".join(node["after"])
        if node["retry"]:
            said += ", retry %d" % node["retry"]
        if node["approval"]:
            said += ", approved by %s" % approvals[node["name"]]["by"] if node["name"] in approvals else ", needs approval"
        return said + ")"


def kept_state(directory):
    """The record of the application's run kept in ``directory`` (its run.json), or None when there is none. One that cannot be
    read (read_kept), or with members this version does not keep (another version's), is refused by name: taken up, it would
    be misread."""
    path = os.path.join(directory, "run.json")
    kept = read_kept(path, "The application's run record")
    if kept is None:
        return None
    unknown = sorted(set(kept) - app.RunState.DECLARED)
    if unknown:
        raise StepFailed("%s holds %s, which no application run of this version keeps (another version of the collection wrote it?): "
                         "nothing was written. Remove it to begin anew." % (path, ", ".join(map(repr, unknown))))
    return app.RunState(kept)


def node_file_in(state, name):
    return os.path.join(state, "node_%s.json" % safe(name))


def outcomes_in(state, names):
    """What the run state ``state`` says of each node of ``names`` that acted or waits (its node file): an earlier run's
    ended nodes are adopted, never checked or run again."""
    found = {}
    for name in names:
        kept = read_kept(node_file_in(state, name), "The record of the application's node %s" % name)
        if kept is not None:
            found[name] = kept
    return found


def as_mapping(given, name):
    """A mapping given as such, or as its JSON or YAML text (an AWX survey's, an extra variable's), as a role's option of type
    dict reads it (plugin_utils._options)."""
    try:
        return typed(name, dict(type="dict"), given)
    except OptionRefused as refused:
        raise StepFailed("%s. Nothing was written." % str(refused).rstrip("."))


def kept_of(connection):
    """What the run keeps of a node's connection: no password or token."""
    return dict((key, value) for key, value in connection.items() if key in KEPT_OF_CONNECTION)


def moments_said(moments, when=None):
    """Each node's moment for its points in time, in words: one for all, or the nodes of each."""
    by_moment = {}
    for name, moment in sorted(moments.items()):
        by_moment.setdefault(moment, []).append(name)
    if when is None:
        return "; ".join("%s for %s" % (moment, ", ".join(names)) for moment, names in sorted(by_moment.items()))
    said = "; ".join(moment if len(by_moment) == 1 else "%s (%s)" % (moment, ", ".join(names)) for moment, names in sorted(by_moment.items()))
    return "Points in time: each machine's newest at or before %s, on its service's clock - %s - unless its node names its own." % (said, when)


def safe(name):
    return "".join(char if char.isalnum() or char in "-_." else "_" for char in str(name))
