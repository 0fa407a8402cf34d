# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Measures: a check's outcome, times between moments on one clock, a measure against its target, and the
percentile rule every forecast uses. The report of every runbook is made of these."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time, parse_time

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"


def check_of(name, status, message="", seconds=None):
    """A check as the reports keep it: name, status (PASSED, FAILED or SKIPPED), message and, measured, seconds."""
    check = dict(name=name, status=status, message=message)
    if seconds is not None:
        check["seconds"] = seconds
    return check


def seconds_between(start, end):
    """Seconds from ``start`` to ``end`` (RFC 3339, on one clock), to the millisecond; None unless both are known."""
    if not start or not end:
        return None
    return round(parse_time(end) - parse_time(start), 3)


def plus(moment, seconds):
    """``moment`` (RFC 3339) ``seconds`` later."""
    if moment is None or not seconds:
        return moment
    return iso_time(parse_time(moment) + seconds)


def against(name, measured, target, unmeasured):
    """A measure compared with its target: missing a target fails; no target only reports."""
    if measured is None:
        return check_of(name, SKIPPED, unmeasured)
    if target is None:
        return check_of(name, PASSED, "%s s (no target)" % measured, measured)
    if measured > target:
        return check_of(name, FAILED, "%s s is over the target of %s s" % (measured, target), measured)
    return check_of(name, PASSED, "%s s, within the target of %s s" % (measured, target), measured)


def worst(values):
    """The largest of the values that are known, or None."""
    values = [value for value in values if value is not None]
    return max(values) if values else None


def percentile(values, share):
    """The ``share`` (0 to 1) percentile of the values, linearly between the closest ranks (the median at 0.5): on
    sorted values v[0..n-1], the value at rank share * (n - 1)."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = share * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (rank - low), 3)
