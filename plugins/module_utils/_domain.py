# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The facts of the service's domain, and the reading of values from text, each written once.

Modules, filters, action plugins and the inventory plugin import them from here; a unit test
(tests/unit/plugins/module_utils/test_domain.py) fails when one of them is written anywhere else.

* Launch types and the jobs they run as: a debug launch is a test launch that runs scripts, so it
  runs as a TEST_LAUNCH job and makes test machines (``kind_of``).
* Job types and statuses; which jobs launch target machines and which remove them.
* When a machine was last launched, per kind: the members of its life cycle.
* Text as extra variables and AWX surveys give it: date-times, durations, numbers, flags, lists.
"""

import json
import re
from datetime import datetime, timezone

# -- launches and jobs ----------------------------------------------------------------------------

LAUNCH_TYPES = ("test", "recovery", "cutover", "debug", "restore")
# The kind of target machine each launch type makes: a debug launch makes test machines; a restore launch, restore servers
# of a backup project (a machine's restoreServers, beside its one target machine, its replica).
KINDS = ("test", "recovery", "cutover")
RESTORE = "restore"
# The kinds that run production once launched: no runbook replaces or removes one it did not launch itself (or adopt
# from a stopped run of its own), unless the operator named it and confirmed it.
PRODUCTION_KINDS = ("recovery", "cutover")
_KIND_OF = {"test": "test", "debug": "test", "recovery": "recovery", "cutover": "cutover", RESTORE: RESTORE}

# The job a launch of each kind runs as, and the job a recovery plan runs as in each mode.
LAUNCH_JOBS = {"test": "TEST_LAUNCH", "recovery": "RECOVERY_LAUNCH", "cutover": "CUTOVER_LAUNCH", RESTORE: "RESTORE_LAUNCH"}
# Where each kind is launched; the interface's body of a restore launch is a launch's, and it does not say which launchType a
# restore server takes: the collection sends TEST (docs/wire.md).
LAUNCH_PATHS = {RESTORE: "launchRestoreServers"}
LAUNCH_PATH = "launchMachines"
PLAN_MODES = ("test", "recovery", "cutover", "cleanup")
PLAN_JOBS = {"test": "RECOVERY_PLAN_TEST", "recovery": "RECOVERY_PLAN_RECOVERY", "cutover": "RECOVERY_PLAN_CUTOVER",
             "cleanup": "RECOVERY_PLAN_CLEANUP"}
CLEANUP_JOB = "CLEANUP"
FILE_RESTORE_JOB = "FILE_RESTORE"
CLEANUP_JOBS = (CLEANUP_JOB, PLAN_JOBS["cleanup"])
# The jobs that launch a machine's target machine (its replica): a restore launch adds a restore server instead.
LAUNCHING_JOBS = tuple(LAUNCH_JOBS[kind] for kind in KINDS) + tuple(PLAN_JOBS[kind] for kind in KINDS)
JOB_TYPES = LAUNCHING_JOBS[:3] + (LAUNCH_JOBS[RESTORE], CLEANUP_JOB, FILE_RESTORE_JOB, "CONSOLIDATE_VMDKS") + LAUNCHING_JOBS[3:] + (PLAN_JOBS["cleanup"],)
JOB_STATUSES = ("PENDING", "STARTED", "COMPLETED", "FAILED")
# The options of a test network (see module_utils._test_network): service_blueprint's, by blueprint member.
TEST_NETWORK_OPTIONS = dict(
    subnets="subnetIDs", security_groups="securityGroupIDs", private_ip_action="privateIPAction", private_ips="privateIPs",
    public_ip_action="publicIPAction", static_ip="staticIp", static_ip_action="staticIpAction", iam_role="iamRole",
    instance_type="instanceType", placement_group="placementGroup", tags="tags",
)
ACTIVE = JOB_STATUSES[:2]

# When a machine was last launched, by kind: members of its lifeCycle.
LIFE_CYCLE_MEMBERS = (("test", "lastTestLaunchDateTime"), ("recovery", "lastRecoveryLaunchDateTime"), ("cutover", "lastCutoverDateTime"))

REPLICATION_STATES = ("initiating", "initial_sync", "continuous", "lagging", "paused", "stopped", "stale")


def kind_of(launch_type):
    """The kind of target machine a launch type makes (test, recovery, cutover or restore)."""
    if launch_type not in _KIND_OF:
        raise ValueError("launch type must be one of %s, not %r" % (", ".join(LAUNCH_TYPES), launch_type))
    return _KIND_OF[launch_type]


def launch_job_type(launch_type, plan=False):
    """The type of the job that a launch of this type (or a recovery plan run in this mode) runs as."""
    return PLAN_JOBS[launch_type] if plan else LAUNCH_JOBS[kind_of(launch_type)]


def active(job):
    """Whether a job still runs."""
    return job is not None and job.get("status") in ACTIVE


# -- values from text -----------------------------------------------------------------------------

ID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def looks_like_id(value):
    """IDs are lowercase UUIDs; anything else is taken for a name."""
    return isinstance(value, str) and bool(ID_PATTERN.match(value))


# What a text that stands for no value looks like: an empty survey answer, or None as older
# ansible-core and YAML write it.
NO_VALUE = ("", "none", "null", "~")
_TRUE = ("1", "true", "yes", "on", "y")
_FALSE = ("0", "false", "no", "off", "n")
_ISO_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def no_value(value):
    return value is None or (isinstance(value, str) and value.strip().lower() in NO_VALUE)


def parse_time(value):
    """An RFC 3339 date-time (``Z`` or an offset; none means UTC) as epoch seconds."""
    moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def iso_time(seconds):
    """Epoch seconds as the service writes date-times (RFC 3339, UTC, microseconds)."""
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="microseconds")


def moment_said(seconds, whole=False):
    """Epoch seconds as a person reads a moment: RFC 3339 in UTC, to the second (its fraction when it has one, unless
    ``whole``)."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    fraction = "" if whole or not moment.microsecond else (".%06d" % moment.microsecond).rstrip("0")
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def compact_moment(value):
    """An RFC 3339 moment as a mark of the runbooks keeps it, without separators: 20261127T161500.123456Z (UTC); empty
    for none."""
    if not value:
        return ""
    return datetime.fromtimestamp(parse_time(value), timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


def moment_of_compact(text):
    """What compact_moment wrote, as an RFC 3339 moment; None for what is no such moment."""
    try:
        return datetime.strptime(text, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=timezone.utc).isoformat(timespec="microseconds")
    except (TypeError, ValueError):
        return None


def parse_number(value, what="the value"):
    """A number from a number or from text; None for no value. Whole numbers are ints."""
    if no_value(value):
        return None
    if isinstance(value, bool):
        raise ValueError("%s must be a number, not %r" % (what, value))
    if isinstance(value, (int, float)):
        return value
    text = str(value).strip()
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise ValueError("%s must be a number, not %r" % (what, value))


def parse_test_network(value, what="test_network"):
    """The test network: service_blueprint's options, with per-machine ones under machines - a dictionary, or
    JSON text (an AWX survey's answer). None when not given."""
    if no_value(value):
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError("%s must be a dictionary of service_blueprint options, or its JSON; not %r" % (what, value))
    if not isinstance(value, dict):
        raise ValueError("%s must be a dictionary of service_blueprint options, not %r" % (what, value))
    unknown = sorted(set(value) - set(TEST_NETWORK_OPTIONS) - {"machines"})
    overrides = value.get("machines") or {}
    if not isinstance(overrides, dict) or not all(isinstance(given, dict) for given in overrides.values()):
        raise ValueError("%s.machines must map machine names to dictionaries of service_blueprint options" % what)
    unknown += sorted("machines.%s.%s" % (name, option) for name, given in overrides.items() for option in given if option not in TEST_NETWORK_OPTIONS)
    if unknown:
        raise ValueError("%s has no option %s; it takes %s, and machines" % (what, ", ".join(unknown), ", ".join(sorted(TEST_NETWORK_OPTIONS))))
    return value or None


def parse_flag(value, what="the value", default=False):
    """A boolean from a boolean or from text (true/false, yes/no, on/off, 1/0, y/n); ``default`` for no value."""
    if isinstance(value, bool):
        return value
    if no_value(value):
        return default
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError("%s must be true or false, not %r" % (what, value))


def parse_duration(value, what="the duration"):
    """Seconds from a number of seconds or an ISO 8601 duration of days to seconds (PT10M); 0 for no value."""
    if no_value(value):
        return 0
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    if re.match(r"^\d+(\.\d+)?$", text):
        return float(text)
    match = _ISO_DURATION.match(text)
    if not match or text in ("P", "PT") or text.endswith("T"):
        raise ValueError("%s must be seconds or an ISO 8601 duration such as PT10M, not %r" % (what, value))
    days, hours, minutes, seconds = match.groups()
    return int(days or 0) * 86400 + int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds or 0)


def iso_duration(seconds):
    """The ISO 8601 form of a number of seconds: 150 -> PT2M30S, 0 -> PT0S."""
    seconds = int(round(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    text = "P" + ("%dD" % days if days else "")
    clock = "".join("%d%s" % (amount, unit) for amount, unit in ((hours, "H"), (minutes, "M"), (seconds, "S")) if amount)
    return text + "T" + (clock or "0S") if clock or not days else text


def parse_groups(value, what="the groups"):
    """A list of lists from lists, or from text: a JSON list of lists, or groups separated by ``;`` or
    new lines, their items by commas (``db-*; app-1, app-2; web-*``). No value is an empty list."""
    if no_value(value) or (isinstance(value, str) and not value.strip()):
        return []
    if isinstance(value, str) and not value.strip().startswith("["):
        return [parse_list(group) for group in value.replace("\n", ";").split(";") if group.strip()]
    groups = parse_list(value, what)
    if not all(isinstance(group, (list, tuple, str)) for group in groups):
        raise ValueError("each of %s is a list of names, not %r" % (what, next(g for g in groups if not isinstance(g, (list, tuple, str)))))
    return [parse_list(group, what) for group in groups]


def parse_list(value, what="the value"):
    """A list from a list, or from text: items separated by commas or new lines, or a JSON list.
    Blanks around items are removed and empty items dropped; no value is an empty list."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except ValueError:
                raise ValueError("%s looks like a JSON list but is not one: %r" % (what, value))
        else:
            return [item.strip() for item in text.replace("\n", ",").split(",") if item.strip()]
    if not isinstance(value, (list, tuple)):
        raise ValueError("%s must be a list, or text with items separated by commas, not %s" % (what, type(value).__name__))
    return [item.strip() if isinstance(item, str) else item for item in value]


# A moment as a person gives it: a date, a time and where on earth (Z or an offset). RFC 3339 allows a space
# for the T; seconds and their fraction may be left out.
_MOMENT = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([Zz]|[+-]\d{2}:?\d{2})?)?$")
MOMENT_EXAMPLE = "2026-11-20T03:00:00Z"
# With -e key=value, Ansible cuts a value at its first space: what is left of a moment is its date.
_CUT_AT_A_SPACE = ("(with -e, a value is cut at its first space: write the T, as in %s, or give the variable as JSON, "
                   "-e '{\"name\": \"value with spaces\"}')" % MOMENT_EXAMPLE)


def parse_moment(value, what="the moment"):
    """A moment an operator gives (an option, an extra variable, a survey's answer) as epoch seconds: RFC 3339, with
    a date, a time, and Z or an offset. A date alone, or a time without Z or an offset, is refused: what it would
    mean (midnight, this machine's time zone) is a guess, and a failover must not guess."""
    text = str(value).strip() if value is not None else ""
    match = _MOMENT.match(text)
    if not match:
        raise ValueError("%s must be an RFC 3339 date-time such as %s, not %r" % (what, MOMENT_EXAMPLE, value))
    if match.group(2) is None:
        raise ValueError("%s %r is a date without a time; give the time and Z or an offset, such as %sT03:00:00Z %s" % (
            what, text, match.group(1), _CUT_AT_A_SPACE))
    if match.group(3) is None:
        raise ValueError("%s %r has no Z or offset: give the time zone, such as %sZ for UTC" % (what, text, text))
    try:
        return parse_time(text)
    except ValueError:
        raise ValueError("%s %r is no date-time of the calendar (such as %s)" % (what, text, MOMENT_EXAMPLE))


# The kinds of a point-in-time policy (parse_point_policy).
LATEST, BEFORE, POINT, PER_MACHINE, FROM_REPORT = "latest", "before", "point", "per machine", "from"


def parse_point_policy(value, what="the point in time"):
    """Which point in time each machine launches from, as an operator says it: one grammar for every runbook and module.

    ``latest`` (or no value) - each machine's newest point; ``before:<RFC 3339 date-time>`` - each machine's newest point
    at or before that moment (a bare date-time means the same); the ID of a point in time - that point for its machine,
    and for the others their newest at or before its moment; a point per machine - a dictionary of machine name or ID to
    point ID, or text of ``name=ID`` items separated by commas - the machines not named taking their newest point; and
    ``from:<report>`` - the points a clean point search's report names.

    Answers a dictionary: ``kind`` (LATEST, BEFORE, POINT, PER_MACHINE or FROM_REPORT), ``given`` (whether a value was
    given at all), and ``moment`` (epoch seconds) with ``at`` (its text), ``id``, ``points`` ({machine: point ID}) or
    ``report`` as the kind has. ``said`` is the policy as the operator reads it, and as it is written in reports.
    """
    given = not no_value(value)
    if not given or (isinstance(value, str) and value.strip().lower() == LATEST):
        return dict(kind=LATEST, given=given, said=LATEST)
    if isinstance(value, str) and value.strip().startswith("{"):  # a point per machine, as JSON text (an AWX survey's)
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError("%s looks like a JSON object of points per machine but is not one: %r" % (what, value))
    if isinstance(value, dict):
        points = dict((str(name).strip(), str(point).strip()) for name, point in value.items())
        return dict(kind=PER_MACHINE, given=True, points=points, said=_per_machine_said(points))
    if not isinstance(value, str):
        raise ValueError("%s must be latest, before:<date-time>, the ID of a point in time, a point per machine, or "
                         "from:<report>, not %r" % (what, value))
    text = value.strip()
    if text.lower().startswith("from:"):
        report = text[len("from:"):].strip()
        if not report:
            raise ValueError("%s from: takes the path of a clean point search's report, as from:clean_point_report/clean_point_<project>.json" % what)
        return dict(kind=FROM_REPORT, given=True, report=report, said="from:" + report)
    if "=" in text:
        pairs = [item.split("=", 1) for item in parse_list(text, what)]
        if not all(len(pair) == 2 and pair[0].strip() and pair[1].strip() for pair in pairs):
            raise ValueError("%s per machine is name=ID, separated by commas, not %r" % (what, value))
        points = dict((name.strip(), point.strip()) for name, point in pairs)
        return dict(kind=PER_MACHINE, given=True, points=points, said=_per_machine_said(points))
    if looks_like_id(text):
        return dict(kind=POINT, given=True, id=text, said=text)
    before = text.lower().startswith("before:")
    at = text[len("before:"):].strip() if before else text
    if not before and not _MOMENT.match(at):
        raise ValueError("%s must be latest, before:<date-time> (such as before:%s), the ID of a point in time, name=ID per machine, "
                         "or from:<report>; not %r" % (what, MOMENT_EXAMPLE, value))
    moment = parse_moment(at, "%s before:" % what if before else what)
    return dict(kind=BEFORE, given=True, moment=moment, at=moment_said(moment), said="before:" + moment_said(moment))


def _per_machine_said(points):
    return ", ".join("%s=%s" % item for item in sorted(points.items()))


# A rehearsal's stop conditions (plugin_utils._stops watches them): probes, each stopping the run once it fails so many
# times in a row.
AFTER_FAILURES = 2
PROBE_KINDS = ("url", "health", "tasks")


def parse_stop_when(value, option="stop_when"):
    """The probes as the record keeps them: name, kind, what each watches, after_failures. A ValueError names the probe and
    what is wrong with it."""
    if no_value(value):
        return []
    if isinstance(value, str) and value.strip().startswith("["):
        value = parse_list(value, option)  # a JSON list, as an AWX survey gives it
    if not isinstance(value, list):
        raise ValueError("%s is a list of probes, not %r" % (option, value))
    probes, names = [], set()
    for number, given in enumerate(value, 1):
        if not isinstance(given, dict) or not str(given.get("name") or "").strip():
            raise ValueError("%s: probe %d has no name (each is {name, url, status}, {name, health} or {name, tasks})" % (option, number))
        name = str(given["name"]).strip()
        kinds = [kind for kind in PROBE_KINDS if kind in given]
        if len(kinds) != 1:
            raise ValueError("%s: probe %s has %s; it has one of url, health and tasks" % (
                option, name, " and ".join(kinds) if kinds else "none of url, health and tasks"))
        unknown = sorted(set(given) - set(PROBE_KINDS) - {"name", "status", "after_failures"})
        if unknown or ("status" in given and kinds != ["url"]):
            raise ValueError("%s: probe %s has %s, which a %s probe does not take" % (option, name, ", ".join(unknown or ["status"]), kinds[0]))
        if name in names:
            raise ValueError("%s: two probes are named %s" % (option, name))
        names.add(name)
        after = parse_number(given.get("after_failures", AFTER_FAILURES), "%s: after_failures of %s" % (option, name))
        if after is None or after < 1 or after != int(after):
            raise ValueError("%s: after_failures of %s is a whole number from 1, not %r" % (option, name, given.get("after_failures")))
        probe = dict(name=name, kind=kinds[0], after_failures=int(after))
        probe.update(_PROBE_PARSERS[kinds[0]](given, "%s: probe %s" % (option, name)))
        probes.append(probe)
    return probes


def _probe_url(given, said):
    url = str(given["url"] or "").strip()
    if not url.startswith(("http://", "https://")):
        raise ValueError("%s: url is an http:// or https:// address, not %r" % (said, given["url"]))
    status = given.get("status", 200)
    statuses = parse_list(status, "%s: status" % said) if isinstance(status, (list, str)) else [status]
    try:
        statuses = [int(status) for status in statuses]
    except (TypeError, ValueError):
        raise ValueError("%s: status is an HTTP status code or a list of them, not %r" % (said, given.get("status")))
    return dict(url=url, status=statuses)


def _probe_health(given, said):
    health = given["health"] or {}
    if not isinstance(health, dict) or set(health) - {"max_lag", "states"}:
        raise ValueError("%s: health is a mapping of max_lag and states, not %r" % (said, given["health"]))
    max_lag = parse_number(health.get("max_lag"), "%s: health.max_lag" % said)
    states = parse_list(health.get("states"), "%s: health.states" % said) or ["continuous"]
    return dict(health=dict(max_lag=max_lag, states=states))


def _probe_tasks(given, said):
    if no_value(given["tasks"]) or not isinstance(given["tasks"], str):
        raise ValueError("%s: tasks is the path of a task file, not %r" % (said, given["tasks"]))
    return dict(tasks=given["tasks"])


_PROBE_PARSERS = dict(url=_probe_url, health=_probe_health, tasks=_probe_tasks)
