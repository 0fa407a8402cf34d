#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_begin.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_begin
short_description: Begin a run of a runbook - its record, with what it was asked, and one session
version_added: 2.0.0
description:
  - The first step of a runbook (a DR test, and the runbooks built on the same steps). Makes the run's record - what the
    runbook was asked, every input read from text the way extra variables and AWX surveys give it - and signs in once
    with M(replication.recovery.service_login), for every later step.
  - Refuses input that does not go together (a recovery plan and machines, a plan in debug mode, waves with machines or
    a plan, more waves than O(max_waves)) before signing in. A refused or failed start still leaves a run, whose
    report says why nothing was launched.
  - Records what it was asked, the user signed in as (an earlier run of the same user is recognised by it), and the
    settings later steps read.
options:
  runbook:
    description:
      - The runbook's name, such as V(dr_test). It names the report (C(<runbook>_<project>)), its schema and the variables
        of the hosts made of launched machines.
    type: str
    required: true
  title:
    description: How messages and the report call the runbook, such as V(DR test). Its name with spaces if not given.
    type: str
  project:
    description: The project, by name or ID.
    type: str
    required: true
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_start).
  alternative: Use M(replication.recovery.runbook_start).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.BEGIN
seealso:
  - module: replication.recovery.runbook_read
  - module: replication.recovery.runbook_report
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Begin a DR test in three waves, and sign in
  replication.recovery.runbook_begin:
    runbook: dr_test
    title: DR test
    project: production
    waves: "db-*; app-*; web-*"
    targets:
      rpo_seconds: 900
      rto_seconds: 3600
  register: run

- name: Then every later step takes the run and its session
  replication.recovery.runbook_read:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
"""

RETURN = r"""
run:
  description: The run, for every later step - the path of its record on the controller. Also returned when the step failed, so that its report can say why.
  returned: always, unless the options themselves were refused
  type: str
  sample: /tmp/replication-recovery-dr_test-3k2j9x/record.json
session:
  description: The session every later step uses; a secret, hidden from every output (the whole result is).
  returned: success
  type: str
user:
  description: The user signed in as.
  returned: success
  type: str
  sample: dr@example.com
"""
