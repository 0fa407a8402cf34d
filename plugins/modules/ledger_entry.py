#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/ledger_entry.py); this file documents it.

DOCUMENTATION = r"""
module: ledger_entry
short_description: Enter a run's report in the ledger of runs
version_added: 2.0.0
description:
  - Appends a report (a JSON file) to the ledger of runs in O(ledger_dir), on the controller. Each entry is a file
    C(<sequence>.json) (eight digits) that holds the report, the SHA-256 of the entry's own canonical content and
    the SHA-256 of the entry before it, so that an entry edited, removed or moved is found by
    M(replication.recovery.ledger_evidence).
  - The DR test, failover, failback and clean point runbooks enter their reports themselves
    (M(replication.recovery.runbook_finish)); this module is for the others (the health role) and for your own
    playbooks' reports.
  - Runs that append at once each get their own entry, chained one after the other; no lock is needed. A report
    already in one of the five newest entries (the same runbook, projects and run) is not entered again.
  - In check mode nothing is entered.
options:
  ledger_dir:
    description: The ledger, a directory (made if missing). The runbooks read it from C(replication_recovery_ledger_dir).
    type: path
    required: true
  runbook:
    description: What wrote the report, for example V(health); the summary counts runs per runbook.
    type: str
    required: true
  report:
    description:
      - The report, a JSON object. Its C(project) (or the C(name) of each of its C(projects)) names the projects, its
        C(result) the outcome, its C(started) or C(generated) the run.
    type: path
    required: true
attributes:
  check_mode:
    details: Nothing is entered in check mode; RV(changed) says whether the report would be (it is not in the ledger yet).
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Enter the health report in the ledger
  replication.recovery.ledger_entry:
    ledger_dir: "{{ replication_recovery_ledger_dir }}"
    runbook: health
    report: health_report/health.json
  when: replication_recovery_ledger_dir is defined
"""

RETURN = r"""
ledger:
  description: The entry - C(sequence), C(sha256) (the ledger's head now) and C(path).
  returned: success, not in check mode
  type: dict
changed:
  description: Whether an entry was appended (false when the report was already entered) - in check mode, whether one would be.
  returned: always
  type: bool
"""
