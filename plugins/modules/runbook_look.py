#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_look.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_look
short_description: Look at the target machines a wave launched, and answer the hosts they become
version_added: 2.0.0
description:
  - From what the launch step read, whether each target machine of the wave runs and its addresses; the machines that
    do not run yet are looked at again every poll interval (M(replication.recovery.service_machine_info) with their
    target machines, one list for all of them) until they run or the boot timeout passes.
  - A machine's I(up) moment - where its RTO ends, unless checks of the user's follow - is when the service first showed
    it running - since the service created it, for one that runs at the first look; since the look that first showed
    it running, for the others.
  - Answers the inventory hosts the launched machines become, for M(ansible.builtin.add_host) - named
    C(<host_prefix><project>/<machine>), in the group of the run, its wave's group, and, when they run and the run has
    checks of the user's, C(<group>_to_check) and C(<group>_wave_<n>_to_check). Their variables are named after the
    runbook (C(dr_test_source_name), C(dr_test_public_ips), C(dr_test_target), ...; see the DR test role's README).
  - Records, for each machine, whether it runs, since when, and its addresses.
deprecated:
  why: The engine drives a run in three steps - M(replication.recovery.runbook_start), M(replication.recovery.runbook_wave) and
    M(replication.recovery.runbook_finish) - each several of a run's phases in one task; this step is one phase of M(replication.recovery.runbook_wave).
  alternative: Use M(replication.recovery.runbook_wave).
  removed_in: 3.0.0
extends_documentation_fragment:
  - replication.recovery.connection
  - replication.recovery.connection.MODULE
  - replication.recovery.runbook
  - replication.recovery.runbook.RUN
  - replication.recovery.runbook.WAVE
seealso:
  - module: replication.recovery.runbook_launch
  - module: ansible.builtin.add_host
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
- name: Look at the target machines of wave 1
  replication.recovery.runbook_look:
    run: "{{ run.run }}"
    session: "{{ run.session }}"
    wave: 1
  register: looked

- name: They join the inventory
  ansible.builtin.add_host: "{{ item }}"
  loop: "{{ looked.hosts }}"
  loop_control:
    label: "{{ item.name }}"
"""

RETURN = r"""
hosts:
  description:
    - The hosts, as M(ansible.builtin.add_host) takes them (C(name), C(groups) and the host's variables).
    - Empty when the run makes no hosts of its machines (O(replication.recovery.runbook_begin#module:add_hosts)).
  returned: success
  type: list
  elements: dict
running:
  description: How many launched machines of the wave run.
  returned: success
  type: int
not_running:
  description: The launched machines that did not run within the boot timeout.
  returned: success
  type: list
  elements: str
to_check:
  description: How many hosts are to be checked by the user's checks.
  returned: success
  type: int
"""
