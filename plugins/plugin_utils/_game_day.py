# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A game day's scenario, read and checked before anything is read or written: what it rehearses, with which of the
runbook's options, within which blast radius, against which targets, and what stops it. The role
replication.recovery.game_day gives the runbook the options this answers (``given``: every one of its RUNBOOKS entry,
given or its default, and the scenario's own members, by their full names) and runs the probes of your tasks before the
start."""

import os

import yaml

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value, parse_list, parse_number, parse_stop_when
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION
from ansible_collections.replication.recovery.plugins.plugin_utils._options import ROLES, OptionRefused, argument_specs, typed
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME

# What a game day rehearses - a DR test, a restore test, a clean point drill, a failover that rolls back in an isolated
# test network, the DR tests of an application - and the options of each a scenario gives under ``with`` (without the
# runbook's prefix). Its blast radius, targets and stop conditions are the scenario's own members; a clean point drill
# has no RPO or RTO target (it finds each machine's newest clean point).
SHARED = ("project", "machines", "exclude", "checks_tasks", "report_dir", "poll_interval", "progress_interval", "launch_timeout")
RUNBOOKS = dict(dr_test=SHARED + ("point_in_time", "gate_max_lag", "waves", "launch_type", "network"),
                restore_test=SHARED + ("point_in_time", "gate_max_lag"), clean_point=SHARED + ("after", "before", "consistent", "network"),
                failover=SHARED + ("point_in_time", "gate_max_lag", "waves", "network"), application=("name", "nodes", "report_dir"))
TARGETED = ("dr_test", "restore_test", "failover", "application")
# An application's game day rehearses its DR tests - one a node, in the nodes' projects. The scenario's own members go to
# each node's DR test (its variables, by their full names), which watches its stop conditions as it runs; the application
# checks every node's machines against the blast radius before any node acts.
APPLICATION, NODE_RUNBOOK = "application", "dr_test"
# A game day's failover is a rehearsal: it always rolls back (its commit is the game day's, never the scenario's), and only
# in an isolated test network (with.network), so that no recovery machine of it touches production.
ROLLED_BACK = ("failover",)
OWN = dict(stop_when="stop_when", blast_radius="blast_radius", rpo_target="targets.rpo_seconds", rto_target="targets.rto_seconds")
# What the game day gives its runbook of its own: your probes' tasks after each wave (tasks/between.yml).
AFTER_WAVE = "after_wave_tasks"
BETWEEN = os.path.join(COLLECTION, "roles", "game_day", "tasks", "between.yml")
MEMBERS = ("name", "hypothesis", "runbook", "with", "blast_radius", "targets", "stop_when")


class ScenarioRefused(ValueError):
    """A scenario that cannot run: its message names the member and what is wrong."""


def _mapping(value, what):
    try:
        return typed(what, dict(type="dict"), value) or {}
    except OptionRefused as refused:
        raise ScenarioRefused(str(refused))


def _defaults(runbook):
    options = argument_specs(os.path.join(ROLES, runbook))["main"]["options"]
    return dict((name, options["%s_%s" % (runbook, name)].get("default")) for name in RUNBOOKS[runbook])


def plan_of(scenario):
    """The scenario (a mapping, or its JSON or YAML text) as the game day runs it: name, hypothesis, runbook (and its title), project, the
    blast radius (projects, machines), targets, the probes (stop_when, as given; probes, read), ``with`` - every option of
    its RUNBOOKS entry, given or the runbook's default - ``own``, what the scenario gives the runbook of its own members,
    and ``given``, all of them by their full names as the game day gives them. A ScenarioRefused names what cannot run."""
    scenario = _mapping(scenario, "game_day_scenario")
    runbook = _runbook_of(scenario)
    given = _with_of(scenario, runbook)
    nodes = _nodes(given.get("nodes"), scenario["name"]) if runbook == APPLICATION else None
    radius = _mapping(scenario.get("blast_radius"), "game_day_scenario's blast_radius")
    projects, project = _projects_of(scenario, radius, given, nodes, runbook)
    targets, probes, stop_when = _targets_and_probes(scenario, runbook)
    options = dict(_defaults(runbook), **given)
    if nodes is None:
        options["project"] = project
    if runbook in ROLLED_BACK and no_value(options["network"]):
        raise ScenarioRefused("game_day_scenario's failover has no with.network: a game day's failover launches its recovery machines "
                              "only into an isolated test network (the options of service_blueprint that make it), never production's")
    probes_of_tasks = [probe for probe in probes if probe["kind"] == "tasks"]
    own = dict(stop_when=stop_when, blast_radius=_listed(radius.get("machines"), "blast_radius.machines"))
    if runbook in TARGETED:
        own.update(rpo_target=targets["rpo_seconds"], rto_target=targets["rto_seconds"])
    if runbook in ROLLED_BACK:
        own.update(commit=False)
    if nodes is None:
        given_to_runbook = given_to(runbook, dict(options, **own), bool(probes_of_tasks))
    else:
        # Each node's DR test is given the scenario's own members, as a node's own variables; the application runs them.
        node_vars = given_to(NODE_RUNBOOK, own, bool(probes_of_tasks))
        options.update(name=given["name"] if not no_value(given.get("name")) else scenario["name"],
                       nodes=dict((name, dict(node, vars=dict(node.get("vars") or {}, **node_vars))) for name, node in nodes.items()))
        given_to_runbook = given_to(runbook, dict(options, runbook=NODE_RUNBOOK), False)
    subject = "%s of %s" % (BY_NAME[runbook].title, project) if nodes is None else "application %s" % options["name"]
    return dict(name=scenario["name"], hypothesis=scenario["hypothesis"], runbook=runbook, title=BY_NAME[runbook].title, subject=subject,
                project=project, projects=projects,
                machines=own["blast_radius"], targets=targets, probes=probes, tasks_probes=probes_of_tasks,
                own=own, given=given_to_runbook, **{"with": options})


def _runbook_of(scenario):
    """The runbook the scenario rehearses, once its members are known ones and it has a name and a hypothesis."""
    unknown = sorted(set(scenario) - set(MEMBERS))
    if unknown:
        raise ScenarioRefused("game_day_scenario has %s, which a scenario does not (its members: %s)" % (", ".join(map(str, unknown)), ", ".join(MEMBERS)))
    for member in ("name", "hypothesis"):
        if no_value(scenario.get(member)) or not isinstance(scenario[member], str):
            raise ScenarioRefused("game_day_scenario has no %s: every game day says what it is and what it expects" % member)
    runbook = scenario.get("runbook") or "dr_test"
    if not isinstance(runbook, str) or runbook not in RUNBOOKS:  # a list or a mapping is no runbook's name (nor hashable)
        raise ScenarioRefused("game_day_scenario's runbook is %s: a game day rehearses a DR test (dr_test), a restore test (restore_test), a "
                              "clean point drill (clean_point), a failover that rolls back in a test network (failover) or the DR tests of an "
                              "application (application)" % runbook)
    return runbook


def _with_of(scenario, runbook):
    """The options the scenario gives its runbook (``with``): each one the game day passes to it, none of the scenario's own."""
    given = _mapping(scenario.get("with") or {}, "game_day_scenario's with")
    own = sorted(set(given) & set(OWN))
    if own:
        raise ScenarioRefused("game_day_scenario's with gives %s: give %s as the scenario's own %s" % (
            ", ".join(own), "it" if len(own) == 1 else "them", ", ".join(OWN[name] for name in own)))
    if runbook in ROLLED_BACK and "commit" in given:
        raise ScenarioRefused("game_day_scenario's with gives commit: a game day's failover always rolls back - a committed failover is "
                              "no rehearsal (run replication.recovery.failover for one)")
    strangers = sorted(set(given) - set(RUNBOOKS[runbook]))
    if strangers:
        raise ScenarioRefused("game_day_scenario's with gives %s, which a game day does not pass to its %s (it takes %s)" % (
            ", ".join(map(str, strangers)), runbook, ", ".join(RUNBOOKS[runbook])))
    return given


def _listed(value, what):
    """A list the scenario gives (a list, or text with items separated by commas); anything else refused by name."""
    try:
        return parse_list(value, what)
    except ValueError as error:
        raise ScenarioRefused("game_day_scenario's %s" % error)


def _projects_of(scenario, radius, given, nodes, runbook):
    """The blast radius's projects, and the project the runbook runs in (None for an application's: its nodes' projects, each
    within the radius)."""
    if set(radius) - {"projects", "machines"}:
        raise ScenarioRefused("game_day_scenario's blast_radius has projects and machines, not %s" % ", ".join(sorted(set(radius) - {"projects", "machines"})))
    projects = _listed(radius.get("projects"), "blast_radius.projects")
    if not projects:
        raise ScenarioRefused("game_day_scenario's blast_radius names no project: a game day touches only what its blast radius names")
    project = given.get("project") or (projects[0] if len(projects) == 1 else None)
    if nodes is not None:
        outside = ["node %s's project %s" % (name, node.get("project")) for name, node in sorted(nodes.items()) if node.get("project") not in projects]
        if outside:
            raise ScenarioRefused("%s %s outside the blast radius of game day %s (its projects: %s)" % (
                ", ".join(outside), "is" if len(outside) == 1 else "are", scenario["name"], ", ".join(projects)))
        return projects, None
    if not project:
        raise ScenarioRefused("game_day_scenario's blast radius has %d projects: name the one the %s runs in (with.project)" % (len(projects), runbook))
    if project not in projects:
        raise ScenarioRefused("project %s is outside the blast radius of game day %s (its projects: %s)" % (
            project, scenario["name"], ", ".join(projects)))
    return projects, project


def _targets_and_probes(scenario, runbook):
    """The scenario's targets (rpo_seconds, rto_seconds), its probes read, and its stop_when as given but the probes of tasks."""
    targets = _mapping(scenario.get("targets") or {}, "game_day_scenario's targets")
    if targets and runbook not in TARGETED:
        raise ScenarioRefused("game_day_scenario gives targets, which a %s has none of: it finds each machine's newest clean point "
                              "(give its checks in with.checks_tasks)" % BY_NAME[runbook].title.lower())
    if set(targets) - {"rpo_seconds", "rto_seconds"}:
        raise ScenarioRefused("game_day_scenario's targets are rpo_seconds and rto_seconds, not %s" % ", ".join(
            sorted(set(targets) - {"rpo_seconds", "rto_seconds"})))
    given_probes = scenario.get("stop_when")
    try:
        given_probes = yaml.safe_load(given_probes) if isinstance(given_probes, str) else given_probes
        targets = dict((name, parse_number(targets.get(name), "targets.%s" % name)) for name in ("rpo_seconds", "rto_seconds"))
        probes = parse_stop_when(given_probes, "game_day_scenario's stop_when")
    except (ValueError, yaml.YAMLError) as error:
        raise ScenarioRefused(str(error))
    return targets, probes, [given_probe for given_probe, probe in zip(given_probes or [], probes) if probe["kind"] != "tasks"]


def refused_said(scenario, refused):
    """What a game day whose scenario cannot run says (a ScenarioRefused): its outcome REFUSED, and nothing done."""
    return "Game day %s: REFUSED. %s. Nothing was read or written." % (name_of(scenario) or "(no name)", str(refused).rstrip("."))


def name_of(scenario):
    """The scenario's name, as far as it can be read (a mapping, or its JSON or YAML text), for a refusal to say; else None."""
    try:
        scenario = yaml.safe_load(scenario) if isinstance(scenario, str) else scenario
    except yaml.YAMLError:
        return None
    name = scenario.get("name") if isinstance(scenario, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def _nodes(given, name):
    """An application's nodes as a scenario gives them (a mapping, or its JSON or YAML text): each a mapping with its
    project. The application checks the rest before any node acts; a game day runs unattended, so no node may wait for an
    approval, and the scenario's own members are given to each node by the game day, not by the node's vars."""
    try:
        nodes = _mapping(yaml.safe_load(given) if isinstance(given, str) else given, "game_day_scenario's with.nodes")
    except yaml.YAMLError as error:
        raise ScenarioRefused("game_day_scenario's with.nodes is text that is neither JSON nor YAML: %s" % str(error).splitlines()[0])
    if not nodes:
        raise ScenarioRefused("game_day_scenario's application has no with.nodes: the nodes of the application it rehearses")
    faults = []
    for node_name, node in sorted(nodes.items()):
        if not isinstance(node, dict):
            faults.append("node %s is no mapping (project, after, ...)" % node_name)
            continue
        if node.get("approval"):
            faults.append("node %s needs an approval, and a game day runs unattended" % node_name)
        if not isinstance(node.get("vars") or {}, dict):
            faults.append("node %s's vars are no mapping (the DR test's own variables, dr_test_...)" % node_name)
            continue
        own = sorted(key for key in node.get("vars") or {} if key[len(NODE_RUNBOOK) + 1:] in OWN or key.endswith("_" + AFTER_WAVE))
        if own:
            faults.append("node %s's vars give %s, which the game day gives every node from the scenario's own %s" % (
                node_name, ", ".join(own), ", ".join(sorted(set(OWN.get(key[len(NODE_RUNBOOK) + 1:], AFTER_WAVE) for key in own)))))
    if faults:
        raise ScenarioRefused("game day %s: %s" % (name, "; ".join(faults)))
    return nodes


def given_to(runbook, options, tasks_probes):
    """What the game day gives its runbook (the variable replication_recovery_options_given), by their full names - and,
    when the scenario has probes of your tasks, its own task file that looks at them again after each wave (else none)."""
    given = dict(("%s_%s" % (runbook, name), value) for name, value in options.items())
    if runbook != APPLICATION:  # an application's nodes look at them (their DR tests' own)
        given["%s_%s" % (runbook, AFTER_WAVE)] = BETWEEN if tasks_probes else None
    return given
