#!/usr/bin/env python
"""Check the JSON of `ansible-inventory --list` for one kind of host of the seeded account.

check_inventory.py KIND LIST_JSON -> exits non-zero, saying what differs, when the inventory is not as expected.
"""

import json
import sys


def plain(value):
    """The value without the marks ansible-inventory puts on text from an inventory plugin (2.19: __ansible_unsafe)."""
    if isinstance(value, dict):
        return value["__ansible_unsafe"] if set(value) == {"__ansible_unsafe"} else dict((k, plain(v)) for k, v in value.items())
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


kind, list_path = sys.argv[1:3]
with open(list_path) as list_file:
    inventory = plain(json.load(list_file))
hostvars = inventory["_meta"]["hostvars"]


def members(group):
    return sorted(inventory.get(group, {}).get("hosts", []))


def expect(actual, wanted, what):
    assert actual == wanted, "%s: %r, expected %r" % (what, actual, wanted)


if kind == "machines":
    expect(sorted(hostvars), ["app-1", "app-2", "db-1", "small-1", "web-1", "web-2"], "hosts")
    expect(members("project_inv_shop"), ["db-1", "web-1", "web-2"], "project_inv_shop")
    expect(members("project_inv_erp"), ["app-1", "app-2"], "project_inv_erp")
    expect(members("replication_continuous"), ["app-1", "db-1", "small-1", "web-1", "web-2"], "replication_continuous")
    expect(members("replication_paused"), ["app-2"], "replication_paused")
    expect(members("os_windows"), ["db-1"], "os_windows")
    expect(members("os_linux"), ["app-1", "app-2", "small-1", "web-1", "web-2"], "os_linux")
    expect(members("tag_web"), ["web-1", "web-2"], "tag_web (keyed_groups)")
    expect(members("needs_attention"), ["app-2"], "needs_attention (groups)")
    web_1 = hostvars["web-1"]
    expect(web_1["ansible_host"], "198.51.100.11", "web-1 ansible_host")
    expect((web_1["project_name"], web_1["os"], web_1["public_ips"]), ("inv-shop", "Ubuntu 22.04.4 LTS", ["198.51.100.11"]), "web-1")
    expect((web_1["replication_status"], web_1["replication_state"], web_1["backlog_bytes"]), ("STARTED", "continuous", 0), "web-1")
    assert isinstance(web_1["lag_seconds"], int) and web_1["lag_seconds"] < 600, web_1["lag_seconds"]
    assert web_1["last_recovery_launch"] and web_1["last_test_launch"] is None and web_1["target_id"], web_1
    assert hostvars["app-1"]["last_test_launch"] and hostvars["app-1"]["target_id"], hostvars["app-1"]
    expect((hostvars["db-1"]["os_family"], web_1["os_family"]), ("windows", "linux"), "os_family")
    assert "ansible_host" not in hostvars["db-1"], "db-1 has no address: its name is used"
    assert "target_id" not in hostvars["db-1"], hostvars["db-1"]
elif kind == "targets":
    expect(sorted(hostvars), ["recovery-web-1", "recovery-web-2", "test-app-1"], "hosts")
    expect(members("launched_recovery"), ["recovery-web-1", "recovery-web-2"], "launched_recovery")
    expect(members("launched_test"), ["test-app-1"], "launched_test")
    expect(members("service_targets"), ["recovery-web-1", "recovery-web-2", "test-app-1"], "service_targets")
    web_1 = hostvars["recovery-web-1"]
    expect((web_1["private_ips"], web_1["ansible_host"]), (["10.20.0.15"], "10.20.0.15"), "the custom private address")
    expect((web_1["launch_type"], web_1["state"], web_1["machine_name"], web_1["project_name"]),
           ("recovery", "running", "web-1", "inv-shop"), "recovery-web-1")
    assert web_1["cloud_id"] and web_1["launched_at"] and web_1["point_in_time_id"] and web_1["target_id"], web_1
    web_2 = hostvars["recovery-web-2"]
    expect(web_2["private_ips"], [], "no private address is known without a custom one")
    expect(web_2["ansible_host"], web_2["public_ips"][0], "then the public address")
elif kind == "projects":
    expect(sorted(hostvars), ["inv-erp", "inv-shop", "inv-small"], "hosts (inv-empty has no machines)")
    shop = hostvars["inv-shop"]
    expect((shop["dr_test_project"], shop["machine_count"], shop["ansible_connection"]), ("inv-shop", 3, "local"), "inv-shop")
    expect(hostvars["inv-erp"]["replication_states"], {"continuous": 1, "paused": 1}, "inv-erp's machines by state")
    expect(members("service_projects"), ["inv-erp", "inv-shop", "inv-small"], "service_projects")
else:
    sys.exit("unknown kind %s" % kind)
print("%s: %d hosts as expected" % (kind, len(hostvars)))
