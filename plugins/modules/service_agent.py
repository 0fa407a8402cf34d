#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_agent
short_description: Which hosts are machines of a project, which need the replication agent, and removing them
version_added: 2.0.0
description:
  - Tells, for hosts of your inventory, which machine of the project each one is, with one read of the project and
    one of its machine list for all of them. A host is its machine by its short host name against the machine's
    source name (in any case), else by one of its addresses among the machine's public addresses. A host that two
    machines match, or whose machine another host matches too, is named and never guessed.
  - With O(state=present), a host whose machine is registered with its agent in place is left alone; every other host
    needs the agent. The installer is then run on each host with the project's agent installation token, which
    this module returns in RV(installation_token) - run the task with C(no_log), as the role C(replication.recovery.agent)
    does.
  - With O(state=absent), the hosts' machines are removed through the service, in one request - which stops their
    replication and deletes their replication disks and points in time for good, but not the machines launched from
    them. It needs O(confirm_removal=true), and refuses a failed-over machine (its live target machine is a recovery or
    cutover machine - production), named; the other hosts' machines are removed.
  - Idempotent; under check mode nothing is written and the hosts are told what would happen.
options:
  hosts:
    description: The hosts, each with what is known of it.
    type: list
    elements: dict
    required: true
    suboptions:
      host:
        description: The host's name in the inventory, the key of RV(hosts).
        type: str
        required: true
      name:
        description: The host's name as its agent reports it - its short host name.
        type: str
      addresses:
        description: The host's addresses, matched against the machines' public addresses when no name matches.
        type: list
        elements: str
        default: []
  state:
    description: V(present) tells which hosts need the agent; V(absent) removes the hosts' machines from the project.
    type: str
    choices: [present, absent]
    default: present
  confirm_removal:
    description:
      - Required V(true) with O(state=absent) - a removed machine's points in time are deleted for good.
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.jobs.BLOCKED
attributes:
  check_mode:
    support: full
    details: Nothing is removed; RV(hosts) says what would happen to each host.
  diff_mode:
    support: full
    details: With O(state=absent), the machines removed, before and after.
seealso:
  - module: replication.recovery.service_machine
  - module: replication.recovery.service_machine_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Which hosts need the agent (the installation token is in the result)
  replication.recovery.service_agent:
    project: production
    hosts:
      - host: web-1.example.com
        name: web-1
        addresses: [198.51.100.7]
  register: agent_hosts
  no_log: true

- name: Remove the machines of two hosts that left service
  replication.recovery.service_agent:
    project: production
    state: absent
    confirm_removal: true
    hosts: [{host: old-1, name: old-1}, {host: old-2, name: old-2}]
"""

RETURN = r"""
hosts:
  description:
    - Each host, by its inventory name - C(machine) and C(machine_id) (none when it is no machine of the project),
      C(action), and C(message), a sentence for a person.
    - C(action) is V(keep) (registered, agent in place), V(install), V(refused) (a host that cannot be told apart, or a
      failed-over machine to remove), V(remove) or V(removed) (its machine), or V(none) (absent, and not registered).
  returned: always
  type: dict
  sample: {"web-1.example.com": {"machine": "web-1", "machine_id": "0e3d...", "action": "keep", "message": "web-1, agent in place"}}
installation_token:
  description: The project's agent installation token, when a host needs the agent. A secret - run the task with C(no_log).
  returned: with O(state=present), when a host needs the agent
  type: str
project_id:
  description: The project's ID.
  returned: always
  type: str
removed:
  description: Names of the machines removed (under check mode, that would be removed).
  returned: with O(state=absent)
  type: list
  elements: str
"""

from ansible_collections.replication.recovery.plugins.module_utils._agent import TOKEN, match_hosts
from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._domain import PRODUCTION_KINDS
from ansible_collections.replication.recovery.plugins.module_utils._jobs import BLOCKED_ARGUMENT_SPEC, Jobs
from ansible_collections.replication.recovery.plugins.module_utils._machines import launch_type_of_replica, name_of


class AgentModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.lookup("project", params["project"])
        machines = self.list("/projects/%s/machines" % project["id"], dict(all="true"))
        hosts = {}
        for host, (machine, conflict) in sorted(match_hosts(params["hosts"], machines).items()):
            hosts[host] = dict(machine=name_of(machine) if machine else None, machine_id=machine["id"] if machine else None)
            if conflict:
                hosts[host].update(action="refused", message="cannot be told apart: %s. Give it a distinct host name." % conflict)
            else:
                hosts[host].update(self.present(machine) if params["state"] == "present" else self.absent(machine))
        result = dict(hosts=hosts, project_id=project["id"])
        if params["state"] == "present":
            if any(entry["action"] == "install" for entry in hosts.values()):
                result["installation_token"] = project.get(TOKEN)
            return result
        return dict(result, removed=self.remove(project, hosts))

    @staticmethod
    def present(machine):
        if machine is None:
            return dict(action="install", message="no machine of the project yet")
        if machine.get("isAgentInstalled"):
            return dict(action="keep", message="%s, agent in place" % name_of(machine))
        return dict(action="install", message="%s, without its agent" % name_of(machine))

    @staticmethod
    def absent(machine):
        if machine is None:
            return dict(action="none", message="not registered in the project")
        kind = launch_type_of_replica(machine) if machine.get("replica") else None
        if kind in PRODUCTION_KINDS:
            return dict(action="refused", message="%s is failed over: its %s machine %s runs production. Fail it back first; its machine "
                                                  "was not removed." % (name_of(machine), kind, machine["replica"]))
        return dict(action="remove", message="%s would be removed" % name_of(machine))

    def remove(self, project, hosts):
        going = [entry for entry in hosts.values() if entry["action"] == "remove"]
        if not going:
            return []
        if not self.params["confirm_removal"]:
            self.fail_json(msg="Removing %s deletes their points in time for good: set confirm_removal (agent_confirm_removal) to true. "
                               "Nothing was removed." % ", ".join(entry["machine"] for entry in going), hosts=hosts)
        path = "/projects/%s/machines" % project["id"]

        def remove_them():
            ids = [entry["machine_id"] for entry in going]
            Jobs.of(self, project).retry_when_busy(lambda: self.client.delete(path, dict(machineIDs=ids)))
            for entry in going:
                entry.update(action="removed", message="%s removed" % entry["machine"])

        self.change(remove_them, before=dict(machines=sorted(entry["machine"] for entry in going)), after=dict(machines=[]))
        return sorted(entry["machine"] for entry in going)


def main():
    AgentModule(
        argument_spec=dict(
            BLOCKED_ARGUMENT_SPEC,
            project=dict(type="str", required=True),
            hosts=dict(type="list", elements="dict", required=True, options=dict(
                host=dict(type="str", required=True),
                name=dict(type="str"),
                addresses=dict(type="list", elements="str", default=[]),
            )),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            confirm_removal=dict(type="bool", default=False),
        ),
    ).run()


if __name__ == "__main__":
    main()
