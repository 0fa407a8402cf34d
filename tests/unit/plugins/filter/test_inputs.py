# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.replication.recovery.plugins.filter.inputs import as_list


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
