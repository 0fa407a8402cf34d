# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One run of a runbook on the engine, as one object.

A run is its record - what the runbook was asked and what happened, of declared members (plugin_utils._record), kept on
the controller in a directory of its own where its next step finds it (plugin_utils._step) - and its phases, each a
method, in a module of its own:

    begin            _run_begin      the record from the runbook's options, proven to go together; the sign-in
    read_and_judge   _run_read       the machines and the project's jobs read once; who takes part, the gate, the points
                                     pinned, what an earlier run left
    resume           _run_resume     what an earlier run left finished before anything is launched
    launch_wave      _run_launch     a wave launched (or adopted) and followed to its end
    look_at_wave     _run_look       its machines looked at until they run, and made hosts
    clean_up_the_run _run_clean_up   what the run launched cleaned up and proven gone (or kept)
    write_report     _run_report     the report written, entered in the ledger, answered; the run's directory removed
    fail_back        _run_reverse    a failback's own: replication reversed before its launch, returned after it

The engine drives a run in three tasks - runbook_start (begin, read and judge, resume), runbook_wave (launch a wave, look
at it) and runbook_finish (clean up, report), and a failback's runbook_reverse (fail_back) before and after its waves -
with Ansible's own between them: the user's checks as a play over the launched machines, their hooks, add_host. A phase
reaches Ansible only through the step that drives it (``step``, an action plugin on plugin_utils._step.RunbookStep): the
collection's modules (service, machines, points_in_time), the output (say, warn), the task's variables and check mode.
What stops a phase is a StepFailed: the step records it under the phase the run is in (``phase``) and fails its task.
"""

from ansible_collections.replication.recovery.plugins.plugin_utils._run_begin import Beginning
from ansible_collections.replication.recovery.plugins.plugin_utils._run_clean_up import CleaningUp
from ansible_collections.replication.recovery.plugins.plugin_utils._run_launch import Launching
from ansible_collections.replication.recovery.plugins.plugin_utils._run_look import Looking
from ansible_collections.replication.recovery.plugins.plugin_utils._run_read import Reading
from ansible_collections.replication.recovery.plugins.plugin_utils._run_report import Reporting
from ansible_collections.replication.recovery.plugins.plugin_utils._run_resume import Resuming
from ansible_collections.replication.recovery.plugins.plugin_utils._run_reverse import Reversing
from ansible_collections.replication.recovery.plugins.plugin_utils._step import Driven


class Run(Driven, Beginning, Reading, Resuming, Launching, Looking, CleaningUp, Reporting, Reversing):
    """A run: its record (None before it begins, or for a cleanup without a run), the path it is kept at, the phase it is
    in, and the step that drives it now."""

    def __init__(self, step, path=None, record=None):
        Driven.__init__(self, step)
        self.path = path
        self.record = record
        self.phase = step.PHASE
