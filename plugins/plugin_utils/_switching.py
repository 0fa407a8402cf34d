# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A run's blueprints switched to its test network before their launch, and put back as they were after it (see
module_utils._test_network, which keeps what a blueprint was in the service). Functions of the step that runs them."""

from ansible_collections.replication.recovery.plugins.module_utils._words import reasons, shown
from ansible_collections.replication.recovery.plugins.plugin_utils._step import StepFailed

# What the report says of a machine an earlier run switched to the test network for the launch this run adopted.
SWITCHED_EARLIER = "switched by an earlier run"


def switch_to_test_network(step, names):
    """Switch the blueprints of ``names`` to the run's test network before their launch; stop the step, before
    anything is launched, when one of them cannot be switched. Answers the module's diff (for --diff)."""
    net = step.record.test_network
    # Only the overrides of these machines: the preflight checked that every one names a machine of the project.
    network = dict((option, value) for option, value in net["network"].items() if option != "machines")
    overrides = dict((name, given) for name, given in (net["network"].get("machines") or {}).items() if name in names)
    if overrides:
        network["machines"] = overrides
    switched = step.service("service_test_network", project=step.record["project_id"], state="switched", machines=names, network=network)
    if switched["refused"]:
        raise StepFailed("The test network could not be set for %d of %d machines, and nothing of them was launched: %s." % (
            len(switched["refused"]), len(names), reasons(switched["refused"])))
    net["tested_in"].update(switched["switched"])
    for name in switched["still_switched"]:
        net["tested_in"].setdefault(name, (net.get("found_in") or {}).get(name) or SWITCHED_EARLIER)
    if switched["switched"]:
        step.say("%s %d blueprints to the test network: %s." % (
            "Would switch" if step.check_mode else "Switched", len(switched["switched"]), shown(sorted(switched["switched"]))))
    return switched.get("diff")


def put_back_blueprints(step, names):
    """Put the switched blueprints of ``names`` back as they were; record what was put back, and what was
    left because somebody changed it since the switch. Answers the module's result."""
    net = step.record.test_network
    result = step.service("service_test_network", project=step.record["project_id"], state="restored", machines=names)
    net["restored"] = sorted(set(net["restored"]) | set(result["restored"]))
    net["refused"].update(result["refused"])
    if result["restored"]:
        step.say("%s %d blueprints as they were before the test network: %s." % (
            "Would put back" if step.check_mode else "Put back", len(result["restored"]), shown(result["restored"])))
    if result["refused"]:
        step.say("Not put back, changed by somebody else since the switch (left as they set it): %s." % reasons(result["refused"]))
    return result
