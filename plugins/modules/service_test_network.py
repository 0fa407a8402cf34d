#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_test_network
short_description: Switch machines' blueprints to a test network, and put them back exactly as they were
version_added: 2.0.0
description:
  - The service keeps one blueprint per machine and region for every launch type, so a test launch lands where a real
    recovery would. With O(state=switched), the blueprints of O(machines) for the region take the settings of
    O(network) - an isolated test network - and with O(state=restored) they are put back exactly as they were.
  - What a blueprint was lives in the blueprint itself, in tags of its own (C(replication.recovery/production.1),
    C(.2), ...) written in the same request as the switch and removed in the same request as the restore. A blueprint
    carries them exactly while it is switched, so that any later run, on any controller, finds the switched
    blueprints in the service and puts them back - the DR test and the failover do so before anything else. The tags
    are launch-time tags, so a machine launched while its blueprint is switched carries them.
  - A blueprint whose switched settings somebody changed since the switch is not put back over their change; it is
    named in RV(refused) (see O(on_change)).
  - One list of the project's blueprints, and one request per blueprint that changes (the service has no request for
    several).
options:
  state:
    description:
      - V(switched) - the blueprints of O(machines) take the settings of O(network); a blueprint switched already is
        left as it is (put it back first to switch it anew). V(restored) - every switched blueprint of O(machines) is put
        back as it was.
    type: str
    choices: [switched, restored]
    required: true
  machines:
    description: The machines, by name or ID; all of the project's if not given.
    type: list
    elements: str
  region:
    description: The target region of the blueprints, by name or ID. The region of the project's default replication configuration if not given.
    type: str
  network:
    description:
      - With O(state=switched), the test network - the options of M(replication.recovery.service_blueprint) that make it
        (V(subnets), V(security_groups), V(private_ip_action), V(private_ips), V(public_ip_action), V(static_ip),
        V(static_ip_action), V(iam_role), V(instance_type), V(placement_group), V(tags)) for every machine, subnets and
        security groups by name or ID - and under V(machines) a dictionary of machine names to options that differ
        for that machine.
      - A machine whose blueprint has no value for a member the network sets (an IAM role, say) is refused, since its
        absence could not be put back.
    type: dict
  on_change:
    description:
      - With O(state=restored), what becomes of a blueprint somebody changed since the switch. V(refuse) - leave it, and
        our tags, as they are and name it. V(restore) - put it back as it was all the same. V(keep) - keep it as they set
        it, and remove our tags, so that it is no longer switched.
    type: str
    choices: [refuse, restore, keep]
    default: refuse
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
    details: For each blueprint that changes, its switched members before and after.
  platform:
    platforms: all
seealso:
  - module: replication.recovery.service_blueprint
  - module: replication.recovery.service_blueprint_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Switch the blueprints to the isolated test network, the database with its own address
  replication.recovery.service_test_network:
    project: production
    state: switched
    network:
      subnets: [isolated-a]
      security_groups: [isolated]
      public_ip_action: DONT_ALLOCATE
      machines:
        db-1: {private_ip_action: CUSTOM_IP, private_ips: [172.16.0.10]}

- name: Put every switched blueprint back as it was
  replication.recovery.service_test_network:
    project: production
    state: restored
  register: restored

- name: Name the blueprints somebody changed during the test
  ansible.builtin.debug:
    msg: "{{ restored.refused }}"
  when: restored.refused | length > 0
"""

RETURN = r"""
region:
  description: The region of the blueprints, C(id) and C(name).
  returned: success
  type: dict
switched:
  description: The machines whose blueprints were switched (in check mode, would be), each with the test settings they took.
  returned: success
  type: dict
  sample: {web-1: {subnetIDs: [subnet-0a1b2c3d], securityGroupIDs: [sg-0a1b2c3d], publicIPAction: DONT_ALLOCATE}}
restored:
  description: The names of the machines whose blueprints were put back (in check mode, would be).
  returned: success
  type: list
  elements: str
refused:
  description:
    - The machines not switched or not put back, each with why - changed by somebody else since the switch, a member
      that could not be put back, tags of ours that do not make a whole record.
  returned: success
  type: dict
  sample: {db-1: "somebody changed its blueprint's securityGroupIDs, subnetIDs since the switch; left as they set it"}
kept:
  description: With O(on_change=keep), the names of the machines whose changed blueprints were kept as somebody set them, our tags removed.
  returned: success
  type: list
  elements: str
still_switched:
  description: The names of the machines of O(machines) whose blueprints are switched after the task.
  returned: success
  type: list
  elements: str
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._test_network import (
    StashUnreadable, changed_since_switch, restore_body, settings_of, stash_of, switch_body, test_networks, without_stash)
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines
from ansible_collections.replication.recovery.plugins.module_utils._regions import target_region, with_ids

OPTIONS = dict(
    project=dict(type="str", required=True),
    state=dict(type="str", choices=["switched", "restored"], required=True),
    machines=dict(type="list", elements="str"),
    region=dict(type="str"),
    network=dict(type="dict"),
    on_change=dict(type="str", choices=["refuse", "restore", "keep"], default="refuse"),
)


class TestNetworkModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        machines = resolve_machines(self, project, self.params["machines"])
        region = target_region(self, project, self.params["region"])
        names = dict((machine["id"], name_of(machine)) for machine in machines)
        path = "/projects/%s/blueprints" % project["id"]
        blueprints = [b for b in self.list(path) if b["region"] == region["id"] and b["machineId"] in names]
        result = dict(region=dict(id=region["id"], name=region.get("name")), switched={}, restored=[], kept=[], refused={}, still_switched=[])
        if self.params["state"] == "switched":
            try:
                networks = test_networks(self.params["network"], names.values(), lambda settings: with_ids(self, settings, region))
            except ValueError as problem:
                self.fail_json(msg="%s." % problem)
        for blueprint in sorted(blueprints, key=lambda b: names[b["machineId"]]):
            name = names[blueprint["machineId"]]
            try:
                stash = stash_of(blueprint)
            except StashUnreadable as problem:
                result["refused"][name] = str(problem)
                continue
            if self.params["state"] == "switched":
                self.switch(blueprint, name, stash, networks[name], path, result)
            elif stash is not None:
                self.restore(blueprint, name, stash, path, result)
        return result

    def switch(self, blueprint, name, stash, members, path, result):
        if stash is not None:  # switched already: what it was is in our tags; switching again would lose it
            result["still_switched"].append(name)
            return
        try:
            body = switch_body(blueprint, members)
        except ValueError as problem:
            result["refused"][name] = str(problem)
            return
        if body is None:
            return
        self.change(lambda: self.client.patch("%s/%s" % (path, blueprint["id"]), body),
                    before={name: settings_of(blueprint, members)}, after={name: settings_of(dict(blueprint, **members), members)})
        result["switched"][name] = members
        result["still_switched"].append(name)

    def restore(self, blueprint, name, stash, path, result):
        members = stash["members"]
        changed = changed_since_switch(blueprint, stash)
        if changed and self.params["on_change"] == "refuse":
            result["refused"][name] = "somebody changed its blueprint's %s since the switch; left as they set it" % ", ".join(sorted(members))
            result["still_switched"].append(name)
            return
        keep = changed and self.params["on_change"] == "keep"
        body = dict(tags=without_stash(blueprint.get("tags"))) if keep else restore_body(blueprint, stash)
        self.change(lambda: self.client.patch("%s/%s" % (path, blueprint["id"]), body),
                    before={name: settings_of(blueprint, members)}, after={name: settings_of(dict(blueprint, **body), members)})
        result["kept" if keep else "restored"].append(name)


def main():
    TestNetworkModule(argument_spec=OPTIONS).run()


if __name__ == "__main__":
    main()
