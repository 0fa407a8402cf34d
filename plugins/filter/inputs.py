# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Role inputs as AWX surveys and ``-e key=value`` give them - text - read as the values they stand
for, by the parsers every plugin of the collection uses (module_utils._domain)."""

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_flag, parse_list, parse_number


def _read(parse, value, *args, **kwargs):
    try:
        return parse(value, *args, **kwargs)
    except ValueError as error:
        message = str(error)
        raise AnsibleFilterError(message[0].upper() + message[1:].rstrip(".") + ".")


def as_list(value):
    """A list from a list, or from text: items separated by commas or new lines, or a JSON list."""
    return _read(parse_list, value, "the value")


def as_number(value, default=None):
    """A number from a number or from text; ``default`` for no value (none, empty, null)."""
    number = _read(parse_number, value, "the value")
    return default if number is None else number


def as_flag(value, default=False):
    """A boolean from a boolean or from text (true/false, yes/no, on/off, 1/0, y/n); ``default`` for no value."""
    return _read(parse_flag, value, "the value", default=default)


class FilterModule(object):
    def filters(self):
        return {"as_list": as_list, "as_number": as_number, "as_flag": as_flag}
