# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Launch settings proven before launch: what a machine's blueprint names that its target region
does not offer. The service checks a blueprint when it is written, but the cloud changes under it
(a subnet deleted in the account), and a launch then fails only inside its job, minutes in."""

import ipaddress

from ansible_collections.replication.recovery.plugins.module_utils._words import shown

SHOWN = 8


def _offered(values):
    return shown(values, SHOWN) or "none"


def _named(items, key):
    """A region's subnets or security groups as ``name (ID)``, for a message."""
    return _offered("%s (%s)" % (item.get("name"), item[key]) if item.get("name") else item[key] for item in items)


def _problem(member, value, message):
    return dict(member=member, value=value, message=message)


def launch_setting_problems(blueprint, region):
    """What ``blueprint`` names that ``region`` (as the service describes it) does not offer: a list
    of ``{member, value, message}``, each message naming the value and what the region has instead.

    Only what the blueprint names and the region lists is judged: a region that does not list static
    addresses, say, has none judged (``unchecked`` says what was not). Subnets and security groups must exist
    and lie in one network; a custom private address must lie in its subnet's range when the region gives
    ranges."""
    where = "region %s" % (region.get("name") or region.get("id"))
    subnets = dict((subnet["subnetId"], subnet) for subnet in region.get("subnets") or [])
    groups = dict((group["securityGroupId"], group) for group in region.get("securityGroups") or [])
    problems = _not_in_the_region(blueprint, region, where, subnets, groups)
    problems.extend(_in_different_networks(blueprint, subnets, groups))
    problems.extend(_not_offered(blueprint, region, where))
    problems.extend(_outside_their_subnet(blueprint, subnets))
    return problems


def _not_in_the_region(blueprint, region, where, subnets, groups):
    """The blueprint's subnets and security groups that the region does not have."""
    problems = []
    for value in blueprint.get("subnetIDs") or []:
        if value not in subnets:
            problems.append(_problem("subnetIDs", value, "subnet %s is not in %s; it has %s" % (
                value, where, _named(region.get("subnets") or [], "subnetId"))))
    for value in blueprint.get("securityGroupIDs") or []:
        if value not in groups:
            problems.append(_problem("securityGroupIDs", value, "security group %s is not in %s; it has %s" % (
                value, where, _named(region.get("securityGroups") or [], "securityGroupId"))))
    return problems


def _in_different_networks(blueprint, subnets, groups):
    """One problem when the blueprint's subnets and security groups lie in more than one network."""
    networks = {}
    for value in blueprint.get("subnetIDs") or []:
        if subnets.get(value, {}).get("networkId"):
            networks.setdefault(subnets[value]["networkId"], []).append("subnet " + (subnets[value].get("name") or value))
    for value in blueprint.get("securityGroupIDs") or []:
        if groups.get(value, {}).get("networkId"):
            networks.setdefault(groups[value]["networkId"], []).append("security group " + (groups[value].get("name") or value))
    if len(networks) <= 1:
        return []
    return [_problem("networks", sorted(networks), "subnets and security groups lie in different networks: %s" % "; ".join(
        "%s in %s" % (", ".join(names), network) for network, names in sorted(networks.items())))]


def _not_offered(blueprint, region, where):
    """The instance type, IAM role, static address and disk types the blueprint names that the region lists and does not offer."""
    problems = []
    for member, offered, what in (("instanceType", "instanceTypes", "instance type"), ("iamRole", "iamRoles", "IAM role"),
                                  ("staticIp", "staticIps", "static address")):
        value = blueprint.get(member)
        if value and offered in region and value not in region[offered]:
            problems.append(_problem(member, value, "%s %s is not offered in %s; it has %s" % (what, value, where, _offered(region[offered]))))
    if "diskTypes" in region:
        for disk in blueprint.get("disks") or []:
            if disk.get("type") and disk["type"] not in region["diskTypes"]:
                problems.append(_problem("disks", disk["type"], "disk type %s of %s is not offered in %s; it has %s" % (
                    disk["type"], disk.get("name"), where, _offered(region["diskTypes"]))))
    return problems


def _outside_their_subnet(blueprint, subnets):
    """Custom private addresses outside the range of the blueprint's first subnet (where the launched
    machine's interface goes), when the region gives the subnet's range."""
    if blueprint.get("privateIPAction") != "CUSTOM_IP":
        return []
    first = subnets.get((blueprint.get("subnetIDs") or [None])[0]) or {}
    if not first.get("cidrBlock"):
        return []
    block = ipaddress.ip_network(first["cidrBlock"], strict=False)
    problems = []
    for address in blueprint.get("privateIPs") or []:
        try:
            inside = ipaddress.ip_address(address) in block
        except ValueError:
            inside = False
        if not inside:
            problems.append(_problem("privateIPs", address, "private address %s is outside the range %s of subnet %s" % (
                address, block, first.get("name") or first["subnetId"])))
    return problems


def unchecked(blueprint, region):
    """What ``blueprint`` names that could not be judged because ``region`` does not say it: the published
    interface gives no subnet's address range and no region's disk types (a service that sends them has them
    judged). A list of short sentences, empty when everything named was judged."""
    said = []
    subnets = dict((subnet["subnetId"], subnet) for subnet in region.get("subnets") or [])
    first = subnets.get((blueprint.get("subnetIDs") or [None])[0])
    if blueprint.get("privateIPAction") == "CUSTOM_IP" and blueprint.get("privateIPs") and first is not None and not first.get("cidrBlock"):
        said.append("private address %s against the range of subnet %s (the service gives no subnet's range)" % (
            ", ".join(blueprint["privateIPs"]), first.get("name") or first["subnetId"]))
    types = sorted(set(disk["type"] for disk in blueprint.get("disks") or [] if disk.get("type")))
    if types and "diskTypes" not in region:
        said.append("disk type %s (the service gives no region's disk types)" % ", ".join(types))
    return said


# What a launch takes from a default when the blueprint leaves it unset. The interface defines no default for them,
# so what a launch would take cannot be proven against the region.
DEFAULTED = (("subnetIDs", "subnet"), ("securityGroupIDs", "security groups"), ("instanceType", "instance type"))


def left_to_defaults(blueprint):
    """The members ``blueprint`` leaves to the service's defaults, by their blueprint names."""
    return [member for member, unused in DEFAULTED if not blueprint.get(member)]


def defaults_by_machine(blueprints):
    """The members the blueprints leave to defaults, by machine name (those that leave none are not named)."""
    return dict((blueprint.get("machineName") or blueprint["machineId"], [dict(DEFAULTED)[member] for member in blueprint["defaults"]])
                for blueprint in blueprints if blueprint.get("defaults"))


def private_ips_by_machine(blueprints):
    """The private addresses the blueprints set (CUSTOM_IP), by machine name: what a recovery machine's address will be."""
    return dict((blueprint.get("machineName") or blueprint["machineId"], list(blueprint.get("privateIPs") or []))
                for blueprint in blueprints if blueprint.get("privateIPAction") == "CUSTOM_IP" and blueprint.get("privateIPs"))


def unchecked_by_machine(blueprints):
    """What could not be judged of the blueprints (``unchecked``), by machine name (those with nothing unchecked are not named)."""
    return dict((blueprint.get("machineName") or blueprint["machineId"], list(blueprint["unchecked"]))
                for blueprint in blueprints if blueprint.get("unchecked"))


def problems_by_machine(blueprints):
    """The problems of the blueprints that have some, by machine name: one message each."""
    return dict((blueprint.get("machineName") or blueprint["machineId"], [problem["message"] for problem in blueprint["problems"]])
                for blueprint in blueprints if blueprint["problems"])
