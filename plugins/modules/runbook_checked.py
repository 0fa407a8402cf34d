#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_checked.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_checked
short_description: Record how the user's checks of one launched machine went
version_added: 2.0.0
description:
  - The last task of the checks of a launched machine. Records when they began and ended (on the controller's clock -
    only their duration counts, added to the machine's RTO), whether they passed, and why not.
  - Each machine writes a file of its own beside the run's record, so that hundreds of hosts checked side by side, by
    forks, never write the same file. The next wave's launch step and the report read them.
  - Sends no request to the service.
options:
  checked_dir:
    description: Where the run keeps the checks - the host variable C(<runbook>_checked_dir) of the launched machine's host.
    type: path
    required: true
  machine:
    description: The source machine's name.
    type: str
    required: true
  machine_id:
    description: The source machine's ID.
    type: str
    required: true
  began:
    description: When the checks began, as an RFC 3339 date-time of the controller's clock.
    type: str
    required: true
  passed:
    description: Whether the checks passed.
    type: bool
    required: true
  message:
    description: What the report says of them - why they failed, or what passed.
    type: str
    default: ""
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
seealso:
  - module: replication.recovery.runbook_wave
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Record how the checks went
  replication.recovery.runbook_checked:
    checked_dir: "{{ dr_test_checked_dir }}"
    machine: "{{ dr_test_source_name }}"
    machine_id: "{{ dr_test_source_id }}"
    began: "{{ began }}"
    passed: "{{ failure is none }}"
    message: "{{ failure if failure is not none else 'smoke.yml passed' }}"
"""

RETURN = r"""
checked:
  description: What was recorded - C(machine), C(began), C(ended), C(passed), C(message).
  returned: success
  type: dict
"""
