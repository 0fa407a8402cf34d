# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._compare import differences, managed, same


def test_only_members_the_user_set_count():
    current = {"id": "1", "name": "a", "usePrivateIp": False, "zone": "z"}
    assert differences(current, {"name": "a"}) == {}
    assert differences(current, {"name": "b", "usePrivateIp": False}) == {"name": "b"}


def test_a_member_missing_from_the_service_differs():
    assert differences({"name": "a"}, {"proxyUrl": "http://p"}) == {"proxyUrl": "http://p"}


def test_lists_keep_their_order_unless_unordered():
    current = {"ids": ["a", "b"], "tags": [{"key": "k", "value": "1"}, {"value": "2", "key": "l"}]}
    assert differences(current, {"ids": ["b", "a"]}) == {"ids": ["b", "a"]}
    assert differences(current, {"ids": ["b", "a"]}, unordered=("ids",)) == {}
    assert differences(current, {"tags": [{"key": "l", "value": "2"}, {"key": "k", "value": "1"}]}, unordered=("tags",)) == {}


def test_nested_dictionaries_compare_by_value():
    assert same({"a": {"b": 1, "c": [1, 2]}}, {"a": {"c": [1, 2], "b": 1}})
    assert not same({"a": {"b": 1}}, {"a": {"b": 2}})


def test_managed_views_leave_out_secrets_and_unmanaged_members():
    resource = {"id": "1", "name": "a", "privateKey": "secret", "other": 1}
    assert managed(resource, ["name", "privateKey"], secrets=("privateKey",)) == {"name": "a"}
    assert managed(None, ["name"]) == {}
