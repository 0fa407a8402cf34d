#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_report.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_report
short_description: End a run - its report as JSON, JUnit XML and Markdown, and its outcome
version_added: 2.0.0
description:
  - Computes the run's report from its record - one check per thing that can fail, for the run and for each machine;
    RPO and RTO against their targets; what each wave did - and writes it in O(report_dir) as
    C(<runbook>_<project>.json) (schema C(replication.recovery.<runbook>/v1), documented with the DR test role),
    C(.junit.xml), C(.md) and C(.html) - one page for people, with no outside resource - the outcome first, RTO and RPO
    per machine against their targets as charts (histograms above 50 machines), the failures, a timeline of every
    machine grouped by wave (its launch request, running, its checks and the cleanup job), and the ledger entry. Each file is written whole or not at all.
  - Answers the outcome for M(ansible.builtin.set_stats), lines a person reads, and, when the run failed, a short message
    to fail the play with.
  - In check mode writes nothing and says what the run would have launched, or why it would have stopped; never that
    it passed.
  - Ends the run - its record's directory is removed.
options:
  report_dir:
    description:
      - Where the report is written; a relative path is under the working directory of C(ansible-playbook), which
        is the project's directory in an AWX job. C(<runbook>_report) if not given.
    type: path
  write_plan:
    description:
      - In check mode, write the run's plan in O(report_dir) - C(<runbook>_<project>.plan.json) and C(.plan.md) - its
        machines and waves, the point in time of each and the data-loss window it implies, and what it would refuse or
        clean up first. Nothing is written outside check mode.
    type: bool
    default: false
    version_added: 2.0.0
  ledger_dir:
    description:
      - The ledger of runs to enter the report in, a directory (made if missing); see M(replication.recovery.ledger_evidence).
      - The entry holds the whole report, the SHA-256 of its own content and that of the entry before it. A report
        already entered (the run was stopped after its report and reported again) is not entered twice.
      - The runbooks pass C(replication_recovery_ledger_dir). Nothing is entered if not given, or in check mode.
    type: path
    version_added: 2.0.0
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_finish).
  alternative: Use M(replication.recovery.runbook_finish).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
  - replication.recovery.runbook.STOPPED
seealso:
  - module: ansible.builtin.set_stats
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Write the report
  replication.recovery.runbook_report:
    run: "{{ run.run }}"
    report_dir: "{{ playbook_dir }}/reports"
  register: reported

- name: Publish the outcome for the next node of an AWX workflow
  ansible.builtin.set_stats:
    data:
      dr_test: "{{ reported.outcome }}"

- name: Fail when the run failed
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
      - With O(ledger_dir), C(ledger) - the entry's C(sequence), C(sha256) (the ledger's new head, for an auditor to
        keep) and C(path).
  returned: success
  type: dict
lines:
  description: The outcome in a few lines - result, worst measures against targets, the first failures, the files.
  returned: success
  type: list
  elements: str
plan:
  description: In check mode with O(write_plan), the paths of the plan's two files (C(json), C(markdown)).
  returned: in check mode, with O(write_plan)
  type: dict
  version_added: 2.0.0
message:
  description: A short message when the run failed (or, in check mode, would stop) - what failed, the worst five machines, the report's path.
  returned: when the run failed
  type: str
"""
