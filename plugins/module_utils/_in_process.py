# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A module of the collection run in the controller's own process, by a runbook step (plugin_utils._step).

A step calls the collection's modules many times a run; a process of its own for each call costs the controller more
than most calls do. Where the module would run on the controller anyway (Ansible's local connection, no become, no
environment of the task's own), the step hands the module its arguments here and the module answers its result by
raising ``Answered`` instead of printing it and exiting. The module is the same code either way: only where its
arguments come from and where its result goes differ (ServiceModule._load_params, exit_json and fail_json).
"""

import copy
from contextlib import contextmanager

_GIVEN = []  # the arguments of the module running in this process now, if one does, and the reads it shares


class Answered(Exception):
    """The result of a module run in this process, and the values it must not show (AnsibleModule's no_log_values): the
    step hides them as AnsibleModule would (plugin_utils._modules_here), once the module and what it read are gone."""

    def __init__(self, result, no_log_values):
        super(Answered, self).__init__("the module answered")
        self.result = result
        self.no_log_values = no_log_values


@contextmanager
def given(arguments, shared=None):
    """While the block runs, a ServiceModule made in this process takes ``arguments`` (internal ones included, as the
    _modules_here.internal_arguments gives them) instead of reading its input - and, when ``shared`` is a mapping, keeps
    its reads of projects there, for the step's other modules (see ``shared_reads``)."""
    _GIVEN.append((arguments, shared))
    try:
        yield
    finally:
        _GIVEN.pop()


def here():
    """Whether the module running now runs in this process."""
    return bool(_GIVEN)


def arguments():
    """A copy of the arguments given to the module running in this process, or None when it runs in a process of its own."""
    return copy.deepcopy(_GIVEN[-1][0]) if _GIVEN else None


def shared_reads():
    """The mapping in which the module running in this process keeps its reads of projects, shared with the other modules of
    the step that runs them all (one read of the project a step, however many modules it runs), or None."""
    return _GIVEN[-1][1] if _GIVEN else None
