# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A project's machines as a module reads them: the list (once per run), those an option names, and what the interface
has no list of - each one's target machine and restore servers. Each function takes a session (module_utils._session), or
a module, which reads through its own, and refuses (Refused) what it cannot answer."""

from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused


def project_machines(module, project):
    """Every machine of the project, stopped ones included: one list call per run."""
    return module.items_of("machine", project=project)


def resolve_machines(module, project, values):
    """The machines named (or with the IDs) in ``values``, all of them if None. Unknown or ambiguous names fail the task
    before anything is written."""
    if values is None:
        return list(project_machines(module, project))
    found = [module.lookup("machine", value, required=False, project=project) for value in values]
    unknown = [repr(value) for value, machine in zip(values, found) if machine is None]
    if unknown:
        raise Refused("Project %r has no machine %s. Known: %s." % (
            project["name"], ", ".join(unknown), ", ".join(sorted(name_of(m) for m in project_machines(module, project))) or "none"))
    return list(dict((machine["id"], machine) for machine in found).values())


def target_machine_of(module, project, machine):
    """The machine's target machine, read once per run (the service has no list of them)."""
    return module.lookup("target_machine", machine["replica"], project=project)


def restore_servers_of(module, project, machine):
    """The machine's restore servers as the service describes them, oldest first: each read once per run, those of every
    machine a few at a time (the service has no list of them); one gone meanwhile is left out."""
    module.read_ahead(ones=["/projects/%s/replicas/%s" % (project["id"], server) for server in machine.get("restoreServers") or []])
    servers = [module.lookup("target_machine", server, required=False, project=project) for server in machine.get("restoreServers") or []]
    return sorted((server for server in servers if server), key=lambda server: server.get("cloudEndureCreationDateTime") or "")
