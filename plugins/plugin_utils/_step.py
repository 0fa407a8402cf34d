# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of the runbook steps: action plugins that run on the controller, call the collection's
modules for everything they ask of the service, decide in Python (plugin_utils._judgement) and keep
what happened in the run's record.

The record (plugin_utils._record: its members, declared in a table) is a JSON file in a directory of
its own on the controller, made when the run begins and removed when its report is written; a step
reads it, adds what it did, and writes it back whole. It stays out of Ansible's variables on purpose: a record of a thousand machines templated
at every step costs seconds each time. What a step returns is small - counts, names to show, the
hosts to add - so that YAML can order the steps and show their outcome. Nothing secret is ever
written to the record: the session lives in the variable registered by the first step.

A run stopped at any moment leaves its record behind; the next run does not read it. What an
earlier run left is read from the service itself (see earlier_run in plugin_utils._judgement),
so that a run on another controller, or after the controller died, finds it too.
"""

import json
import os
import shutil
import tempfile
import time

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC
from ansible_collections.replication.recovery.plugins.module_utils._domain import active, iso_time
from ansible_collections.replication.recovery.plugins.module_utils._wait import Poll, Waiter
from ansible_collections.replication.recovery.plugins.plugin_utils import _proof
from ansible_collections.replication.recovery.plugins.plugin_utils._files import write_json
from ansible_collections.replication.recovery.plugins.plugin_utils._record import as_record
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import LedgerError, append
from ansible_collections.replication.recovery.plugins.module_utils._words import reasons, shown

display = Display()

RECORD = "record.json"
CHECKED = "checked"
# The connection options a step passes on to the modules it runs, as given (the modules fall back to
# the environment themselves).
CONNECTION_OPTIONS = dict((name, dict(type=spec["type"], no_log=spec.get("no_log", False))) for name, spec in CONNECTION_ARGUMENT_SPEC.items())
RUN_OPTIONS = dict(run=dict(type="str", required=True))
# What the report says of a machine an earlier run switched to the test network for the launch this run adopted.
SWITCHED_EARLIER = "switched by an earlier run"
# A task outside the steps that stopped the run (the user's tasks, a check of the playbook's own).
STOPPED_OPTION = dict(type="dict", options=dict(task=dict(type="str"), message=dict(type="str")))


class StepFailed(Exception):
    """What stops a step: recorded as the run's failure, then the task fails with its message."""

    def __init__(self, message, **result):
        super(StepFailed, self).__init__(message)
        self.result = result


# -- the record ---------------------------------------------------------------------------------


def new_run(record):
    """A directory for a new run, with its record; answers the record's path."""
    directory = tempfile.mkdtemp(prefix="replication-recovery-%s-" % record["runbook"])
    os.mkdir(os.path.join(directory, CHECKED))
    path = os.path.join(directory, RECORD)
    record["checked_dir"] = os.path.join(directory, CHECKED)
    save(path, record)
    return path


def load(path):
    try:
        with open(path, encoding="utf-8") as stream:
            return as_record(json.load(stream))
    except (IOError, OSError, ValueError) as error:
        raise AnsibleActionFail("The run's record %s cannot be read (%s): begin the run with replication.recovery.runbook_begin, "
                                "and give its run to every later step." % (path, error))


def save(path, record):
    """Write the record whole or not at all."""
    write_json(path, record, separators=(",", ":"))


def end_run(path):
    """Remove the run's directory: its report has been written."""
    shutil.rmtree(os.path.dirname(path), ignore_errors=True)


def note_stopped(record, stopped):
    """Record what stopped the run outside the steps, unless a step recorded a failure already (the
    steps record their own)."""
    if stopped and stopped.get("message") and not record.get("failure"):
        task = stopped.get("task") or "a task"
        record["failure"] = dict(phase="run", task=task, message="%s: %s" % (task, stopped["message"]))
    return record


def collect_checked(record):
    """Add the results of the user's checks that the launched hosts wrote (one file per machine)."""
    directory = record.get("checked_dir")
    if not directory or not os.path.isdir(directory):
        return record
    for name in os.listdir(directory):
        if name.endswith(".json"):
            with open(os.path.join(directory, name), encoding="utf-8") as stream:
                result = json.load(stream)
            record["checked"][result["machine"]] = result
    return record


def checked_file(directory, machine_id):
    return os.path.join(directory, "%s.json" % machine_id)


# -- the steps ----------------------------------------------------------------------------------


def read_report(path):
    """A report written earlier (a JSON object), for the steps that take one by its path."""
    try:
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
    except (OSError, ValueError) as error:
        raise StepFailed("Cannot read the report %s: %s" % (path, error))
    if not isinstance(report, dict):
        raise StepFailed("The report %s is not a JSON object." % path)
    return report


def into_ledger(directory, runbook, report, path):
    """Enter a written report in the ledger of runs, if there is one: the entry (sequence, sha256, path), or None."""
    if not directory:
        return None
    try:
        entry = append(directory, runbook, report)
    except (LedgerError, OSError) as error:
        raise StepFailed("The report was written (%s), but not entered in the ledger: %s" % (path, error))
    entry.pop("appended")
    return entry


class RunbookStep(ActionBase):
    """An action plugin of a runbook step. A step declares its OPTIONS (never one of the connection
    options, which it passes on to the modules it runs) and implements ``step(args)``;
    ``run`` validates the options, loads and saves the record, and turns a StepFailed into the run's
    recorded failure and a failed task."""

    _supports_check_mode = True
    TRANSFERS_FILES = False
    OPTIONS = {}
    # The phase the run is in while the step runs: the name a failure of the step is recorded under.
    PHASE = None
    WITH_RUN = True
    # False for an action on the controller's files alone (the ledger's): it takes no connection options.
    SERVICE = True

    def run(self, tmp=None, task_vars=None):
        result = super(RunbookStep, self).run(tmp, task_vars)
        own = dict(RUN_OPTIONS, **self.OPTIONS) if self.WITH_RUN else self.OPTIONS
        if set(own) & set(CONNECTION_OPTIONS):
            raise AnsibleActionFail("Bug in the step: its options %s are connection options." % ", ".join(sorted(set(own) & set(CONNECTION_OPTIONS))))
        spec = dict(CONNECTION_OPTIONS, **own) if self.SERVICE else dict(own)
        unused, args = self.validate_argument_spec(argument_spec=spec)
        self.task_vars = task_vars or {}
        self.connection = dict((name, args[name]) for name in CONNECTION_OPTIONS if args.get(name) is not None)
        self.path = args.get("run")
        self.record = load(self.path) if self.WITH_RUN and self.path else None
        try:
            result.update(self.step(args) or {})
        except StepFailed as failure:
            if self.record is not None and not self.record.get("failure"):
                self.record["failure"] = dict(phase=self.PHASE, message=str(failure))
            result.update(failed=True, msg=str(failure), **failure.result)
        finally:
            if self.record is not None and self.path and os.path.isdir(os.path.dirname(self.path)):
                save(self.path, self.record)
        result.setdefault("changed", False)
        return result

    def step(self, args):
        raise NotImplementedError

    @property
    def check_mode(self):
        return bool(self._task.check_mode)

    def service(self, module, failed_ok=False, **args):
        """Run one of the collection's modules with the step's connection and answer its result. A module
        that fails stops the step with its message, unless ``failed_ok`` (the caller reads the result)."""
        module_args = dict(self.connection)
        module_args.update((key, value) for key, value in args.items() if value is not None)
        result = self._execute_module(module_name="replication.recovery." + module, module_args=module_args, task_vars=self.task_vars)
        if result.get("failed") and not failed_ok:
            raise StepFailed(result.get("msg") or "%s failed" % module)
        return result

    def say(self, message):
        """A line of the run's progress, shown as it happens (AWX shows it in the job's output)."""
        display.display("%s: %s" % (self.task_vars.get("inventory_hostname", "localhost"), message))

    def warn(self, message):
        """A warning of the run, shown as Ansible shows its warnings."""
        display.warning("%s: %s" % (self.task_vars.get("inventory_hostname", "localhost"), message))

    # -- reads shared by several steps -----------------------------------------------------------

    def judged_proofs(self, project, machines, proofs, until, ignore_events=()):
        """Each of ``machines`` of ``project`` judged by plugin_utils._proof against its ``proofs`` (_proof.proofs_of): one
        read of the project's audit log, from the oldest proof on to ``until`` (the service's time the machines were read)."""
        since = _proof.audit_since(machines, proofs)
        audit = self.service("service_audit_log_info", project=project["id"], since=since, until=until)["entries"] if since else []
        return _proof.judge(machines, proofs, audit, ignore_events)

    def machines_now(self, names=None, targets=False):
        """The run's machines (or ``names``) as the service shows them now, with their replication and,
        when asked, their target machines."""
        return self.service("service_machine_info", project=self.record["project_id"], machines=names,
                            lag_threshold=self.record["gate"]["lag_threshold"], include_target_machine=targets)

    # -- the test network (see module_utils._test_network) -----------------------------------------

    def switch_to_test_network(self, names):
        """Switch the blueprints of ``names`` to the run's test network before their launch; stop the step, before
        anything is launched, when one of them cannot be switched. Answers the module's diff (for --diff)."""
        net = self.record.test_network
        # Only the overrides of these machines: the preflight checked that every one names a machine of the project.
        network = dict((option, value) for option, value in net["network"].items() if option != "machines")
        overrides = dict((name, given) for name, given in (net["network"].get("machines") or {}).items() if name in names)
        if overrides:
            network["machines"] = overrides
        switched = self.service("service_test_network", project=self.record["project_id"], state="switched", machines=names, network=network)
        if switched["refused"]:
            raise StepFailed("The test network could not be set for %d of %d machines, and nothing of them was launched: %s." % (
                len(switched["refused"]), len(names), reasons(switched["refused"])))
        net["tested_in"].update(switched["switched"])
        for name in switched["still_switched"]:
            net["tested_in"].setdefault(name, SWITCHED_EARLIER)
        if switched["switched"]:
            self.say("%s %d blueprints to the test network: %s." % (
                "Would switch" if self.check_mode else "Switched", len(switched["switched"]), shown(sorted(switched["switched"]))))
        return switched.get("diff")

    def put_back_blueprints(self, names):
        """Put the switched blueprints of ``names`` back as they were; record what was put back, and what was
        left because somebody changed it since the switch. Answers the module's result."""
        net = self.record.test_network
        result = self.service("service_test_network", project=self.record["project_id"], state="restored", machines=names)
        net["restored"] = sorted(set(net["restored"]) | set(result["restored"]))
        net["refused"].update(result["refused"])
        if result["restored"]:
            self.say("%s %d blueprints as they were before the test network: %s." % (
                "Would put back" if self.check_mode else "Put back", len(result["restored"]), shown(result["restored"])))
        if result["refused"]:
            self.say("Not put back, changed by somebody else since the switch (left as they set it): %s." % reasons(result["refused"]))
        return result

    def follow(self, job, label, timeout):
        """Follow a job to its end, a line of progress every progress interval. Answers the job as it
        ended; stops the step when it did not end within ``timeout`` seconds (it goes on in the service)."""
        settings = self.record.settings
        # Each look waits in service_job_info, up to the progress interval: no sleep of the step's own between looks.
        poll = Poll(timeout, interval=0)
        progress = {}

        def look():
            looked = self.service("service_job_info", project=self.record["project_id"], job=job["id"], wait=True,
                                  return_after=min(settings["progress_interval"], poll.left()), wait_timeout=int(poll.left()) + 300,
                                  poll_interval=settings["poll_interval"], progress=True)
            progress.update(looked["progress"])
            return looked["job"]

        ended = Waiter("the %s ended" % label, look=look, done=lambda looked: not active(looked), said=lambda looked: (
            "%s %s %s: %d of %d machines done, %d running, %d failed." % (
                label[0].upper() + label[1:], looked["id"], looked["status"], progress["done"], progress["machines"], progress["running"],
                progress["failed"])))
        job, done = poll.until(ended, value=job, progress_every=0, say=self.say)
        if not done:
            raise StepFailed("The %s %s did not end within %s seconds; it is %s and goes on in the service." % (
                label, job["id"], timeout, job["status"]))
        return job


def trimmed_job(job, names=None):
    """What the record keeps of a job: its identity and times, and the last log line of each named machine."""
    kept = dict((key, job.get(key)) for key in ("id", "type", "status", "creationDateTime", "endDateTime", "initiatedBy"))
    kept["machines"] = len(job.get("participatingMachines") or [])
    if names:
        wanted, lines = set(names), {}
        for line in job.get("log") or []:  # a machine's lines begin with its name
            name = line["message"].split(":", 1)[0]
            if name in wanted:
                lines[name] = line["message"]
        kept["lines"] = lines
    kept["tail"] = [line["message"] for line in (job.get("log") or [])[-3:]]
    return kept


def now_iso():
    return iso_time(time.time())
