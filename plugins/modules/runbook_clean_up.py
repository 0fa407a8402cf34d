#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_clean_up.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_clean_up
short_description: Clean up what a run launched, and prove it
version_added: 2.0.0
description:
  - With O(run) - whatever happened before - terminates the target machines of every wave the run started (by machine,
    so that a job that did not end and may still launch some is covered too) and those an earlier run of it left, with
    M(replication.recovery.service_replica_cleanup); follows the cleanup job with a line of progress every progress
    interval; then reads those machines again and fails when one still has a target machine of the run's kind.
  - When the run failed and was told to keep its machines on failure, nothing is terminated and the record says what
    was kept.
  - Without O(run), on its own - for example to clean up machines kept after a failure - terminates the target machines
    of O(launch_type) of O(machines) of O(project) the same way.
  - Records what was terminated or kept, or why the cleanup failed.
options:
  run:
    description:
      - The run, as M(replication.recovery.runbook_start) returned it. Without it, O(project) is cleaned up.
    type: str
  project:
    description: Without O(run), the project, by name or ID.
    type: str
  machines:
    description: Without O(run), the machines (a list, or text); every machine of the project if not given.
    type: raw
  launch_type:
    description: Without O(run), the launch type whose target machines are terminated (a debug launch makes test machines).
    type: str
    choices: [test, recovery, cutover, debug]
    default: test
  cleanup_timeout:
    description: Without O(run), seconds to wait for the cleanup job.
    type: int
    default: 1800
  poll_interval:
    description: Without O(run), seconds between the first two looks at the job; later ones are further apart, up to 30 seconds.
    type: float
    default: 5
  progress_interval:
    description: Without O(run), seconds between two lines of progress.
    type: float
    default: 60
  keep:
    description:
      - With O(run), keep what the run launched instead - a committed failover. The report names the machines kept, and why
        (O(kept_because)).
    type: raw
    default: false
    version_added: 2.0.0
  kept_because:
    description: With O(keep), why the machines are kept, as the report says it.
    type: str
    default: kept, as asked
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
seealso:
  - module: replication.recovery.service_replica_cleanup
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Clean up what the run launched, whatever happened
  replication.recovery.runbook_clean_up:
    run: "{{ run.run }}"
    session: "{{ run.session }}"

- name: Later, clean up the test machines kept after a failure
  replication.recovery.runbook_clean_up:
    project: production
    machines: [web-1, web-2]
    launch_type: test
"""

RETURN = r"""
removed:
  description: The machines whose target machines were terminated (in check mode, would be).
  returned: success
  type: list
  elements: str
kept:
  description: The machines whose target machines were kept, on failure.
  returned: success
  type: list
  elements: str
job:
  description: The cleanup job, C(id), C(status), C(created) and C(ended) (the service's clock).
  returned: when a cleanup job ran
  type: dict
"""
