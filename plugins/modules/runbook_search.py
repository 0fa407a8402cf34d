#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_search.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_search
short_description: Search for the newest clean point in time, round by round
version_added: 2.0.0
description:
  - The steps of the clean point search (the role C(replication.recovery.clean_point)). Damage persists - once a machine's
    data is damaged, every later point in time carries it - so the search bisects each machine's points in time in the
    window. Each round launches every machine still searched, each from its own candidate point, in one test launch
    (with the other runbook steps), your checks judge each machine, and the next round halves what is left. A machine
    of n points is decided in at most ceil(log2(n)) + 1 rounds.
  - With C(consistent), the machines move together on one common moment - each from its newest point at or before
    it - and a moment is clean when every machine is.
  - With C(find_files) (backup projects), there is no launch - one file search (M(replication.recovery.service_file_restore))
    per pattern over every machine finds the points in time in which the damage shows, and each machine's clean point
    is the newest in the window before the first of them.
  - What the search learns is kept in its journal, C(clean_point_<project>.search.json) in C(report_dir), written
    whole after each round is judged. A run stopped at any moment and run again continues from it - a round that was
    planned and not judged is planned again with the same candidates, and its launch is adopted - so that each round is
    launched once. The journal is removed once the report of a finished search is written; a search of other inputs
    starts anew.
  - O(stage=plan) plans the next round (or the one a stopped run left) and answers the machines and points to launch,
    and whether the launch of a stopped run may be adopted; the first plan reads the machines, their points in time
    (M(replication.recovery.service_point_in_time_info)) and the service's time. O(stage=judge) judges the round from
    the run that launched and checked it (before its cleanup, so that a run stopped in the cleanup does not launch it
    again); a round whose run stopped before its checks is not judged, and the next run continues it.
    O(stage=end) notes in the journal that the last round judged was cleaned up (and proven), and removes the round's
    run directory. A run stopped in a round's cleanup leaves it noted as not cleaned - the next plan answers its
    machines in RV(clean_first), to clean up (M(replication.recovery.runbook_clean_up)) before anything else.
    O(stage=report) writes the report - JSON (schema C(replication.recovery.clean_point/v1), in the role's
    C(files/report.schema.json)), JUnit XML, Markdown, and an HTML page for people with no outside resource (the outcome
    first, the data each machine gives up as a chart, the failures, each round and each machine's tests, and the ledger
    entry).
  - A launched machine that did not launch, does not run or was not checked is no evidence either way - it is named
    undecided, and its search ends there.
options:
  stage:
    description: Which step of the search.
    type: str
    required: true
    choices: [plan, judge, end, report]
  run:
    description:
      - With O(stage=judge), and O(stage=end) after a round's cleanup, the round's run as
        M(replication.recovery.runbook_start) returned it.
    type: str
  options:
    description:
      - The clean point role's options, as M(replication.recovery.runbook_options) answered them (the role passes
        C(clean_point_options)). The search reads C(project) (by name or ID; with O(stage=plan), O(stage=report) and
        O(stage=end) without O(run)), C(report_dir) (where the journal and the report are written) and, to plan,
        C(machines), C(exclude), C(recovery_plan), C(after), C(before), C(consistent), C(find_files) and C(checks_tasks) -
        each as the role's option of its name describes it. A search by launches without C(checks_tasks) is refused.
    type: dict
    default: {}
  ledger_dir:
    description:
      - With O(stage=report), the ledger of runs to enter the report of a finished search in (see
        M(replication.recovery.ledger_entry)). The role passes C(replication_recovery_ledger_dir).
    type: path
    version_added: 2.0.0
  game_day:
    description:
      - With O(stage=plan), of a new search - the game day it rehearses for (its scenario's name), kept in its journal and
        its report (C(game_day)), so that a game day stopped after the search ended, before its own report, reports that
        search when run again. The role passes C(runbook_game_day).
    type: str
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.STOPPED
seealso:
  - module: replication.recovery.runbook_start
  - module: replication.recovery.service_point_in_time_info
  - module: replication.recovery.service_file_restore
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Plan the next round of the search
  replication.recovery.runbook_search:
    stage: plan
    options: "{{ clean_point_options }}"  # as replication.recovery.runbook_options answered them
  register: round

- name: Write the report once the search is done
  replication.recovery.runbook_search:
    stage: report
    options:
      project: production
      report_dir: /var/reports
"""

RETURN = r"""
done:
  description: With O(stage=plan), whether the search is done (no round is left to launch).
  returned: with O(stage=plan)
  type: bool
round:
  description: With O(stage=plan), the round planned.
  returned: with O(stage=plan), while the search goes on
  type: int
rounds_at_most:
  description: With O(stage=plan), the most rounds the whole search takes.
  returned: with O(stage=plan)
  type: int
machines:
  description: With O(stage=plan), the IDs of the machines the round launches.
  returned: with O(stage=plan), while the search goes on
  type: list
  elements: str
names:
  description: With O(stage=plan), their names.
  returned: with O(stage=plan), while the search goes on
  type: list
  elements: str
points_in_time:
  description: With O(stage=plan), the candidate point of each machine, machine ID to point ID.
  returned: with O(stage=plan), while the search goes on
  type: dict
clean_first:
  description: With O(stage=plan), the IDs of the machines of a round whose cleanup a stopped run did not finish - clean them up first.
  returned: with O(stage=plan)
  type: list
  elements: str
adopt:
  description: With O(stage=plan), whether the round's launch by a stopped run may be adopted.
  returned: with O(stage=plan), while the search goes on
  type: bool
more:
  description: With O(stage=judge), whether another round follows.
  returned: with O(stage=judge)
  type: bool
stopped:
  description: With O(stage=judge), why the round was not judged (its run stopped before its checks).
  returned: when the round's run stopped
  type: str
lines:
  description: What the step said, line by line.
  returned: with O(stage=plan), O(stage=judge) and O(stage=report)
  type: list
  elements: str
outcome:
  description:
    - With O(stage=report), the search's outcome for set_stats - C(project), C(result), C(complete), C(report) (the files),
      C(clean_points) and C(failures). C(report) holds the paths of the files (C(json), C(junit), C(markdown), C(html)).
  returned: with O(stage=report)
  type: dict
message:
  description: With O(stage=report), why the search did not pass.
  returned: when it did not
  type: str
"""
