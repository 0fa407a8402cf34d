# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reading a project's audit log, which the service pages by time rather than by offset."""

from ansible_collections.replication.recovery.plugins.module_utils._client import PAGE_LIMIT
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time


def read_audit_log(client, path, since=None, until=None, now=None):
    """Every entry in the window, oldest first.

    A page says ``hasMoreResults`` when the window holds more than it: the next page starts at
    the last entry's moment, and entries seen on both pages are kept once. ``now`` (a callable)
    gives the service's time, for a window with a start and no end.
    """
    query = dict(limit=PAGE_LIMIT)
    if since is not None or until is not None:
        query.update(fromDateTime=iso_time(since or 0), toDateTime=iso_time(until if until is not None else now()))
    entries, seen = [], set()
    while True:
        page = client.get(path, params=dict(query))
        for entry in page["items"]:
            key = (entry.get("timestamp"), entry.get("eventName"), entry.get("description"), entry.get("jobId"))
            if key not in seen:
                seen.add(key)
                entries.append(entry)
        if not page.get("hasMoreResults") or not page["items"]:
            return entries
        if query.get("fromDateTime") == page["items"][-1]["timestamp"]:
            return entries  # a whole page at one moment: the window cannot move on
        query["fromDateTime"] = page["items"][-1]["timestamp"]
        query.setdefault("toDateTime", iso_time(now()))
