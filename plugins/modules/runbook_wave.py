#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_wave.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_wave
short_description: One wave of a run in one step - launch it and follow its job, look at its machines, the next wave next
version_added: 2.0.0
description:
  - Launches the machines of one wave with M(replication.recovery.service_launch) - afresh, from the run's point in time
    - or runs the run's recovery plan with M(replication.recovery.service_recovery_plan_run), and follows the job to its
    end with a line of progress every progress interval. A wave an earlier run launched (see
    M(replication.recovery.runbook_start)) is adopted - its job followed, or read when it has ended - and nothing is
    launched again.
  - A wave larger than a job may take (the connection option O(service_limits)) is sent in several jobs, one after another,
    as even as they go; a job that did not complete stops the wave's later jobs. A run again adopts the jobs an earlier run
    sent, job by job, and sends only the others. A job the account has no room for now is sent again once others end.
  - Then looks at the wave's target machines until they run (one list for all of them every poll interval, up to the
    boot timeout). A machine's I(up) moment - where its RTO ends, unless checks of the user's follow - is when the
    service first showed it running. Machines that launched go on to their checks even when others of their wave failed.
  - Answers the hosts they become, for M(ansible.builtin.add_host) - named C(<host_prefix><project>/<machine>), in the
    group of the run, its wave's group, and, when they run and the run has checks of the user's, C(<group>_to_check) and
    C(<group>_wave_<n>_to_check). Their variables are named after the runbook (C(dr_test_source_name),
    C(dr_test_public_ips), C(dr_test_target), ...; see the DR test role's README).
  - Records the wave's jobs, each launched machine's target machine, point in time and whether it runs, and for each
    machine that did not launch, its last line in the job's log. In check mode nothing is launched; the step records what
    would be.
  - The host of the run's project joins the group C(<runbook>_wave_<N>) of the next wave, when there is one, as
    C(ansible.builtin.group_by) would; the next wave's launch judges this one, the user's checks of its machines
    included, before it launches anything.
  - A wave after one that failed, or after a failure recorded by an earlier step or given as O(stopped), is not launched,
    nor is any after it.
  - The run of a clean point search's round has one wave, whatever O(wave) says (the plays number it by the round).
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
  - replication.recovery.runbook.WAVE
  - replication.recovery.runbook.STOPPED
seealso:
  - module: replication.recovery.runbook_start
  - module: replication.recovery.runbook_finish
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Launch wave 1, follow it, and look at its machines
  replication.recovery.runbook_wave:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    wave: 1
  register: launched

- name: They join the inventory
  ansible.builtin.add_host: "{{ item }}"
  loop: "{{ launched.hosts | default([]) }}"
  loop_control:
    label: "{{ item.name }}"
"""

RETURN = r"""
wave:
  description: The wave.
  returned: success
  type: int
next_wave:
  description: The next wave, or null when this was the last or the run stopped.
  returned: success
  type: int
launched:
  description: How many machines of the wave launched.
  returned: success
  type: int
failed_machines:
  description: The first ten machines of the wave that did not launch.
  returned: success
  type: list
  elements: str
job:
  description: The wave's (first) launch job, C(id) and C(status).
  returned: when the wave was launched or adopted
  type: dict
jobs:
  description: Each of the wave's launch jobs, C(id) and C(status) - several when the wave went out in several.
  returned: when the wave was launched or adopted
  type: list
  elements: dict
would_launch:
  description: In check mode, the machines the wave would launch.
  returned: in check mode
  type: list
  elements: str
wave_changed:
  description:
    - Whether the wave changed anything in the service (launched, or would under C(--check)) - with a next wave, the task's
      C(changed) says that the host joined its group (ansible-core's rule for a result that adds a group), so a playbook
      gives C(changed_when) this.
  returned: when there is a next wave
  type: bool
stopped:
  description: Why the wave was not launched - the run stopped before it.
  returned: when the wave was not launched
  type: str
hosts:
  description:
    - The hosts, as M(ansible.builtin.add_host) takes them (C(name), C(groups) and the host's variables).
    - Empty when the run makes no hosts of its machines (the engine's input V(add_hosts) false, with no checks to run and nothing kept).
  returned: when the wave was launched
  type: list
  elements: dict
running:
  description: How many launched machines of the wave run.
  returned: when the wave was launched
  type: int
not_running:
  description: The launched machines that did not run within the boot timeout.
  returned: when the wave was launched
  type: list
  elements: str
to_check:
  description: How many hosts are to be checked by the user's checks.
  returned: when the wave was launched
  type: int
"""
