#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_launch_policy
short_description: Launch settings of a project's machines by policy - layers, a backup first, a restore, a CSV round trip
version_added: 2.0.0
description:
  - Resolves each machine's blueprint settings (for the project's target region, or O(region)) from layers, in order -
    O(defaults), the project's entry of O(projects), every rule of O(rules) that matches the machine (a later one wins),
    the re-addressing of O(subnet_map), and the machine's entry of O(machines) - and leaves out the machines
    O(exclude) names. The settings are M(replication.recovery.service_blueprint)'s options, by its names; a list or the
    tags are replaced whole, never merged. RV(machines) says which layer set each setting.
  - One read of the machines and one of the blueprints, then one write for each blueprint that changes (the interface
    has no bulk write); run again, nothing is written. Every resolved blueprint is proven against what the region offers
    before anything is written - a problem with any of them stops all of them, named.
  - Before the first write, every blueprint it changes is kept as it was in a backup file in O(backup_dir);
    O(restore) puts them back, member by member, and does not put one back over a change made since the backup
    unless O(on_change) says so.
  - O(export) writes the blueprints as CSV (lists as C(a;b), tags as C(k=v;k2=v2)) and as YAML (with the disks) for a
    spreadsheet; O(import_csv) reads an edited CSV back - only the cells that differ from the service now are written, a
    row whose blueprint changed since the export is a conflict, and an unknown column, a bad value or an unknown machine
    is refused, the row named, with nothing written. A row's C(address) - the machine's private source address - is
    re-addressed by O(subnet_map), over the row's cells of the subnet and private IP.
  - A blueprint switched to a test network (M(replication.recovery.service_test_network)) is not changed - it is named.
options:
  region:
    description: The target region, by name or ID; the region of the project's default replication configuration if not given.
    type: str
  defaults:
    description: Settings for every machine - service_blueprint's options (C(instance_type), C(subnets), C(tags), ...).
    type: dict
  projects:
    description: Settings per project, by project name; the entry of this project applies.
    type: dict
  rules:
    description:
      - Rules in order, each C({match, set}); C(match) has C(name) (a pattern, or a list of them) and C(tags) (launch-time
        tags the machine has, patterns allowed); C(set) the settings. A later matching rule wins.
    type: list
    elements: dict
  machines:
    description: Settings per machine, by name - the last layer.
    type: dict
  exclude:
    description: Machines left out, by name or pattern.
    type: list
    elements: str
  subnet_map:
    description:
      - Re-addressing by the machine's private source address - entries C({source, subnet, subnet_range, keep_host}) - a
        machine in C(source) launches in C(subnet) (name or ID); with C(keep_host=true) it keeps its address's host part
        in C(subnet_range), as a custom private IP.
      - The interface reports no private source address - give it in O(addresses). A machine without one, or in no
        source range, is named in RV(unaddressed) and not re-addressed.
    type: list
    elements: dict
  addresses:
    description: Each machine's private source address, by machine name, for O(subnet_map).
    type: dict
  backup_dir:
    description: Where the backup of the blueprints it changes is written, before the first write. No backup if not given.
    type: path
  restore:
    description: A backup file to put back; the layers are not read.
    type: path
  on_change:
    description:
      - With O(restore), a blueprint changed since the backup - V(refuse) leaves it as it is now, named; V(restore)
        puts it back all the same; V(keep) leaves it and says so.
      - An option the blueprint did not have when the backup was taken cannot be taken away again (the interface sends
        no empty values) - it is named in RV(not_restorable).
    type: str
    choices: [refuse, restore, keep]
    default: refuse
  export:
    description: Write the blueprints to this CSV file, and as YAML beside it (C(.yml)); nothing is changed in the service.
    type: path
  import_csv:
    description: An edited CSV, as O(export) wrote it, to write back.
    type: path
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
attributes:
  check_mode:
    support: full
    details: Nothing is written to the service, and no backup or export file; RV(machines) says what would change.
  diff_mode:
    support: full
    details: Each changed blueprint's settings before and after, by machine name.
seealso:
  - module: replication.recovery.service_blueprint
  - module: replication.recovery.service_blueprint_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Launch settings by policy, with a backup first
  replication.recovery.service_launch_policy:
    project: payroll
    defaults: {instance_type: t3.medium, subnets: [private-a]}
    rules:
      - {match: {name: "db-*"}, set: {instance_type: m5.large}}
      - {match: {tags: [tier=gold]}, set: {tenancy: DEDICATED}}
    machines:
      db-1: {private_ip_action: CUSTOM_IP, private_ips: [10.1.0.10]}
    exclude: [scratch-*]
    backup_dir: /var/lib/dr/backups

- name: Put the blueprints back as they were
  replication.recovery.service_launch_policy:
    project: payroll
    restore: /var/lib/dr/backups/launch_policy_payroll.20261126T101500Z.backup.json
"""

RETURN = r"""
machines:
  description:
    - Each machine the policy touched - C(name), C(settings) (the resolved settings, by option), C(origin) (the layer that
      set each one - V(defaults), C(projects.<name>), C(rules[<index>]), C(subnet_map[<index>]), C(machines.<name>) or
      C(csv row <n>)), C(options_changed) (the options it changes) and C(problems).
  returned: always
  type: list
  elements: dict
changed_machines:
  description: Names of the machines whose blueprints changed (would change, in check mode).
  returned: always
  type: list
  elements: str
excluded:
  description: Names of the machines left out.
  returned: always
  type: list
  elements: str
unaddressed:
  description: Machines the subnet map could not re-address, with why.
  returned: always
  type: dict
refused:
  description: Blueprints left as they are, with why - switched to a test network, or changed since the backup.
  returned: always
  type: dict
restored:
  description: Names of the machines whose blueprints were put back.
  returned: with O(restore)
  type: list
  elements: str
kept:
  description: With O(on_change=keep), names of the machines whose blueprints changed since the backup, left as they are.
  returned: with O(restore)
  type: list
  elements: str
not_restorable:
  description:
    - Options each blueprint did not have when the backup was taken and has now - the interface cannot take a member away
      again, so they stay as they are. Each is a failure of the restore, named in the report (its outcome is failed, never
      nothing done).
  returned: with O(restore)
  type: dict
irreversible:
  description:
    - Options this apply sets on blueprints that had none (the service's default), by machine - a restore of its backup cannot
      take them away again. Warned of before the first write.
  returned: when an apply sets an option a blueprint did not have
  type: dict
  sample: {"web-1": ["instance_type"]}
backup:
  description: The backup file written before the first write.
  returned: when a blueprint changed and O(backup_dir) was given
  type: str
exported:
  description: The CSV and YAML files written.
  returned: with O(export)
  type: list
  elements: str
region:
  description: The region's C(id) and C(name).
  returned: always
  type: dict
report:
  description:
    - The run's report (schema C(replication.recovery.launch_policy/v1)) - each machine's resolved settings and the layer
      that set each one, what changed, what was refused or left out; with C(result) V(failed) when the task fails. The
      role C(replication.recovery.launch_policy) writes it, enters it in the ledger of runs and draws its page.
  returned: always, when the project and region were found
  type: dict
"""

import os
import time

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._launch_policy import PolicyError
from ansible_collections.replication.recovery.plugins.module_utils._launch_policy_run import (
    apply_plan, export_rows, new_result, report_of, restore_plan, shown, wanted_by_csv, wanted_by_policy, write_backup, write_export)
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._regions import target_region, with_ids
from ansible_collections.replication.recovery.plugins.module_utils._test_network import settings_of


class LaunchPolicyModule(ServiceModule):
    def work(self):
        params = self.params
        self.started, self.result = iso_time(time.time()), None
        self.mode = "restore" if params["restore"] else "export" if params["export"] else "import" if params["import_csv"] else "apply"
        self.project_ = self.lookup("project", params["project"])
        self.region = target_region(self, self.project_, params["region"])
        machines = self.list("/projects/%s/machines" % self.project_["id"], dict(all="true"))
        self.path = "/projects/%s/blueprints" % self.project_["id"]
        self.blueprints = dict((b["machineId"], b) for b in self.list(self.path) if b["region"] == self.region["id"] and b["machineId"] in
                               set(machine["id"] for machine in machines))
        self.by_name = dict((name_of(machine), machine) for machine in machines)
        self.result = result = new_result(self.region)
        try:
            if params["restore"]:
                self.write_all(restore_plan(params["restore"], self.project_, self.region, self.blueprints, params["on_change"], result), "restored")
            elif params["export"]:
                self.export(export_rows(self.by_name, self.blueprints, result))
            else:
                wanted = (wanted_by_csv(params["import_csv"], params["subnet_map"], self.project_, self.by_name, self.blueprints, result)
                          if params["import_csv"] else wanted_by_policy(params, self.project_, self.by_name, result))
                unmatched = result.pop("unmatched_rules", None)
                if unmatched:
                    one = len(unmatched) == 1
                    self.warn("%s %s no machine of project %s, and %s nothing." % (
                        ", ".join(unmatched), "matches" if one else "match", self.project_["name"], "sets" if one else "set"))
                plans = apply_plan(wanted, self.by_name, self.blueprints, self.region, lambda settings: with_ids(self, settings, self.region), result)
                self.warn_irreversible(result.get("irreversible"))
                self.write_all(plans)
        except PolicyError as refused:
            self.fail_json(msg=str(refused), report=report_of(self.project_, self.mode, self.started, result, failure=str(refused)), **result)
        return dict(result, report=report_of(self.project_, self.mode, self.started, result))

    def warn_irreversible(self, irreversible):
        """Before the first write: the members this apply sets that the blueprints had none of, which no restore takes away."""
        if irreversible:
            self.warn("This apply cannot be undone exactly by a restore of its backup: the blueprints had no value (the service's default) "
                      "of what it sets, and the interface cannot unset a member: %s." % (
                          ", ".join("%s (%s)" % (name, ", ".join(options)) for name, options in sorted(irreversible.items()))))

    def write_all(self, plans, also=None):
        """One write a blueprint; before the first of an apply, the backup of them all (not under check mode, which writes
        nothing)."""
        for number, (name, blueprint, changes) in enumerate(plans):
            backup = number == 0 and not also and self.params["backup_dir"]
            self.change(lambda blueprint=blueprint, changes=changes, backup=backup: self.write(blueprint, changes, plans if backup else None),
                        before={name: shown(settings_of(blueprint, changes))}, after={name: shown(changes)})
            self.result["changed_machines"].append(name)
            if also:
                self.result[also].append(name)

    def write(self, blueprint, changes, plans=None):
        if plans:
            self.result["backup"] = write_backup(self.params["backup_dir"], self.project_, self.region, plans)
        return self.client.patch("%s/%s" % (self.path, blueprint["id"]), changes)

    def export(self, rows):
        path = self.params["export"]
        yaml_path = os.path.splitext(path)[0] + ".yml"
        self.result["exported"] = [path, yaml_path]

        def disks(name):  # in the YAML only
            return self.blueprints[self.by_name[name]["id"]].get("disks") or []

        # Files on the controller, written as any change is: not under check mode.
        self.change(lambda: write_export(rows, path, yaml_path, self.project_, self.region, disks), after=dict(exported=self.result["exported"]))


def main():
    LaunchPolicyModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            region=dict(type="str"),
            defaults=dict(type="dict"),
            projects=dict(type="dict"),
            rules=dict(type="list", elements="dict"),
            machines=dict(type="dict"),
            exclude=dict(type="list", elements="str"),
            subnet_map=dict(type="list", elements="dict"),
            addresses=dict(type="dict"),
            backup_dir=dict(type="path"),
            restore=dict(type="path"),
            on_change=dict(type="str", choices=["refuse", "restore", "keep"], default="refuse"),
            export=dict(type="path"),
            import_csv=dict(type="path"),
        ),
        mutually_exclusive=[("restore", "export", "import_csv")],
    ).run()


if __name__ == "__main__":
    main()
