# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.inputs import as_flag, as_list, as_number


@pytest.mark.parametrize("value,expected", [
    (["web-1", " web-2 "], ["web-1", "web-2"]),
    ("web-1", ["web-1"]),                         # -e dr_test_exclude=web-1
    ("web-1,web-2", ["web-1", "web-2"]),          # -e dr_test_exclude=web-1,web-2
    (" web-1 , ,web-2, ", ["web-1", "web-2"]),
    ("web-1\nweb-2\n", ["web-1", "web-2"]),       # an AWX textarea answer
    ('["web-1", "web-2"]', ["web-1", "web-2"]),   # -e 'dr_test_exclude=["web-1","web-2"]'
    ("", []),
    (None, []),
    ([], []),
    ((1, 2), [1, 2]),
])
def test_a_list_from_a_list_or_from_text(value, expected):
    assert as_list(value) == expected


@pytest.mark.parametrize("value,message", [
    ("[web-1", "JSON list"),
    ({"web-1": 1}, "not dict"),
    (600, "not int"),
])
def test_what_is_no_list(value, message):
    with pytest.raises(AnsibleFilterError, match=message):
        as_list(value)


@pytest.mark.parametrize("value,default,expected", [
    (900, None, 900), ("900", None, 900), (" 1.5 ", None, 1.5), ("", 600, 600), ("null", 600, 600), ("None", None, None), (None, 7, 7),
])
def test_a_number_from_a_number_or_from_text(value, default, expected):
    assert as_number(value, default) == expected


@pytest.mark.parametrize("value,default,expected", [
    (True, False, True), ("yes", False, True), ("Y", False, True), ("off", True, False), ("0", True, False), ("", True, True),
    (None, False, False), ("none", True, True),
])
def test_a_flag_from_a_flag_or_from_text(value, default, expected):
    assert as_flag(value, default) is expected


@pytest.mark.parametrize("call,message", [(lambda: as_number("soon"), "The value must be a number, not 'soon'."),
                                          (lambda: as_flag("maybe"), "The value must be true or false, not 'maybe'.")])
def test_what_is_no_number_or_flag_is_refused_naming_it(call, message):
    with pytest.raises(AnsibleFilterError) as refused:
        call()
    assert str(refused.value) == message
