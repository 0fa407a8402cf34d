# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Recovery plans: the steps as the user writes them, and as the service keeps them.

Two plans are the same when their steps come in the same order with the same names, the same
machines in any order, and the same waits, however the waits are written (V(120), V(PT2M)).
"""

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_duration


def canonical_steps(steps):
    """Steps in a form that compares equal exactly when the plans mean the same."""
    return [(step["name"], tuple(sorted(step.get("machineIDs", []))), parse_duration(step.get("waitBefore"))) for step in steps]
