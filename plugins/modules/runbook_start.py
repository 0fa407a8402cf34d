#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_start.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_start
short_description: Start a run of a runbook in one step - its record, the sign-in, the read and judgement, what an earlier run left
version_added: 2.0.0
description:
  - The first step of a runbook on the collection's engine. Does in one task the run's record from what the runbook was
    asked (every input read from text the way extra variables and AWX surveys give it; input that does not go together
    refused before signing in), one sign-in, the machines and the project's jobs read once and judged (who takes part, in
    which waves, the gate, the points pinned, what an earlier run left), and what an earlier run left finished - and makes
    the host of the run's project one of the group C(<runbook>_wave_1) when the run has a wave, as
    C(ansible.builtin.group_by) would.
  - A runbook with steps of its own between the sign-in and the read (the failback reverses replication) begins with
    O(read=false), runs them, then reads with O(run) and O(begin=false).
  - "What an earlier run left: a job is the earlier run's when the same user started it, it is the kind of job the
    runbook starts (a launch of its type, a run of its plan in that mode, or a cleanup) and all its machines are the
    run's. Each target machine of the run's kind is traced to the job that launched it. While an earlier run's machines
    are up and its cleanup has not begun, the run adopts them, wave by wave (M(replication.recovery.runbook_wave) follows,
    checks and measures them instead of launching again). Once its cleanup has begun, its cleanup is followed, its
    machines are cleaned up, and the run is a new one. Target machines launched by anything else are never touched on
    their own."
  - What the read refuses - before anything is written - fails the task; the run's record keeps why, and its finish
    (M(replication.recovery.runbook_finish)) reports it. The session then ends here, so that a failed result, which is
    shown, holds none; the finish signs in again, should it have anything to clean up.
options:
  runbook:
    description:
      - The runbook's name, such as V(dr_test). It names the report (C(<runbook>_<project>)), its schema, the groups of its
        waves and the variables of the hosts made of launched machines. Required to begin.
    type: str
  title:
    description: How messages and the report call the runbook, such as V(DR test). Its name with spaces if not given.
    type: str
  project:
    description: The project, by name or ID. Required to begin.
    type: str
  options:
    description:
      - The runbook role's options, as M(replication.recovery.runbook_options) answered them - each the option of this
        step of its name (the gate's, the targets' and the test network's grouped), the others the runbook's own.
    type: dict
  inputs:
    description:
      - What the runbook sets itself of this step's options (a failover's launch type, what its commit means), over
        O(options); an option given on its own goes over both.
    type: dict
  begin:
    description: Begin a run. V(false) reads one begun already, given as O(run), with its session.
    type: bool
    default: true
  read:
    description: Read and judge the machines, and finish what an earlier run left. V(false) begins only.
    type: bool
    default: true
  run:
    description: The run begun without its read (O(begin=false)), as this step returned it (its RV(run)).
    type: str
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.BEGIN
seealso:
  - module: replication.recovery.runbook_wave
  - module: replication.recovery.runbook_finish
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Start a DR test in three waves
  replication.recovery.runbook_start:
    runbook: dr_test
    title: DR test
    project: production
    waves: "db-*; app-*; web-*"
    targets:
      rpo_seconds: 900
      rto_seconds: 3600
  register: run

- name: Then each wave, on the hosts of the group dr_test_wave_<N>
  replication.recovery.runbook_wave:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    wave: 1
"""

RETURN = r"""
run:
  description:
    - The run, for every later step - the path of its record on the controller. Also returned when the step failed, so that
      its finish can say why.
  returned: always, unless the options themselves were refused
  type: str
  sample: /tmp/replication-recovery-dr_test-3k2j9x/record.json
session:
  description: The session every later step uses; a secret, hidden from every output (the whole result is).
  returned: success
  type: str
user:
  description: The user signed in as.
  returned: success, when it began the run
  type: str
  sample: dr@example.com
machines:
  description: How many machines take part.
  returned: success, when it read
  type: int
excluded:
  description: The machines left out.
  returned: success, when it read
  type: list
  elements: str
waves:
  description: The number of machines of each wave, in order.
  returned: success, when it read
  type: list
  elements: int
adopted:
  description: The waves whose launch an earlier run left, which this run adopts.
  returned: success, when it read
  type: list
  elements: int
to_clean:
  description: The machines whose target machines an earlier run left, which this run cleans up first.
  returned: success, when it read
  type: list
  elements: str
stands:
  description: The machines failed over already, which stand (a failover run again).
  returned: success, when it read
  type: list
  elements: str
cleaned:
  description: The machines whose target machines it cleaned up (what an earlier run left).
  returned: success, when it read
  type: list
  elements: str
"""
