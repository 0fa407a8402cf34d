# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Start a run of a runbook in one task: begin it (its record, the sign-in), read and judge its machines, finish what an
earlier run left, and make the first wave next - the run's phases begin, read_and_judge and resume (plugin_utils._run).
Documented in plugins/modules/runbook_start.py."""

from ansible_collections.replication.recovery.plugins.modules import runbook_start
from ansible_collections.replication.recovery.plugins.plugin_utils._options import documented
from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._run_begin import begun_with
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, load

# Declared once, where ansible-doc reads them; its options and inputs give the engine's inputs (plugin_utils._run_begin).
OPTIONS = documented(runbook_start.DOCUMENTATION)


def next_wave(record):
    """The result's part that makes the host of the run's project one of the group of its first wave (the plays of a wave run on
    that group), as group_by would: none when the run has no wave."""
    return dict(add_group="%s_wave_1" % record["runbook"], parent_groups=["all"]) if record["waves"] else {}


class ActionModule(RunbookStep):
    PHASE = "login"
    WITH_RUN = False
    OPTIONS = OPTIONS

    def step(self, args):
        if args["begin"] == bool(args["run"]):
            raise StepFailed("Bug in the runbook: begin a run (runbook, project) or read one begun (run, session), not %s." % (
                "both" if args["begin"] else "neither"))
        begun = begun_with(args) if args["begin"] else None
        if begun and not (begun["runbook"] and begun["project"]):
            raise StepFailed("Bug in the runbook: a run begins with its runbook and its project.")
        run = self.drive(Run(self, args["run"], load(args["run"]) if args["run"] else None))
        with self.timed("sign in"):
            result = run.begin(begun) if begun else dict(run=run.path, session=self.connection.get("session"), _ansible_no_log=True)
        if not args["read"]:
            return result
        self.connection["session"] = result["session"]  # the read goes on in the session just begun
        try:
            with self.timed("read"):
                result.update(run.read_and_judge())
            with self.timed("resume"):
                result.update(run.resume())
        except StepFailed as failure:
            # The run goes on to its finish, which reports it (and signs in again, should it clean up): its session ends here,
            # since a failed result is shown, and so is never given the session.
            self.sign_out(result["session"])
            failure.result.update(run=run.path)
            raise
        result.update(next_wave(run.record))
        return result
