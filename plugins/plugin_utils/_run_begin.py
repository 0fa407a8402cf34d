# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's first phase (plugin_utils._run): its record, holding what the runbook was asked, and one session for every later
step. What a run begins with (OPTIONS): runbook_start's runbook, its project and what the engine's role gives it, as its
documentation declares them; and the engine's inputs (INPUTS) - a runbook role's options of their names, typed by the
role's argument specs before they get here, and what a runbook sets itself."""

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.replication.recovery.plugins.plugin_utils._stops import new_watch, watched
from ansible_collections.replication.recovery.plugins.module_utils._domain import (
    FROM_REPORT, KINDS, LATEST, LAUNCH_TYPES, PER_MACHINE, PRODUCTION_KINDS, kind_of, no_value, parse_groups, parse_list, parse_number,
    parse_point_policy, parse_stop_when, parse_test_network, parse_time)
from ansible_collections.replication.recovery.plugins.modules import runbook_start
from ansible_collections.replication.recovery.plugins.plugin_utils._options import documented, meant, nearest, options_answered
from ansible_collections.replication.recovery.plugins.plugin_utils._proof import UNPROVEN
from ansible_collections.replication.recovery.plugins.plugin_utils._record import new
from ansible_collections.replication.recovery.plugins.plugin_utils._report import read_plan
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._search import clean_points_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed, new_run, now_iso

# The engine's inputs, declared once. Each is the option of a runbook role of its name (without the role's prefix), which
# the role's argument specs type and default (plugin_utils._options), or what a runbook sets itself in YAML (its
# runbook_inputs): these specs type the latter, and default what a role does not declare. The text ones (raw) are read
# by the domain's parsers - a point-in-time policy, groups of patterns, stop conditions - wherever they come from.
INPUTS = dict(
    launch_type=dict(type="str", choices=list(LAUNCH_TYPES), default="test"), recovery_plan=dict(type="str"),
    machines=dict(type="raw"), exclude=dict(type="raw"), waves=dict(type="raw"), round=dict(type="int"),
    point_in_time=dict(type="raw"), points_strict=dict(type="bool", default=False), pin_points=dict(type="bool", default=True),
    pinned=dict(type="dict"), plan=dict(type="path"), replace=dict(type="raw"), confirm=dict(type="str"),
    roll_back=dict(type="bool", default=False), on_failed_over=dict(type="str", choices=["refuse", "stand", "own"], default="refuse"),
    report_dir=dict(type="path"), stop_when=dict(type="raw"), blast_radius=dict(type="raw"),
    gate=dict(type="dict", default={}, options=dict(
        states=dict(type="raw", default=["continuous"]), max_lag=dict(type="raw"), no_backlog=dict(type="bool", default=False),
        enforce=dict(type="bool", default=True), name=dict(type="str", default="health gate"))),
    targets=dict(type="dict", default={}, options=dict(rpo_seconds=dict(type="raw"), rto_seconds=dict(type="raw"))),
    adopt=dict(type="bool", default=True), clean_leftovers=dict(type="bool", default=False), clean_leftovers_option=dict(type="str"),
    blocking_launch_types=dict(type="list", elements="str", default=[]), clean_blocking=dict(type="bool", default=False),
    clean_blocking_option=dict(type="str", default="clean_blocking"),
    check_launch_settings=dict(type="bool", default=True), launch_settings_strict=dict(type="bool", default=False),
    test_network=dict(type="raw"),
    checks_tasks=dict(type="str"), checks_name=dict(type="str", default="checks"), check_public_ip=dict(type="bool", default=True),
    keep_on_failure=dict(type="bool", default=False), add_hosts=dict(type="bool", default=True),
    host_prefix=dict(type="str", default="dr-test-"), group=dict(type="str", default="dr_test_machines"),
    launch_timeout=dict(type="raw", default=3600), boot_timeout=dict(type="raw", default=900), cleanup_timeout=dict(type="raw", default=1800),
    poll_interval=dict(type="raw", default=5), progress_interval=dict(type="raw", default=60),
)
# Seconds the run waits, and how often it looks: (input, whether it must be more than zero).
DURATIONS = (("launch_timeout", True), ("boot_timeout", False), ("cleanup_timeout", True), ("poll_interval", True), ("progress_interval", True))
# The options every runbook role names alike that the engine takes grouped: option (without the runbook's prefix) -> the
# input, and its key within it. Every other option is the input of its own name, when the engine has one.
GROUPED = dict(gate_states=("gate", "states"), gate_max_lag=("gate", "max_lag"), gate_no_backlog=("gate", "no_backlog"),
               rpo_target=("targets", "rpo_seconds"), rto_target=("targets", "rto_seconds"), network=("test_network", None))


def engine_inputs(runbook, options, names):
    """The engine's inputs that a runbook role's options give (runbook_options' answer, named without the prefix): each
    option of one of ``names`` by that name, the grouped ones where GROUPED puts them."""
    inputs = {}
    for option, value in options.items():
        into, key = GROUPED.get(option, (option, None))
        if key:
            inputs.setdefault(into, {})[key] = value
        elif into in names:
            inputs[into] = value
    if "clean_leftovers" in options:
        inputs["clean_leftovers_option"] = "%s_clean_leftovers" % runbook  # the option named when leftovers stop the run
    return inputs


def over(under, above):
    """``above`` over ``under``: the mappings the engine groups (the gate, the targets) key by key."""
    merged = dict(under)
    for name, value in above.items():
        merged[name] = dict(merged[name], **value) if isinstance(value, dict) and isinstance(merged.get(name), dict) else value
    return merged


def _gate_of(gate):
    """The health gate asked: the states it lets through, its lag and backlog, whether it holds the run, its name."""
    max_lag = parse_number(gate.get("max_lag"), "gate.max_lag")
    return dict(states=parse_list(gate["states"], "gate.states") or ["continuous"], max_lag=max_lag, no_backlog=gate["no_backlog"],
                lag_threshold=600 if max_lag is None else max_lag, enforce=gate["enforce"], name=gate["name"] or "health gate")


def _blocking_of(args):
    """The launch types that block a run, and whether (and with which option) the run cleans them up."""
    blocking = args["blocking_launch_types"]
    unknown = [kind for kind in blocking if kind not in KINDS]
    if unknown:
        raise ValueError("blocking_launch_types are %s, not %s" % (", ".join(KINDS), ", ".join(map(str, unknown))))
    return dict(kinds=blocking, clean=args["clean_blocking"], option=args["clean_blocking_option"], machines=[])


def _settings_of(args):
    """The run's settings that the steps after the launch read: the checks, the hosts of the launched machines, the waits."""
    checks_tasks = None if no_value(args["checks_tasks"]) else args["checks_tasks"]
    keep_on_failure = args["keep_on_failure"]
    return dict(
        checks_tasks=checks_tasks, checks_name=args["checks_name"],
        check_public_ip=args["check_public_ip"],
        keep_on_failure=keep_on_failure,
        # Hosts of the launched machines cost the controller time at the size of an estate: made when something uses them.
        add_hosts=args["add_hosts"] or bool(checks_tasks) or keep_on_failure,
        host_prefix=args["host_prefix"], group=args["group"], clean_leftovers_option=args["clean_leftovers_option"] or None,
        **dict((name, _wait_setting(args, name, positive)) for name, positive in DURATIONS))


def _wait_setting(args, name, positive):
    value = parse_number(args[name], name)
    value = INPUTS[name]["default"] if value is None else value
    if value < 0 or (positive and value == 0):
        raise ValueError("%s must be %s, not %s" % (name, "more than 0" if positive else "0 or more", value))
    return value


# What a run begins with: runbook_start's options but the halves of the start and what gives the inputs (declared where
# ansible-doc reads them), and the engine's inputs.
OPTIONS = dict(((name, spec) for name, spec in documented(runbook_start.DOCUMENTATION).items()
                if name not in ("options", "inputs", "begin", "read", "run")), **INPUTS)


def begin_arguments(args):
    """runbook_start's arguments as a run begins with them: a runbook role's options (``options``) are the
    engine's inputs of their names, and the runbook's own ones (its hooks, a failover's commit) its own; what the runbook sets
    itself (``inputs``, taken as if each were given on its own: an unknown one is refused by name) goes over them, and an input
    given on its own over both."""
    args = dict(args)
    options, inputs = args.pop("options", None), args.pop("inputs", None)
    if isinstance(options, dict) and args.get("runbook") in BY_NAME:
        options = options_answered(BY_NAME[args["runbook"]].role, options)
    merged = engine_inputs(args.get("runbook"), options, OPTIONS) if isinstance(options, dict) else {}
    return _given(over(over(merged, inputs if isinstance(inputs, dict) else {}), args))


def begun_with(args):
    """What a run begins with (OPTIONS), from runbook_start's validated arguments ``args`` (begin_arguments), typed and
    defaulted: a StepFailed names what the runbook gave that is no input or not of its type."""
    given = begin_arguments(dict((name, value) for name, value in args.items() if value is not None and (name in OPTIONS or name in ("options", "inputs"))))
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        near = meant(unknown[0], nearest(unknown[0], INPUTS))
        raise StepFailed("Bug in the runbook: %s is no input of the engine (_run_begin.INPUTS)%s" % (
            unknown[0], "; did you mean %s?" % near if near else "."))
    checked = ArgumentSpecValidator(OPTIONS).validate(given)
    if checked.error_messages:
        raise StepFailed("Bug in the runbook: %s." % "; ".join(checked.error_messages))
    return checked.validated_parameters


def _given(args):
    """``args`` without what was not given (None, in them or in a mapping of them): an input not given takes its default."""
    return dict((name, dict((key, member) for key, member in value.items() if member is not None) if isinstance(value, dict) else value)
                for name, value in args.items() if value is not None)


class Beginning(object):
    """The run's first phase: its record, proven to go together, and the sign-in."""

    def begin(self, args):
        """Make the run's record from ``args`` (OPTIONS, as begin_arguments gives them), refuse what does not go together, and sign
        in: answers the run's path and the session (hidden from every output)."""
        self.phase = "login"
        try:
            record, problem = self.new_record(args), None
        except ValueError as error:
            defaults = dict((name, spec) for name, spec in OPTIONS.items() if name not in ("runbook", "title", "project"))
            record, problem = self.new_record(dict(args, **ArgumentSpecValidator(defaults).validate({}).validated_parameters)), str(error)
        self.path, self.record = new_run(record), record
        if problem:
            self.phase = "preflight"
            raise StepFailed("%s. Nothing was launched." % problem.rstrip("."), run=self.path)
        self.refuse_what_does_not_go_together()
        try:
            login = self.service("service_login")
        except StepFailed as failure:
            raise StepFailed(str(failure), run=self.path)
        record["username"] = (login.get("user") or {}).get("username")
        record["account"] = (login.get("user") or {}).get("account")
        # The result holds the session: it is hidden from every output, at any verbosity.
        return dict(run=self.path, session=login["session"], user=record["username"], _ansible_no_log=True)

    def new_record(self, args):
        machines = None if no_value(args["machines"]) else parse_list(args["machines"], "machines") or None
        unproven = machines == [UNPROVEN]
        # Parsed in the order of the options' errors: the first bad one is the one named.
        gate, targets = _gate_of(args["gate"] or {}), args["targets"] or {}
        policy = parse_point_policy(args["point_in_time"], "%s_point_in_time" % args["runbook"])
        points, points_from, plan = policy.get("points"), None, None
        if policy["kind"] == FROM_REPORT:
            # The hand-off of a clean point search: each machine from the clean point its report names.
            points, without = clean_points_of(policy["report"], project=args["project"])
            points_from = dict(report=policy["report"], without=without)
        asked = dict(machines=None if unproven else machines, unproven=unproven, exclude=parse_list(args["exclude"], "exclude"),
                     waves=parse_groups(args["waves"], "the waves"))
        if not no_value(args["plan"]):
            plan = self.plan_to_carry_out(args, asked, policy)
            asked.update(machines=None, exclude=[], waves=plan["waves"])
            policy = dict(kind=PER_MACHINE, given=True, points=plan["points"], said="the plan %s" % plan["path"], planned=True)
            points = plan["points"]
        blocking = _blocking_of(args)
        replace = parse_list(args["replace"], "replace") if not plan else plan["replace"]
        settings = _settings_of(args)
        return new(
            runbook=args["runbook"], title=args["title"] or args["runbook"].replace("_", " "),
            project=args["project"],
            launch_type=args["launch_type"], kind=kind_of(args["launch_type"]), policy=policy, point_in_time=policy["said"],
            points_in_time=points, points_from=points_from, pinned=args["pinned"] or {},
            points_as_of=self.points_as_of(args["points_as_of"], policy),
            points_strict=args["points_strict"], plan_file=plan, pin=args["pin_points"],
            replace=dict(machines=replace, confirm=None if no_value(args["confirm"]) else args["confirm"].strip()),
            roll_back=args["roll_back"],
            round=args["round"],
            recovery_plan=None if no_value(args["recovery_plan"]) else args["recovery_plan"],
            asked=asked,
            ledger_dir=args["ledger_dir"], report_dir=args["report_dir"],
            gate=gate,
            adopt=args["adopt"], on_failed_over=args["on_failed_over"], clean_leftovers=args["clean_leftovers"],
            blocking=blocking,
            launch_settings=dict(check=args["check_launch_settings"], strict=args["launch_settings_strict"], problems={}, unproven={}),
            test_network=dict(network=parse_test_network(args["test_network"]), tested_in={}, found=[], found_in={}, restored=[], refused={}),
            targets=dict(rpo_seconds=parse_number(targets.get("rpo_seconds"), "targets.rpo_seconds"),
                         rto_seconds=parse_number(targets.get("rto_seconds"), "targets.rto_seconds")),
            settings=settings,
            max_waves=args["max_waves"], began=now_iso(),
            stop_when=new_watch(watched(parse_stop_when(args["stop_when"], "%s_stop_when" % args["runbook"]))),
            blast_radius=parse_list(args["blast_radius"], "%s_blast_radius" % args["runbook"]) or None,
            game_day=args["game_day"] or None,
        )

    @staticmethod
    def points_as_of(given, policy):
        """The moment (the service's clock) as of which an application takes the points its run asks no moment of (the
        latest, or none given): its start, or its plan's. A policy with a moment or a point of its own keeps it."""
        if no_value(given) or policy["kind"] not in (LATEST, PER_MACHINE) or policy.get("planned"):
            return None
        try:
            parse_time(given)
        except (AttributeError, ValueError):
            raise ValueError("points_as_of is an RFC 3339 date-time, not %r" % (given,))
        return given

    def plan_to_carry_out(self, args, asked, policy):
        """The plan written under --check that this run carries out exactly: its machines, waves and points in time.
        Refused when it is no plan of this runbook and project, when it would have stopped, or when the run is also
        given what the plan decides."""
        plan = read_plan(args["plan"], args["runbook"])
        if plan["project"] != args["project"] and plan.get("project_id") != args["project"]:
            raise ValueError("the plan %s is of project %s, not %s" % (args["plan"], plan["project"], args["project"]))
        if plan.get("launch_type") != args["launch_type"]:
            raise ValueError("the plan %s launches %s machines, and this run %s ones" % (args["plan"], plan.get("launch_type"), args["launch_type"]))
        if plan.get("would") != "launch":
            raise ValueError("the plan %s would not launch: it stops (%s). Mend what it names and plan again with --check" % (
                args["plan"], (plan.get("refused") or {}).get("message", "?")))
        also = [option for option, value in (("machines", asked["machines"]), ("exclude", asked["exclude"]), ("waves", asked["waves"]),
                                             ("point_in_time", policy["given"]), ("replace", parse_list(args["replace"], "replace")))
                if value]
        if also:
            raise ValueError("the plan %s decides the machines, their waves and points in time, and what is replaced: give it without %s "
                             "(or plan again with --check)" % (args["plan"], ", ".join(also)))
        waves = [[machine["id"] for machine in plan["machines"] if machine.get("wave") == wave["number"]] for wave in plan["waves"]]
        return dict(path=plan["path"], token=(plan.get("replace") or {}).get("token"), machines=plan["machines"], waves=waves,
                    points=dict((machine["id"], machine["point_in_time"]["id"]) for machine in plan["machines"]
                                if (machine.get("point_in_time") or {}).get("id") and not machine.get("stands")),
                    replace=list((plan.get("replace") or {}).get("machines") or []))

    def refuse_what_does_not_go_together(self):
        problems = self.what_picks_the_machines_apart() + self.what_production_refuses()
        if problems:
            self.phase = "preflight"
            raise StepFailed("The input does not go together: %s. Nothing was launched." % "; ".join(problems), run=self.path)

    def what_picks_the_machines_apart(self):
        """What the recovery plan, the machines, the points, the waves and the launch type ask that does not go together."""
        record, asked = self.record, self.record["asked"]
        problems = []
        if record["recovery_plan"] and asked["machines"]:
            problems.append("a recovery plan names its own machines: give it without the machines")
        if record["recovery_plan"] and record["points_in_time"]:
            problems.append("a recovery plan runs from one point in time (or the latest), not from a point per machine")
        if record["recovery_plan"] and record["launch_type"] == "debug":
            problems.append("a recovery plan runs in test, recovery or cutover mode, not debug")
        if asked["unproven"] and (record["recovery_plan"] or asked["waves"] or record["kind"] != "test"):
            problems.append("machines=%s picks the machines to test, not with a recovery plan or waves, and for test launches only" % UNPROVEN)
        if asked["waves"] and (record["recovery_plan"] or asked["machines"]):
            problems.append("waves name their own machines: give them without the machines or a recovery plan")
        if record["max_waves"] and len(asked["waves"]) > record["max_waves"]:
            problems.append("there are %d waves, and this way of running the %s runs at most %d (the role's main entry point, "
                            "in one play, runs any number)" % (len(asked["waves"]), record["title"], record["max_waves"]))
        return problems

    def what_production_refuses(self):
        """What the test network, the stop conditions and the machines to replace ask that a run of this kind must not do."""
        record = self.record
        problems = []
        # A failover may launch into a test network only when it rolls back: a recovery machine that stays is production.
        if record.test_network["network"] and record["kind"] != "test" and not record["roll_back"]:
            problems.append("a test network is for test launches and a failover that rolls back, not %s machines that stay" % record["launch_type"])
        if record["stop_when"]["probes"] and record["kind"] in PRODUCTION_KINDS and not record["roll_back"]:
            problems.append("stop conditions watch a rehearsal, and a %s whose machines stay is none: they are for a failover that "
                            "rolls back" % record["title"])
        if record["replace"]["machines"] and record["kind"] == "test":
            problems.append("replace names production machines to replace, and a %s never replaces them" % record["title"])
        if record["replace"]["machines"] and record["roll_back"]:
            problems.append("replace terminates production machines for good, and a run that rolls back at its end would remove their "
                            "replacements too: replace only in a run that commits")
        if record["replace"]["machines"] and record["recovery_plan"]:
            problems.append("replace is for launches of the machines it names, not for a recovery plan's run")
        return problems
