# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)


class ModuleDocFragment(object):
    # What every step of a runbook shares: it is an action plugin that runs on the controller, calls the
    # collection's modules, and keeps what happened in the run's record.
    DOCUMENTATION = r"""
notes:
  - This is a step of the collection's runbooks - the DR test, and the runbooks built on the same steps. It is an
    action plugin that runs on the controller, asks the service through the collection's modules (with the connection
    options given to it, else their environment variables), judges in Python, and keeps what happened in the run's
    record. The README of the role C(replication.recovery.dr_test) draws how the steps make a runbook.
  - The record is a JSON file in a directory of its own on the controller, made by
    M(replication.recovery.runbook_start) and removed by M(replication.recovery.runbook_finish). It never holds a secret.
    What an earlier run left is read from the service, never from an earlier record, so that a run on another
    controller finds it too.
attributes:
  check_mode:
    support: full
    details: The modules it runs predict instead of changing anything; the step records what would be done.
  diff_mode:
    support: none
  platform:
    platforms: all
    details: Runs on the controller; the modules it runs run where the task runs, usually C(localhost).
"""

    # The wave a step works on.
    WAVE = r"""
options:
  wave:
    description: The wave, numbered from 1 (a run without waves has one).
    type: int
    default: 1
"""

    # The run a later step works on.
    RUN = r"""
options:
  run:
    description:
      - The run, as M(replication.recovery.runbook_start) returned it (its RV(replication.recovery.runbook_start#module:run)).
    type: str
    required: true
"""

    # What stopped the run outside the steps.
    STOPPED = r"""
options:
  stopped:
    description:
      - A task outside the steps that stopped the run - one of the user's tasks, say - given as C(task), its name, and
        C(message), as a playbook's rescue notes them. It is recorded as the run's failure unless a step recorded one
        already (the steps record their own).
    type: dict
    suboptions:
      task:
        description: The task's name.
        type: str
      message:
        description: Its failure's message.
        type: str
"""

    # The ledger's modules: action plugins on the controller that read and write files only.
    LEDGER = r"""
attributes:
  check_mode:
    description: Whether the module can run in check mode, predicting its result without changing anything.
    support: full
  diff_mode:
    description: Whether the module shows, in diff mode, what it changes.
    support: none
  platform:
    description: The systems the module runs on.
    support: N/A
    platforms: all
    details: An action plugin - it runs on the controller, where the ledger and the reports are, and sends no request.
"""
