# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Recovery plans: the steps as the user writes them, and as the service keeps them.

Two plans are the same when their steps come in the same order with the same names, the same
machines in any order, and the same waits, however the waits are written (V(120), V(PT2M)).
"""

import re

_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def duration_seconds(value):
    """Seconds in a number of seconds or an ISO 8601 duration of days to seconds; None is 0."""
    if value is None or value == "":
        return 0
    if isinstance(value, (int, float)) or re.match(r"^\d+(\.\d+)?$", str(value)):
        return float(value)
    match = _DURATION.match(str(value))
    if not match or str(value) in ("P", "PT") or str(value).endswith("T"):
        raise ValueError("%r is neither seconds nor an ISO 8601 duration such as PT10M" % (value,))
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


def canonical_steps(steps):
    """Steps in a form that compares equal exactly when the plans mean the same."""
    return [(step["name"], tuple(sorted(step.get("machineIDs", []))), duration_seconds(step.get("waitBefore"))) for step in steps]
