"""The fixed world the service knows: clouds, their regions, and what each region offers.

Region IDs are the same for every set of credentials of a cloud; subnets, security groups and
encryption keys belong to the cloud account, so they are derived from the credentials'
``accountIdentifier``: two credentials of one account see the same networks.
"""

import hashlib
import ipaddress
import uuid

NAMESPACE = uuid.UUID("0d3d5f0e-8c6b-4d8e-b0f4-5b6c2a1e9f30")

CLOUD_ROLES = {
    "AWS": ["SOURCE", "TARGET"],
    "GCP": ["SOURCE", "TARGET"],
    "AZURE": ["SOURCE", "TARGET"],
    "AZURE_ARM": ["SOURCE", "TARGET"],
    "VCENTER": ["SOURCE"],
    "GENERIC": ["SOURCE"],
}

REGION_NAMES = {
    "AWS": ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"],
    "GCP": ["us-central1", "europe-west1", "asia-southeast1"],
    "AZURE": ["eastus", "westeurope"],
    "AZURE_ARM": ["eastus", "westeurope"],
    "VCENTER": ["datacenter-1"],
    "GENERIC": ["Generic"],
}

INSTANCE_TYPES = {
    "AWS": ["t3.micro", "t3.small", "t3.medium", "t3.large", "m5.large", "m5.xlarge", "c5.large", "c5.xlarge", "r5.large"],
    "GCP": ["e2-small", "e2-medium", "n2-standard-2", "n2-standard-4"],
    "AZURE": ["Standard_B2s", "Standard_D2s_v3", "Standard_D4s_v3"],
    "AZURE_ARM": ["Standard_B2s", "Standard_D2s_v3", "Standard_D4s_v3"],
}


def cloud_id(name):
    return str(uuid.uuid5(NAMESPACE, "cloud/" + name))


def region_id(cloud_name, region_name):
    return str(uuid.uuid5(NAMESPACE, "region/%s/%s" % (cloud_name, region_name)))


CLOUDS = [{"id": cloud_id(name), "name": name, "roles": roles} for name, roles in CLOUD_ROLES.items()]
CLOUD_NAMES = {cloud["id"]: cloud["name"] for cloud in CLOUDS}
GENERIC_REGION_ID = region_id("GENERIC", "Generic")
REGION_IDS = {
    region_id(cloud, name): (cloud, name) for cloud, names in REGION_NAMES.items() for name in names
}


def _hex(*parts, length=17):
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:length]


# Two networks in every region of an account: the production one a recovery lands in, and an isolated
# one for DR tests, with no route to production. The simulator knows each subnet's address range
# (``cidrBlock``) and the disk types a region offers, so that its cloud refuses what a real cloud would;
# the published interface has neither member, so they are served only under the setting
# ``unpublishedMembers`` (see ``published``), off by default.
NETWORKS = (
    ("network", {"private-a": "10.0.0.0/11", "private-b": "10.32.0.0/11", "public-a": "10.64.0.0/11"}, ("default", "replication")),
    ("isolated", {"isolated-a": "172.16.0.0/20", "isolated-b": "172.16.16.0/20"}, ("isolated",)),
)
# The static (elastic) addresses every account holds in a region, and the disk types a region offers.
STATIC_IPS = ("198.51.100.10", "198.51.100.11", "198.51.100.12")
DISK_TYPES = {"AWS": ["gp2", "gp3", "io1", "io2", "st1", "sc1", "standard", "SSD", "STANDARD"]}


def region(cloud_name, region_name, account_identifier):
    """What one cloud account sees of one region."""
    prefix = {"AWS": ("subnet-", "vpc-", "sg-")}.get(cloud_name, ("subnet-", "net-", "fw-"))
    subnets, groups = [], []
    for network_name, network_subnets, network_groups in NETWORKS:
        network = prefix[1] + _hex(account_identifier, region_name, network_name)
        subnets.extend({"subnetId": prefix[0] + _hex(account_identifier, region_name, name), "networkId": network, "name": name,
                        "cidrBlock": block} for name, block in network_subnets.items())
        groups.extend({"securityGroupId": prefix[2] + _hex(account_identifier, region_name, name), "networkId": network, "name": name}
                      for name in network_groups)
    view = {
        "id": region_id(cloud_name, region_name),
        "name": region_name,
        "cloud": cloud_id(cloud_name),
        "subnets": subnets,
        "securityGroups": groups,
        "instanceTypes": list(INSTANCE_TYPES.get(cloud_name, [])),
        "zones": [],
        "volumeEncryptionKeys": [],
        "iamRoles": [],
    }
    if cloud_name == "AWS":
        view["zones"] = [region_name + suffix for suffix in ("a", "b", "c")]
        view["volumeEncryptionKeys"] = [
            "arn:aws:kms:%s:%s:key/%s" % (region_name, account_identifier, uuid.uuid5(NAMESPACE, account_identifier + region_name + name))
            for name in ("replication", "archive")
        ]
        view["iamRoles"] = ["DRRecoveryRole", "ReplicationServerRole"]
        view["staticIps"] = list(STATIC_IPS)
        view["diskTypes"] = list(DISK_TYPES["AWS"])
    elif cloud_name == "GCP":
        view["zones"] = [region_name + suffix for suffix in ("-a", "-b")]
    return view


# Members the simulator knows but the published interface does not have: served only when asked (a test of
# how the collection uses them where a service sends them).
UNPUBLISHED_REGION_MEMBERS = ("diskTypes",)
UNPUBLISHED_SUBNET_MEMBERS = ("cidrBlock",)


def published(region_view):
    """``region_view`` as the published interface has it: without the members it does not list."""
    served = dict((key, value) for key, value in region_view.items() if key not in UNPUBLISHED_REGION_MEMBERS)
    if "subnets" in served:
        served["subnets"] = [dict((key, value) for key, value in subnet.items() if key not in UNPUBLISHED_SUBNET_MEMBERS)
                             for subnet in served["subnets"]]
    return served


def cloud_refusal(region, blueprint, subnet_id):
    """Why the cloud would refuse to start a machine launched into ``region`` by ``blueprint`` in the
    subnet ``subnet_id`` - something the region does not have (any more), a mix of networks, an
    address outside its subnet - or None. Only what the region lists is judged."""
    subnets = dict((s["subnetId"], s) for s in region["subnets"])
    groups = dict((g["securityGroupId"], g) for g in region["securityGroups"])
    named = list(blueprint.get("subnetIDs") or []) or ([subnet_id] if subnet_id else [])
    missing = [value for value in named if value not in subnets] + [value for value in blueprint.get("securityGroupIDs") or [] if value not in groups]
    if missing:
        return "%s does not exist in region %s" % (missing[0], region["name"])
    if blueprint.get("instanceType") and blueprint["instanceType"] not in region["instanceTypes"]:
        return "instance type %s is not offered in region %s" % (blueprint["instanceType"], region["name"])
    networks = set(subnets[value]["networkId"] for value in named) | set(groups[value]["networkId"] for value in blueprint.get("securityGroupIDs") or [])
    if len(networks) > 1:
        return "its subnets and security groups are in different networks (%s)" % ", ".join(sorted(networks))
    for member, offered in (("iamRole", "iamRoles"), ("staticIp", "staticIps")):
        if blueprint.get(member) and offered in region and blueprint[member] not in region[offered]:
            return "%s %s does not exist in region %s" % (member, blueprint[member], region["name"])
    for disk in blueprint.get("disks") or []:
        if disk.get("type") and "diskTypes" in region and disk["type"] not in region["diskTypes"]:
            return "disk type %s of %s is not offered in region %s" % (disk["type"], disk.get("name"), region["name"])
    blocks = [ipaddress.ip_network(subnets[value]["cidrBlock"]) for value in named[:1] if subnets[value].get("cidrBlock")]
    if blueprint.get("privateIPAction") == "CUSTOM_IP" and blocks:
        outside = [address for address in blueprint.get("privateIPs") or [] if ipaddress.ip_address(address) not in blocks[0]]
        if outside:
            return "private address %s is outside its subnet's range %s" % (outside[0], blocks[0])
    return None


def account_identifier_for(cloud_name, public_key):
    """The cloud account that a key belongs to, when the request does not say."""
    digits = int(_hex(cloud_name, public_key or "", length=12), 16) % 10 ** 12
    return "%012d" % digits
