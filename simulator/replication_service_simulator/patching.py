"""What a PATCH body sets, when it carries the whole object back.

Published clients and scripts read an object, change a member and send the whole object back
(docs/wire.md: every PATCH accepts an object as GET returned it). So a PATCH body may hold, beside the
members it sets, the object's read-only members:

* members the service computes and that move by themselves (replication progress, dates of the
  life cycle, ...) are ignored, whatever they say: the object may have moved since it was read;
* other read-only members (the ID, a type, a status) are ignored when they equal what the
  service holds, and refused (422) when they try to change it.

Members that are in no published model are refused by the request models themselves (422).
"""

from .errors import unprocessable


def settable(sent, current, members, computed=()):
    """The members of ``sent`` (a PATCH body, without nulls) that set something.

    ``current`` is the object as GET answers it now; ``members`` are those a PATCH may set;
    ``computed`` the read-only ones ignored whatever their value.
    """
    changes = {}
    for member, value in sent.items():
        if member in members:
            changes[member] = value
        elif member not in computed and value != current.get(member):
            raise unprocessable("%s is read-only: it is %r, and a PATCH cannot change it." % (member, current.get(member)))
    return changes
