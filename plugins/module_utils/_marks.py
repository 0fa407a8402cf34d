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

A machine's marks are not the user's tags: the modules that set tags keep them, and the audit log's record of their
writes is no change to the machine (module_utils._audit).
"""

MARK = "replication.recovery/"
RECOVERED = "recovered"
DRILL = "drill"


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
