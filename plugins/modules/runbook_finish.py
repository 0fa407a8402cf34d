#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_finish.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_finish
short_description: The end of a run in one step - clean up or keep, the report, the outcome published and shown, sign out
version_added: 2.0.0
description:
  - Whatever happened before it, does in one task what the end of a run needs - what the run launched cleaned up and
    proven gone (as M(replication.recovery.runbook_clean_up) does), or kept; the report written; the outcome published
    and shown; the session ended.
  - The report is computed from the run's record - one check per thing that can fail, for the run and for each machine;
    RPO and RTO against their targets; what each wave did - and written in O(report_dir) as C(<runbook>_<project>.json)
    (schema C(replication.recovery.<runbook>/v1), documented with the DR test role), C(.junit.xml), C(.md) and C(.html) -
    one page for people, with no outside resource - the outcome first, RTO and RPO per machine against their targets as
    charts (histograms above 50 machines), the failures, a timeline of every machine grouped by wave (its launch request,
    running, its checks and the cleanup job), and the ledger entry. Each file is written whole or not at all, and the
    report is entered in the ledger of runs. The run's record's directory is then removed.
  - The outcome is published for AWX workflows as M(ansible.builtin.set_stats) would (C(<runbook>), the outcome of a run
    of one project, and C(<runbook>_projects), keyed by each project, aggregated over the hosts of the play), and its
    lines are shown.
  - A cleanup that fails is recorded, said, and the report follows all the same - it says why.
  - Under C(--check) nothing is cleaned up or entered; it says what the run would do, writes the plan with
    O(write_plan), and publishes only the confirmation token of a plan that replaces production machines
    (C(<runbook>_confirm)) - a workflow's approval node stands between the check job and the real one.
  - The task itself never fails because the run did not pass; the playbook fails on RV(message) once it has kept what it
    needs - a run that fails has written its report and told AWX first.
options:
  cleans_up:
    description: Clean up (or keep) what the run launched. V(false) when the runbook keeps it itself (the failback).
    type: bool
    default: true
  keep:
    description: Keep what the run launched instead of cleaning it up (a committed failover); text as extra variables give it too.
    type: raw
    default: false
  kept_because:
    description: Why the machines are kept, for the report.
    type: str
    default: kept, as asked
  report_dir:
    description:
      - Where the report is written; a relative path is under the working directory of C(ansible-playbook).
        C(<runbook>_report) if not given.
    type: path
  ledger_dir:
    description:
      - The ledger of runs to enter the report in, a directory (made if missing); see M(replication.recovery.ledger_evidence).
        The default one if not given.
      - The entry holds the whole report, the SHA-256 of its own content and that of the entry before it. A report
        already entered (the run was stopped after its report and reported again) is not entered twice. Nothing is
        entered in check mode.
    type: path
  write_plan:
    description:
      - In check mode, write the run's plan in O(report_dir) - C(<runbook>_<project>.plan.json) and C(.plan.md) - its
        machines and waves, the point in time of each and the data-loss window it implies, and what it would refuse or
        clean up first. Nothing is written outside check mode.
    type: bool
    default: false
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
  - replication.recovery.runbook.STOPPED
seealso:
  - module: replication.recovery.runbook_start
  - module: ansible.builtin.set_stats
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Clean up, report, publish and sign out
  replication.recovery.runbook_finish:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    report_dir: reports
  register: reported

- name: Fail when the run did not pass
  ansible.builtin.fail:
    msg: "{{ reported.message }}"
  when: reported.message is defined
"""

RETURN = r"""
outcome:
  description:
    - C(project), C(result) (V(passed), V(failed); V(check mode) in check mode), the first 20 C(failures), their
      C(failure_count), C(counts), C(measures), C(kept), and C(report), the paths of the files (C(json), C(junit),
      C(markdown), C(html)).
    - With a ledger, C(ledger) - the entry's C(sequence), C(sha256) (the ledger's new head, for an auditor to keep) and
      C(path).
  returned: success
  type: dict
lines:
  description: The outcome in a few lines, as shown - result, worst measures against targets, the files.
  returned: success
  type: list
  elements: str
plan:
  description: In check mode with O(write_plan), the paths of the plan's two files (C(json), C(markdown)).
  returned: in check mode, with O(write_plan)
  type: dict
message:
  description: A short message when the run did not pass (or, in check mode, would stop), to fail the play with.
  returned: when the run did not pass
  type: str
"""
