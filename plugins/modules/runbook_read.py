#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_read.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_read
short_description: Read a run's machines and the project's jobs once, and judge them
version_added: 2.0.0
description:
  - Reads the project's machines (M(replication.recovery.service_machine_info)), its newest jobs
    (M(replication.recovery.service_job_info)) and, for a run of a recovery plan, the plan; then judges, in Python,
    from that one read - which machines take part and in which waves, whether each passes the health gate, and what an
    earlier run of the same runbook left.
  - "What an earlier run left: a job is the earlier run's when the same user started it, it is the kind of job the
    runbook starts (a launch of its type, a run of its plan in that mode, or a cleanup) and all its machines are the
    run's. Each target machine of the run's kind is traced to the job that launched it. While an earlier run's
    machines are up and its cleanup has not begun, the run adopts them, wave by wave: the launch step follows, checks
    and measures them instead of launching again. Once its cleanup has begun, its machines are cleaned up
    (M(replication.recovery.runbook_resume)) and the run is a new one. Target machines launched by anything else are
    never touched on their own."
  - Fails - after recording why, and before anything is launched - when no machine takes part, the health gate stops
    the run, another job runs in the project, or target machines of someone else's are there (unless the run cleans
    leftovers up). Names, patterns or exclusions that match nothing are refused the same way.
  - Records the project's ID, the service's time (when the run started), the machines, the waves, what was excluded,
    the gate's verdict on each machine, and what an earlier run left.
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_start).
  alternative: Use M(replication.recovery.runbook_start).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
seealso:
  - module: replication.recovery.runbook_begin
  - module: replication.recovery.runbook_resume
  - module: replication.recovery.runbook_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Read the machines and the jobs, and judge them
  replication.recovery.runbook_read:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
  register: judged

- name: The number of waves decides how many launch steps follow
  ansible.builtin.debug:
    msg: "{{ judged.machines }} machines in {{ judged.waves | length }} waves"
"""

RETURN = r"""
machines:
  description: How many machines take part.
  returned: success
  type: int
  sample: 200
excluded:
  description: The machines left out - excluded, or, without names, those whose replication is stopped.
  returned: success
  type: list
  elements: str
waves:
  description: How many machines each wave has, in order.
  returned: success
  type: list
  elements: int
  sample: [2, 40, 158]
adopted:
  description: The waves (numbered from 1) an earlier run launched, which this run adopts.
  returned: success
  type: list
  elements: int
to_clean:
  description: The machines whose target machines an earlier run left, which M(replication.recovery.runbook_resume) cleans up.
  returned: success
  type: list
  elements: str
"""
