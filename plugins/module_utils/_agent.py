# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The replication agent on the source machines: which machine of a project a host is, and the
installer's command line. The agent's installer is run on each host with the project's agent
installation token, which the published project carries (``agentInstallationToken``): a secret,
which no result of the collection shows (``without_token``)."""

from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of

TOKEN = "agentInstallationToken"
LINUX, WINDOWS = "linux", "windows"


def without_token(value):
    """``value`` - a result, a project, anything a module answers - without any agent installation token in it:
    what every module of the collection answers (module_utils._base). What holds none is answered itself, not a copy: a
    result can be a project's machines and all their points in time."""
    if isinstance(value, dict):
        kept = [(key, without_token(item)) for key, item in value.items() if key != TOKEN]
        return value if len(kept) == len(value) and all(item is value[key] for key, item in kept) else dict(kept)
    if isinstance(value, list):
        kept = [without_token(item) for item in value]
        return value if all(item is was for item, was in zip(kept, value)) else kept
    return value


def installer_argv(python, installer, token, extra=()):
    """The Linux installer's command line, as arguments (no shell): ``<python> <installer> -t <token> --no-prompt``."""
    return [python, installer, "-t", token, "--no-prompt"] + list(extra)


def powershell_quoted(value):
    """A PowerShell string literal: single quotes, which take nothing as special but a single quote (doubled)."""
    return "'%s'" % str(value).replace("'", "''")


def windows_installer_command(installer_url_, installer, token, extra=()):
    """The Windows installer's PowerShell command line: download the installer, run it with the token and no
    prompt, stop on the first error, and exit with the installer's exit code."""
    return "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " \
           "Invoke-WebRequest -UseBasicParsing -Uri %s -OutFile %s; & %s %s; exit $LASTEXITCODE" % (
               powershell_quoted(installer_url_), powershell_quoted(installer), powershell_quoted(installer),
               " ".join(powershell_quoted(argument) for argument in ["-t", token, "--no-prompt"] + list(extra)))


def short_name(name):
    return (name or "").split(".")[0].lower()


def match_hosts(hosts, machines):
    """Which machine each host is. ``hosts``: [{host, name, addresses}]; ``machines``: as the service lists them.
    A host is its machine by its short host name against the machine's ``sourceProperties.name`` (short, in any
    case), else by an address among the machine's ``publicIps``. Answers {host: (machine or None, why not)}: a
    host that two machines match, or that shares its machine with another host, is named, never guessed."""
    by_name, by_address = {}, {}
    for machine in machines:
        source = machine.get("sourceProperties") or {}
        by_name.setdefault(short_name(source.get("name")), []).append(machine)
        for address in source.get("publicIps") or []:
            by_address.setdefault(address, []).append(machine)
    found = {}
    for host in hosts:
        candidates = list(by_name.get(short_name(host.get("name"))) or [])
        if not candidates:
            for address in host.get("addresses") or []:
                candidates.extend(machine for machine in by_address.get(address, []) if machine not in candidates)
        found[host["host"]] = candidates
    owners = {}
    for host, candidates in found.items():
        if len(candidates) == 1:
            owners.setdefault(candidates[0]["id"], []).append(host)
    answer = {}
    for host, candidates in found.items():
        if not candidates:
            answer[host] = (None, None)
        elif len(candidates) > 1:
            answer[host] = (None, "%d machines match it: %s" % (len(candidates), ", ".join(
                "%s (%s)" % (name_of(machine), machine["id"]) for machine in candidates)))
        elif len(owners[candidates[0]["id"]]) > 1:
            answer[host] = (None, "machine %s (%s) matches hosts %s" % (name_of(candidates[0]), candidates[0]["id"], ", ".join(
                sorted(owners[candidates[0]["id"]]))))
        else:
            answer[host] = (candidates[0], None)
    return answer
