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
"""

import json

import yaml

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value, parse_flag, parse_list, parse_number
from ansible_collections.replication.recovery.plugins.plugin_utils._files import PathRefused, where_started

# The types of argument specs that text stands in for; str and raw are taken as given.
TYPED = ("bool", "int", "float", "list", "dict", "path")


class OptionRefused(ValueError):
    """An option whose value is not of its type, in any form: its message names the option."""


def _mapping(name, value):
    if isinstance(value, str):
        try:
            value = yaml.safe_load(value)
        except yaml.YAMLError as error:
            raise OptionRefused("%s is text that is neither JSON nor YAML: %s" % (name, str(error).splitlines()[0]))
    if not isinstance(value, dict):
        raise OptionRefused("%s must be a mapping, or its JSON or YAML text, not %s" % (name, json.dumps(value, default=str)))
    return value


def _element(name, spec, value):
    kind = spec.get("elements") or "raw"
    if kind == "dict":
        return _mapping(name + " (an item)", value)
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
    if kind not in TYPED:
        return value
    if no_value(value) or (kind in ("list", "dict") and isinstance(value, str) and not value.strip()):
        value = spec.get("default")
        if no_value(value):
            return [] if kind == "list" and "default" in spec else None
    try:
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
            return _mapping(name, value)
        return where_started(value, name)
    except PathRefused as refused:
        raise OptionRefused(str(refused))
    except (TypeError, ValueError) as error:
        raise OptionRefused(str(error) if name in str(error) else "%s: %s" % (name, error))


def options_of(specs, given, prefix):
    """Every option of ``specs`` (an entry point's ``options``) from ``given`` (the variables, templated), typed, by its
    name without ``prefix``; each choice checked. Refuses the first option that cannot be read, by name."""
    options = {}
    for name, spec in sorted(specs.items()):
        value = typed(name, spec, given.get(name, spec.get("default")))
        wrong = [item for item in (value if isinstance(value, list) else [] if value is None else [value])
                 if spec.get("choices") and item not in spec["choices"]]
        if wrong:
            raise OptionRefused("%s must be one of %s, not %s" % (name, ", ".join(str(choice) for choice in spec["choices"]), json.dumps(
                wrong[0], default=str)))
        options[name[len(prefix):] if name.startswith(prefix) else name] = value
    return options
