# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Words: how the collection says names, lists and durations in its messages and reports - one way each, for the
modules (which run where the module runs) and the controller's plugins alike."""

SHOWN = 10


def shown(names, limit=SHOWN, sep=", "):
    """Names for a message: the first ``limit``, and how many more."""
    names = [str(name) for name in names]
    return sep.join(names[:limit]) + (" and %d more" % (len(names) - limit) if len(names) > limit else "")


def reasons(by_name):
    """{name: why} for a message: "a: why; b: why", by name."""
    return "; ".join("%s: %s" % item for item in sorted(by_name.items()))


def joined(words):
    """Words as a list is said: "a, b and c"."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def sentences(lines, limit=5):
    """The first ``limit`` lines, one sentence each, and how many more the report has."""
    more = len(lines) - limit
    return ". ".join(lines[:limit]) + (". And %d more (see the report)" % more if more > 0 else "")


def spoken(seconds, days=False):
    """A duration as people say it: 45.2 s, 4 min 5 s, 24 h 0 min (with ``days``, 3 d 2 h 0 min); - for none."""
    if seconds is None:
        return "-"
    if days:
        whole_days, rest = divmod(int(seconds), 86400)
        return ("%d d " % whole_days if whole_days else "") + "%d h %d min" % (rest // 3600, (rest % 3600) // 60)
    if seconds >= 3600:
        return "%d h %d min" % (seconds // 3600, (seconds % 3600) // 60)
    if round(seconds) >= 60:
        return "%d min %d s" % divmod(int(round(seconds)), 60)  # rounded whole, never "1 min 60 s"
    return "%s s" % round(seconds, 1)


def figure(value):
    """A number as a table shows it: - for none."""
    return "-" if value is None else "%g" % value
