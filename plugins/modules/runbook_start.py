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
      - What a runbook role was asked - its options, as M(replication.recovery.runbook_options) typed them from the role's
        C(meta/argument_specs.yml), named without the runbook's prefix - which the runbook engine (C(roles/runbook)) passes
        whole. Each one that is an input of the engine of its name is taken as that input (V(waves), V(machines),
        V(checks_tasks), ...; the engine's inputs are C(INPUTS) in C(plugins/plugin_utils/_run_begin.py)); V(gate_states),
        V(gate_max_lag) and V(gate_no_backlog) are taken as the gate's, V(rpo_target) and V(rto_target) as the targets', and
        V(network) as the test network. The others (the runbook's hooks, a failover's commit) are the runbook's own.
      - So an option added to a role's argument specs under the name of an input reaches the run, typed and defaulted,
        with no other file changed.
    type: dict
  inputs:
    description:
      - What the runbook sets itself of the engine's inputs (a failover's launch type, what its commit means; C(INPUTS) in
        C(plugins/plugin_utils/_run_begin.py) types them), over O(options). A key that is no input is refused by its name.
    type: dict
  max_waves:
    description: The most waves the caller runs (the DR test playbook runs five); more are refused.
    type: int
  points_as_of:
    description:
      - An RFC 3339 date-time on the service's clock - when an application's run began, as
        M(replication.recovery.application_step) read it. The machines whose point in time is the latest (or not given)
        take their newest point at or before that moment, so that every node of an application recovers to one moment.
        A moment later than the service's now is not taken, and the report says so.
    type: str
  game_day:
    description:
      - The game day this run rehearses for (its scenario's name), kept in the run's report, so that a game day stopped after
        its rehearsal ended reports that rehearsal when run again rather than rehearse anew.
    type: str
  ledger_dir:
    description: The ledger of runs that proves machines, for the machines V(unproven) (C(replication_recovery_ledger_dir)).
    type: path
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
    inputs:
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
