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
      again, so they stay as they are.
  returned: with O(restore)
  type: dict
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

import json
import os
import time

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._launch_policy import (
    FINGERPRINT, MACHINE, OPTIONS, Policy, PolicyError, changes_of, csv_of, fingerprint, members_of, rows_of_csv)
from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import launch_setting_problems
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of
from ansible_collections.replication.recovery.plugins.module_utils._test_network import StashUnreadable, settings_of, stash_of
from ansible_collections.replication.recovery.plugins.module_utils._regions import target_region

BACKUP_SCHEMA = "replication.recovery.launch_policy.backup/v1"
LOOKUPS = dict(subnets="subnet", security_groups="security_group")
MEMBERS = dict((member, option) for option, member in OPTIONS.items())


class LaunchPolicyModule(ServiceModule):
    def work(self):
        params = self.params
        self.started = iso_time(time.time())
        self.mode = "restore" if params["restore"] else "export" if params["export"] else "import" if params["import_csv"] else "apply"
        self.project_ = self.lookup("project", params["project"])
        self.region = target_region(self, self.project_, params["region"])
        self.machines_ = dict((machine["id"], machine) for machine in self.list("/projects/%s/machines" % self.project_["id"], dict(all="true")))
        self.path = "/projects/%s/blueprints" % self.project_["id"]
        self.blueprints = dict((b["machineId"], b) for b in self.list(self.path) if b["region"] == self.region["id"] and b["machineId"] in self.machines_)
        self.by_name = dict((name_of(machine), machine) for machine in self.machines_.values())
        result = dict(machines=[], changed_machines=[], excluded=[], unaddressed={}, refused={},
                      region=dict(id=self.region["id"], name=self.region.get("name")))
        self.result = result
        if params["restore"]:
            self.restore(result)
        elif params["export"]:
            self.export(result)
        else:
            self.apply(self.from_csv(result) if params["import_csv"] else self.from_policy(result), result)
        return dict(result, report=self.report(result))

    def refuse(self, msg):
        """Fail the task, before anything is written, with the report of the refusal."""
        result = getattr(self, "result", None)
        if result is None:
            self.fail_json(msg=msg)
        self.fail_json(msg=msg, report=self.report(result, failure=msg), **result)

    def report(self, result, failure=None):
        """The run's report (replication.recovery.launch_policy/v1): each machine's resolved settings and the layer that set
        each one, what changed, what was refused or left out."""
        failures = ([failure] if failure else []) + ["%s: %s" % (name, why) for name, why in sorted(result["refused"].items())]
        machines = [dict(entry, status="refused" if entry["name"] in result["refused"] else "changed" if entry["options_changed"] else "unchanged")
                    for entry in result["machines"]]
        return dict(
            schema="replication.recovery.launch_policy/v1", project=self.project_["name"], project_id=self.project_["id"],
            region=result["region"], mode=self.mode, started=self.started, generated=iso_time(time.time()),
            result="failed" if failures else "passed", failures=failures, machines=machines, excluded=result["excluded"],
            unaddressed=result["unaddressed"], refused=result["refused"], backup=result.get("backup"), restored=result.get("restored"),
            not_restorable=result.get("not_restorable"), exported=result.get("exported"),
            counts=dict(machines=len(machines), machines_changed=len(result["changed_machines"]), excluded=len(result["excluded"]),
                        refused=len(result["refused"]), unaddressed=len(result["unaddressed"])))

    # -- what each machine's blueprint should be -----------------------------------------------------------------------

    def from_policy(self, result):
        params = self.params
        try:
            policy = Policy(params["defaults"], params["projects"], params["rules"], params["machines"], params["exclude"],
                            params["subnet_map"], params["addresses"])
        except PolicyError as error:
            self.refuse("%s. Nothing was written." % error)
        strangers = sorted((set(policy.machines) | set(policy.addresses)) - set(self.by_name))
        if strangers:
            self.refuse("The policy names %s, not machines of project %s (%s). Nothing was written." % (
                ", ".join(strangers), self.project_["name"], ", ".join(sorted(self.by_name)) or "none"))
        wanted = {}
        for name in sorted(self.by_name):
            if policy.excluded(name):
                result["excluded"].append(name)
                continue
            settings, origin, unmapped = policy.resolve(self.project_["name"], name, self.by_name[name].get("tags") or [])
            if unmapped:
                result["unaddressed"][name] = unmapped
            if settings:
                wanted[name] = (settings, origin)
        return wanted

    def from_csv(self, result):
        try:
            with open(self.params["import_csv"], encoding="utf-8", newline="") as stream:
                rows = rows_of_csv(stream.read())
        except (IOError, OSError) as error:
            self.refuse("The CSV %s cannot be read: %s. Nothing was written." % (self.params["import_csv"], to_text(error)))
        except PolicyError as error:
            self.refuse("The CSV %s: %s. Nothing was written." % (self.params["import_csv"], error))
        wanted, problems = {}, []
        if any(address for unused, unused_name, unused_print, unused_settings, address in rows) and not self.params["subnet_map"]:
            self.refuse("The CSV %s gives addresses: re-addressing them needs the subnet map (subnet_map). Nothing was written." % (
                self.params["import_csv"]))
        try:
            mapping = Policy(subnet_map=self.params["subnet_map"], addresses=dict((row[1], row[4]) for row in rows if row[4]))
        except PolicyError as error:
            self.refuse("%s. Nothing was written." % error)
        for line, name, exported, settings, address in rows:
            origin = dict((option, "csv row %d" % line) for option in settings)
            if address:
                mapped, unmapped = mapping.readdressed(name)
                said = "%s (csv row %d)" % (mapped.pop("_said", "subnet_map"), line)
                if unmapped:
                    result["unaddressed"][name] = unmapped
                # An address given is the intent: the map's subnet and private IP win over the row's cells of them.
                origin = dict(origin, **dict((option, said) for option in mapped))
                settings = dict(settings, **mapped)
            machine = self.by_name.get(name)
            blueprint = self.blueprints.get(machine["id"]) if machine else None
            if machine is None:
                problems.append("row %d: %s is no machine of project %s" % (line, name, self.project_["name"]))
            elif name in wanted:
                problems.append("row %d: %s has an earlier row" % (line, name))
            elif blueprint is not None and exported and fingerprint(blueprint) != exported:
                problems.append("row %d: the blueprint of %s changed since the export (its fingerprint is %s, the row's %s): export again "
                                "and edit that" % (line, name, fingerprint(blueprint), exported))
            elif settings:
                wanted[name] = (settings, origin)
        if problems:
            self.refuse("The CSV %s is refused: %s. Nothing was written." % (self.params["import_csv"], "; ".join(problems)))
        return wanted

    # -- applying it: proven first, a backup, then one write a blueprint -----------------------------------------------

    def apply(self, wanted, result):
        plans, problems = [], []
        for name, (settings, origin) in sorted(wanted.items()):
            blueprint = self.blueprints.get(self.by_name[name]["id"])
            entry = dict(name=name, settings=settings, origin=origin, options_changed=[], problems=[])
            result["machines"].append(entry)
            if blueprint is None:
                entry["problems"].append("it has no blueprint for region %s" % self.region.get("name"))
                problems.append("%s: %s" % (name, entry["problems"][-1]))
                continue
            if self.switched(blueprint, name, result):
                continue
            members = members_of(self.resolved(settings))
            changes = changes_of(blueprint, members)
            entry["options_changed"] = sorted(MEMBERS[member] for member in changes)
            if changes:
                entry["problems"] = [problem["message"] for problem in launch_setting_problems(dict(blueprint, **members), self.region)]
                problems.extend("%s: %s" % (name, problem) for problem in entry["problems"])
                plans.append((name, blueprint, changes))
        if problems:
            self.refuse("The resolved blueprints were proven against region %s, and %s stop%s them all; nothing was written: %s." % (
                self.region.get("name"), "1 problem" if len(problems) == 1 else "%d problems" % len(problems), "s" if len(problems) == 1 else "",
                "; ".join(problems)))
        for number, (name, blueprint, changes) in enumerate(plans):
            self.change(lambda blueprint=blueprint, changes=changes, first=number == 0: self.write(blueprint, changes, plans if first else None),
                        before={name: self.shown(settings_of(blueprint, changes))}, after={name: self.shown(changes)})
            result["changed_machines"].append(name)

    def write(self, blueprint, changes, plans=None):
        """One blueprint's write; the first write of a run writes the backup of them all before it (not under check mode,
        which writes nothing)."""
        if plans and self.params["backup_dir"]:
            self.result["backup"] = self.backup(plans)
        return self.client.patch("%s/%s" % (self.path, blueprint["id"]), changes)

    def switched(self, blueprint, name, result):
        try:
            stash = stash_of(blueprint)
        except StashUnreadable as problem:
            stash = str(problem)
        if stash is not None:
            result["refused"][name] = "its blueprint is switched to a test network: put it back first (service_test_network state=restored)"
        return stash is not None

    def resolved(self, settings):
        """The settings with subnet and security group names made IDs (looked up in the region)."""
        settings = dict(settings)
        for option, kind in LOOKUPS.items():
            if settings.get(option):
                settings[option] = [self.resolve(kind, value, region=self.region) for value in settings[option]]
        return settings

    @staticmethod
    def shown(members):
        return dict((MEMBERS[member], value) for member, value in members.items())

    def backup(self, plans):
        taken = time.time()
        kept = dict(schema=BACKUP_SCHEMA, project=dict(id=self.project_["id"], name=self.project_["name"]),
                    region=dict(id=self.region["id"], name=self.region.get("name")), taken=iso_time(taken),
                    blueprints=dict((name, dict(id=blueprint["id"], machine_id=blueprint["machineId"],
                                                before=settings_of(blueprint, sorted(OPTIONS.values())),
                                                after=fingerprint(dict(blueprint, **changes)))) for name, blueprint, changes in plans))
        stem = os.path.join(self.params["backup_dir"], "launch_policy_%s.%s" % (self.project_["name"], time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(taken))))
        path = stem + ".backup.json"
        try:
            os.makedirs(self.params["backup_dir"], exist_ok=True)
            number = 1
            while os.path.exists(path):  # two runs in one second: each keeps its own
                number += 1
                path = "%s-%d.backup.json" % (stem, number)
            with open(path + ".part", "w", encoding="utf-8") as stream:
                json.dump(kept, stream, indent=1, sort_keys=True)
            os.replace(path + ".part", path)
        except (IOError, OSError) as error:
            self.refuse("The backup %s cannot be written (%s); nothing was written to the service." % (path, to_text(error)))
        return path

    # -- a backup put back ---------------------------------------------------------------------------------------------

    def restore(self, result):
        path = self.params["restore"]
        try:
            with open(path, encoding="utf-8") as stream:
                kept = json.load(stream)
        except (IOError, OSError, ValueError) as error:
            self.refuse("The backup %s cannot be read: %s. Nothing was written." % (path, to_text(error)))
        if kept.get("schema") != BACKUP_SCHEMA or (kept.get("project") or {}).get("id") != self.project_["id"] or (
                kept.get("region") or {}).get("id") != self.region["id"]:
            self.refuse("The backup %s is not one of project %s in region %s. Nothing was written." % (
                path, self.project_["name"], self.region.get("name")))
        result.update(restored=[], kept=[], not_restorable={})
        by_id = dict((blueprint["id"], blueprint) for blueprint in self.blueprints.values())
        for name, entry in sorted(kept["blueprints"].items()):
            blueprint = by_id.get(entry["id"])
            if blueprint is None:
                result["refused"][name] = "its blueprint is gone"
                continue
            # A member the blueprint did not have cannot be taken away again: the interface sends no nulls.
            before = dict((member, value) for member, value in entry["before"].items() if value is not None)
            unset = sorted(MEMBERS[member] for member, value in entry["before"].items() if value is None and blueprint.get(member) is not None)
            if unset:
                result["not_restorable"][name] = unset
            changes = changes_of(blueprint, before)
            settings = self.shown(before)
            result["machines"].append(dict(name=name, settings=settings, origin=dict((option, "backup") for option in settings),
                                           options_changed=sorted(MEMBERS[member] for member in changes), problems=[]))
            if not changes:
                continue
            if fingerprint(blueprint) != entry["after"] and self.params["on_change"] != "restore":
                if self.params["on_change"] == "keep":
                    result["kept"].append(name)
                else:
                    result["refused"][name] = "its blueprint changed since the backup; left as it is now (on_change=restore puts it back)"
                continue
            self.change(lambda blueprint=blueprint, changes=changes: self.client.patch("%s/%s" % (self.path, blueprint["id"]), changes),
                        before={name: self.shown(settings_of(blueprint, changes))}, after={name: self.shown(changes)})
            result["restored"].append(name)
            result["changed_machines"].append(name)
        return result

    # -- a spreadsheet ---------------------------------------------------------------------------------------------------

    def export(self, result):
        rows = []
        for name in sorted(self.by_name):
            blueprint = self.blueprints.get(self.by_name[name]["id"])
            if blueprint is None:
                continue
            row = {MACHINE: name, FINGERPRINT: fingerprint(blueprint)}
            for option, member in OPTIONS.items():
                value = blueprint.get(member)
                row[option] = dict((tag["key"], tag.get("value")) for tag in value) if option == "tags" and value else value
            rows.append(row)
            settings = dict((option, row[option]) for option in OPTIONS if row[option] not in (None, [], {}))
            result["machines"].append(dict(name=name, settings=settings, origin=dict((option, "service") for option in settings),
                                           options_changed=[], problems=[]))
        path = self.params["export"]
        yaml_path = os.path.splitext(path)[0] + ".yml"
        result["exported"] = [path, yaml_path]
        # Files on the controller, written as any change is: not under check mode.
        self.change(lambda: self.write_export(rows, path, yaml_path), after=dict(exported=result["exported"]))
        return result

    def write_export(self, rows, path, yaml_path):
        try:
            with open(path, "w", encoding="utf-8", newline="") as stream:
                stream.write(csv_of(rows))
            with open(yaml_path, "w", encoding="utf-8") as stream:
                # JSON is YAML: one document, the disks too (they are in the YAML only).
                json.dump(dict(project=self.project_["name"], region=self.region.get("name"), blueprints=[dict(
                    row, disks=self.blueprints[self.by_name[row[MACHINE]]["id"]].get("disks") or []) for row in rows]), stream, indent=1)
                stream.write("\n")
        except (IOError, OSError) as error:
            self.refuse("The export %s cannot be written: %s." % (path, to_text(error)))
        return True


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
