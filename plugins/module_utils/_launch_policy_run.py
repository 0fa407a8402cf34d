# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A launch policy's run, decided before anything is written (service_launch_policy writes what these decide): what
each machine's blueprint should be - by the policy's layers or by the rows of a CSV - the writes an apply or a restore
makes, each proven against the region first; the files it reads and writes (the backup, the export); and its report.
Each refusal is a PolicyError whose words are the task's message: the module fails with them, having written nothing
since (or, for a failed write of the export, nothing more)."""

import json
import os
import time

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._launch_policy import (
    FINGERPRINT, MACHINE, OPTIONS, Policy, PolicyError, changes_of, csv_of, fingerprint, members_of, rows_of_csv)
from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import launch_setting_problems
from ansible_collections.replication.recovery.plugins.module_utils._test_network import StashUnreadable, settings_of, stash_of

BACKUP_SCHEMA = "replication.recovery.launch_policy.backup/v1"
MEMBERS = dict((member, option) for option, member in OPTIONS.items())
NOTHING_WRITTEN = "Nothing was written."


def new_result(region):
    return dict(machines=[], changed_machines=[], excluded=[], unaddressed={}, refused={}, region=dict(id=region["id"], name=region.get("name")))


def shown(members):
    """Blueprint members as the policy's options name them."""
    return dict((MEMBERS[member], value) for member, value in members.items())


# -- what each machine's blueprint should be ------------------------------------------------------------------------------

def wanted_by_policy(params, project, by_name, result):
    """{name: (settings, origin)} by the policy's layers; the excluded and those the subnet map could not re-address noted."""
    try:
        policy = Policy(params["defaults"], params["projects"], params["rules"], params["machines"], params["exclude"], params["subnet_map"],
                        params["addresses"])
    except PolicyError as error:
        raise PolicyError("%s. %s" % (error, NOTHING_WRITTEN))
    strangers = sorted((set(policy.machines) | set(policy.addresses)) - set(by_name))
    if strangers:
        raise PolicyError("The policy names %s, not machines of project %s (%s). %s" % (
            ", ".join(strangers), project["name"], ", ".join(sorted(by_name)) or "none", NOTHING_WRITTEN))
    result["unmatched_rules"] = policy.unmatched(dict((name, machine.get("tags") or []) for name, machine in by_name.items()))
    wanted = {}
    for name in sorted(by_name):
        if policy.excluded(name):
            result["excluded"].append(name)
            continue
        settings, origin, unmapped = policy.resolve(project["name"], name, by_name[name].get("tags") or [])
        if unmapped:
            result["unaddressed"][name] = unmapped
        if settings:
            wanted[name] = (settings, origin)
    return wanted


def wanted_by_csv(path, subnet_map, project, by_name, blueprints, result):
    """{name: (settings, origin)} by the rows of the CSV at ``path`` - an exported one, edited: a row whose blueprint changed
    since the export, of no machine, or twice, refuses them all."""
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            rows = rows_of_csv(stream.read())
    except (IOError, OSError) as error:
        raise PolicyError("The CSV %s cannot be read: %s. %s" % (path, to_text(error), NOTHING_WRITTEN))
    except PolicyError as error:
        raise PolicyError("The CSV %s: %s. %s" % (path, error, NOTHING_WRITTEN))
    if any(row[4] for row in rows) and not subnet_map:
        raise PolicyError("The CSV %s gives addresses: re-addressing them needs the subnet map (subnet_map). %s" % (path, NOTHING_WRITTEN))
    try:
        mapping = Policy(subnet_map=subnet_map, addresses=dict((row[1], row[4]) for row in rows if row[4]))
    except PolicyError as error:
        raise PolicyError("%s. %s" % (error, NOTHING_WRITTEN))
    wanted, problems = {}, []
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
        machine = by_name.get(name)
        blueprint = blueprints.get(machine["id"]) if machine else None
        if machine is None:
            problems.append("row %d: %s is no machine of project %s" % (line, name, project["name"]))
        elif name in wanted:
            problems.append("row %d: %s has an earlier row" % (line, name))
        elif blueprint is not None and exported and fingerprint(blueprint) != exported:
            problems.append("row %d: the blueprint of %s changed since the export (its fingerprint is %s, the row's %s): export again "
                            "and edit that" % (line, name, fingerprint(blueprint), exported))
        elif settings:
            wanted[name] = (settings, origin)
    if problems:
        raise PolicyError("The CSV %s is refused: %s. %s" % (path, "; ".join(problems), NOTHING_WRITTEN))
    return wanted


# -- the writes: proven first -----------------------------------------------------------------------------------------------

def switched(blueprint):
    """Whether the blueprint is switched to a test network (its record of what it was readable or not)."""
    try:
        return stash_of(blueprint) is not None
    except StashUnreadable:
        return True


def apply_plan(wanted, by_name, blueprints, region, resolved, result):
    """The writes that bring each blueprint to what is wanted: [(name, blueprint, changes)], every resolved blueprint proven
    against the region first - one problem refuses them all. ``resolved(settings)`` makes names of subnets and security
    groups IDs."""
    plans, problems = [], []
    for name, (settings, origin) in sorted(wanted.items()):
        blueprint = blueprints.get(by_name[name]["id"])
        entry = dict(name=name, settings=settings, origin=origin, options_changed=[], problems=[])
        result["machines"].append(entry)
        if blueprint is None:
            entry["problems"].append("it has no blueprint for region %s" % region.get("name"))
            problems.append("%s: %s" % (name, entry["problems"][-1]))
            continue
        if switched(blueprint):
            result["refused"][name] = "its blueprint is switched to a test network: put it back first (service_test_network state=restored)"
            continue
        members = members_of(resolved(settings))
        changes = changes_of(blueprint, members)
        entry["options_changed"] = sorted(MEMBERS[member] for member in changes)
        if changes:
            # A member the blueprint has none of (the service's default) cannot be taken away again: the interface sends no
            # empty values, so the backup cannot undo this change exactly.
            unset = sorted(MEMBERS[member] for member in changes if blueprint.get(member) is None)
            if unset:
                result.setdefault("irreversible", {})[name] = unset
            entry["problems"] = [problem["message"] for problem in launch_setting_problems(dict(blueprint, **members), region)]
            problems.extend("%s: %s" % (name, problem) for problem in entry["problems"])
            plans.append((name, blueprint, changes))
    if problems:
        raise PolicyError("The resolved blueprints were proven against region %s, and %s stop%s them all; nothing was written: %s." % (
            region.get("name"), "1 problem" if len(problems) == 1 else "%d problems" % len(problems), "s" if len(problems) == 1 else "",
            "; ".join(problems)))
    return plans


def restore_plan(path, project, region, blueprints, on_change, result):
    """The writes that put the blueprints of the backup at ``path`` back: [(name, blueprint, changes)]. A blueprint changed
    since the backup is refused, kept or put back as ``on_change`` says."""
    try:
        with open(path, encoding="utf-8") as stream:
            kept = json.load(stream)
    except (IOError, OSError, ValueError) as error:
        raise PolicyError("The backup %s cannot be read: %s. %s" % (path, to_text(error), NOTHING_WRITTEN))
    if kept.get("schema") != BACKUP_SCHEMA or (kept.get("project") or {}).get("id") != project["id"] or (
            kept.get("region") or {}).get("id") != region["id"]:
        raise PolicyError("The backup %s is not one of project %s in region %s. %s" % (path, project["name"], region.get("name"), NOTHING_WRITTEN))
    result.update(restored=[], kept=[], not_restorable={})
    by_id = dict((blueprint["id"], blueprint) for blueprint in blueprints.values())
    plans = []
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
        settings = shown(before)
        result["machines"].append(dict(name=name, settings=settings, origin=dict((option, "backup") for option in settings),
                                       options_changed=sorted(MEMBERS[member] for member in changes), problems=[]))
        if not changes:
            continue
        if fingerprint(blueprint) != entry["after"] and on_change != "restore":
            if on_change == "keep":
                result["kept"].append(name)
            else:
                result["refused"][name] = "its blueprint changed since the backup; left as it is now (on_change=restore puts it back)"
            continue
        plans.append((name, blueprint, changes))
    return plans


# -- the files ------------------------------------------------------------------------------------------------------------

def write_backup(directory, project, region, plans):
    """The blueprints an apply is about to change, as they are and as they will be, in a backup of their own in ``directory``:
    its path. Two runs in one second each keep their own."""
    taken = time.time()
    kept = dict(schema=BACKUP_SCHEMA, project=dict(id=project["id"], name=project["name"]), region=dict(id=region["id"], name=region.get("name")),
                taken=iso_time(taken),
                blueprints=dict((name, dict(id=blueprint["id"], machine_id=blueprint["machineId"], before=settings_of(blueprint, sorted(OPTIONS.values())),
                                            after=fingerprint(dict(blueprint, **changes)))) for name, blueprint, changes in plans))
    stem = os.path.join(directory, "launch_policy_%s.%s" % (project["name"], time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(taken))))
    path = stem + ".backup.json"
    try:
        os.makedirs(directory, exist_ok=True)
        number = 1
        while os.path.exists(path):
            number += 1
            path = "%s-%d.backup.json" % (stem, number)
        with open(path + ".part", "w", encoding="utf-8") as stream:
            json.dump(kept, stream, indent=1, sort_keys=True)
        os.replace(path + ".part", path)
    except (IOError, OSError) as error:
        raise PolicyError("The backup %s cannot be written (%s); nothing was written to the service." % (path, to_text(error)))
    return path


def export_rows(by_name, blueprints, result):
    """Each blueprint as a row of the export (its machine, fingerprint and every option), noted in the result."""
    rows = []
    for name in sorted(by_name):
        blueprint = blueprints.get(by_name[name]["id"])
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
    return rows


def write_export(rows, path, yaml_path, project, region, disks_of):
    """The rows as a CSV to edit, and as YAML with each blueprint's disks too."""
    try:
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write(csv_of(rows))
        with open(yaml_path, "w", encoding="utf-8") as stream:
            # JSON is YAML: one document, the disks too (they are in the YAML only).
            json.dump(dict(project=project["name"], region=region.get("name"), blueprints=[dict(row, disks=disks_of(row[MACHINE])) for row in rows]),
                      stream, indent=1)
            stream.write("\n")
    except (IOError, OSError) as error:
        raise PolicyError("The export %s cannot be written: %s." % (path, to_text(error)))
    return True


# -- the report -------------------------------------------------------------------------------------------------------------

def report_of(project, mode, started, result, failure=None):
    """The run's report (replication.recovery.launch_policy/v1): each machine's resolved settings and the layer that set each
    one, what changed, what was refused or left out."""
    not_restorable = result.get("not_restorable") or {}
    failures = ([failure] if failure else []) + ["%s: %s" % (name, why) for name, why in sorted(result["refused"].items())]
    # A restore puts back what was there, or says what it could not: a member it left as the backup does not have it.
    failures += ["%s: %s could not be put back: the backup shows %s unset (the service's default), and the interface cannot unset a "
                 "member - set %s yourself (replication.recovery.service_blueprint)" % (
                     name, ", ".join(options), "it" if len(options) == 1 else "them", "it" if len(options) == 1 else "them")
                 for name, options in sorted(not_restorable.items())]
    machines = [dict(entry, status="refused" if entry["name"] in result["refused"] else "not put back" if entry["name"] in not_restorable
                     else "changed" if entry["options_changed"] else "unchanged")
                for entry in result["machines"]]
    return dict(
        schema="replication.recovery.launch_policy/v1", project=project["name"], project_id=project["id"], region=result["region"], mode=mode,
        started=started, generated=iso_time(time.time()), result="failed" if failures else "passed", failures=failures, machines=machines,
        excluded=result["excluded"], unaddressed=result["unaddressed"], refused=result["refused"], backup=result.get("backup"),
        restored=result.get("restored"), not_restorable=result.get("not_restorable"), irreversible=result.get("irreversible") or None,
        exported=result.get("exported"),
        counts=dict(machines=len(machines), machines_changed=len(result["changed_machines"]), excluded=len(result["excluded"]),
                    refused=len(result["refused"]), unaddressed=len(result["unaddressed"])))
