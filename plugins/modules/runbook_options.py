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
  - Runs on the controller, with no connection to the host. When an option marked C(no_log) in the specs has a value,
    the whole result is hidden from the output.
options:
  entry_point:
    description:
      - The entry point whose options come first (an option documented by several entry points is read by the spec of
        this one); every other entry point's options are read too. By default the entry point the role was included
        with (C(tasks_from)), else V(main).
    type: str
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
