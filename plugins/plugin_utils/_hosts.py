# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The inventory hosts a run's launched machines become: their names, groups and variables - the shape every runbook's
checks play reads (docs/developing.md)."""


def hosts_of(record, names, run_host="localhost"):
    """The inventory hosts of launched machines, as ``add_host`` takes them.

    A host is named ``<host prefix><project>/<machine>``: machine names have no ``/``, so hosts of
    several projects never collide. Its variables carry the runbook's prefix (``dr_test_`` for the
    DR test). Machines that run, as the service sees them, also join ``<group>_to_check`` and
    ``<group>_wave_<n>_to_check`` when the run has checks of the user's, for the play that runs them.
    """
    settings = record["settings"]
    prefix, group = record["runbook"] + "_", settings["group"]
    checks = settings.get("checks_tasks")
    hosts = []
    for name in names:
        seen, launched = record["view"].get(name), record["launched"].get(name)
        if seen is None or launched is None:
            continue
        wave = record.get("round") or launched["wave"]  # a search's one wave a round: its groups carry the round
        to_check = bool(checks) and seen["running"]
        host = {
            "name": "%s%s/%s" % (settings["host_prefix"], record["project"], name),
            "groups": [group, "%s_wave_%d" % (group, wave)] + (["%s_to_check" % group, "%s_wave_%d_to_check" % (group, wave)] if to_check else []),
            prefix + "project": record["project"], prefix + "run_host": run_host, prefix + "wave": wave,
            prefix + "source_name": name, prefix + "source_id": seen["id"], prefix + "public_ips": seen["public_ips"],
            prefix + "target": launched["target"], prefix + "target_id": seen["target_id"], prefix + "cloud_id": seen["cloud_id"],
            prefix + "launch_type": record["launch_type"], "runbook_prefix": prefix,
        }
        if to_check:
            host.update({prefix + "checks_tasks": checks, prefix + "checks_name": settings["checks_name"],
                         prefix + "checked_dir": record["checked_dir"]})
        if seen["public_ips"]:
            host["ansible_host"] = seen["public_ips"][0]
        hosts.append(host)
    return hosts
