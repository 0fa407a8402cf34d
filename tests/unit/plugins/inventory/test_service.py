# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The inventory plugin's hosts, variables and groups, from a configuration file and a fleet as
the service would give it (the reading itself is in test_fleet)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import sys

import pytest

from ansible.errors import AnsibleParserError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader

from ansible_collections.replication.recovery.plugins.inventory.service import address, built_in_groups, os_family

NOW = "2026-11-22T10:00:00+00:00"


def machine(name, machine_id, os="Ubuntu 22.04", state="continuous", ips=("198.51.100.7",), replica=None, **life_cycle):
    return {"id": machine_id, "name": name, "sourceProperties": {"name": name, "os": os, "publicIps": list(ips)},
            "replicationStatus": "STARTED", "tags": ["tier:web"], "replica": replica, "lifeCycle": life_cycle,
            "replication_state": state, "lag_seconds": 40, "backlog_bytes": 0, "sync_percent": 100.0, "last_seen_seconds": 5}


def fleet():
    """Two projects; web-1 was launched for a recovery (its target machine has a custom private address), and the
    agent of db-1 was installed twice, which left two machines of that name."""
    web_1 = machine("web-1", "a1000000-0000-4000-8000-000000000001", replica="t1",
                    lastTestLaunchDateTime="2026-11-01T00:00:00+00:00", lastRecoveryLaunchDateTime="2026-11-22T09:00:00+00:00")
    return {"service_time": NOW, "projects": [
        {"id": "p1", "name": "prod web", "type": "DR", "machines": [
            web_1,
            machine("win-1", "a1000000-0000-4000-8000-000000000002", os="Microsoft Windows Server 2019", state="lagging", ips=()),
        ], "targets": [{"machine_id": web_1["id"], "private_ips": ["10.0.0.5"], "target": {
            "id": "t1", "machineCloudId": "i-0abc", "machineCloudState": "running", "launch_type": "recovery",
            "cloudEndureCreationDateTime": "2026-11-22T09:03:00+00:00", "pointInTime": "pit-1", "regionId": "r1",
            "publicIps": ["203.0.113.4"]}}]},
        {"id": "p2", "name": "db", "type": "DR", "machines": [
            machine("db-1", "b2000000-0000-4000-8000-000000000001", state="paused"),
            machine("db-1", "b3000000-0000-4000-8000-000000000002"),
        ]},
    ]}


@pytest.fixture
def build(tmp_path, monkeypatch):
    """Parse a configuration into a fresh inventory, with the service's answers replaced by fleet()."""

    def parse(config):
        path = tmp_path / "test.service.yml"
        path.write_text("plugin: replication.recovery.service\n" + config)
        plugin = inventory_loader.get("replication.recovery.service")
        assert plugin.verify_file(str(path))
        monkeypatch.setattr(plugin, "read", lambda given: fleet())
        inventory = InventoryData()
        plugin.parse(inventory, DataLoader(), str(path), cache=False)
        return inventory

    return parse


def variables(inventory, name):
    return inventory.get_host(name).get_vars()


def members(inventory, group):
    return sorted(host.name for host in inventory.groups[group].get_hosts())


def test_source_machines_become_hosts_with_their_variables_and_built_in_groups(build):
    inventory = build("")
    assert sorted(inventory.hosts) == ["db-1-b2000000", "db-1-b3000000", "web-1", "win-1"]
    web_1 = variables(inventory, "web-1")
    assert web_1["ansible_host"] == "198.51.100.7"
    assert (web_1["machine_id"], web_1["project_name"], web_1["project_id"]) == ("a1000000-0000-4000-8000-000000000001", "prod web", "p1")
    assert (web_1["replication_state"], web_1["lag_seconds"], web_1["backlog_bytes"], web_1["target_id"]) == ("continuous", 40, 0, "t1")
    assert (web_1["last_test_launch"], web_1["last_recovery_launch"], web_1["last_cutover"]) == (
        "2026-11-01T00:00:00+00:00", "2026-11-22T09:00:00+00:00", None)
    assert (web_1["os"], web_1["os_family"], variables(inventory, "win-1")["os_family"]) == ("Ubuntu 22.04", "linux", "windows")
    assert "ansible_host" not in variables(inventory, "win-1"), "a machine without any address keeps its name"
    assert members(inventory, "service_machines") == ["db-1-b2000000", "db-1-b3000000", "web-1", "win-1"]
    assert members(inventory, "project_prod_web") == ["web-1", "win-1"]
    assert members(inventory, "replication_lagging") == ["win-1"]
    assert members(inventory, "replication_paused") == ["db-1-b2000000"]
    assert members(inventory, "os_windows") == ["win-1"]
    assert members(inventory, "os_linux") == ["db-1-b2000000", "db-1-b3000000", "web-1"]


def test_target_machines_become_hosts_named_after_their_launch_type(build):
    inventory = build("hosts: targets\n")
    assert list(inventory.hosts) == ["recovery-web-1"]
    target = variables(inventory, "recovery-web-1")
    assert target["ansible_host"] == "203.0.113.4"
    assert (target["target_id"], target["cloud_id"], target["state"], target["launch_type"]) == ("t1", "i-0abc", "running", "recovery")
    assert (target["machine_name"], target["project_name"], target["private_ips"]) == ("web-1", "prod web", ["10.0.0.5"])
    assert members(inventory, "launched_recovery") == ["recovery-web-1"]
    assert members(inventory, "service_targets") == ["recovery-web-1"]


def test_a_private_address_when_asked_for(build):
    inventory = build("hosts: targets\naddress: private\n")
    assert variables(inventory, "recovery-web-1")["ansible_host"] == "10.0.0.5"


def test_projects_become_hosts_for_a_dr_test_each(build):
    inventory = build("hosts: projects\n")
    assert sorted(inventory.hosts) == ["db", "prod web"]
    prod = variables(inventory, "prod web")
    assert (prod["dr_test_project"], prod["machine_count"], prod["ansible_connection"]) == ("prod web", 2, "local")
    assert prod["ansible_python_interpreter"] == sys.executable, "like the implicit localhost"
    assert prod["replication_states"] == {"continuous": 1, "lagging": 1}
    assert "ansible_host" not in prod
    assert members(inventory, "service_projects") == ["db", "prod web"]


def test_names_filters_and_constructed_groups(build):
    inventory = build("\n".join([
        "hostname: project_name ~ '.' ~ machine_name",
        "filters:",
        "  - replication_state != 'paused'",
        "compose:",
        "  ansible_user: \"'Administrator' if os is search('Windows') else 'ec2-user'\"",
        "groups:",
        "  behind: lag_seconds > 30 and replication_state == 'lagging'",
        "keyed_groups:",
        "  - key: machine_tags",
        "    prefix: tag",
        ""]))
    assert sorted(inventory.hosts) == ["db.db-1", "prod web.web-1", "prod web.win-1"]
    assert variables(inventory, "prod web.win-1")["ansible_user"] == "Administrator"
    assert variables(inventory, "db.db-1")["ansible_user"] == "ec2-user"
    assert members(inventory, "behind") == ["prod web.win-1"]
    assert members(inventory, "tag_tier_web") == ["db.db-1", "prod web.web-1", "prod web.win-1"]


def test_a_filter_that_cannot_be_evaluated_fails_under_strict(build):
    with pytest.raises(AnsibleParserError, match="Could not evaluate the filter"):
        build("strict: true\nfilters:\n  - no_such_variable > 1\n")
    assert len(build("filters:\n  - no_such_variable > 1\n").hosts) == 0


def test_only_files_named_for_the_plugin_are_read(tmp_path):
    path = tmp_path / "hosts.yml"
    path.write_text("plugin: replication.recovery.service\n")
    assert not inventory_loader.get("replication.recovery.service").verify_file(str(path))


@pytest.mark.parametrize("os_name, family", [
    ("Microsoft Windows Server 2019 Datacenter", "windows"), ("Ubuntu 22.04.3 LTS", "linux"),
    ("Red Hat Enterprise Linux 9", "linux"), ("FreeBSD 14", "other"), (None, "other")])
def test_os_families(os_name, family):
    assert os_family(os_name) == family


def test_addresses_prefer_the_kind_asked_for_and_fall_back_to_the_other():
    both = {"public_ips": ["203.0.113.4"], "private_ips": ["10.0.0.5"]}
    assert address(both, "public") == "203.0.113.4" and address(both, "private") == "10.0.0.5"
    assert address({"public_ips": [], "private_ips": ["10.0.0.5"]}, "public") == "10.0.0.5"
    assert address({"public_ips": []}, "private") is None


def test_built_in_groups_per_kind():
    host = {"project_name": "prod", "replication_state": "continuous", "launch_type": "test", "os_family": "windows"}
    assert built_in_groups("machines", host) == ["service_machines", "project_prod", "replication_continuous", "os_windows"]
    assert built_in_groups("targets", host) == ["service_targets", "project_prod", "launched_test", "os_windows"]
    assert built_in_groups("projects", host) == ["service_projects", "project_prod"]


def test_with_the_cache_a_second_run_reads_nothing(tmp_path, monkeypatch):
    path = tmp_path / "cached.service.yml"
    path.write_text("plugin: replication.recovery.service\ncache: true\ncache_plugin: ansible.builtin.jsonfile\n"
                    "cache_connection: %s\n" % (tmp_path / "cache"))
    reads = []

    def run(cache=True):
        plugin = inventory_loader.get("replication.recovery.service")
        monkeypatch.setattr(plugin, "read", lambda given: reads.append(path) or fleet())
        inventory = InventoryData()
        plugin.parse(inventory, DataLoader(), str(path), cache=cache)
        plugin.update_cache_if_changed()
        return inventory

    assert sorted(run().hosts) == sorted(run().hosts) == ["db-1-b2000000", "db-1-b3000000", "web-1", "win-1"]
    assert len(reads) == 1
    run(cache=False)
    assert len(reads) == 2, "--flush-cache reads the service again"
