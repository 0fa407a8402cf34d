"""The files of a backup project's machines, as they were at each point in time.

The tree is a pure function of the machine and the moment, so search results are the same on
every run: files every machine has, files named after the machine, a daily log kept for a
week (each exists from its day on, until rotated out seven days later), and a weekly export
kept for four weeks. A machine damaged from a moment on (``POST /_simulator/damage``) has, in every
point taken since, a ransom note and its data files encrypted under a ``.locked`` name.
"""

import fnmatch
from datetime import datetime, timezone

from .clock import micros

DAY = 86400
WEEK = 7 * DAY

LINUX = ["/etc/hosts", "/etc/fstab", "/etc/ssh/sshd_config", "/var/www/html/index.html", "/opt/app/config.yml"]
WINDOWS = ["C:\\Windows\\System32\\drivers\\etc\\hosts", "C:\\inetpub\\wwwroot\\index.html", "C:\\app\\settings.json",
           "C:\\Users\\Administrator\\Documents\\runbook.docx"]


def _windows(machine):
    return "windows" in machine.source.get("os", "").lower()


def files_at(machine, when):
    """Paths that exist on ``machine`` at ``when`` (epoch seconds)."""
    windows = _windows(machine)
    paths = list(WINDOWS if windows else LINUX)
    paths.append(("C:\\Users\\Administrator\\%s-notes.txt" if windows else "/home/admin/%s-notes.txt") % machine.name)
    today = int(when // DAY)
    first = int(machine.installed_at // DAY)
    for day in range(max(first, today - 6), today + 1):
        stamp = datetime.fromtimestamp(day * DAY, timezone.utc).strftime("%Y-%m-%d")
        paths.append(("C:\\app\\logs\\app-%s.log" if windows else "/var/log/app/app-%s.log") % stamp)
    this_week = int(when // WEEK)
    for week in range(max(int(machine.installed_at // WEEK), this_week - 3), this_week + 1):
        paths.append(("C:\\app\\exports\\export-w%d.csv" if windows else "/opt/app/exports/export-w%d.csv") % week)
    if machine.damaged_from is not None and micros(when) >= micros(machine.damaged_from):  # to the microsecond, as the wire
        data = [path for path in paths if "exports" in path or path.endswith((".yml", ".json", ".docx"))]
        paths = [path for path in paths if path not in data] + [path + ".locked" for path in data]
        paths.append("C:\\Users\\Public\\README_DECRYPT.txt" if windows else "/home/admin/README_DECRYPT.txt")
    return paths


def matches(query, path):
    """A query with * or ? is a glob on the whole path; otherwise a case-insensitive substring."""
    if any(char in query for char in "*?["):
        return fnmatch.fnmatchcase(path.lower(), query.lower())
    return query.lower() in path.lower()


def find(machine, query, points):
    """(path, [(point_id, taken), ...]) for every path matching ``query`` in any of the points."""
    found = {}
    for point_id, taken in points:
        for path in files_at(machine, taken):
            if matches(query, path):
                found.setdefault(path, []).append((point_id, taken))
    return sorted(found.items())
