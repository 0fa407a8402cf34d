# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)


class ModuleDocFragment(object):
    # Options of modules that start a job or wait for one.
    DOCUMENTATION = r"""
options:
  wait:
    description:
      - Wait until the job ends. Without waiting, the task returns the job as it was when started.
    type: bool
    default: true
  wait_timeout:
    description:
      - Seconds to wait, in all, for a job that blocks the project and for the job itself. When
        they run out the task fails; the job goes on in the service.
    type: int
    default: 1800
  poll_interval:
    description:
      - Seconds between the first two looks at a running job; later ones are further apart, up to
        30 seconds, so a long job costs few requests.
    type: float
    default: 5
notes:
  - Only one job runs in a project at a time. When another job blocks the project, the task waits
    for it (within O(wait_timeout)) instead of failing.
"""

    # Options of modules whose change the service refuses while a job works on the machines.
    BLOCKED = r"""
options:
  wait_timeout:
    description:
      - Seconds to wait, in all, for a job that blocks the change. The service refuses some changes (stopping or
        pausing replication, uninstalling or moving a machine) while a job works on the machines; the task then waits
        for that job and tries once more. When they run out the task fails.
    type: int
    default: 1800
  poll_interval:
    description:
      - Seconds between the first two looks at a job that blocks the change; later ones are further apart, up to 30 seconds.
    type: float
    default: 5
"""
