#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/ledger_proof_info.py); this file documents it.

DOCUMENTATION = r"""
module: ledger_proof_info
short_description: Which machines are proven today - passed since their last change
version_added: 2.0.0
description:
  - For each machine of O(fleet), when it was last proven and what changed since. A machine is proven by the newest
    passing DR test or failover of it in the ledger of runs at O(ledger_dir) (see M(replication.recovery.ledger_entry)), as
    it was when that run asked for its launch. Without O(ledger_dir), by its last test or recovery launch as the service
    records it - a launch, which the service does not judge; the result says so (RV(source)).
  - The changes are read from each project's audit log, once, from the oldest proof on. A change is an entry that names
    the machine and is not a job's - launches, cleanups and file restores are jobs, and change nothing a later launch
    uses. The service publishes no list of its event names, so every such write counts - a blueprint or launch settings
    changed, replication paused, stopped or restarted, the machine moved - except the events named in O(ignore_events)
    and the switch of a blueprint to a test network and its restore, which the runbooks make and undo themselves.
  - A write that names no machine - the project's replication configuration changed without restarting replication,
    its settings, a recovery plan - may change how any of its machines recovers - it is a change of each of them, with
    C(scope=project). Leave out those that do not matter to you with O(ignore_events) (for example
    V(PROJECT_USERS_ASSIGNED)).
  - Each machine is V(proven), V(changed since last proven) (with the changes) or V(never proven). The health role
    reports it; the DR test's C(dr_test_machines=unproven) tests the machines that are not proven.
options:
  fleet:
    description:
      - The result of M(replication.recovery.service_project_info) with C(machines=true) (its C(projects), each with its
        C(name), C(id) and C(machines)). Its machines are judged; nothing is read again.
    type: dict
    required: true
  ledger_dir:
    description:
      - The ledger of runs (C(replication_recovery_ledger_dir)). A directory that does not exist yet proves no machine.
      - Not given - the machines' last test or recovery launch, from the service, stands for the proof.
    type: path
  ignore_events:
    description:
      - Audit log events (their C(eventName)) that do not make a machine unproven - for example the throttling of its
        bandwidth, if your service names such an event.
    type: list
    elements: str
    default: []
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.ledger_evidence
  - module: replication.recovery.service_audit_log_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Read the fleet
  replication.recovery.service_project_info:
    names: [production]
    machines: true
  register: fleet

- name: Which machines changed since they last passed a DR test
  replication.recovery.ledger_proof_info:
    fleet: "{{ fleet }}"
    ledger_dir: /mnt/dr-ledger
  register: proofs

- name: Name them
  ansible.builtin.debug:
    msg: "{{ proofs.projects | map(attribute='unproven') | flatten }}"
"""

RETURN = r"""
projects:
  description: Per project of O(fleet) - C(name), C(id), C(source), C(machines) and C(unproven) (the names of those not proven).
  returned: always
  type: list
  elements: dict
  contains:
    machines:
      description:
        - Per machine - C(name), C(id), C(status) (V(proven), V(changed since last proven) or V(never proven)),
          C(proven) (the proof - C(time), on the service's clock, C(source), and from the ledger C(runbook), C(entry)
          and C(run)), and C(changes) since, oldest first, each with C(time), C(event), C(description), C(username) and
          C(fields) (the names of the fields it changed).
      type: list
      elements: dict
source:
  description: What proves a machine - V(ledger), or V(last test launch) without O(ledger_dir).
  returned: always
  type: str
breaks:
  description: The ledger's breaks (M(replication.recovery.ledger_evidence) names them); the proofs read from a broken ledger may not hold.
  returned: always
  type: list
  elements: str
lines:
  description: The outcome in a few lines, the machines not proven first.
  returned: always
  type: list
  elements: str
"""
