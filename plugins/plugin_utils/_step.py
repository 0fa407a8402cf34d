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

A run stopped at any moment leaves its record behind; the next run does not read it, and removes
the directory of every run whose controller process has ended. What an earlier run left is read
from the service itself (see earlier_run in plugin_utils._judgement),
so that a run on another controller, or after the controller died, finds it too.
"""

import contextlib
import json
import os
import re
import shutil
import socket
import tempfile
import time

from ansible.errors import AnsibleActionFail
from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.replication.recovery.plugins.module_utils._agent import without_token
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC, connection_settings
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._limits import limits_of
from ansible_collections.replication.recovery.plugins.module_utils._machine_info import OPTIONS as MACHINE_INFO, machine_info
from ansible_collections.replication.recovery.plugins.module_utils._reads import (
    AUDIT_LOG_INFO, JOB_INFO, LEVER_READ, POINT_IN_TIME_INFO, PROJECT_INFO, RECOVERY_PLAN_INFO, audit_log_info, job_info, lever_read,
    point_in_time_info, project_info, recovery_plan_info)
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused, Session, shared_projects
from ansible_collections.replication.recovery.plugins.plugin_utils._files import (
    PathRefused, controller_now, where_started, write_also, write_json, write_run)
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import LedgerError, append, directory_of
from ansible_collections.replication.recovery.plugins.plugin_utils._modules_here import COLLECTION, can_run_here, preload, run_here
from ansible_collections.replication.recovery.plugins.plugin_utils._record import as_record
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import ledger_kind_of, runbook_of
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import files_of, page_of

display = Display()

# The modules the steps run (RunbookStep.service), imported as a step's action is loaded in the controller's process, not in
# each task's fork (_modules_here.preload).
SERVICES = ("service_audit_log_info", "service_file_restore", "service_job_info", "service_launch", "service_login", "service_machine_info",
            "service_machine_tags", "service_point_in_time_info", "service_project_info", "service_recovery_plan_info",
            "service_recovery_plan_run", "service_replica_cleanup", "service_reverse_replication", "service_safety_lever",
            "service_test_network")
preload(*SERVICES)
# The readers a step answers itself where their module would run in its process (can_run_here): through a session of its
# connection, with no module run - each one's options, and its answer (the one definition, which the module answers too).
READS = dict(
    service_audit_log_info=(AUDIT_LOG_INFO, audit_log_info),
    service_job_info=(JOB_INFO, job_info),
    service_machine_info=(MACHINE_INFO, machine_info),
    service_point_in_time_info=(POINT_IN_TIME_INFO, point_in_time_info),
    service_project_info=(PROJECT_INFO, project_info),
    service_recovery_plan_info=(RECOVERY_PLAN_INFO, recovery_plan_info),
    service_safety_lever=(LEVER_READ, lever_read),  # given no state (only_reads): a pull is the lever's module's
)


def only_reads(module, args):
    """Whether running ``module`` with ``args`` writes nothing: a reader, or the lever's module given no state."""
    return module.endswith("_info") or (module == "service_safety_lever" and not args.get("state"))


RECORD = "record.json"
# Beside the record: the host name and process ID of the ansible-playbook that runs it, so that a later
# run knows a directory left by a stopped run from one of a run going on beside it. The host name keeps a
# controller whose temporary directory is shared (containers with a process namespace each) from taking
# another's process IDs for its own.
OWNER = "owner"
RUN_PREFIX = "replication-recovery-"
CHECKED = "checked"
# The connection options a step passes on to the modules it runs, as given (the modules fall back to
# the environment themselves).
CONNECTION_OPTIONS = dict((name, dict(type=spec["type"], no_log=spec.get("no_log", False))) for name, spec in CONNECTION_ARGUMENT_SPEC.items())
RUN_OPTIONS = dict(run=dict(type="str", required=True))
# What AWX gives every job's variables: a run under AWX works in the job's private directory, lost when the job ends.
AWX_VARIABLES = ("awx_job_id", "tower_job_id")
# The variable of a block of the engine's whose rescue takes up a step's failure and notes it for the run's end: the step
# then says the failure once, by the run's last word.
RESCUED = "runbook_rescued"
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
    remove_stopped_runs()
    directory = tempfile.mkdtemp(prefix="%s%s-" % (RUN_PREFIX, record["runbook"]))
    # A step runs in a worker process of ansible-playbook: its parent lives as long as the run.
    with open(os.path.join(directory, OWNER), "w", encoding="utf-8") as stream:
        stream.write("%d %s" % (os.getppid(), socket.gethostname()))
    os.mkdir(os.path.join(directory, CHECKED))
    path = os.path.join(directory, RECORD)
    record["checked_dir"] = os.path.join(directory, CHECKED)
    save(path, record)
    return path


def remove_stopped_runs(root=None):
    """Remove the directories that stopped runs left: those whose ansible-playbook, on this host, has
    ended. A directory without an owner, of another host, or whose owner cannot be read, is left alone."""
    root = root or tempfile.gettempdir()
    try:
        names = [name for name in os.listdir(root) if name.startswith(RUN_PREFIX)]
    except OSError:
        return
    for name in names:
        directory = os.path.join(root, name)
        try:
            with open(os.path.join(directory, OWNER), encoding="utf-8") as stream:
                pid, host = stream.read().split(" ", 1)
                owner = int(pid)
        except (IOError, OSError, ValueError):
            continue
        if host == socket.gethostname() and not _running(owner):
            shutil.rmtree(directory, ignore_errors=True)


def _running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


def load(path):
    try:
        with open(path, encoding="utf-8") as stream:
            return as_record(json.load(stream))
    except (IOError, OSError, ValueError) as error:
        raise AnsibleActionFail("The run's record %s cannot be read (%s): begin the run with replication.recovery.runbook_start, "
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


def into_ledger(directory, report, path):
    """Enter a written report in the ledger of runs, if there is one, under its runbook's kind (plugin_utils._runbooks):
    the entry (sequence, sha256, path), or None."""
    if not directory:
        return None
    try:
        entry = append(directory, ledger_kind_of(report), report)
    except (LedgerError, OSError, ValueError) as error:
        raise StepFailed("The report was written (%s), but not entered in the ledger: %s" % (path, error))
    entry.pop("appended")
    return entry


class Driven(object):
    """A run as the step that drives it now sees it (plugin_utils._run's, the application's): what its phases ask of
    Ansible - the collection's modules, the output, the task's variables and check mode - goes through that step."""

    def __init__(self, step):
        self.step = step

    def service(self, module, failed_ok=False, **args):
        return self.step.service(module, failed_ok=failed_ok, **args)

    def run_module(self, module, module_args):
        return self.step.run_module(module, module_args)

    def machines(self, **options):
        return self.step.machines(**options)

    def points_in_time(self, project, machines):
        return self.step.points_in_time(project, machines)

    def say(self, message):
        self.step.say(message)

    def warn(self, message):
        self.step.warn(message)

    def files_said(self, *args, **kwargs):
        return self.step.files_said(*args, **kwargs)

    @property
    def check_mode(self):
        return self.step.check_mode

    @property
    def limits(self):
        return self.step.limits

    @property
    def task_vars(self):
        return self.step.task_vars

    @property
    def loader(self):
        """Ansible's loader of files (YAML as Ansible reads it: vaulted, its tags)."""
        return self.step._loader  # pylint: disable=protected-access

    @property
    def variable_manager(self):
        """Ansible's manager of the run's variables (a task file loaded as Ansible loads one: plugin_utils._files)."""
        return self.step._task.get_variable_manager()  # pylint: disable=protected-access


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
        self.shared_reads = {}  # what the step's modules read of projects, shared among them (module_utils._in_process)
        self.phase_seconds = {}
        self.connection = dict((name, args[name]) for name in CONNECTION_OPTIONS if args.get(name) is not None)
        self.path = args.get("run")
        self.record = load(self.path) if self.WITH_RUN and self.path else None
        try:
            try:
                result.update(self.step(args) or {})
            except PathRefused as refused:
                raise StepFailed("%s; nothing was written." % refused)
        except StepFailed as failure:
            self.take_up_the_run()
            phase = self.run_object.phase if self.run_object is not None else self.PHASE
            recorded = self.record is not None and not self.record.get("failure")
            if recorded:
                self.record["failure"] = dict(phase=phase, message=str(failure))
            # A failure the run's record keeps and a rescue of the run takes up is said once, by the run's last word.
            said = str(failure)
            if recorded and phase != "report" and boolean(self.task_vars.get(RESCUED, False), strict=False):
                said = "The run stops here (%s); its outcome, at its end, says why and what to do next." % phase
                # Why, for the rescue that notes what stopped the run (the filter stopped_by): a search's rounds
                # each have a record of their own, and the search reports the reason.
                result["stopped_because"] = str(failure)
            result.update(failed=True, msg=said, **failure.result)
        finally:
            self.take_up_the_run()
            if self.record is not None and self.path and os.path.isdir(os.path.dirname(self.path)):
                save(self.path, self.record)
        if self.phase_seconds and not result.get("failed"):  # a failure shows its result whole: only what it says
            result["phase_seconds"] = self.phase_seconds
        if result.get("add_group") and hasattr(self, "add_group"):
            # The host joins the group of the run's next wave, as group_by makes it join: ansible-core 2.22 no longer takes
            # add_group from an action's result (before it, that alone did), but from the action's own add_group.
            self.add_group(result["add_group"], parent_group_names=result["parent_groups"])
        result.setdefault("changed", False)
        return result

    @contextlib.contextmanager
    def timed(self, phase):
        """The seconds the step spends in one of a run's phases, answered as ``phase_seconds`` (make bench times the phases
        of a step that drives several)."""
        began = time.monotonic()
        try:
            yield
        finally:
            self.phase_seconds[phase] = round(self.phase_seconds.get(phase, 0) + time.monotonic() - began, 3)

    run_object = None  # the run the step drives (plugin_utils._run.Run): drive()

    def drive(self, run):
        """Drive ``run`` (plugin_utils._run.Run) in this task: answers it. Its record is saved when the step ends, and what stops
        it is recorded under the phase it is in."""
        self.run_object = run
        return run

    def take_up_the_run(self):
        """The record and path of the run the step drives, as its phases left them (a run begun has them only then)."""
        if self.run_object is not None:
            self.path, self.record = self.run_object.path, self.run_object.record

    def step(self, args):
        raise NotImplementedError

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        """The collection's modules run in this process where they would run on the controller anyway: a process of their
        own for each of a run's service calls cost the controller more than the calls (plugin_utils._modules_here)."""
        if can_run_here(self, module_name):
            return run_here(self, module_name, module_args, task_vars)
        return super(RunbookStep, self)._execute_module(module_name=module_name, module_args=module_args, task_vars=task_vars, **kwargs)

    @property
    def check_mode(self):
        return bool(self._task.check_mode)

    @property
    def limits(self):
        """The service's limits the connection states (service_limits, or its environment variable): module_utils._limits."""
        try:
            return limits_of(connection_settings(self.connection)["service_limits"])
        except ValueError as error:
            raise StepFailed("%s Nothing was sent." % error)

    def service(self, module, failed_ok=False, **args):
        """Run one of the collection's modules with the step's connection and answer its result - a reader's (READS) read
        here instead, where it would run in this process. A module that fails stops the step with its message, unless
        ``failed_ok`` (the caller reads the result)."""
        if module in READS and only_reads(module, args) and can_run_here(self, COLLECTION + module):
            return self.answer(module, failed_ok, args)
        module_args = dict(self.connection)
        module_args.update((key, value) for key, value in args.items() if value is not None)
        # A reader writes nothing: it runs under --check as in the real run, so that what the real run refuses (a project that
        # does not exist) --check refuses in the same words - never taken for one an earlier task of the play creates.
        checking = self._task.check_mode
        if only_reads(module, args):
            self._task.check_mode = False
        try:
            result = self._execute_module(module_name=COLLECTION + module, module_args=module_args, task_vars=self.task_vars)
        finally:
            self._task.check_mode = checking
        if result.get("failed") and not failed_ok:
            raise StepFailed(result.get("msg") or "%s failed" % module)
        return result

    def run_module(self, module, module_args):
        """One of the collection's modules run with ``module_args`` alone: a connection of its own, not the step's."""
        return self._execute_module(module_name=COLLECTION + module, module_args=module_args, task_vars=self.task_vars)

    @contextlib.contextmanager
    def one_session(self, needed=True):
        """The step's modules in one session of its connection: signed in once, unless the task brings a session (or it is not
        ``needed``), and signed out once they are done - each module would otherwise sign in, read the account and sign out.
        Yields the sign-in's answer (its ``user``), or None when it signed in to none."""
        if not needed or self.connection.get("session"):
            yield None
            return
        login = self.service("service_login")
        session = self.connection["session"] = login["session"]
        try:
            yield login
        finally:
            del self.connection["session"]
            self.sign_out(session)

    def sign_out(self, session):
        """End the run's session - under --check too, which opened it - warning when the service does not answer: a sign-out never
        fails a run."""
        if not session:
            return
        checking = self._task.check_mode
        self._task.check_mode = False
        try:
            ended = self.service("service_login", failed_ok=True, state="absent", session=session)
        finally:
            self._task.check_mode = checking
        if ended.get("failed"):
            self.warn("The sign-out failed (%s); the session expires in the service by itself." % ended.get("msg"))

    def answer(self, module, failed_ok, args):
        """What the reader ``module`` (READS) answers to ``args``, read through a session of the step's connection (read):
        its result as the module's would be - without a project's agent installation token - or its failure."""
        options, reading = READS[module]
        checked = ArgumentSpecValidator(options).validate(dict((key, value) for key, value in args.items() if value is not None))
        if checked.error_messages:
            raise StepFailed("Bug in the step: its read %s: %s" % (module, "; ".join(checked.error_messages)))
        try:
            return dict(without_token(self.read(lambda session: reading(session, checked.validated_parameters))), changed=False)
        except StepFailed as failure:
            if not failed_ok:
                raise
            return dict(failed=True, changed=False, msg=str(failure))

    def machines(self, **options):
        """What service_machine_info answers to ``options`` (module_utils._machine_info)."""
        return self.service("service_machine_info", **options)

    def points_in_time(self, project, machines):
        """Each of ``machines`` (names or IDs) with its points in time, newest first, as service_point_in_time_info answers
        them ([{machine_id, machine_name, points_in_time, point_in_time}])."""
        return self.service("service_point_in_time_info", project=project, machines=machines)["machines"]

    def read(self, reading):
        """What ``reading(session)`` answers, given a session of the step's connection (module_utils._session) that shares
        its reads of projects with the modules the step runs, and reads everything else anew, as a module run would; what
        the session refuses, or the service answers in error, stops the step in those words, as a module's failure does."""
        settings = connection_settings(self.connection)
        session = Session(settings, projects=shared_projects(self.shared_reads, settings))
        try:
            return reading(session)
        except (Refused, ServiceError) as error:
            raise StepFailed(str(error))
        finally:
            session.close()

    def report_written(self, report, report_dir, name, ledger_dir):
        """Write ``report`` in every form, as a run's own files in ``report_dir`` (named ``name``, else after its runbook and
        project) beside the plain names of the newest; enter it in the ledger; then its page, which names the entry. Answers
        where they are, as report_write does; under check mode nothing is written."""
        try:
            forms = files_of(report)
        except (ValueError, KeyError) as error:
            raise StepFailed("The report is no report of the collection's runbooks: %s." % to_text(error))
        directory = where_started(report_dir, "the report directory")
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name or "_".join([runbook_of(report).name] + ([report["project"]] if report.get("project") else [])))
        ledger_dir, by_default = directory_of(ledger_dir)
        if self.check_mode:
            return dict(lines=["Check mode: no report is written, and nothing is entered in the ledger (%s%s)." % (
                ledger_dir, ", the default" if by_default else "")])
        try:
            files = write_run(directory, name, report.get("run_began") or report.get("generated") or controller_now(), forms)
        except OSError as error:
            raise StepFailed("The report could not be written in %s: %s" % (directory, to_text(error)))
        ledger = None
        try:
            ledger = into_ledger(ledger_dir, report, files["own"][".json"])
        finally:
            write_also(files, ".html", page_of(report, ledger))
        own = files["own"]
        return dict(changed=True, report=dict(json=own[".json"], junit=own[".junit.xml"], markdown=own[".md"], html=own[".html"]),
                    newest=files["plain"][".json"] if files["newest"] else None, ledger=ledger,
                    lines=self.files_said(files, ledger, ledger_dir, by_default))

    def files_said(self, files, ledger, ledger_dir, by_default, reached=True):
        """Where a run's report is (write_run's ``files``), and its ledger entry: lines of the outcome, every path absolute.
        Under AWX a default ledger - in the job's container - is warned about."""
        own = files["own"]
        lines = ["%s: %s" % (label, own[suffix]) for label, suffix in (("Report", ".json"), ("JUnit", ".junit.xml"), ("Summary", ".md"),
                                                                       ("Page", ".html")) if suffix in own]
        if not reached and not files["newest"]:
            lines.append("This run never reached the service: its error is in the files above, and %s stays the report of the newest run "
                         "that did." % files["plain"][".json"])
        elif files["newest"]:
            lines.append("The newest report is also at %s (and %s beside it)." % (files["plain"][".json"], ", ".join(
                suffix for suffix in (".md", ".junit.xml", ".html") if suffix in own)))
        if ledger:
            lines.append("Ledger: entry %d in %s%s, SHA-256 %s" % (
                ledger["sequence"], ledger_dir, " (the default)" if by_default else "", ledger["sha256"]))
            if by_default and any(self.task_vars.get(name) for name in AWX_VARIABLES):
                self.warn("The ledger of runs is the default one, %s, in this job's container: it is lost when the job ends. Set "
                          "replication_recovery_ledger_dir to a lasting path (a mounted volume)." % ledger_dir)
        return lines

    def say(self, message):
        """A line of the run's progress, shown as it happens (AWX shows it in the job's output)."""
        display.display("%s: %s" % (self.task_vars.get("inventory_hostname", "localhost"), message))

    def warn(self, message):
        """A warning of the run, shown as Ansible shows its warnings."""
        display.warning("%s: %s" % (self.task_vars.get("inventory_hostname", "localhost"), message))


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
