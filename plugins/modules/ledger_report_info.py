#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/ledger_report_info.py); this file documents it.

DOCUMENTATION = r"""
module: ledger_report_info
short_description: The newest reports of a runbook in the ledger of runs
version_added: 2.0.0
description:
  - Reads the ledger of runs (see M(replication.recovery.ledger_entry)) from its newest entry back, and answers the
    newest O(count) entries of O(runbook) - of O(project) when given, and only those after the entry O(after) - each
    with its report. It reads no further back than it must.
  - An entry that cannot be read is passed over; M(replication.recovery.ledger_evidence) is what verifies the ledger.
  - A game day (C(replication.recovery.game_day)) reads with it whether its rehearsal ended before it was reported, so
    that run again it reports that rehearsal rather than rehearse anew.
options:
  ledger_dir:
    description:
      - The ledger of runs (C(replication_recovery_ledger_dir)). If not given, the one every runbook on this controller
        shares; a ledger that does not exist yet has no entries.
    type: path
  runbook:
    description: The kind of report, as the ledger enters it - V(dr_test), V(restore_test), V(game_day), V(health), ...
    type: str
    required: true
  project:
    description: Only reports of this project (by its name, as the report names it).
    type: str
  after:
    description: Only entries after this one (its sequence number); every entry when V(0).
    type: int
    default: 0
  count:
    description: How many entries at the most, the newest.
    type: int
    default: 1
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
seealso:
  - module: replication.recovery.ledger_entry
  - module: replication.recovery.ledger_evidence
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: The newest DR test of the shop in the ledger
  replication.recovery.ledger_report_info:
    runbook: dr_test
    project: shop
  register: newest

- name: Say what it came to
  ansible.builtin.debug:
    msg: "{{ newest.entries[-1].report.outcome }} at {{ newest.entries[-1].recorded }}"
  when: newest.entries | length > 0
"""

RETURN = r"""
entries:
  description:
    - The entries found, oldest first - each with C(sequence), C(sha256), C(path), C(recorded) (the controller's clock)
      and C(report), the report as it was entered.
  returned: success
  type: list
  elements: dict
ledger_dir:
  description: The ledger read, or V(null) for none (no run entered a report on this controller yet).
  returned: success
  type: str
"""
