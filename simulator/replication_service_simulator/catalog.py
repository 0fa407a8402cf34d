"""The fixed world the service knows: clouds, their regions, and what each region offers.

Region IDs are the same for every set of credentials of a cloud; subnets, security groups and
encryption keys belong to the cloud account, so they are derived from the credentials'
``accountIdentifier``: two credentials of one account see the same networks.
"""

import hashlib
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


def region(cloud_name, region_name, account_identifier):
    """What one cloud account sees of one region."""
    prefix = {"AWS": ("subnet-", "vpc-", "sg-")}.get(cloud_name, ("subnet-", "net-", "fw-"))
    network = prefix[1] + _hex(account_identifier, region_name, "network")
    subnets = [
        {"subnetId": prefix[0] + _hex(account_identifier, region_name, name), "networkId": network, "name": name}
        for name in ("private-a", "private-b", "public-a")
    ]
    groups = [
        {"securityGroupId": prefix[2] + _hex(account_identifier, region_name, name), "networkId": network, "name": name}
        for name in ("default", "replication")
    ]
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
    elif cloud_name == "GCP":
        view["zones"] = [region_name + suffix for suffix in ("-a", "-b")]
    return view


def account_identifier_for(cloud_name, public_key):
    """The cloud account that a key belongs to, when the request does not say."""
    digits = int(_hex(cloud_name, public_key or "", length=12), 16) % 10 ** 12
    return "%012d" % digits
