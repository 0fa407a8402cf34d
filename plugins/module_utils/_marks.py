# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What the runbooks keep in the service about target machines they launched: marks, in tags of the source
machines (the published Machine's ``tags``, which ``PATCH .../machines`` writes for many machines in one request).

The service names only each machine's newest target machine, and its jobs say who launched what, not why. A mark
says the rest, where any controller finds it: in the machine list every runbook reads anyway, so reading marks costs
no request, and writing them costs one for all the machines of a step.

* ``replication.recovery/recovered=<target machine ID>`` - a failover committed this recovery (or cutover) machine:
  it runs production. A later failover reports it as standing and never adopts or removes it; the failback reads the
  recovery machines from these marks (its memo), also once the machines launched back have taken their place.
* ``replication.recovery/drill=<moment>`` - a DR test launched recovery or cutover machines from that moment on (a
  drill with a launch type that makes production-like machines); its cleanup removes the mark. A recovery machine
  launched after the mark is the drill's, not production: the next DR test adopts or cleans it, a failover takes it
  for a DR test's machine.

* ``replication.recovery/pin=<runbook>:<run>:<point in time ID>:<its moment>`` - the point in time a run of that runbook
  pinned for the machine when it began (``<run>``: the service's time it read the machines then, as ``20261127T161716Z``),
  written before its first launch when it launches in more than one job. A run that adopts a stopped (or failed) run's
  launches launches the rest from these points, on whatever controller it runs; a run that adopts nothing pins anew.

A machine's marks are not the user's tags: the modules that set tags keep them, and the audit log's record of their
writes is no change to the machine (module_utils._audit).
"""

from ansible_collections.replication.recovery.plugins.module_utils._domain import compact_moment, moment_of_compact

MARK = "replication.recovery/"
RECOVERED = "recovered"
DRILL = "drill"
PIN = "pin"


def is_mark(tag):
    return isinstance(tag, str) and tag.startswith(MARK)


def marks_of(machine):
    """The machine's marks: {name: value}."""
    marks = {}
    for tag in machine.get("tags") or []:
        if is_mark(tag) and "=" in tag:
            name, value = tag[len(MARK):].split("=", 1)
            marks[name] = value
    return marks


def without_marks(tags):
    return [tag for tag in tags or [] if not is_mark(tag)]


def marked(tags, **marks):
    """``tags`` with the marks given set (a value of None removes that mark), the others kept."""
    kept = marks_of(dict(tags=tags))
    kept.update(marks)
    return without_marks(tags) + ["%s%s=%s" % (MARK, name, value) for name, value in sorted(kept.items()) if value is not None]


def recovered_by_mark(machine):
    """The target machine a committed failover left on ``machine``, by its mark; None without one."""
    return marks_of(machine).get(RECOVERED)


def pin_of(runbook, run, point):
    """The value of a machine's pin mark: the point (``{id, date_time}``) a run (``run``: its moment, 20261127T161716Z) of
    ``runbook`` pinned for it, with its time: a point thinned out before it is launched is replaced by the newest before it."""
    return "%s:%s:%s:%s" % (runbook, run, point["id"], compact_moment(point.get("date_time")))


def pins_of(machines, runbook):
    """The points the newest run of ``runbook`` pinned, by the machines' pin marks: ({name: {id, date_time}}, its run),
    or ({}, None) when no machine has one. Marks of older runs of it (or of other runbooks) are not this run's."""
    found = {}
    for machine in machines:
        value = marks_of(machine).get(PIN) or ""
        parts = value.split(":")
        if len(parts) == 4 and parts[0] == runbook and parts[2]:
            found[machine.get("name") or machine["id"]] = (parts[1], dict(id=parts[2], date_time=moment_of_compact(parts[3])))
    if not found:
        return {}, None
    newest = max(run for run, unused in found.values())
    return dict((name, point) for name, (run, point) in found.items() if run == newest), newest
