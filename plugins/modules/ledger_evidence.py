#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/ledger_evidence.py); this file documents it.

DOCUMENTATION = r"""
module: ledger_evidence
short_description: Verify the ledger of runs and summarise it for auditors
version_added: 2.0.0
description:
  - Reads every entry of the ledger in O(ledger_dir) (see M(replication.recovery.ledger_entry)) and checks the chain - each
    entry's SHA-256 against its content, each entry's link to the one before it, the numbers in order. Each break is
    named by its entry - an entry changed after it was written, one missing, one moved or renamed, one that cannot be read.
  - Removing the newest entries leaves a whole, shorter chain. Keep the head a run answers (C(outcome.ledger.sha256) of
    M(replication.recovery.runbook_finish)) and give it as O(expected_head) to find that.
  - Summarises the entries per project and period - runs of each runbook passed and failed, DR tests (drills), the worst
    RTO and RPO of the DR tests and failovers; per project, the machines the ledger knows (from any report, the health
    role's included) that no passing DR test or failover proved, and the RTO forecast.
  - The RTO forecast of a machine is the median and the 90th percentile of its RTO over its last ten passing DR tests
    and failovers, computed linearly between the closest ranks (on the n sorted values, the value at rank p * (n - 1),
    counted from 0). A full recovery ends with its slowest machine, so the project's forecast is the largest of its
    machines', against the RTO target of its newest run.
  - Writes the summary in O(report_dir) as C(evidence.<its time>.json) (schema C(replication.recovery.evidence/v1)),
    C(.junit.xml) (a case for the ledger, and per project its RTO forecast and its machines proven), C(.md) and C(.html), a
    page without outside resources - each run's files of its own, never over another's - and copies them to the plain
    names C(evidence.json), C(evidence.junit.xml), C(evidence.md) and C(evidence.html) (the newest). In check mode
    writes nothing.
options:
  ledger_dir:
    description: The ledger, a directory. The evidence playbook reads it from C(replication_recovery_ledger_dir).
    type: path
    required: true
  report_dir:
    description:
      - Where the summary is written (made if missing). Nothing is written if not given (the health role reads the
        forecasts only).
      - A relative path is taken from the directory C(ansible-playbook) was started in.
    type: path
  period:
    description: The periods of the summary.
    type: str
    choices: [month, quarter, year]
    default: quarter
  after:
    description: Summarise only entries recorded at or after this moment (RFC 3339, UTC, for example V(2026-10-01)). The whole ledger is verified.
    type: str
  before:
    description: Summarise only entries recorded at or before this moment (RFC 3339, UTC).
    type: str
  expected_head:
    description: A SHA-256 the ledger's head once had; the ledger is broken if no entry has it.
    type: str
  fail_on_break:
    description: Fail when the ledger is broken. With V(false), answer the breaks and C(message) and let the play decide.
    type: bool
    default: true
attributes:
  check_mode:
    details: Verifies and answers the summary; writes no file in check mode.
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Verify the ledger and summarise the third quarter
  replication.recovery.ledger_evidence:
    ledger_dir: /mnt/dr-ledger
    period: quarter
    after: "2026-07-01"
    before: "2026-09-30T23:59:59Z"
  register: evidence
"""

RETURN = r"""
verified:
  description: Whether the whole chain holds.
  returned: always
  type: bool
breaks:
  description: One sentence per break, naming its entry.
  returned: always
  type: list
  elements: str
entries:
  description: How many entries the ledger has.
  returned: always
  type: int
head:
  description: The SHA-256 of the newest entry.
  returned: always
  type: str
projects:
  description:
    - Per project - C(name), C(machines) (how many the ledger knows), C(never_proven) (their names), C(rto_forecast)
      (C(median_seconds), C(p90_seconds), C(target_seconds), C(meets_target), and per machine C(runs), C(median_seconds),
      C(p90_seconds)) and C(last_verified) - a backup project's newest passing restore test (C(time), when it restored, on
      the service's clock; C(sequence), its entry; C(runbook); C(machines)), or null.
  returned: always
  type: list
  elements: dict
report:
  description: The paths of this run's summary files (C(json), C(junit), C(markdown), C(html)), absolute.
  returned: with O(report_dir), not in check mode
  type: dict
lines:
  description: The outcome in a few lines.
  returned: always
  type: list
  elements: str
message:
  description: What broke, when the ledger is broken.
  returned: when the ledger is broken
  type: str
"""
