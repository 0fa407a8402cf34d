# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The desired-versus-current comparison: only what the user set counts."""


def _canonical(value):
    """A value that compares equal for equal JSON, whatever the order of a dict's keys."""
    if isinstance(value, dict):
        return tuple(sorted((key, _canonical(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_canonical(item) for item in value)
    return value


def same(current, desired, unordered=False):
    """Whether a current value already is the desired one; ``unordered`` lists compare as sets."""
    if unordered and isinstance(current, list) and isinstance(desired, list):
        return sorted(map(_canonical, current)) == sorted(map(_canonical, desired))
    return _canonical(current) == _canonical(desired)


def differences(current, desired, unordered=()):
    """The members of ``desired`` whose values differ from ``current``'s.

    ``desired`` holds only what the user set, so members the user left out never count.
    """
    return dict(
        (member, value) for member, value in desired.items()
        if member not in current or not same(current[member], value, member in unordered)
    )


def managed(resource, members, secrets=()):
    """The part of a resource a module manages, for --diff: its members, no secrets."""
    if resource is None:
        return {}
    return dict((member, resource[member]) for member in members if member in resource and member not in secrets)


def key_values(mapping):
    """A dictionary as the service's list of key/value pairs (tags), in key order; values are text."""
    return [dict(key=key, value=str(value)) for key, value in sorted(mapping.items())]
