#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
module: service_machine_info
short_description: Read the source machines of a project and how healthy their replication is
version_added: 1.0.0
description:
  - Returns the machines of a project with everything the service says of them, and beside it
    what a DR engineer wants to know - the replication state, the lag, the backlog, the progress of
    initial sync and when the agent was last seen.
  - The lag is measured against the service's own clock, read once per run.
  - C(replication_state) is the first of these that holds -
    V(stopped) (replication is STOPPED);
    V(paused) (replication is PAUSED);
    V(stale) (the agent has not been seen for more than O(stale_after) seconds);
    V(initiating) (no consistent point yet and the initiation steps are not all done);
    V(initial_sync) (the initiation steps are done and data is being copied for the first time);
    V(lagging) (the lag is more than O(lag_threshold) seconds);
    V(continuous) (replicating, within the lag threshold).
options:
  machines:
    description: Only these machines, by name or ID. Unknown names fail the task.
    type: list
    elements: str
  states:
    description: Only machines in one of these replication states.
    type: list
    elements: str
    choices: [initiating, initial_sync, continuous, lagging, paused, stopped, stale]
  tags:
    description: Only machines that have all of these tags.
    type: list
    elements: str
  lag_threshold:
    description: Seconds of lag above which a replicating machine is V(lagging) rather than V(continuous).
    type: int
    default: 600
  stale_after:
    description: Seconds without a word from the agent after which a machine is V(stale).
    type: int
    default: 900
  include_target_machine:
    description:
      - Also read each machine's target machine (the one launched last, if any) and return it as RV(machines[].target_machine).
      - O(include_target) is its earlier name, kept as an alias.
      - Costs one request per machine that has a target machine, since the service has no list of them.
    type: bool
    default: false
    aliases: [include_target]
  include_restore_servers:
    description:
      - Also read each machine's restore servers (a backup project's, launched by C(launchRestoreServers); the machine
        names them in C(restoreServers)) and return them as RV(machines[].restore_servers).
      - Costs one request per restore server, a few at a time, since the service has no list of them.
    type: bool
    default: false
    version_added: 2.0.0
  include_points_in_time:
    description:
      - Also read each machine's points in time and return them, newest first, as RV(machines[].points_in_time) - what
        M(replication.recovery.service_point_in_time_info) returns, without the project and machine reads of a task of
        its own.
      - Costs one request per machine returned, a few at a time, since the service has no list of them.
    type: bool
    default: false
    version_added: 2.0.0
  points_in_time_limit:
    description:
      - With O(include_points_in_time=true), return only each machine's newest so many points in time - all of them when
        not set. The service lists a machine's points oldest first, so every one is still read; what is not returned is
        not kept (a machine can have hundreds of points, and a project thousands of machines).
    type: int
    version_added: 2.0.0
  prove_launch_settings:
    description:
      - Also prove the machines' blueprints for the project's target region against what the region offers now,
        as M(replication.recovery.service_blueprint_info) does with O(replication.recovery.service_blueprint_info#module:validate=true),
        and return the problems as RV(launch_settings).
      - Costs the three or four lists that proof reads, however many machines there are; the runbooks' preflight uses it.
    type: bool
    default: false
    version_added: 2.0.0
extends_documentation_fragment:
  - replication.recovery.project
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.connection.INFO
seealso:
  - module: replication.recovery.service_replication
  - module: replication.recovery.service_point_in_time_info
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Every machine of the project
  replication.recovery.service_machine_info:
    project: production
  register: machines

- name: Fail unless every machine replicates continuously, within 5 minutes
  ansible.builtin.assert:
    that: item.replication_state == 'continuous'
    fail_msg: "{{ item.name }} is {{ item.replication_state }} (lag {{ item.lag_seconds }} s)"
  loop: "{{ machines.machines }}"
  loop_control:
    label: "{{ item.name }}"

- name: Machines of the web tier that lag behind
  replication.recovery.service_machine_info:
    project: production
    tags: [web]
    states: [lagging, stale]
    lag_threshold: 300

- name: Wait until the test machine of web-1 runs, as the service sees it
  replication.recovery.service_machine_info:
    project: production
    machines: [web-1]
    include_target_machine: true
  register: web
  until: web.machines[0].target_machine.machineCloudState | default('') == 'running'
  retries: 30
  delay: 10
"""

RETURN = r"""
machines:
  description:
    - The machines as the service describes them, with the computed members beside them.
  returned: always
  type: list
  elements: dict
  contains:
    name:
      description: The machine's name (C(sourceProperties.name)).
      type: str
    replication_state:
      description: The state by the rule in the description.
      type: str
    lag_seconds:
      description: Seconds since the last consistent point; null before initial sync ends.
      type: int
    backlog_bytes:
      description: Bytes written on the source and not yet replicated.
      type: int
    sync_percent:
      description: Share of the initial sync done; 100 once it ended.
      type: float
    last_seen_seconds:
      description: Seconds since the service last heard from the agent.
      type: int
    target_machine:
      description:
        - The machine's target machine as the service describes it (C(id), C(machineCloudId), C(machineCloudState),
          C(publicIps), C(pointInTime), ...); absent when the machine has none.
      returned: with O(include_target_machine=true)
      type: dict
    restore_servers:
      description: The machine's restore servers as the service describes them, oldest first; empty when it has none.
      returned: with O(include_restore_servers=true)
      type: list
      elements: dict
    points_in_time:
      description:
        - The machine's points in time as the service describes them (C(id), C(dateTime)), newest first.
        - Only the newest O(points_in_time_limit) of them when that is set.
      returned: with O(include_points_in_time=true)
      type: list
      elements: dict
  sample:
    - id: 9db2cf6d-4b41-41b5-8f77-b40af8fa16ff
      name: web-1
      replicationStatus: STARTED
      replication_state: continuous
      lag_seconds: 4
      backlog_bytes: 0
      sync_percent: 100.0
      last_seen_seconds: 2
      sourceProperties: {name: web-1, os: Ubuntu 22.04.4 LTS}
      replicationInfo: {lastConsistencyDateTime: "2026-11-22T08:15:00.000000+00:00"}
project:
  description:
    - The project's C(id), C(name) and C(type) (V(DR), V(MIGRATION) or V(BACKUP)); passing the ID on saves later tasks the
      look-up by name.
  returned: always
  type: dict
  sample: {id: 2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f, name: production, type: DR}
launch_settings:
  description:
    - The target region (C(id), C(name)) and the problems of each machine whose blueprint names what it does not offer, by
      machine name.
    - C(switched), the names of the machines whose blueprints are switched to a test network (see
      M(replication.recovery.service_test_network)); their settings as they were before the switch are proven.
      C(switched_to), by machine name, the settings each is switched to (the test network's blueprint members).
    - C(defaults), by machine name, what its blueprint leaves to the service's default (C(subnet), C(security groups),
      C(instance type)). The interface defines no default, so what a launch would take cannot be proven - a default subnet
      deleted in the cloud account is found only by a failing launch job.
    - C(private_ips), by machine name, the private addresses a blueprint sets (C(privateIPAction) C(CUSTOM_IP)).
    - C(unchecked), by machine name, what its blueprint names that could not be judged - the published interface gives no
      subnet's address range and no region's disk types (see M(replication.recovery.service_blueprint_info)).
  returned: with O(prove_launch_settings=true)
  type: dict
  sample: {region: {id: 8c94d736-9a3e-5ef5-88c4-c3f1daf9ae3c, name: us-east-1},
           problems: {web-1: ["subnet subnet-0b09c00dbba0e596a is not in region us-east-1; it has private-a (subnet-4f1c0e2d9a8b7c6d5)"]},
           defaults: {db-1: [subnet, security groups]}, private_ips: {db-1: [10.0.1.20]}, switched: [], switched_to: {},
           unchecked: {db-1: ["disk type SSD (the service gives no region's disk types)"]}}
service_time:
  description:
    - The service's clock, which the lags and the times since last seen are measured against. It is read just before
      the machines, not after them - a clock read retried after the machines would count the retries as the machines'
      silence, and call healthy machines stale.
    - When the machines had to be read again (the service did not answer at once, or the session was renewed), their
      answer came later than the clock by the time that took, which would hide as much of a machine's silence; the clock
      and the machines are then read again, together, up to three times.
  returned: always
  type: str
  sample: "2026-11-22T08:15:04.000000+00:00"
"""


from ansible_collections.replication.recovery.plugins.module_utils._base import ServiceModule
from ansible_collections.replication.recovery.plugins.module_utils._machine_info import OPTIONS, machine_info


class MachineInfoModule(ServiceModule):
    def work(self):
        return machine_info(self, self.params)


def main():
    MachineInfoModule(argument_spec=dict(OPTIONS)).run()


if __name__ == "__main__":
    main()
