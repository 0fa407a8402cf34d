#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_launch.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_launch
short_description: Launch one wave of a run, and follow its job with progress
version_added: 2.0.0
description:
  - Launches the machines of one wave with M(replication.recovery.service_launch) - always afresh, from the run's point
    in time - or runs the run's recovery plan with M(replication.recovery.service_recovery_plan_run); then follows the
    job to its end with M(replication.recovery.service_job_info), a line of progress every progress interval, and reads
    what it launched.
  - A wave an earlier run of the runbook launched (see M(replication.recovery.runbook_read)) is adopted - its job is
    followed, or read when it has ended - and nothing is launched again.
  - A wave larger than a job may take (the connection option O(service_limits)) is sent in several jobs, one after another,
    as even as they go; a job that did not complete stops the wave's later jobs. A run again adopts the jobs an earlier run
    sent, job by job, and sends only the others. A job the account has no room for now is sent again once others end.
  - Before a later wave, the wave before it is judged from the record, including the user's checks of its machines. A
    wave fails when one of its machines did not launch, does not run, or failed its checks; then no later wave is
    launched, and the report says why. After a failure recorded by an earlier step, or one given as O(stopped) (your
    tasks after the wave before it failed, say), neither this wave nor any after it is launched.
  - Machines that launched go on to their checks even when others of their wave failed.
  - In check mode nothing is launched; the step records what would be.
  - Records the wave's job, each launched machine's target machine and point in time, and for each machine that did not
    launch, its last line in the job's log.
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_wave).
  alternative: Use M(replication.recovery.runbook_wave).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
  - replication.recovery.runbook.WAVE
  - replication.recovery.runbook.STOPPED
seealso:
  - module: replication.recovery.runbook_look
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Launch wave 2 and follow it
  replication.recovery.runbook_launch:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    wave: 2
  register: launched

- name: Say which machines failed to launch
  ansible.builtin.debug:
    msg: "{{ launched.failed_machines }}"
  when: launched.failed_machines | length > 0
"""

RETURN = r"""
wave:
  description: The wave.
  returned: success
  type: int
next_wave:
  description: The wave to launch next, or None when this was the last one or the run stopped.
  returned: success
  type: int
launched:
  description: How many machines of the wave launched.
  returned: success
  type: int
failed_machines:
  description: The first ten machines of the wave that did not launch.
  returned: success
  type: list
  elements: str
job:
  description: The wave's launch job, C(id) and C(status); of a wave sent in several jobs, the first one's C(id) and the status of the wave.
  returned: when a job was started or adopted
  type: dict
  sample: {id: 6a1f8c2e-0d4b-4e1a-9a55-2c7e3f0b9d11, status: COMPLETED}
jobs:
  description:
    - Each launch job of the wave, C(id) and C(status), in order. A wave larger than a job may take (the connection option
      O(service_limits)) is sent in several, one after another.
  returned: when a job was started or adopted
  type: list
  elements: dict
  sample: [{id: 6a1f8c2e-0d4b-4e1a-9a55-2c7e3f0b9d11, status: COMPLETED}, {id: 0b7d2e41-5f3a-4c1e-8e2d-9a1b3c4d5e6f, status: COMPLETED}]
would_launch:
  description: In check mode, the machines the wave would launch.
  returned: in check mode
  type: list
  elements: str
stopped:
  description: Why the wave was not launched.
  returned: when an earlier wave failed, or the run stopped
  type: str
  sample: "wave 1 failed: db-2 did not launch"
"""
