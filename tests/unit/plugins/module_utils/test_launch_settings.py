# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._launch_settings import launch_setting_problems, unchecked

REGION = {
    "id": "r-id", "name": "us-east-1",
    "subnets": [{"subnetId": "subnet-1", "networkId": "vpc-prod", "name": "private-a", "cidrBlock": "10.0.0.0/11"},
                {"subnetId": "subnet-7", "networkId": "vpc-test", "name": "isolated-a", "cidrBlock": "172.16.0.0/20"}],
    "securityGroups": [{"securityGroupId": "sg-1", "networkId": "vpc-prod", "name": "default"},
                       {"securityGroupId": "sg-7", "networkId": "vpc-test", "name": "isolated"}],
    "instanceTypes": ["t3.medium", "m5.large"], "iamRoles": ["DRRecoveryRole"], "staticIps": ["198.51.100.10"], "diskTypes": ["gp3", "SSD"],
}


def messages(blueprint, region=None):
    return [problem["message"] for problem in launch_setting_problems(blueprint, region or REGION)]


def test_a_blueprint_that_names_what_the_region_offers_holds():
    assert messages({"subnetIDs": ["subnet-7"], "securityGroupIDs": ["sg-7"], "instanceType": "m5.large", "iamRole": "DRRecoveryRole",
                     "staticIp": "198.51.100.10", "disks": [{"name": "/dev/sda", "type": "gp3"}],
                     "privateIPAction": "CUSTOM_IP", "privateIPs": ["172.16.0.9"]}) == []
    assert messages({}) == []


@pytest.mark.parametrize("blueprint,message", [
    ({"subnetIDs": ["subnet-gone"]}, "subnet subnet-gone is not in region us-east-1; it has private-a (subnet-1), isolated-a (subnet-7)"),
    ({"securityGroupIDs": ["sg-gone"]}, "security group sg-gone is not in region us-east-1; it has default (sg-1), isolated (sg-7)"),
    ({"subnetIDs": ["subnet-7"], "securityGroupIDs": ["sg-1"]},
     "subnets and security groups lie in different networks: security group default in vpc-prod; subnet isolated-a in vpc-test"),
    ({"instanceType": "x9.huge"}, "instance type x9.huge is not offered in region us-east-1; it has t3.medium, m5.large"),
    ({"iamRole": "Admin"}, "IAM role Admin is not offered in region us-east-1; it has DRRecoveryRole"),
    ({"staticIp": "192.0.2.1"}, "static address 192.0.2.1 is not offered in region us-east-1; it has 198.51.100.10"),
    ({"disks": [{"name": "/dev/sdb", "type": "io9"}]}, "disk type io9 of /dev/sdb is not offered in region us-east-1; it has gp3, SSD"),
    ({"subnetIDs": ["subnet-1"], "privateIPAction": "CUSTOM_IP", "privateIPs": ["172.16.0.9"]},
     "private address 172.16.0.9 is outside the range 10.0.0.0/11 of subnet private-a"),
    ({"subnetIDs": ["subnet-1"], "privateIPAction": "CUSTOM_IP", "privateIPs": ["not-an-address"]},
     "private address not-an-address is outside the range 10.0.0.0/11 of subnet private-a"),
])
def test_each_problem_names_the_value_and_what_the_region_has_instead(blueprint, message):
    assert messages(blueprint) == [message]


def test_only_what_the_region_lists_is_judged():
    bare = {"id": "r-id", "name": "europe-west1", "subnets": [{"subnetId": "subnet-1", "name": "a"}], "securityGroups": [], "instanceTypes": ["e2-small"]}
    assert messages({"subnetIDs": ["subnet-1"], "iamRole": "Admin", "staticIp": "192.0.2.1", "disks": [{"name": "/dev/sda", "type": "io9"}],
                     "privateIPAction": "CUSTOM_IP", "privateIPs": ["192.0.2.7"]}, bare) == []
    # A region that lists no IAM roles at all offers none.
    assert messages({"iamRole": "Admin"}, dict(bare, iamRoles=[])) == ["IAM role Admin is not offered in region europe-west1; it has none"]


def test_addresses_not_custom_are_not_judged():
    assert messages({"subnetIDs": ["subnet-1"], "privateIPAction": "CREATE_NEW", "privateIPs": ["172.16.0.9"]}) == []


def test_what_the_published_interface_does_not_say_is_named_as_not_checked():
    blueprint = {"subnetIDs": ["subnet-1"], "privateIPAction": "CUSTOM_IP", "privateIPs": ["10.0.0.9"],
                 "disks": [{"name": "/dev/sda", "type": "gp3"}, {"name": "/dev/sdb", "type": "SSD"}, {"name": "/dev/sdc"}]}
    published = dict(REGION, subnets=[dict((k, v) for k, v in subnet.items() if k != "cidrBlock") for subnet in REGION["subnets"]])
    del published["diskTypes"]
    assert unchecked(blueprint, published) == ["private address 10.0.0.9 against the range of subnet private-a (the service gives no subnet's range)",
                                               "disk type SSD, gp3 (the service gives no region's disk types)"]
    assert messages(blueprint, published) == []
    # Where the service says them, both are judged, and nothing is left unchecked.
    assert unchecked(blueprint, REGION) == []
    assert unchecked({"privateIPAction": "CREATE_NEW", "disks": [{"name": "/dev/sda"}]}, published) == []
