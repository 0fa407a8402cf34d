#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_resume.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_resume
short_description: Finish what an earlier run of the runbook left, before anything is launched
version_added: 2.0.0
description:
  - Acts on what M(replication.recovery.runbook_read) found an earlier run left - an earlier run stopped at any moment
    (AWX cancelled it, its container was stopped, its node was lost).
  - Follows the earlier run's cleanup job to its end when it still runs, with a line of progress every progress interval;
    then cleans up the target machines of the earlier run's that this run does not adopt, and - when the run was told to
    clean leftovers up - those anything else launched, and follows that cleanup.
  - What the run adopts (an earlier launch job that runs, or its machines not yet cleaned up) is left to
    M(replication.recovery.runbook_launch). Without anything left, the step sends no request.
  - Records what it followed and cleaned up; the report shows it as the check C(earlier run).
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_start).
  alternative: Use M(replication.recovery.runbook_start).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
seealso:
  - module: replication.recovery.runbook_read
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Finish what an earlier run of this DR test left
  replication.recovery.runbook_resume:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
"""

RETURN = r"""
cleaned:
  description: The machines whose target machines were cleaned up (in check mode, would be).
  returned: success
  type: list
  elements: str
"""
