# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Role inputs as AWX surveys and ``-e key=value`` give them: text."""

import json

from ansible.errors import AnsibleFilterError


def as_list(value):
    """A list from a list, or from text: items separated by commas or new lines, or a JSON list."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except ValueError:
                raise AnsibleFilterError("%r looks like a JSON list but is not one." % (value,))
        else:
            return [item.strip() for item in text.replace("\n", ",").split(",") if item.strip()]
    if not isinstance(value, (list, tuple)):
        raise AnsibleFilterError("A list, or text with items separated by commas, is expected, not %s." % type(value).__name__)
    return [item.strip() if isinstance(item, str) else item for item in value]


class FilterModule(object):
    def filters(self):
        return {"as_list": as_list}
