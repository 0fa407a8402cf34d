# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Launch settings by policy: the layers in order, the rules' precedence, exclusions, the subnet map, the CSV."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._launch_policy import (
    COLUMNS, Policy, PolicyError, changes_of, csv_of, fingerprint, members_of, rows_of_csv)

POLICY = dict(
    defaults=dict(instance_type="t3.medium", subnets=["private-a"], tags=dict(owner="dr")),
    projects=dict(payroll=dict(security_groups=["sg-app"]), other=dict(instance_type="x1.huge")),
    rules=[dict(match=dict(name="db-*"), set=dict(instance_type="m5.large", tags=dict(tier="data"))),
           dict(match=dict(tags=["tier=gold"]), set=dict(tenancy="DEDICATED")),
           dict(match=dict(name=["db-2", "web-9"]), set=dict(instance_type="m5.xlarge"))],
    machines={"db-1": dict(subnets=["private-b"])},
    exclude=["scratch-*"],
)


def test_the_layers_apply_in_order_and_say_which_set_each_option():
    policy = Policy(**POLICY)
    settings, origin, unmapped = policy.resolve("payroll", "db-2", ["tier=gold"])
    # A later rule wins; lists and tags are replaced whole, never merged.
    assert settings == dict(instance_type="m5.xlarge", subnets=["private-a"], tags=dict(tier="data"), security_groups=["sg-app"],
                            tenancy="DEDICATED")
    assert origin == dict(instance_type="rules[2]", subnets="defaults", tags="rules[0]", security_groups="projects.payroll",
                          tenancy="rules[1]")
    assert unmapped is None
    settings, origin, unused = policy.resolve("payroll", "db-1", [])
    assert (settings["subnets"], origin["subnets"], settings["instance_type"]) == (["private-b"], "machines.db-1", "m5.large")
    assert policy.resolve("payroll", "web-1", [])[0] == dict(instance_type="t3.medium", subnets=["private-a"], tags=dict(owner="dr"),
                                                             security_groups=["sg-app"])
    assert policy.excluded("scratch-7") and not policy.excluded("db-1")


def test_the_subnet_map_readdresses_by_the_source_address_keeping_the_host_part_when_asked():
    policy = Policy(subnet_map=[dict(source="10.0.0.0/16", subnet="dr-a", subnet_range="10.8.0.0/16", keep_host=True),
                                dict(source="192.168.1.0/24", subnet="dr-b")],
                    addresses={"db-1": "10.0.3.7", "web-1": "192.168.1.20", "app-1": "172.16.0.1", "bad-1": "ten"},
                    machines={"web-1": dict(subnets=["pinned"])})
    assert policy.resolve("p", "db-1") == (dict(subnets=["dr-a"], private_ip_action="CUSTOM_IP", private_ips=["10.8.3.7"]),
                                           dict(subnets="subnet_map[0]", private_ip_action="subnet_map[0]", private_ips="subnet_map[0]"), None)
    assert policy.resolve("p", "web-1") == (dict(subnets=["pinned"]), dict(subnets="machines.web-1"), None)  # the machine's own wins
    assert policy.resolve("p", "app-1")[2] == "its private source address 172.16.0.1 is in no source range of the subnet map"
    assert policy.resolve("p", "bad-1")[2] == "its private source address 'ten' is no address"
    assert policy.resolve("p", "new-1") == ({}, {}, "no private source address (launch_policy_address_hosts, launch_policy_addresses or a CSV address)")


@pytest.mark.parametrize("layers,message", [
    (dict(defaults=dict(instanc_type="t3")), "launch_policy_defaults has no option instanc_type; a policy sets"),
    (dict(rules=[dict(match=dict(nam="db-*"), set=dict(instance_type="t3"))]), "launch_policy_rules[0].match matches by name"),
    (dict(rules=[dict(match=dict(name="db-*"))]), "launch_policy_rules[0] sets nothing"),
    (dict(rules=["db-*"]), "launch_policy_rules[0] must be {match:"),
    (dict(machines={"db-1": dict(subnets="private-a")}), "launch_policy_machines.db-1.subnets must be a list of text"),
    (dict(projects={"p": dict(tenancy="SOLO")}), "launch_policy_projects.p.tenancy must be one of SHARED, DEDICATED, HOST, not 'SOLO'"),
    (dict(subnet_map=[dict(source="10.0.0.0/33", subnet="a")]), "launch_policy_subnet_map[0].source must be an address range"),
    (dict(subnet_map=[dict(source="10.0.0.0/16", subnet="a", subnet_range="10.8.0.0/24", keep_host=True)]),
     "launch_policy_subnet_map[0] keeps the host part: its subnet_range must be at least as large as its source 10.0.0.0/16"),
])
def test_bad_layers_are_refused_naming_where(layers, message):
    with pytest.raises(PolicyError) as raised:
        Policy(**layers)
    assert str(raised.value).startswith(message)


def test_what_changes_compares_lists_as_sets_and_tags_whole():
    blueprint = dict(instanceType="t3.medium", subnetIDs=["s-2", "s-1"], tags=[dict(key="a", value="1"), dict(key="b", value="2")])
    members = members_of(dict(instance_type="t3.medium", subnets=["s-1", "s-2"], tags=dict(b="2", a="1")))
    assert changes_of(blueprint, members) == {}
    assert changes_of(blueprint, members_of(dict(tags=dict(a="1")))) == dict(tags=[dict(key="a", value="1")])
    assert fingerprint(blueprint) == fingerprint(dict(blueprint, subnetIDs=["s-1", "s-2"])) != fingerprint(dict(blueprint, instanceType="x"))


def test_the_csv_round_trip():
    text = csv_of([dict(machine="db-1", instance_type="m5.large", subnets=["s-1", "s-2"], tags=dict(tier="data", owner="dr"),
                        run_after_launch=True, fingerprint="abc")])
    header, row = text.splitlines()
    assert header.split(",") == list(COLUMNS)
    settings = dict(instance_type="m5.large", subnets=["s-1", "s-2"], tags=dict(owner="dr", tier="data"), run_after_launch=True)
    assert rows_of_csv(text) == [(2, "db-1", "abc", settings, None)]
    assert rows_of_csv("machine,address,instance_type\ndb-1,10.0.3.7,\n") == [(2, "db-1", None, {}, "10.0.3.7")]


@pytest.mark.parametrize("text,message", [
    ("machine,instance_typ\ndb-1,t3\n", "the CSV's header has the unknown column instance_typ; its columns are machine,"),
    ("instance_type\nt3\n", "the CSV's header has no column machine"),
    ("machine,tenancy\ndb-1,SHARED\ndb-2,SOLO\n", "row 3 (db-2).tenancy must be one of SHARED, DEDICATED, HOST, not 'SOLO'"),
    ("machine,tags\ndb-1,tier\n", "row 2 (db-1): tags are key=value;key2=value2, not 'tier'"),
    ("machine,run_after_launch\ndb-1,maybe\n", "row 2 (db-1): run_after_launch is true or false, not 'maybe'"),
    ("machine,instance_type\n,t3\n", "row 2 names no machine"),
])
def test_a_bad_csv_row_is_named(text, message):
    with pytest.raises(PolicyError) as raised:
        rows_of_csv(text)
    assert str(raised.value).startswith(message)


def test_a_rule_that_takes_no_machine_is_named_with_what_it_matches_by():
    """A pattern misspelt (wbe-*) set nothing and said only 0 of 0 machines would change (a scratch run): the module warns of
    it by this. A rule that takes only excluded machines takes none."""
    policy = Policy(rules=[dict(match=dict(name="wbe-*"), set=dict(instance_type="t3.large")),
                           dict(match=dict(name=["db-*", "scratch-*"], tags=["tier=gold"]), set=dict(tenancy="DEDICATED")),
                           dict(match=dict(name="web-*"), set=dict(instance_type="t3.small")),
                           dict(match=dict(name="scratch-*"), set=dict(instance_type="t3.nano"))], exclude=["scratch-*"])
    machines = {"web-1": [], "db-1": ["tier=silver"], "scratch-1": ["tier=gold"]}
    assert policy.unmatched(machines) == ["launch_policy_rules[0] (name wbe-*)", "launch_policy_rules[1] (name db-* or scratch-*; tags tier=gold)",
                                          "launch_policy_rules[3] (name scratch-*)"]
    machines["db-1"] = ["tier=gold"]
    assert policy.unmatched(machines) == ["launch_policy_rules[0] (name wbe-*)", "launch_policy_rules[3] (name scratch-*)"]
