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
            changes.append({"fieldName": name, "oldValue": _text(old), "newValue": _text(new)})
    return changes
