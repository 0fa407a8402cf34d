#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/report_write.py); this file documents it.

DOCUMENTATION = r"""
module: report_write
short_description: Write a runbook's report in every form, never over another run's, and enter it in the ledger
version_added: 2.0.0
description:
  - Writes a report of one of the collection's runbooks that a role made (the fleet's health, a launch policy) on the
    controller - as JSON, JUnit XML, Markdown and an HTML page - then enters it in the ledger of runs, then writes the
    page, which names the ledger entry.
  - Each run's files have names of their own, C(<name>.<its start><suffix>) (its start as C(20261127T031500Z)); the plain
    names C(<name><suffix>) are copies of the newest run's. No run writes over another run's files.
  - The kind of report - which JUnit, Markdown and page it has, and the runbook it is entered in the ledger as - is
    read from its C(schema) (C(replication.recovery.<runbook>/v1)).
  - Given O(runbook) and O(facts) instead of O(report), the runbook's report shape makes the report of the facts its role
    read - its judgement, in Python - and the step answers it as RV(made), in check mode too.
  - The engine's runbooks (DR test, failover, failback, clean point search, restore test) write theirs with
    M(replication.recovery.runbook_finish).
options:
  report:
    description:
      - The report, as the role made it.
      - Give either O(report), or O(runbook) and O(facts).
    type: dict
  runbook:
    description: The runbook whose report shape makes the report of O(facts), by its name.
    type: str
  facts:
    description:
      - What the runbook's role read, as its report shape takes it (each shape documents its own, in
        C(plugins/plugin_utils/_shape_<shape>.py)).
    type: dict
  report_dir:
    description:
      - Where to write it (made if missing). A relative path is taken from the directory C(ansible-playbook) was
        started in; a path inside the installed collection is refused.
    type: path
    required: true
  name:
    description:
      - The files' name without their suffix, for example V(health) or V(launch_policy_payroll).
      - The runbook's name and the report's project (V(readiness_payroll)), or the runbook's name alone for a report of
        no one project, if not given.
    type: str
  ledger_dir:
    description: The ledger of runs; the default one (see the ledger's documentation) when not given.
    type: path
attributes:
  check_mode:
    details: Nothing is written or entered in check mode.
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Write the report, enter it in the ledger, and its page
  replication.recovery.report_write:
    report: "{{ health_report }}"
    report_dir: /srv/dr/health_report
    name: health
  register: health_written

- name: Say where it is
  ansible.builtin.debug:
    msg: "{{ health_written.lines }}"
"""

RETURN = r"""
made:
  description: The report the runbook's shape made of O(facts), as written (in check mode, as it would be).
  returned: with O(facts)
  type: dict
report:
  description: This run's files, by form - C(json), C(junit), C(markdown), C(html) - each an absolute path.
  returned: success, not in check mode
  type: dict
  sample: {json: /srv/dr/health_report/health.20261127T031500Z.json, html: /srv/dr/health_report/health.20261127T031500Z.html}
newest:
  description: The plain name of the JSON when this run's files are the newest (and copied there), else null.
  returned: success, not in check mode
  type: str
  sample: /srv/dr/health_report/health.json
ledger:
  description: The ledger entry - C(sequence), C(sha256), C(path) - or null when the report was not entered.
  returned: success, not in check mode
  type: dict
lines:
  description: Where the files are and the ledger entry, in words, for the run's outcome.
  returned: success
  type: list
  elements: str
"""
