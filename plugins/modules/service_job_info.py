#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: service_job_info
short_description: Read the jobs of a project, or follow one to its end
version_added: 1.0.0
description:
  - Returns the jobs of a project, newest first, optionally only of some types or statuses; or one
    job, optionally waiting until it ends.
options:
  project:
    description: The project, by name or ID.
    type: str
    required: true
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
    description: At most this many jobs, the newest. All if not given.
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
extends_documentation_fragment:
  - replication.recovery.connection
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
"""

from ansible_collections.replication.recovery.plugins.module_utils.base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils.client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils.jobs import WAIT_ARGUMENT_SPEC, Jobs


class JobInfoModule(ServiceModule):
    def work(self):
        params = self.params
        project = self.project(params["project"])
        if params["job"] is not None:
            try:
                job = self.client.get("/projects/%s/jobs/%s" % (project["id"], params["job"]))
            except ServiceError as error:
                if error.status != 404:
                    raise
                self.fail_json(msg="Project %r has no job %s." % (project["name"], params["job"]))
            if params["wait"]:
                job = Jobs.of(self, project).wait(job)
            return dict(job=job, jobs=[job])
        jobs = [job for job in self.list("/projects/%s/jobs" % project["id"])
                if (not params["types"] or job["type"] in params["types"]) and (not params["statuses"] or job["status"] in params["statuses"])]
        if params["limit"] is not None:
            jobs = jobs[:params["limit"]]
        return dict(jobs=jobs)


def main():
    spec = dict(
        project=dict(type="str", required=True),
        job=dict(type="str"),
        types=dict(type="list", elements="str", choices=["TEST_LAUNCH", "RECOVERY_LAUNCH", "CUTOVER_LAUNCH", "RESTORE_LAUNCH", "CLEANUP",
                                                         "FILE_RESTORE", "CONSOLIDATE_VMDKS", "RECOVERY_PLAN_TEST", "RECOVERY_PLAN_RECOVERY",
                                                         "RECOVERY_PLAN_CUTOVER", "RECOVERY_PLAN_CLEANUP"]),
        statuses=dict(type="list", elements="str", choices=["PENDING", "STARTED", "COMPLETED", "FAILED"]),
        limit=dict(type="int"),
    )
    spec.update(WAIT_ARGUMENT_SPEC)
    spec["wait"] = dict(type="bool", default=False)
    JobInfoModule(argument_spec=spec).run()


if __name__ == "__main__":
    main()
