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
  - Whatever happened before it, does in one task what M(replication.recovery.runbook_clean_up) and
    M(replication.recovery.runbook_report) do one after another, then what the playbook's own tasks did after them -
    what the run launched cleaned up and proven gone (or kept), the report written (JSON, JUnit XML, Markdown and a page)
    and entered in the ledger of runs, the outcome published for AWX workflows as M(ansible.builtin.set_stats) would
    (C(<runbook>), the outcome of a run of one project, and C(<runbook>_projects), keyed by each project, aggregated over
    the hosts of the play), its lines shown, and the run's session ended.
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
    description: The ledger of runs to enter the report in (see M(replication.recovery.runbook_report)); the default one if not given.
    type: path
  write_plan:
    description: In check mode, write the run's plan beside where its report would go (see M(replication.recovery.runbook_report)).
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
  description: The outcome, as M(replication.recovery.runbook_report) answers it (RV(replication.recovery.runbook_report#module:outcome)).
  returned: success
  type: dict
lines:
  description: The outcome in a few lines, as shown - result, worst measures against targets, the files.
  returned: success
  type: list
  elements: str
plan:
  description: In check mode with O(write_plan), the paths of the plan's files.
  returned: in check mode, with O(write_plan)
  type: dict
message:
  description: A short message when the run did not pass (or, in check mode, would stop), to fail the play with.
  returned: when the run did not pass
  type: str
"""
