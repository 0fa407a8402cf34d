# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The collection's modules, run in the controller's own process where they would run on the controller anyway - by a
runbook step, and by the action of each service module (ModuleHere) - the same code, its arguments made as Ansible makes
them, its result as Ansible would read it (module_utils._in_process says how and why)."""

import datetime
import importlib
import json
import traceback

from ansible import constants as C
from ansible.module_utils.common.parameters import remove_values
from ansible.plugins.action.normal import ActionModule as NormalAction
from ansible.release import __version__ as ansible_version
from ansible.utils.display import Display

from ansible_collections.replication.recovery.plugins.module_utils._client import HAS_REQUESTS
from ansible_collections.replication.recovery.plugins.module_utils._in_process import Answered, given

COLLECTION = "replication.recovery."
MODULES = "ansible_collections.replication.recovery.plugins.modules."

display = Display()


class ModuleHere(NormalAction):
    """The action of a service module: Ansible's own for a module (normal, async included), except that where the module
    would run on the controller anyway, it runs in the task's own process rather than in a process of its own - which
    costs the controller more than most of the module's calls to the service do (a Python started, Ansible's module code
    unpacked and compiled again, on every task of every host)."""

    def __init_subclass__(cls, **kwargs):
        # A service module's action is named as its module: loaded in the controller's process, the module with it.
        super(ModuleHere, cls).__init_subclass__(**kwargs)
        preload(cls.__module__.rpartition(".")[2])

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, wrap_async=False, **kwargs):
        name = module_name or self._task.resolved_action or self._task.action
        if not wrap_async and can_run_here(self, name):
            return run_here(self, name, self._task.args if module_args is None else module_args, task_vars)
        return super(ModuleHere, self)._execute_module(module_name=module_name, module_args=module_args, task_vars=task_vars,
                                                       wrap_async=wrap_async, **kwargs)


def preload(*names):
    """Import the collection's modules of these names in this process. Ansible loads a task's action in the controller's own
    process before it forks the process that runs the task, and its collection loader compiles a collection's Python from
    source at every import (it keeps no bytecode): a module imported first in that fork was compiled again for every task of
    every host - a fifth of the controller's CPU of a service module's task, as many times as a play has hosts. Imported
    here, once, every fork has it already."""
    for name in names:
        try:
            importlib.import_module(MODULES + name)
        except ImportError:
            pass  # the task that runs it says what is missing, as it would have without this


def can_run_here(action, module_name):
    """Whether the module may run in this process: one of the collection's, on a host reached by Ansible's local connection,
    as this process's user (no become) and in its environment (no environment of the task's own, or of its block or play)."""
    return bool(module_name and module_name.startswith(COLLECTION) and HAS_REQUESTS
                and getattr(action._connection, "transport", None) == "local" and not action._play_context.become
                and not any(action._task.environment or ()))


def run_here(action, module_name, module_args, task_vars):
    """Run the module and answer its result, as plain as JSON makes it and its secrets hidden (what the module's own process
    would have printed)."""
    arguments = dict(module_args or {}, **internal_arguments(action, module_name, task_vars or {}))
    # As a process of its own reads them: plain JSON values, not the template engine's (a tagged list, a date, unsafe text).
    arguments = json.loads(json.dumps(arguments, default=_plain))
    code = importlib.import_module(MODULES + module_name[len(COLLECTION):])
    answer = []
    # A runbook step's modules share their reads of projects (RunbookStep.shared_reads): one read of the project a step.
    with given(arguments, shared=getattr(action, "shared_reads", None)):
        try:
            code.main()
        except Answered as answered:
            answer = [answered.result, answered.no_log_values]
        except Exception as error:  # pylint: disable=broad-except
            # What the module's own process would have ended with: a failure with the traceback.
            return dict(failed=True, msg="The module %s failed: %s" % (module_name, error), exception=traceback.format_exc())
    if not answer:
        return dict(failed=True, msg="Bug in the module %s: it ended without a result." % module_name)
    return _printed(answer)


def internal_arguments(action, module_name, task_vars):
    """The internal arguments ansible-core gives every module beside the task's (the module protocol's _ansible_* ones), those
    that tell a module run here how the task runs; AnsibleModule gives the others their defaults, as a module's own process
    on the controller has them."""
    task = action._task
    no_target_syslog = C.config.get_config_value("DEFAULT_NO_TARGET_SYSLOG", variables=task_vars)
    return dict(_ansible_check_mode=bool(task.check_mode), _ansible_diff=bool(task.diff), _ansible_no_log=bool(task.no_log or no_target_syslog),
                _ansible_verbosity=display.verbosity, _ansible_debug=C.DEFAULT_DEBUG, _ansible_version=ansible_version,
                _ansible_module_name=module_name)


def _printed(answer):
    """The result ([result, no_log_values], emptied here) as its own process would have printed it - one copy of it at a time: a
    read of a project's machines and their points is tens of megabytes, in each of a run's forks. The module, its client and
    what the client read went with the exception that answered; the secrets are hidden as AnsibleModule hides them, where the
    text holds one."""
    text = json.dumps(answer[0], default=_plain)
    no_log_values = answer.pop()
    answer.pop()  # the result's last reference: the module and its client are gone already
    result = json.loads(text)
    # A hidden value shows in the text escaped as JSON escapes it, wherever it is in the result: in no other text, none to hide.
    if any(json.dumps(str(value))[1:-1] in text for value in no_log_values if value):
        result = remove_values(result, no_log_values)
    return result


def _plain(value):
    """What JSON has no form of, as AnsibleModule's own output gives it."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    return str(value)
