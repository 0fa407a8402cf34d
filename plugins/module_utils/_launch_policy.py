# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Launch settings by policy: each machine's blueprint settings resolved from layers, in order - the defaults, the
project's, the rules that match the machine (a later one wins), the subnet map's re-addressing, the machine's own -
with the layer that set each one; the machines left out. Settings are service_blueprint's options, by its names;
a list or the tags are replaced whole, never merged. Pure: the module service_launch_policy asks the service."""

import csv
import fnmatch
import hashlib
import io
import ipaddress
import json

from ansible_collections.replication.recovery.plugins.module_utils._compare import key_values
from ansible_collections.replication.recovery.plugins.module_utils._domain import TEST_NETWORK_OPTIONS
from ansible_collections.replication.recovery.plugins.module_utils._test_network import settings_of

# service_blueprint's options a policy sets, and the blueprint member of each (disks are per machine: service_blueprint).
OPTIONS = dict(TEST_NETWORK_OPTIONS, tenancy="tenancy", run_after_launch="runAfterLaunch")
LISTS = ("subnets", "security_groups", "private_ips")
CHOICES = dict(private_ip_action=("CREATE_NEW", "COPY_ORIGIN", "CUSTOM_IP", "USE_NETWORK_INTERFACE"),
               public_ip_action=("ALLOCATE", "DONT_ALLOCATE", "AS_SUBNET"), tenancy=("SHARED", "DEDICATED", "HOST"))
# The CSV's columns: the machine, each option, its private source address (re-addressed by the subnet map when given),
# and the fingerprint of the settings as exported (what a conflict is told by).
MACHINE, ADDRESS, FINGERPRINT = "machine", "address", "fingerprint"
COLUMNS = (MACHINE,) + tuple(sorted(OPTIONS)) + (ADDRESS, FINGERPRINT)


class PolicyError(ValueError):
    """Input that makes no policy: named, before anything is read or written."""


def _settings(value, where):
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PolicyError("%s must be a dictionary of service_blueprint options, not %r" % (where, value))
    unknown = sorted(set(value) - set(OPTIONS))
    if unknown:
        raise PolicyError("%s has no option %s; a policy sets %s" % (where, ", ".join(unknown), ", ".join(sorted(OPTIONS))))
    for option, given in value.items():
        if given is None:
            continue
        if option in LISTS and not (isinstance(given, list) and all(isinstance(item, str) for item in given)):
            raise PolicyError("%s.%s must be a list of text, not %r" % (where, option, given))
        if option == "tags" and not (isinstance(given, dict) and all(isinstance(k, str) for k in given)):
            raise PolicyError("%s.tags must be a dictionary of tag keys to values, not %r" % (where, given))
        if option in CHOICES and given not in CHOICES[option]:
            raise PolicyError("%s.%s must be one of %s, not %r" % (where, option, ", ".join(CHOICES[option]), given))
        if option == "run_after_launch" and not isinstance(given, bool):
            raise PolicyError("%s.run_after_launch must be true or false, not %r" % (where, given))
    return dict((option, given) for option, given in value.items() if given is not None)


def _network(value, where):
    try:
        return ipaddress.ip_network(str(value), strict=False)
    except ValueError:
        raise PolicyError("%s must be an address range (10.0.0.0/24), not %r" % (where, value))


def rule_said(index, rule):
    """A rule as its option names it, and what it matches by."""
    by = (["name %s" % " or ".join(rule["names"])] if rule["names"] else []) + (["tags %s" % ", ".join(rule["tags"])] if rule["tags"] else [])
    return "launch_policy_rules[%d] (%s)" % (index, "; ".join(by) or "every machine")


class Policy(object):
    """The layers, checked: ``defaults``, ``projects`` ({name: settings}), ``rules`` ([{match: {name, tags}, set}]),
    ``machines`` ({name: settings}), ``exclude`` (names or globs), ``subnet_map`` ([{source, subnet, subnet_range,
    keep_host}]) with each machine's private source address in ``addresses`` ({name: address})."""

    def __init__(self, defaults=None, projects=None, rules=None, machines=None, exclude=None, subnet_map=None, addresses=None):
        self.defaults = _settings(defaults, "launch_policy_defaults")
        if not isinstance(projects or {}, dict):
            raise PolicyError("launch_policy_projects must map project names to settings, not %r" % (projects,))
        self.projects = dict((name, _settings(given, "launch_policy_projects.%s" % name)) for name, given in (projects or {}).items())
        if not isinstance(machines or {}, dict):
            raise PolicyError("launch_policy_machines must map machine names to settings, not %r" % (machines,))
        self.machines = dict((name, _settings(given, "launch_policy_machines.%s" % name)) for name, given in (machines or {}).items())
        self.rules = [self._rule(rule, index) for index, rule in enumerate(rules or [])]
        self.exclude = [str(value) for value in exclude or []]
        self.subnet_map = [self._entry(entry, index) for index, entry in enumerate(subnet_map or [])]
        self.addresses = dict(addresses or {})

    @staticmethod
    def _rule(rule, index):
        where = "launch_policy_rules[%d]" % index
        if not isinstance(rule, dict) or set(rule) - {"match", "set"} or not isinstance(rule.get("match"), dict):
            raise PolicyError("%s must be {match: {name: <pattern>, tags: [<tag>]}, set: {<options>}}, not %r" % (where, rule))
        match = rule["match"]
        if set(match) - {"name", "tags"} or not match:
            raise PolicyError("%s.match matches by name (a pattern, or a list of them) and tags (a list), not %r" % (where, match))
        names = match.get("name")
        names = [names] if isinstance(names, str) else names
        tags = match.get("tags")
        tags = [tags] if isinstance(tags, str) else tags
        if names is not None and not (isinstance(names, list) and all(isinstance(name, str) for name in names)):
            raise PolicyError("%s.match.name must be a pattern or a list of them, not %r" % (where, match["name"]))
        if tags is not None and not (isinstance(tags, list) and all(isinstance(tag, str) for tag in tags)):
            raise PolicyError("%s.match.tags must be a list of tags, not %r" % (where, match["tags"]))
        settings = _settings(rule.get("set"), where + ".set")
        if not settings:
            raise PolicyError("%s sets nothing" % where)
        return dict(names=names, tags=tags, set=settings)

    @staticmethod
    def _entry(entry, index):
        where = "launch_policy_subnet_map[%d]" % index
        if not isinstance(entry, dict) or set(entry) - {"source", "subnet", "subnet_range", "keep_host"} or not entry.get("subnet"):
            raise PolicyError("%s must be {source: <range>, subnet: <subnet>, subnet_range: <range>, keep_host: <bool>}, not %r" % (where, entry))
        source = _network(entry.get("source"), where + ".source")
        target = _network(entry.get("subnet_range"), where + ".subnet_range") if entry.get("subnet_range") is not None else None
        keep = entry.get("keep_host", False)
        if not isinstance(keep, bool):
            raise PolicyError("%s.keep_host must be true or false, not %r" % (where, keep))
        if keep and (target is None or target.prefixlen > source.prefixlen):
            raise PolicyError("%s keeps the host part: its subnet_range must be at least as large as its source %s" % (where, source))
        return dict(source=source, subnet=str(entry["subnet"]), subnet_range=target, keep_host=keep)

    def excluded(self, name):
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.exclude)

    def resolve(self, project, name, tags=()):
        """The settings of machine ``name`` (launch-time ``tags``) of ``project``, {option: value}, with the layer that set
        each one, {option: layer}, and what the subnet map could not do (None, or why)."""
        settings, origin = {}, {}

        def layer(given, said):
            for option, value in given.items():
                settings[option] = value
                origin[option] = said

        layer(self.defaults, "defaults")
        layer(self.projects.get(project) or {}, "projects.%s" % project)
        for index, rule in enumerate(self.rules):
            if self.matches(rule, name, tags):
                layer(rule["set"], "rules[%d]" % index)
        unmapped = None
        if self.subnet_map:
            mapped, unmapped = self.readdressed(name)
            said = mapped.pop("_said", "subnet_map")
            layer(mapped, said)
        layer(self.machines.get(name) or {}, "machines.%s" % name)
        return settings, origin, unmapped

    def unmatched(self, machines):
        """The rules that take none of ``machines`` ({name: launch-time tags}, the excluded left out), each as its option names
        it - a pattern misspelt, most often (a rule of a policy shared by several projects may match none of one)."""
        taken = dict((name, tags) for name, tags in machines.items() if not self.excluded(name))
        return [rule_said(index, rule) for index, rule in enumerate(self.rules) if not any(self.matches(rule, name, tags) for name, tags in taken.items())]

    @staticmethod
    def matches(rule, name, tags):
        if rule["names"] is not None and not any(fnmatch.fnmatchcase(name, pattern) for pattern in rule["names"]):
            return False
        return rule["tags"] is None or all(any(fnmatch.fnmatchcase(tag, wanted) for tag in tags) for wanted in rule["tags"])

    def readdressed(self, name):
        """The subnet map's settings for machine ``name``, by its private source address: ({options}, None), or ({}, why not)."""
        address = self.addresses.get(name)
        if not address:
            return {}, "no private source address (launch_policy_address_hosts, launch_policy_addresses or a CSV address)"
        try:
            address = ipaddress.ip_address(str(address))
        except ValueError:
            return {}, "its private source address %r is no address" % address
        for index, entry in enumerate(self.subnet_map):
            if address in entry["source"]:
                mapped = dict(subnets=[entry["subnet"]], _said="subnet_map[%d]" % index)
                if entry["keep_host"]:
                    host = int(address) - int(entry["source"].network_address)
                    mapped.update(private_ip_action="CUSTOM_IP", private_ips=[str(entry["subnet_range"].network_address + host)])
                return mapped, None
        return {}, "its private source address %s is in no source range of the subnet map" % address


# -- blueprints: members, what a change is, a fingerprint ---------------------------------------------------------------

def members_of(settings):
    """Settings (names already made IDs) as blueprint members."""
    members = {}
    for option, value in settings.items():
        members[OPTIONS[option]] = key_values(value) if option == "tags" else value
    return members


def changes_of(blueprint, members):
    """The members whose values ``members`` would change: {member: new value}. Lists compare as sets."""
    before, after = settings_of(blueprint, members), settings_of(dict(blueprint, **members), members)
    return dict((member, value) for member, value in members.items() if before[member] != after[member])


def fingerprint(blueprint):
    """A short digest of every member a policy sets: what tells a blueprint changed since it was read."""
    text = json.dumps(settings_of(blueprint, sorted(OPTIONS.values())), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- the CSV round trip --------------------------------------------------------------------------------------------------

def csv_of(rows):
    """Rows ({machine, <option>: value as the service has it, with names where the region gives them, fingerprint}) as CSV:
    lists as ``a;b``, tags as ``k=v;k2=v2``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(dict((column, _cell(column, row.get(column))) for column in COLUMNS))
    return out.getvalue()


def _cell(column, value):
    if value is None:
        return ""
    if column == "tags":
        return ";".join("%s=%s" % (key, value[key]) for key in sorted(value))
    if isinstance(value, list):
        return ";".join(str(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rows_of_csv(text):
    """The rows of an edited CSV, each (line number, machine, fingerprint, {option: value}, address) - an empty cell leaves
    its option as it is. Raises PolicyError naming the row of an unknown column or a bad value."""
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    unknown = [column for column in columns if column not in COLUMNS]
    if unknown or MACHINE not in columns:
        raise PolicyError("the CSV's header has %s; its columns are %s" % (
            "the unknown column%s %s" % ("s" if len(unknown) > 1 else "", ", ".join(unknown)) if unknown else "no column machine",
            ", ".join(COLUMNS)))
    rows = []
    for line, row in enumerate(reader, 2):
        if None in row:
            raise PolicyError("row %d has more cells than the header" % line)
        name = (row.get(MACHINE) or "").strip()
        if not name:
            raise PolicyError("row %d names no machine" % line)
        settings = {}
        for column, text_ in row.items():
            text_ = (text_ or "").strip()
            if column in (MACHINE, ADDRESS, FINGERPRINT) or not text_:
                continue
            settings[column] = _value(column, text_, line, name)
        try:
            _settings(settings, "row %d (%s)" % (line, name))
        except PolicyError as error:
            raise PolicyError(str(error))
        rows.append((line, name, (row.get(FINGERPRINT) or "").strip() or None, settings, (row.get(ADDRESS) or "").strip() or None))
    return rows


def _value(column, text, line, name):
    if column in LISTS:
        return [item.strip() for item in text.split(";") if item.strip()]
    if column == "tags":
        tags = {}
        for pair in text.split(";"):
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise PolicyError("row %d (%s): tags are key=value;key2=value2, not %r" % (line, name, text))
            tags[key.strip()] = value.strip()
        return tags
    if column == "run_after_launch":
        if text.lower() not in ("true", "false"):
            raise PolicyError("row %d (%s): run_after_launch is true or false, not %r" % (line, name, text))
        return text.lower() == "true"
    return text
