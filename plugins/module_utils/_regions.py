# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A project's target region as its cloud credentials see it, and its blueprints proven against what the region offers
now. Each function takes the module (module_utils._base), whose reads it shares, and refuses (Refused) what it cannot answer
(``with_ids`` resolves names as the module does, with its own look-ups)."""

from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import launch_setting_problems, left_to_defaults, unchecked
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused
from ansible_collections.replication.recovery.plugins.module_utils._test_network import LOOKUPS, StashUnreadable, settings_of, stash_of


def target_region(module, project, value=None):
    """The region ``value`` (name or ID; the region of the project's default replication configuration if None), as the
    credentials of the project's configuration there (or the project's) see it."""
    configs = module.list("/projects/%s/replicationConfigurations" % project["id"])
    if value is None:
        default = next((c for c in configs if c["id"] == project.get("replicationConfiguration")), None)
        if default is None:
            raise Refused("Project %r has no default replication configuration: give region." % project["name"])
        value = default["region"]
    credentials = [c["cloudCredentials"] for c in configs] + list(project.get("cloudCredentialsIDs", []))
    for credentials_id in dict.fromkeys(credentials):
        region = module.lookup("region", value, required=False, credentials=credentials_id)
        if region is not None:
            return region
    raise Refused("Region %r is not one the cloud credentials of project %r can use." % (value, project["name"]))


def blueprints_proven(module, project, region=None, machine_ids=None):
    """The region (by name or ID; the project's default if None) and the project's blueprints for it, of ``machine_ids``
    (all if None), each with its ``problems`` against what the region offers now, what of it the region does not say
    enough to judge (``unchecked``), the members it leaves to the service's ``defaults`` (which cannot be proven), and
    ``switched`` when it is switched to a test network (True; text when the record of what it was is unreadable), with
    ``switched_to``: its switched members as they are (the test network's settings)."""
    region = target_region(module, project, region)
    blueprints = [blueprint for blueprint in module.list("/projects/%s/blueprints" % project["id"])
                  if blueprint["region"] == region["id"] and (machine_ids is None or blueprint["machineId"] in machine_ids)]
    for blueprint in blueprints:
        # A blueprint switched to a test network launches as it was once it is put back: that is proven.
        try:
            stash = stash_of(blueprint)
        except StashUnreadable as problem:
            stash, blueprint["switched"] = None, str(problem)
        if stash is not None:
            blueprint["switched"] = True
            # What it is switched to: its switched members as they are now (the test network's settings).
            blueprint["switched_to"] = settings_of(blueprint, sorted(stash["members"]))
        effective = dict(blueprint, **stash["members"]) if stash else blueprint
        blueprint["problems"] = launch_setting_problems(effective, region)
        blueprint["unchecked"] = unchecked(effective, region)
        blueprint["defaults"] = left_to_defaults(effective)
    return region, blueprints


def with_ids(module, settings, region):
    """Launch settings with the names of their subnets and security groups made IDs, looked up in the region (an ID is taken
    as it is); an unknown name fails the task, naming what the region has."""
    return dict(settings, **dict((option, [module.resolve(kind, value, region=region) for value in settings[option]])
                                 for option, kind in LOOKUPS.items() if settings.get(option) is not None))
