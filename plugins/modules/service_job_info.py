#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_job_info
short_description: Read the jobs of a project, or follow one to its end
version_added: 1.0.0
description:
  - Returns the jobs of a project, newest first, optionally only of some types or statuses; or one
    job, optionally waiting until it ends.
  - A long job can be followed in slices (O(return_after)), with its progress (O(progress))
    shown between them, so that a person watching the output sees it move.
options:
  job:
    description: The ID of one job to return (and, with O(wait=true), to wait for).
    type: str
  types:
    description: Only jobs of these types.
    type: list
    elements: str
    choices: [TEST_LAUNCH, RECOVERY_LAUNCH, CUTOVER_LAUNCH, RESTORE_LAUNCH, CLEANUP, FILE_RESTORE, CONSOLIDATE_VMDKS,
              RECOVERY_PLAN_TEST, RECOVERY_PLAN_RECOVERY, RECOVERY_PLAN_CUTOVER, RECOVERY_PLAN_CLEANUP]
  statuses:
    description: Only jobs in these statuses.
    type: list
    elements: str
    choices: [PENDING, STARTED, COMPLETED, FAILED]
  limit:
    description:
      - At most this many jobs, the newest. All if not given.
      - Only as many are read as it takes to find them, so a small limit costs one small request.
    type: int
  wait:
    description: With O(job), wait until it ends.
    type: bool
    default: false
  wait_timeout:
    description: Seconds to wait with O(wait=true) before the task fails; the job goes on in the service.
    type: int
    default: 1800
  poll_interval:
    description: Seconds between the first two looks at the job; later ones are further apart, up to 30 seconds.
    type: float
    default: 5
  return_after:
    description:
      - With O(wait=true), return the job as it is after this many seconds even if it has not ended,
        without failing. Follow a long job in slices of this length, showing its progress between them.
      - O(wait_timeout) still fails the task when it runs out first.
    type: float
  progress:
    description:
      - With O(job), also count the job's machines by how far the job is with them, in RV(progress).
      - Costs one read of the project's machines.
    type: bool
    default: false
  progress_when_ended:
    description:
      - With O(progress), whether to count the machines of a job that has ended, too.
      - V(false) saves the read of the project's machines once the job ended. A caller that follows a job for its
        progress, and reads what it did itself once it ended (as the runbooks do), needs no count of it.
    type: bool
    default: true
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Failed launches of the project
  replication.recovery.service_job_info:
    project: production
    types: [TEST_LAUNCH, RECOVERY_LAUNCH, CUTOVER_LAUNCH]
    statuses: [FAILED]
  register: failed

- name: Follow a launch started with wait=false
  replication.recovery.service_job_info:
    project: production
    job: "{{ launch.job.id }}"
    wait: true
    wait_timeout: 3600

- name: Look at the launch for a minute at most, and say how far it is
  replication.recovery.service_job_info:
    project: production
    job: "{{ launch.job.id }}"
    wait: true
    return_after: 60
    progress: true
  register: followed

- name: Show it
  ansible.builtin.debug:
    msg: "{{ followed.job.status }}: {{ followed.progress.done }} of {{ followed.progress.machines }} done, {{ followed.progress.failed }} failed"
"""

RETURN = r"""
jobs:
  description: The jobs, newest first, as the service describes them (with their logs).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 6a1f8c2e-0d4b-4e1a-9a55-2c7e3f0b9d11
      type: TEST_LAUNCH
      status: COMPLETED
      creationDateTime: "2026-11-22T08:15:00.000000+00:00"
      endDateTime: "2026-11-22T08:19:10.000000+00:00"
      initiatedBy: dr@example.com
      participatingMachines: [9db2cf6d-4b41-41b5-8f77-b40af8fa16ff]
      log: [{message: Job started., logDateTime: "2026-11-22T08:15:05.000000+00:00"}]
job:
  description: With O(job), that job (after waiting, with O(wait=true)).
  returned: when O(job) is given
  type: dict
progress:
  description:
    - How far the job is with its machines. A launching job (a launch or a recovery plan run that
      launches) is done with a machine once it has a target machine launched since the job began;
      a cleanup, once the machine has no target machine. Machines not done when the job has ended
      failed. Other jobs count every machine as running until they end.
  returned: with O(progress=true) and O(job), unless the job has ended and O(progress_when_ended=false)
  type: dict
  contains:
    machines:
      description: Machines taking part in the job.
      type: int
    done:
      description: Machines the job is done with.
      type: int
    running:
      description: Machines the job is still working on; 0 once it has ended.
      type: int
    failed:
      description: Machines the job ended without being done with; 0 while it runs.
      type: int
  sample: {machines: 200, done: 120, running: 80, failed: 0}
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._reads import JOB_INFO, job_info


class JobInfoModule(ServiceModule):
    def work(self):
        return job_info(self, self.params)


def main():
    JobInfoModule(argument_spec=dict(JOB_INFO)).run()


if __name__ == "__main__":
    main()
