#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/game_day_step.py); this file documents it.

DOCUMENTATION = r"""
module: game_day_step
short_description: A step of the game day runbook, on the controller, or its safety lever
version_added: 2.0.0
description:
  - The steps the role C(replication.recovery.game_day) takes on the controller around its rehearsal, which read and write
    the controller's files (the ledger of runs, the report), never the service - or instead, with O(phase=lever), its safety
    lever.
  - O(phase=begin) reads the scenario and checks it against its blast radius - refused by name, before anything is read or
    written, when it cannot run - and takes up the rehearsal a stopped run of the game day left unreported (the newest
    report of its runbook in the ledger is this game day's, and no game day report came after it), which the run reports
    rather than rehearse anew. Under O(dry_run) or check mode it looks for none.
  - O(phase=end) judges what the rehearsal came to against the scenario's earlier runs in the ledger, writes the game day's
    report (JSON, JUnit XML, Markdown and a page) and enters it in the ledger, and says its outcome - not under O(dry_run)
    or check mode, nor when nothing was rehearsed.
  - O(phase=lever) pulls the safety lever of O(projects) (or of the blast radius of O(scenario)) to O(lever), in one
    session. Every project's lever is read first - a project that does not exist is refused before any lever is pulled -
    then each is pulled with M(replication.recovery.service_safety_lever), and the outcome is said once. Under check mode,
    what would change.
  - Use the role or the playbook C(replication.recovery.game_day); this module is their plumbing, documented so that
    C(ansible-doc) shows what each task does.
options:
  phase:
    description: The step.
    type: str
    required: true
    choices: [begin, end]
  scenario:
    description:
      - The scenario, as the role's C(game_day_scenario) documents it (a mapping, or its JSON or YAML text). With
        O(phase=begin), and with O(phase=lever) for its blast radius's projects when O(projects) is empty.
    type: raw
  dry_run:
    description: "The game day's C(game_day_dry_run): its plan only."
    type: bool
    default: false
  ledger_dir:
    description: The ledger of runs; the default one (see the ledger's documentation) when not given.
    type: path
  plan:
    description: The scenario as O(phase=begin) answered it (RV(plan)). With O(phase=end).
    type: dict
  unreported:
    description: The rehearsal O(phase=begin) took up (RV(unreported)), if any. With O(phase=end).
    type: dict
  reported:
    description:
      - What the rehearsal's runbook answered - the engine's C(runbook_reported), or an application's - C(outcome) (its
        C(outcome) word and C(report.json)) and C(message). With O(phase=end).
    type: dict
    default: {}
  error:
    description: Why the rehearsal did not pass, when it did not (its runbook's failure). With O(phase=end).
    type: str
  lever:
    description: The state to pull the safety lever to. Required with O(phase=lever).
    type: str
    choices: [engaged, released]
  reason:
    description: Why the lever is pulled. With O(phase=lever).
    type: str
  by:
    description: Who pulls the lever; the AWX user who launched the job when not given, else the user signed in. With O(phase=lever).
    type: str
  projects:
    description: The projects of the safety lever, by name or ID. With O(phase=lever).
    type: list
    elements: str
    default: []
attributes:
  check_mode:
    support: full
    details: Under check mode the game day plans; nothing is read in the ledger or written, and no lever is pulled.
  diff_mode:
    support: none
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Read the scenario, and take up a rehearsal a stopped run left
  replication.recovery.game_day_step:
    phase: begin
    scenario: "{{ game_day_scenario }}"
  register: game_day_begun
"""

RETURN = r"""
plan:
  description:
    - The scenario as the game day runs it - C(name), C(hypothesis), C(runbook), C(subject), C(project), C(projects),
      C(machines), C(targets), C(probes), C(tasks_probes), C(with) (every option of its runbook), C(own) and C(given)
      (what the game day gives its runbook, by the options' full names).
  returned: O(phase=begin)
  type: dict
unreported:
  description: The report of the rehearsal a stopped run of the game day left unreported, or null.
  returned: O(phase=begin)
  type: dict
game_day:
  description:
    - What the game day came to, as the role publishes it with C(set_stats) - C(name), C(outcome), C(project), C(dry_run),
      C(regressed), C(regression) (its findings, in words) and C(report) (its files, by form; null when none was written).
  returned: O(phase=end)
  type: dict
game_day_lever:
  description: The lever as the role publishes it with C(set_stats) - C(state), C(reason), C(projects) and C(changed) (the projects whose lever changed).
  returned: O(phase=lever)
  type: dict
message:
  description: Why the game day did not pass.
  returned: O(phase=end), when it did not pass
  type: str
"""
