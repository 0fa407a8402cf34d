# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A runbook's options as its role's argument specs type them, from whatever form they were given in.

Extra variables (``-e key=value``) and AWX survey answers arrive as text: ``"false"``, ``"5"``, a list or a mapping as
JSON or YAML text. Ansible's role argument validation accepts that text (it converts a copy to check it) and leaves the
variable as text, so a role that reads it as a boolean, a number or a mapping misreads it - an approval given as JSON
text was once dropped that way. ``typed`` reads one option by its spec; ``options_of`` reads all of an entry point's,
and the action ``runbook_options`` gives them to the role, which reads its options from there alone (a unit test holds
every role to it). A relative path is taken from where ``ansible-playbook`` was started (plugin_utils._files).

Only what the user meant: a variable that carries a runbook's prefix and is no option of it is a typo until shown otherwise
(``failover_comit=false`` once committed a failover asked to roll back). ``unknown`` finds such names and the option each
is nearest to; the action refuses them by where they were given (``refusal``). An option is required when its description
says so (``Required.`` first): ansible-core's own validation of a missing one prints the whole argument spec, so no spec
says ``required: true`` and ``options_of`` refuses a missing one in one line.

Every typed option takes its JSON text, as an AWX survey gives it. ansible-core's role validation, which runs before the
role, splits text at its commas and checks each part: it refuses the JSON text of a list of mappings (``elements: dict``)
and of a list of choices. So a list of mappings is ``type: list`` with its items' ``options`` and no ``elements``, and a list
of replication states (an option named ``*_states``) has no ``choices`` in its spec: both are typed and checked here.
"""

import json
import os

import yaml
from ansible.parsing.quoting import unquote
from ansible.parsing.splitter import split_args

from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC
from ansible_collections.replication.recovery.plugins.module_utils._domain import REPLICATION_STATES, no_value, parse_flag, parse_list, parse_number
from ansible_collections.replication.recovery.plugins.plugin_utils._files import COLLECTION, PathRefused, where_started
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME, RUNBOOKS

# libyaml's loader where PyYAML has it: a run's first task reads every role's specs (about 0.16 s in Python, 0.01 s in C).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The types of argument specs that text stands in for; str and raw are taken as given.
TYPED = ("bool", "int", "float", "list", "dict", "path")
# A name this many edits from an option (a letter left out, added, changed, or two swapped) is taken for a typo of it wherever
# it was given; one further off, given in the inventory, may be another role's (an estate's agent_ or health_ variables).
NEAR = 2
# The collection's own prefix: the variables every runbook shares (its ledger), and the options one runbook hands another.
SHARED = "replication_recovery_"
HANDED = SHARED + "options_given"
ROLES = os.path.join(COLLECTION, "roles")
_SPECS = {}


# The members that hold a secret wherever a mapping has them: a connection's (an application node's, in a scenario too).
SECRETS = tuple(sorted(name for name, spec in CONNECTION_ARGUMENT_SPEC.items() if spec.get("no_log")))


def holds_secret(value):
    """Whether ``value`` holds a secret at any depth - a member of SECRETS with a value, in a mapping, a list, or the JSON or
    YAML text of one (an option of type raw, as AWX gives it): an answer that holds one is not shown."""
    if isinstance(value, str):
        if not any(name in value for name in SECRETS):
            return False
        try:
            value = yaml.safe_load(value)
        except yaml.YAMLError:
            return True  # text that names a secret and cannot be read: hidden, not guessed at
        return not isinstance(value, str) and holds_secret(value)
    if isinstance(value, dict):
        return any((name in SECRETS and not no_value(member)) or holds_secret(member) for name, member in value.items())
    if isinstance(value, (list, tuple)):
        return any(holds_secret(member) for member in value)
    return False


class OptionRefused(ValueError):
    """An option whose value is not of its type, in any form: its message names the option."""


def argument_specs(role_path):
    """A role's argument specs (meta/argument_specs.yml), read once per process: {entry point: spec}."""
    if role_path not in _SPECS:
        with open(os.path.join(role_path, "meta", "argument_specs.yml"), encoding="utf-8") as handle:
            _SPECS[role_path] = (yaml.load(handle, Loader=SAFE_LOADER) or {}).get("argument_specs") or {}
    return _SPECS[role_path]


def role_options(specs, entry_point):
    """Every option of the role: the entry point's, then those of its other entry points (a role's variables are its own,
    whichever entry point reads them)."""
    options = {}
    for name in [entry_point] + sorted(set(specs) - {entry_point}):
        for option, spec in ((specs.get(name) or {}).get("options") or {}).items():
            options.setdefault(option, spec)
    return options


def documented(documentation):
    """The argument spec of the options a plugin's documentation (YAML text, as a doc fragment holds it) declares, so that a
    step's options are declared once, where ansible-doc reads them: their type, default, choices, elements, whether
    required, and their sub-options."""
    return _argument_spec((yaml.load(documentation, Loader=SAFE_LOADER) or {}).get("options") or {})


def _argument_spec(options):
    spec = {}
    for name, doc in options.items():
        spec[name] = dict((key, doc[key]) for key in ("type", "default", "choices", "elements", "required", "no_log", "aliases") if key in doc)
        if doc.get("suboptions"):
            spec[name]["options"] = _argument_spec(doc["suboptions"])
    return spec


def options_answered(role, answer):
    """Of ``answer`` (runbook_options' answer, as a task registered it), the options of the collection's role ``role`` by its
    argument specs, named as the answer names them (without the role's prefix): not what Ansible adds to a registered
    result (changed, failed)."""
    prefix = role + "_"
    names = set(name[len(prefix):] if name.startswith(prefix) else name for name in role_options(argument_specs(os.path.join(ROLES, role)), "main"))
    return dict((name, value) for name, value in answer.items() if name in names)


def _mapping(name, value):
    if isinstance(value, str):
        try:
            value = yaml.safe_load(value)
        except yaml.YAMLError as error:
            raise OptionRefused("%s is text that is neither JSON nor YAML: %s" % (name, str(error).splitlines()[0]))
    if not isinstance(value, dict):
        raise OptionRefused("%s must be a mapping, or its JSON or YAML text, not %s" % (name, json.dumps(value, default=str)))
    return value


def required(spec):
    """Whether an option must be given: its description (its first line) begins with "Required"."""
    description = spec.get("description") or ""
    first = description[0] if isinstance(description, list) and description else description
    return isinstance(first, str) and first.startswith("Required")


def _suboptions(name, spec, value):
    """A mapping whose spec has sub-options: each required one given."""
    missing = sorted(option for option, sub in (spec.get("options") or {}).items() if required(sub) and no_value(value.get(option)))
    if missing:
        raise OptionRefused("%s.%s is required" % (name, missing[0]))
    return value


def choices_of(name, spec):
    """The values an option (or each item of a list option) may take: its spec's choices, or the replication states for
    an option named ``*_states`` (see above)."""
    return spec.get("choices") or (list(REPLICATION_STATES) if name.endswith("_states") else None)


def _element(name, spec, value):
    # A list of mappings has its items' options, and no elements (see above).
    kind = spec.get("elements") or ("dict" if spec.get("options") else "raw")
    if kind == "dict":
        return _suboptions(name + " (an item)", spec, _mapping(name + " (an item)", value))
    if kind == "str":
        if isinstance(value, (dict, list)):
            raise OptionRefused("%s must be a list of text, not one with %s" % (name, json.dumps(value, default=str)))
        return str(value)
    if kind in TYPED:
        return typed(name + " (an item)", dict(type=kind), value)
    return value


def typed(name, spec, value):
    """The value of the option ``name`` (its argument spec ``spec``) as its type says: text read as the value it stands for,
    text that stands for nothing (empty, none, null) as the option's default. An OptionRefused names the option."""
    kind = spec.get("type") or "str"
    if kind in ("str", "path") and isinstance(value, (list, dict)):
        # Ansible's own check of a role's options takes a list's text ("['a', 'b']") for the text it asks for.
        what = "list" if isinstance(value, list) else "mapping"
        raise OptionRefused("%s must be %s, not a %s: %s" % (name, "a path" if kind == "path" else "text", what, json.dumps(value, default=str)[:80]))
    if kind not in TYPED:
        return value
    if no_value(value) or (kind in ("list", "dict") and isinstance(value, str) and not value.strip()):
        value = spec.get("default")
        if no_value(value):
            return [] if kind == "list" and "default" in spec else None
    try:
        return _of_kind(name, spec, kind, value)
    except PathRefused as refused:
        raise OptionRefused(str(refused))
    except (TypeError, ValueError) as error:
        raise OptionRefused(str(error) if name in str(error) else "%s: %s" % (name, error))


def _of_kind(name, spec, kind, value):
    """``value``, given, read as the option's type ``kind`` (one of TYPED) says."""
    if kind == "bool":
        return parse_flag(value, name)
    if kind in ("int", "float"):
        number = parse_number(value, name)
        if kind == "int" and number != int(number):
            raise ValueError("%s must be a whole number, not %r" % (name, value))
        return int(number) if kind == "int" or number == int(number) else float(number)  # a whole number is said as one
    if kind == "list":
        return [_element(name, spec, item) for item in parse_list(value, name)]
    if kind == "dict":
        return _suboptions(name, spec, _mapping(name, value))
    return where_started(value, name)


def options_of(specs, given, prefix, entry_point=None):
    """Every option of ``specs`` (the role's ``options``) from ``given`` (the variables, templated), typed, by its name without
    ``prefix``; each choice checked, and each option ``entry_point`` (its ``options``) requires given. Refuses the first
    option that cannot be read, by name."""
    options = {}
    for name, spec in sorted(specs.items()):
        if required((entry_point or {}).get(name) or {}) and no_value(given.get(name)):
            raise OptionRefused("%s is required, and was not given" % name)
        value = typed(name, spec, given.get(name, spec.get("default")))
        choices = choices_of(name, spec)
        wrong = [item for item in (value if isinstance(value, list) else [] if value is None else [value]) if choices and item not in choices]
        if wrong:
            raise OptionRefused("%s must be one of %s, not %s" % (name, ", ".join(str(choice) for choice in choices), json.dumps(
                wrong[0], default=str)))
        options[name[len(prefix):] if name.startswith(prefix) else name] = value
    return options


def edits(one, other):
    """How many edits make ``one`` into ``other``: a letter left out, added or changed, or two beside each other swapped."""
    before, row = None, list(range(len(other) + 1))
    for i, letter in enumerate(one, 1):
        current = [i]
        for j, wanted in enumerate(other, 1):
            cost = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (letter != wanted))
            if before is not None and i > 1 and j > 1 and letter == other[j - 2] and one[i - 2] == wanted:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        before, row = row, current
    return row[-1]


def nearest(name, options):
    """The option nearest to ``name`` and its distance in edits, or (None, None) when there are no options."""
    ranked = sorted((edits(name, option), option) for option in options)
    return (ranked[0][1], ranked[0][0]) if ranked else (None, None)


def every_option(role_path):
    """Every option of every entry point of the role at ``role_path``."""
    return set(role_options(argument_specs(role_path), "main"))


def known_names(role_path, runbook):
    """The names a run of ``runbook`` (its role at ``role_path``) takes: its options and those of the runbooks it uses, every
    option of the collection's shared prefix, and the options one runbook hands another."""
    roles = os.path.dirname(role_path)
    known = every_option(role_path) | {HANDED}
    for used in runbook.uses:
        known |= every_option(os.path.join(roles, BY_NAME[used].role))
    for row in RUNBOOKS:
        known |= set(option for option in every_option(os.path.join(roles, row.role)) if option.startswith(SHARED))
    return known


def unknown(names, known, prefixes):
    """Each of ``names`` that begins with one of ``prefixes`` and is none of ``known``: {name: (its nearest option, edits)}."""
    return dict((name, nearest(name, [option for option in known if option.startswith(tuple(prefixes))] or known))
                for name in sorted(names) if name.startswith(tuple(prefixes)) and name not in known)


def refusal(name, where, near, title, nearest_missing=False):
    """One line that refuses ``name`` (given as ``where``), naming the option it is nearest to (``near``: the option, its
    edits) when that is near enough to be what was meant - and that it is required and was not given, when it is
    (``nearest_missing``)."""
    option = meant(name, near)
    if not option:
        return "%s is no option of the %s (given as %s); nothing was read or written." % (name, title, where)
    return "%s: did you mean %s? It is no option of the %s (given as %s)%s; nothing was read or written." % (
        name, option, title, where, ", and %s is required and was not given" % option if nearest_missing else "")


def meant(name, near):
    """The option ``name`` is a typo of (``near``: its nearest option and the edits between them), when it is near enough to
    be what was meant; else None."""
    option, distance = near
    return option if option and distance <= max(NEAR, len(name) // 6) else None  # failback_comit is not a misspelt failback_hosts


def split_text(texts, prefixes):
    """The first ``-e key=value`` among ``texts`` (the extra variables as given on the command line) whose value Ansible split
    at a space, for a key of ``prefixes``: (key, the text as given, the value whole), or None. Ansible keeps the first word
    and drops the others (``-e 'reason=INC-2041: payments latency'`` is the reason ``INC-2041:``)."""
    for text in texts:
        if not isinstance(text, str) or not text or text.startswith(("@", "{", "[")):
            continue
        key, words = None, []
        for token in split_args(text):
            name, equals, value = token.partition("=")
            if equals and not name.startswith(("'", '"')):
                if key and len(words) > 1:
                    break
                key, words = name.strip(), [unquote(value.strip())]
            elif key:
                words.append(token)
        if key and len(words) > 1 and key.startswith(tuple(prefixes)):
            return key, text, " ".join(words)
    return None
