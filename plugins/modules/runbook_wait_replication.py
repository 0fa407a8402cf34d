#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_wait_replication.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_wait_replication
short_description: Wait until machines replicate, showing each one's progress at every look
version_added: 2.0.0
description:
  - Looks at the machines (one list of them, M(replication.recovery.service_machine_info)) after O(poll_interval)
    seconds, then each time further apart, up to 30 seconds, until each has finished initial sync (O(until=synced)) or replicates
    continuously (O(until=continuous)), and shows a line of their progress at every look.
  - Fails when they do not within O(wait_timeout), naming how far each one is.
  - Needs no run; the role C(replication.recovery.protect) waits with it.
options:
  project:
    description: The project, by name or ID.
    type: str
    required: true
  machines:
    description: The machines (a list, or text); every machine of the project if not given.
    type: raw
  until:
    description:
      - What to wait for - V(synced) (initial sync done), V(continuous) (replicating continuously), or V(caught_up)
        (continuously, with no backlog and no more lag than O(max_lag)) - what a failback waits for before it launches back.
      - V(registered) waits until the machines O(machines) names (required) are machines of the project with their agent
        installed - hosts on which the agent was just installed (the role C(replication.recovery.agent)); one read of the
        machine list for all of them at every look.
    type: str
    choices: [registered, synced, continuous, caught_up]
    default: synced
  max_lag:
    description: With O(until=caught_up), the seconds of lag allowed; any if not given.
    type: raw
  wait_timeout:
    description: Seconds to wait before failing.
    type: int
    default: 7200
  poll_interval:
    description: Seconds between the first two looks (at least 1); later ones are further apart, up to 30 seconds.
    type: float
    default: 5
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
seealso:
  - module: replication.recovery.service_machine_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Wait until every machine of the project has finished initial sync
  replication.recovery.runbook_wait_replication:
    project: payroll
    wait_timeout: 14400
"""

RETURN = r"""
done:
  description: Whether every machine got there.
  returned: always
  type: bool
progress:
  description: Each machine's name, replication state and sync percentage at the last look.
  returned: always
  type: list
  elements: str
  sample: ["db-1 continuous 100.0%", "app-1 initial_sync 45.2%"]
machines:
  description: Each machine at the last look - C(id), C(name), C(replication_state), C(sync_percent), C(lag_seconds), C(backlog_bytes).
  returned: always
  type: list
  elements: dict
"""
