# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""service_replica_cleanup picks the target machines its values name: by a target machine's ID or by its machine."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._machines import live_targets
from ansible_collections.replication.recovery.plugins.modules.service_replica_cleanup import CleanupModule
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import PathClient, set_up_without_ansible

PROJECT = {"id": "p1", "name": "production"}


class Cleanup(CleanupModule):
    """The module without AnsibleModule's set-up, over a client that answers from a dictionary."""

    def __init__(self, answers):
        set_up_without_ansible(self, PathClient(answers))

    def fail_json(self, msg, **kwargs):
        raise AssertionError(msg)


class Counted(list):
    """The targets, counting each pass over them."""

    passes = 0

    def __iter__(self):
        Counted.passes += 1
        return super(Counted, self).__iter__()


def fleet(size):
    return [{"id": "m-%04d-id" % number, "sourceProperties": {"name": "m-%04d" % number}, "replica": "r-%04d" % number}
            for number in range(size)]


def test_targets_are_picked_by_their_id_or_their_machine_in_the_order_given_each_once():
    machines = fleet(3)
    module = Cleanup({"/projects/p1/machines": machines})
    chosen = module.chosen(PROJECT, live_targets(machines), ["r-0002", "m-0000", "m-0002", "m-0001-id", "r-0000"])
    assert [replica for replica, unused in chosen] == ["r-0002", "r-0000", "r-0001"]


def test_a_thousand_targets_named_cost_a_pass_over_them_not_one_each():
    machines = fleet(1000)
    module = Cleanup({"/projects/p1/machines": machines})
    targets = Counted(live_targets(machines))
    Counted.passes = 0
    chosen = module.chosen(PROJECT, targets, ["r-%04d" % number for number in range(500)] + ["m-%04d" % number for number in range(1000)])
    assert [replica for replica, unused in chosen] == ["r-%04d" % number for number in range(1000)]
    assert Counted.passes == 1


def recovery(number):
    """The ID of a recovery machine (a target machine's ID is a UUID)."""
    return "00000000-0000-4000-8000-%012d" % number


def test_target_machines_no_machine_points_at_are_read_all_at_once_and_those_gone_left_out():
    machines = fleet(2)
    answers = {"/projects/p1/machines": machines}
    for number in range(3):  # a failback's recovery machines: their machines point at the machines launched back
        answers["/projects/p1/replicas/" + recovery(number)] = {"id": recovery(number), "machine": "m-%04d-id" % (number % 2),
                                                                "machineCloudState": "terminated" if number == 2 else "running"}
    module = Cleanup(answers)
    chosen = module.chosen(PROJECT, live_targets(machines), [recovery(1), recovery(0), recovery(2), recovery(3)])
    assert [(replica, machine["id"]) for replica, machine in chosen] == [(recovery(1), "m-0001-id"), (recovery(0), "m-0000-id")]
    assert module.client.batches == [["/projects/p1/replicas/" + recovery(number) for number in (1, 0, 2, 3)]]


def test_a_value_that_names_nothing_is_refused_before_any_target_machine_is_read():
    module = Cleanup({"/projects/p1/machines": fleet(1)})
    try:
        module.chosen(PROJECT, [], ["rec-1-but-no-id", "m-9999"])
    except AssertionError as refused:
        assert str(refused) == "'rec-1-but-no-id' is neither a target machine's ID nor a machine of project 'production'."
    else:
        raise AssertionError("not refused")
    assert module.client.batches == []
