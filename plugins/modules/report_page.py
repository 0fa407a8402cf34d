#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The module is an action plugin (plugins/action/report_page.py); this file documents it.

DOCUMENTATION = r"""
module: report_page
short_description: Write a runbook's report as one HTML page for people
version_added: 2.0.0
description:
  - Writes a report of the collection's runbooks (a JSON file) as one self-contained HTML page on the controller - no
    script and nothing loaded from elsewhere, so that it opens from a mail, an artifact store or an air-gapped share.
    The outcome comes first, then the measures against their targets as charts, the failures, the details, and the
    ledger entry.
  - The page is chosen by the report's C(schema). A fleet health report (C(replication.recovery.health/v1)) shows, per
    project, each machine's replication lag against the threshold, the RTO forecast against the target, and the
    machines changed since last proven. A clean point search (C(replication.recovery.clean_point/v1)) shows the data
    each machine gives up and each round. A DR test, failover or failback shows RTO and RPO per machine and the
    timeline of every machine.
  - The DR test, failover, failback and clean point runbooks write their pages themselves
    (M(replication.recovery.runbook_finish), M(replication.recovery.runbook_search)); the health role writes its page
    with this module. Use it as well to see again a report kept in a ledger of runs.
  - With O(junit) and O(markdown), the report's JUnit XML and Markdown are written too, by the renderer every runbook's
    report uses (chosen by the same schema) - the health role writes all three forms with this module.
  - A file already as it would be written is left alone (not changed). In check mode nothing is written.
options:
  report:
    description:
      - The report, a JSON file written by one of the collection's runbooks, or an entry of a ledger of runs (its report
        is shown, and its sequence and SHA-256 as they are written in it; M(replication.recovery.ledger_evidence)
        verifies them).
    type: path
    required: true
  page:
    description: Where to write the page. By default beside the report, with C(.html) instead of C(.json).
    type: path
  junit:
    description: Where to write the report as JUnit XML - a test case per check. Not written if not given.
    type: path
  markdown:
    description: Where to write the report as Markdown, a summary to read. Not written if not given.
    type: path
  ledger:
    description:
      - The report's entry in the ledger of runs, as RV(replication.recovery.ledger_entry#module:ledger) answers it - its
        C(sequence) and C(sha256) are shown at the end of the page. Without it the page says that the report was not
        entered in a ledger.
    type: dict
attributes:
  check_mode:
    details: Nothing is written in check mode; RV(changed) says whether a file would be.
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
  register: health_ledger

- name: Write its page, naming the ledger entry, its JUnit XML and its summary
  replication.recovery.report_page:
    report: health_report/health.json
    ledger: "{{ health_ledger.ledger }}"
    junit: health_report/health.junit.xml
    markdown: health_report/health.md

- name: See again a DR test kept in the ledger
  replication.recovery.report_page:
    report: /srv/ledger/00000012.json
    page: /tmp/dr_test_12.html
"""

RETURN = r"""
page:
  description: The page's path.
  returned: success
  type: str
  sample: health_report/health.html
junit:
  description: The JUnit XML's path.
  returned: when O(junit) is given
  type: str
  sample: health_report/health.junit.xml
markdown:
  description: The Markdown's path.
  returned: when O(markdown) is given
  type: str
  sample: health_report/health.md
changed:
  description: Whether a file was written (or, in check mode, would be).
  returned: always
  type: bool
"""
