#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_reverse_replication
short_description: Set the direction a project replicates in, for failback
version_added: 1.0.0
description:
  - After a failover (a recovery or cutover launch), reverses replication so that the recovered
    machines replicate back towards the original site; reversing again returns to the original direction.
  - Idempotent on the project's C(replicationReversed) - nothing happens when the project already
    replicates in O(direction).
  - The service refuses a reverse until a recovery or cutover launch has happened since the last
    one (HTTP 422 C(cannotReverse)), so failing back needs a launch the other way first. Every machine
    then starts initial sync anew in the new direction.
  - A job running in the project is waited for first (within O(wait_timeout)).
options:
  direction:
    description: V(reversed) replicates from the recovered machines back; V(original) from the source machines to the target cloud.
    type: str
    choices: [original, reversed]
    required: true
  wait_timeout:
    description: Seconds to wait for a job that blocks the project.
    type: int
    default: 1800
  poll_interval:
    description: Seconds between the first two looks at a blocking job; later ones are further apart, up to 30 seconds.
    type: float
    default: 5
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.STATE
seealso:
  - module: replication.recovery.service_launch
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Fail over
  replication.recovery.service_launch:
    project: production
    launch_type: recovery

- name: Replicate the recovered machines back to the original site
  replication.recovery.service_reverse_replication:
    project: production
    direction: reversed
"""

RETURN = r"""
project:
  description: The project as the service describes it after the task; in check mode, as it would be.
  returned: always
  type: dict
"""

from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._jobs import Jobs
from ansible_collections.replication.recovery.plugins.module_utils._wait import WAIT_OPTIONS


class ReverseReplicationModule(ServiceModule):
    def work(self):
        project = self.lookup("project", self.params["project"])
        wanted = self.params["direction"] == "reversed"
        current = bool(project.get("replicationReversed"))
        if current == wanted:
            return dict(project=project)

        def reverse():
            Jobs.of(self, project).wait_until_idle()  # a running job would make the service refuse
            return self.client.post("/projects/%s/reverseReplication" % project["id"])

        try:
            reversed_project = self.change(reverse, before=dict(replicationReversed=current), after=dict(replicationReversed=wanted))
        except ServiceError as error:
            if error.status != 422:
                raise
            self.fail_json(msg="The service refuses to reverse replication of project %r: %s A recovery or cutover launch must come first."
                               % (project["name"], error.message), error=error.details())
        return dict(project=reversed_project or dict(project, replicationReversed=wanted))


def main():
    ReverseReplicationModule(
        argument_spec=dict(
            project=dict(type="str", required=True),
            direction=dict(type="str", choices=["original", "reversed"], required=True),
            **WAIT_OPTIONS
        ),
    ).run()


if __name__ == "__main__":
    main()
