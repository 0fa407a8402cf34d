#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_reverse.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_reverse
short_description: The failback's step - replicate the recovered machines back, and later return to the original direction
version_added: 2.0.0
description:
  - With O(direction=reversed), before anything is launched back, finds where the failback stands from the service - the
    project's C(replicationReversed), and each machine's target machine and its region - and acts on it.
    Not reversed, with every machine's recovery machine up in the target site, it reverses replication so that the
    recovery machines replicate back to the original site. Already reversed, it goes on from there. Launched back and
    returned to the original direction, the failback happened, and it says so.
  - A machine of the project (not stopped, not excluded) without a recovery machine stops it before reversing, named; the
    project reverses as a whole, and such a machine would not replicate while it is reversed.
  - Before anything is launched back it writes the recovery machines' IDs to C(failback_<project>.recovery.json) in
    O(memo_dir). The service names only a machine's newest target machine, so once a machine is launched back this memo
    is what finds its recovery machine - for a later run too. Keep O(memo_dir) where later runs find it.
  - The recovery machines are none of the run's business otherwise - M(replication.recovery.runbook_start) never cleans
    them up or counts them as leftovers.
  - With O(direction=original), after the launch back and its checks, returns replication to its original direction and,
    with O(remove_recovery=true), terminates the recovery machines and proves them gone. When the run failed (a phase, a
    launch, a machine or its checks), it changes nothing - replication stays reversed, the recovery machines the source.
  - Records what it found and did; the report shows the checks C(reverse), C(original direction) and C(recovery machines),
    and the member C(failback).
options:
  direction:
    description: V(reversed) before the launch back; V(original) after it.
    type: str
    choices: [reversed, original]
    required: true
  memo_dir:
    description: Where the memo of the recovery machines is kept (the failback's report directory).
    type: path
    required: true
  remove_recovery:
    description: With O(direction=original), terminate the recovery machines once the failback passed.
    type: raw
    default: false
  plan:
    description:
      - With O(direction=reversed), the failback's plan written under C(--check) (its C(.plan.json)). The run carries it
        out as planned - the same machines, launch type and removal of the recovery machines; a difference is refused,
        naming it, before anything is changed.
    type: path
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
seealso:
  - module: replication.recovery.service_reverse_replication
  - module: replication.recovery.service_replica_cleanup
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Replicate the recovered machines back, or find where an earlier failback stands
  replication.recovery.runbook_reverse:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    direction: reversed
    memo_dir: failback_report
  register: reversed

- name: Back to the original direction, and the recovery machines removed
  replication.recovery.runbook_reverse:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    direction: original
    memo_dir: failback_report
    remove_recovery: true
"""

RETURN = r"""
stage:
  description:
    - Where the failback stands - V(would reverse) (check mode), V(reversed), V(launched back), V(returned).
  returned: always
  type: str
wait:
  description: With O(direction=reversed), whether the machines must be waited for before the launch back.
  returned: with O(direction=reversed)
  type: bool
recovery:
  description: With O(direction=reversed), how many recovery machines the failback knows.
  returned: with O(direction=reversed)
  type: int
returned:
  description: With O(direction=original), whether replication runs in its original direction now.
  returned: with O(direction=original)
  type: bool
removed:
  description: With O(direction=original), the machines whose recovery machines were terminated.
  returned: with O(direction=original)
  type: list
  elements: str
"""
