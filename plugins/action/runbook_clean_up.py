# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Clean up what the run launched - or, without a run, the target machines of a launch type of some machines - and prove
it: the run's phase of the cleanup (plugin_utils._run_clean_up), in a task of its own. Documented in
plugins/modules/runbook_clean_up.py."""

from ansible_collections.replication.recovery.plugins.module_utils._domain import LAUNCH_TYPES, parse_flag
from ansible_collections.replication.recovery.plugins.module_utils._wait import WAIT_OPTIONS
from ansible_collections.replication.recovery.plugins.plugin_utils._run import Run
from ansible_collections.replication.recovery.plugins.plugin_utils._step import RunbookStep, StepFailed, load


class ActionModule(RunbookStep):
    PHASE = "cleanup"
    WITH_RUN = False
    OPTIONS = dict(
        run=dict(type="str"),
        project=dict(type="str"),
        machines=dict(type="raw"),
        launch_type=dict(type="str", choices=list(LAUNCH_TYPES), default="test"),
        cleanup_timeout=dict(type="int", default=1800),
        poll_interval=WAIT_OPTIONS["poll_interval"],
        progress_interval=dict(type="float", default=60),
        keep=dict(type="raw", default=False),
        kept_because=dict(type="str", default="kept, as asked"),
    )

    def step(self, args):
        if args["run"]:
            run = self.drive(Run(self, args["run"], load(args["run"])))
            return run.clean_up_the_run(parse_flag(args["keep"], "keep"), args["kept_because"])
        if not args["project"]:
            raise StepFailed("Give the run (the run of replication.recovery.runbook_start), or the project whose target machines to clean up.")
        settings = dict(cleanup_timeout=args["cleanup_timeout"], poll_interval=args["poll_interval"], progress_interval=args["progress_interval"])
        with self.one_session():  # its reads, the cleanup and its proof
            return self.drive(Run(self)).clean_up_alone(args["project"], args["machines"], args["launch_type"], settings)
