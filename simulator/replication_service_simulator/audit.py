"""Changed-field lists for the audit log; secrets are named but their values never recorded."""

import json

SECRET_FIELDS = ("privateKey", "password", "apiToken")


def _text(value):
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def changed_fields(before, after):
    """The members of ``after`` whose values differ from ``before``."""
    changes = []
    for name in sorted(after):
        old, new = before.get(name), after[name]
        if old == new:
            continue
        if name in SECRET_FIELDS:
            changes.append({"fieldName": name})
        else:
            # A member that was or becomes unset has no value on that side: the service sends no nulls.
            change = {"fieldName": name, "oldValue": _text(old), "newValue": _text(new)}
            changes.append(dict((key, value) for key, value in change.items() if value is not None))
    return changes
