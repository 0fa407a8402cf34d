# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The inventory hosts a run's launched machines become: their names, groups and variables - the shape every runbook's
checks play reads (docs/developing.md)."""


# The host variables of the DR test's launched machines by their older names (dr_test_source_name, ...; deprecated since
# 2.0.0): the same values. Every other runbook's machines have the neutral names only - those of the failover, the
# failback and the clean point search never had others in a release.
OLDER = ("project", "wave", "source_name", "source_id", "public_ips", "target", "target_id", "cloud_id", "launch_type")
OLDER_NAMES = {"dr_test": OLDER}


def hosts_of(record, names, run_host="localhost"):
    """The inventory hosts of launched machines, as ``add_host`` takes them.

    A host is named ``<host prefix><project>/<machine>``: machine names have no ``/``, so hosts of
    several projects never collide. Its variables are the same for every runbook: ``runbook`` (its name),
    ``runbook_project``, ``runbook_run_host`` (the host that stands for the project), ``runbook_wave``,
    ``runbook_source_name``, ``runbook_source_id``, ``runbook_public_ips``, ``runbook_target`` (the target machine
    as the service shows it), ``runbook_target_id``, ``runbook_cloud_id``, ``runbook_launch_type``; the hosts of the
    runbooks older than these names also carry them by their older names (OLDER_NAMES). Machines that run, as the service sees them, also
    join ``<group>_to_check`` and ``<group>_wave_<n>_to_check`` when the run has checks of the user's - and, for the play
    that runs them, ``<runbook>_wave_<n>_to_check`` - and carry ``runbook_checks_tasks``, ``runbook_checks_name`` and ``runbook_checked_dir``.
    """
    settings = record["settings"]
    group = settings["group"]
    checks = settings.get("checks_tasks")
    older = OLDER_NAMES.get(record["runbook"], ())
    hosts = []
    for name in names:
        seen, launched = record["view"].get(name), record["launched"].get(name)
        if seen is None or launched is None:
            continue
        wave = record.get("round") or launched["wave"]  # a search's one wave a round: its groups carry the round
        to_check = bool(checks) and seen["running"]
        facts = dict(project=record["project"], run_host=run_host, wave=wave, source_name=name, source_id=seen["id"],
                     public_ips=seen["public_ips"], target=launched["target"], target_id=seen["target_id"], cloud_id=seen["cloud_id"],
                     launch_type=record["launch_type"])
        if to_check:
            facts.update(checks_tasks=checks, checks_name=settings["checks_name"], checked_dir=record["checked_dir"])
        host = dict(("runbook_" + key, value) for key, value in facts.items())
        host.update((record["runbook"] + "_" + key, facts[key]) for key in older)
        # The checks play of the runbook's wave N runs on <runbook>_wave_N_to_check, whatever the user's group is called.
        groups = [group, "%s_wave_%d" % (group, wave)] + ([
            "%s_to_check" % group, "%s_wave_%d_to_check" % (group, wave), "%s_wave_%d_to_check" % (record["runbook"], wave)] if to_check else [])
        host.update(name="%s%s/%s" % (settings["host_prefix"], record["project"], name), runbook=record["runbook"], groups=list(dict.fromkeys(groups)))
        if seen["public_ips"]:
            host["ansible_host"] = seen["public_ips"][0]
        hosts.append(host)
    return hosts
