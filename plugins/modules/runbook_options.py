#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

# The step is an action plugin (plugins/action/runbook_options.py); this file documents it.

DOCUMENTATION = r"""
module: runbook_options
short_description: A role's options as its argument specs type them, from the text AWX surveys and extra variables give
version_added: 2.0.0
description:
  - Run as a task of a role (each of the collection's runbooks runs it first), it reads every option the role's
    C(meta/argument_specs.yml) documents - from the role's variables, their defaults included - and answers each one
    typed as its spec says, by its name without the role's prefix (C(health_max_lag) is C(max_lag) of the result).
  - Extra variables (C(-e key=value)) and AWX survey answers arrive as text. A boolean given as V(false), V(no) or V(0),
    a number as V(5), a list as JSON text or as items separated by commas, a mapping as JSON or YAML text, is read as
    the value it stands for; text that stands for nothing (empty, V(none), V(null)) is the option's default. Ansible's
    own argument validation accepts such text but leaves the variable as text - the role reads the value from here.
  - A value that is not of its type in any form, or not one of its choices, fails the task, naming the option;
    nothing else runs.
  - A path (type V(path)) is made absolute from the directory C(ansible-playbook) was started in - not the playbook's
    directory, where Ansible runs modules - with C(~) expanded. A path inside the installed collection (but its tests)
    is refused, since the next install replaces it.
  - Under AWX (the job's variables name it) a relative directory option (a name that ends in C(_dir)) is warned about,
    since the job's working directory is removed when the job ends.
  - A runbook that runs another (a game day, the runbook of its scenario) gives it options in the variable
    C(replication_recovery_options_given), a mapping by their full names (such as C(dr_test_waves)), which are read over
    the variables of the same names. Names that are not options of the role are passed over - the runbook that gives them has checked them
    against the role's specs.
  - An option whose description begins with C(Required) must be given; one that is not fails the task in one line naming it
    (no spec marks an option C(required), since ansible-core's own validation of a missing one prints the whole argument
    spec).
  - As the first task of a run (O(begins)), it refuses, in one line and before anything is read or written, what the user
    cannot have meant - a play whose strategy is not linear (the run's waves and the hosts it adds move every host of the
    play together); a C(-e key=value) whose value Ansible split at a space (it keeps the first word), naming the JSON text
    that keeps it whole; and a variable that carries the runbook's prefix, the prefix of a runbook it runs or
    C(replication_recovery_), and is no option of it, naming the option it is nearest to (C(failover_comit) is refused naming
    C(failover_commit)). Such a variable given as an extra variable (an AWX survey's too), a variable of the play or of the
    task that runs the role, or a parameter of the role is refused; one of the inventory (a host or group variable) is
    refused within two edits of an option, and warned about once further off, since other roles of an estate may share a
    prefix. What tasks set (registered results and facts, a DR test's before a failover's in one play) and the role's own
    defaults and vars are never taken for the user's.
  - Runs on the controller, with no connection to the host. When an option marked C(no_log) in the specs has a value,
    the whole result is hidden from the output.
options:
  entry_point:
    description:
      - The entry point whose options come first (an option documented by several entry points is read by the spec of
        this one); every other entry point's options are read too. By default the entry point whose tasks file this
        task is in (V(start) for C(tasks/start.yml)), else V(main).
    type: str
  begins:
    description:
      - This task begins the run (the first task of its role's entry point C(main), C(start), C(source) or C(cleanup)), so
        it refuses what the user cannot have meant before anything is read or written. Never set on a later entry point
        (C(finish), a wave), since a run part-way must reach its cleanup.
    type: bool
    default: false
  answer:
    description:
      - Answer the options. V(false) only refuses (with O(begins)), for a role whose options hold secrets and whose task
        that answers them hides its output, since a refusal must be shown.
    type: bool
    default: true
attributes:
  check_mode:
    details: Reads variables only; the same in check mode.
notes:
  - It must run within a role; it reads that role's argument specs.
extends_documentation_fragment:
  - replication.recovery.runbook.LEDGER
author:
  - Replication and Recovery collection maintainers (@replication-recovery)
"""

EXAMPLES = r"""
# roles/health/tasks/main.yml
- name: Read the options as given (text from AWX surveys and extra variables too)
  replication.recovery.runbook_options:
  register: health_options

- name: Fail when a machine missed a threshold
  ansible.builtin.fail:
    msg: The fleet is not healthy.
  when: health_options.fail and health_report.result == 'failed'
"""

RETURN = r"""
_options:
  description:
    - Each option of the role, by its name without the role's prefix and C(_) - C(health_fail) is C(fail) - typed as its
      spec says. Paths are absolute.
  returned: success
  type: dict
  sample: {fail: false, max_lag: 600, projects: [payroll, crm], report_dir: /home/ops/health_report}
"""
