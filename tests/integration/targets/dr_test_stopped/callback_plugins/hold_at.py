# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A test's own callback: holds a playbook at the start of a task whose name contains
$HOLD_AT_TASK, after saying so, so that the test stops it exactly there."""

import os
import sys
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
name: hold_at
type: aggregate
short_description: Holds a playbook at the start of a named task, for a test to stop it there
description:
  - When the environment variable E(HOLD_AT_TASK) is set, the playbook stops for two minutes at the start of the
    first task whose name contains it, after writing C(HOLDING AT <task name>) to its standard output.
options: {}
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "hold_at"
    CALLBACK_NEEDS_ENABLED = True

    def v2_playbook_on_task_start(self, task, is_conditional):
        wanted = os.environ.get("HOLD_AT_TASK")
        if wanted and wanted in task.get_name():
            sys.stdout.write("HOLDING AT %s\n" % task.get_name())
            sys.stdout.flush()
            time.sleep(120)
