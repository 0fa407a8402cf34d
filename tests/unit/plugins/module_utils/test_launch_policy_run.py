# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A launch policy's run decided before anything is written: the writes an apply makes, each proven against the region
(one problem refuses them all), the blueprints a restore puts back as on_change says, a CSV's rows checked, the backup."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._launch_policy import PolicyError, csv_of, fingerprint
from ansible_collections.replication.recovery.plugins.module_utils._launch_policy_run import (
    apply_plan, export_rows, new_result, restore_plan, wanted_by_csv, wanted_by_policy, write_backup)

REGION = {"id": "r-1", "name": "us-east-1", "instanceTypes": ["t3.small", "m5.large"], "subnets": [{"subnetId": "s-a", "name": "private-a"}]}
PROJECT = {"id": "p-1", "name": "demo"}
BY_NAME = dict((name, {"id": name + "-id", "name": name}) for name in ("web-1", "web-2", "db-1"))


def blueprints(**members):
    return dict((name + "-id", dict({"id": "b-" + name, "machineId": name + "-id", "region": "r-1", "instanceType": "t3.small"}, **members.get(name, {})))
                for name in BY_NAME)


def test_an_apply_writes_only_what_changes_and_one_problem_refuses_every_write():
    result = new_result(REGION)
    wanted = {"web-1": ({"instance_type": "m5.large"}, {"instance_type": "defaults"}), "web-2": ({"instance_type": "t3.small"}, {"instance_type": "defaults"})}
    plans = apply_plan(wanted, BY_NAME, blueprints(), REGION, dict, result)
    assert [(name, changes) for name, unused, changes in plans] == [("web-1", {"instanceType": "m5.large"})]
    assert [(entry["name"], entry["options_changed"]) for entry in result["machines"]] == [("web-1", ["instance_type"]), ("web-2", [])]
    wanted["db-1"] = ({"instance_type": "z9.mega"}, {"instance_type": "machines.db-1"})
    with pytest.raises(PolicyError, match=r"proven against region us-east-1, and 1 problem stops them all; nothing was written: db-1: instance type z9.mega"):
        apply_plan(wanted, BY_NAME, blueprints(), REGION, dict, new_result(REGION))


def test_a_blueprint_switched_to_a_test_network_is_refused_and_the_others_written():
    result = new_result(REGION)
    switched = blueprints(**{"web-1": {"tags": [{"key": "replication.recovery/production.1", "value": "not a record"}]}})
    plans = apply_plan({"web-1": ({"instance_type": "m5.large"}, {}), "web-2": ({"instance_type": "m5.large"}, {})}, BY_NAME, switched, REGION, dict, result)
    assert [name for name, unused, unused_changes in plans] == ["web-2"]
    assert result["refused"] == {"web-1": "its blueprint is switched to a test network: put it back first (service_test_network state=restored)"}


def test_a_restore_puts_back_what_changed_and_a_blueprint_changed_since_is_refused_kept_or_restored_as_asked(tmp_path):
    before = blueprints()
    backup = write_backup(str(tmp_path), PROJECT, REGION, [(name, before[name + "-id"], {"instanceType": "m5.large"}) for name in ("web-1", "web-2")])
    assert backup.startswith(str(tmp_path) + "/launch_policy_demo.") and backup.endswith(".backup.json")
    assert write_backup(str(tmp_path), PROJECT, REGION, []) != backup  # two runs in one second keep their own
    applied = blueprints(**{"web-1": {"instanceType": "m5.large"}, "web-2": {"instanceType": "m5.xlarge"}})  # web-2 changed since
    for on_change, written, result_of in (("refuse", ["web-1"], "refused"), ("keep", ["web-1"], "kept"), ("restore", ["web-1", "web-2"], None)):
        result = new_result(REGION)
        plans = restore_plan(backup, PROJECT, REGION, applied, on_change, result)
        assert [(name, changes) for name, unused, changes in plans] == [(name, {"instanceType": "t3.small"}) for name in written]
        assert result_of is None or "web-2" in result[result_of]
    with pytest.raises(PolicyError, match="is not one of project other in region us-east-1. Nothing was written."):
        restore_plan(backup, dict(PROJECT, id="p-2", name="other"), REGION, applied, "refuse", new_result(REGION))


def test_a_csv_row_whose_blueprint_changed_since_the_export_refuses_the_whole_csv(tmp_path):
    exported = blueprints()
    rows = export_rows(BY_NAME, exported, new_result(REGION))
    rows[0]["instance_type"] = "m5.large"
    path = tmp_path / "demo.csv"
    path.write_text(csv_of(rows), encoding="utf-8")
    wanted = wanted_by_csv(str(path), None, PROJECT, BY_NAME, exported, new_result(REGION))
    assert wanted["db-1"][0]["instance_type"] == "m5.large" and wanted["db-1"][1]["instance_type"] == "csv row 2"
    changed = blueprints(**{"web-1": {"instanceType": "m5.xlarge"}})
    with pytest.raises(PolicyError) as refused:
        wanted_by_csv(str(path), None, PROJECT, BY_NAME, changed, new_result(REGION))
    assert "the blueprint of web-1 changed since the export (its fingerprint is %s" % fingerprint(changed["web-1-id"]) in str(refused.value)
    assert str(refused.value).endswith("Nothing was written.")


def test_the_rules_that_take_no_machine_of_the_project_are_noted_for_the_warning():
    params = dict(defaults=None, projects=None, machines=None, exclude=None, subnet_map=None, addresses=None,
                  rules=[dict(match=dict(name="wbe-*"), set=dict(instance_type="m5.large")),
                         dict(match=dict(name="web-*"), set=dict(instance_type="t3.small"))])
    result = new_result(REGION)
    assert sorted(wanted_by_policy(params, PROJECT, BY_NAME, result)) == ["web-1", "web-2"]
    assert result["unmatched_rules"] == ["launch_policy_rules[0] (name wbe-*)"]
