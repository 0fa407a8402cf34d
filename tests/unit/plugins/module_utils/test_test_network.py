# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._test_network import (
    CHUNK, STASH_KEY, StashUnreadable, changed_since_switch, network_members, restore_body, stash_of, switch_body)

PRODUCTION = {
    "id": "b-1", "machineId": "m-1", "region": "r-1", "instanceType": "m5.large", "subnetIDs": ["subnet-1"], "securityGroupIDs": ["sg-1", "sg-2"],
    "privateIPs": ["10.0.0.15"], "privateIPAction": "CUSTOM_IP", "publicIPAction": "ALLOCATE", "staticIp": None,
    "tags": [{"key": "role", "value": "database"}], "disks": [{"name": "/dev/sda", "type": "SSD"}],
}
TEST = network_members(dict(subnets=["subnet-7"], security_groups=["sg-7"], private_ip_action="CREATE_NEW", private_ips=[],
                            public_ip_action="DONT_ALLOCATE"))


def patched(blueprint, body):
    return dict(blueprint, **body)


def test_a_switch_and_its_restore_give_the_blueprint_back_member_by_member():
    switched = patched(PRODUCTION, switch_body(PRODUCTION, TEST))
    assert switched["subnetIDs"] == ["subnet-7"] and switched["publicIPAction"] == "DONT_ALLOCATE"
    assert [tag for tag in switched["tags"] if not tag["key"].startswith(STASH_KEY)] == [{"key": "role", "value": "database"}]
    stash = stash_of(switched)
    assert stash["members"]["subnetIDs"] == ["subnet-1"] and stash["members"]["privateIPs"] == ["10.0.0.15"]
    assert not changed_since_switch(switched, stash)
    assert patched(switched, restore_body(switched, stash)) == PRODUCTION
    assert stash_of(PRODUCTION) is None


def test_switched_tags_are_put_back_too_and_long_records_take_several_tags():
    many = dict(PRODUCTION, tags=[{"key": "k%02d" % number, "value": "v" * 60} for number in range(12)])
    test = network_members(dict(subnets=["subnet-7"], tags={"network": "isolated"}))
    switched = patched(many, switch_body(many, test))
    ours = [tag for tag in switched["tags"] if tag["key"].startswith(STASH_KEY)]
    assert len(ours) > 1 and all(len(tag["value"]) <= CHUNK for tag in ours)
    assert [tag for tag in switched["tags"] if tag not in ours] == [{"key": "network", "value": "isolated"}]
    assert patched(switched, restore_body(switched, stash_of(switched))) == many


def test_a_blueprint_with_the_test_settings_already_is_not_switched():
    assert switch_body(dict(PRODUCTION, subnetIDs=["subnet-7"]), network_members(dict(subnets=["subnet-7"]))) is None


def test_a_member_the_blueprint_lacks_is_refused_since_it_could_not_be_put_back():
    with pytest.raises(ValueError, match="has no staticIp"):
        switch_body(PRODUCTION, network_members(dict(static_ip="198.51.100.10")))


def test_a_change_by_somebody_else_since_the_switch_is_seen_the_order_of_lists_is_not():
    switched = patched(PRODUCTION, switch_body(PRODUCTION, TEST))
    stash = stash_of(switched)
    assert not changed_since_switch(dict(switched, securityGroupIDs=["sg-7"]), stash)
    assert changed_since_switch(dict(switched, subnetIDs=["subnet-9"]), stash)
    # A member the switch did not touch is theirs to change.
    assert not changed_since_switch(dict(switched, instanceType="r5.large"), stash)


def test_tags_of_ours_that_do_not_make_a_whole_record_are_unreadable():
    switched = patched(PRODUCTION, switch_body(PRODUCTION, TEST))
    cut = [dict(tag, value=tag["value"][:20]) if tag["key"] == STASH_KEY + ".1" else tag for tag in switched["tags"]]
    with pytest.raises(StashUnreadable):
        stash_of(dict(switched, tags=cut))
    with pytest.raises(StashUnreadable):
        stash_of(dict(switched, tags=switched["tags"] + [{"key": STASH_KEY + ".3", "value": "}"}]))
