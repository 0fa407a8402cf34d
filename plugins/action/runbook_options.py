# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The options of the role the task is in, typed as its argument specs say, whatever form they were given in (text from
extra variables and AWX surveys); relative paths taken from where ansible-playbook was started. As a run's first task
(begins), it refuses what the user cannot have meant: a variable of the runbook's prefixes that is no option of it, text
that -e key=value split at a space, a play whose strategy is not linear, a directory the run writes that takes no file.
Documented in plugins/modules/runbook_options.py."""

import json
import os
import tempfile

import yaml
from ansible import context
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._domain import no_value
from ansible_collections.replication.recovery.plugins.plugin_utils._files import TASK_FILES, task_files_refused, unwritable
from ansible_collections.replication.recovery.plugins.plugin_utils._ledger import default_directory
from ansible_collections.replication.recovery.plugins.plugin_utils._options import (
    HANDED, NEAR, SHARED, OptionRefused, argument_specs, holds_secret, known_names, options_of, refusal, required, role_options, split_text, typed,
    unknown)
from ansible_collections.replication.recovery.plugins.plugin_utils._runbooks import BY_NAME
from ansible_collections.replication.recovery.plugins.plugin_utils._step import AWX_VARIABLES, RunbookStep, StepFailed

# The strategies that move every host of a play through each task together, as a runbook's waves and add_host need:
# linear, and those built on it (ansible-core's debug, mitogen's mitogen_linear).
LINEAR = ("linear", "debug", "mitogen_linear")
# The directories a run writes, by the ends of their options' names (an evidence run only reads the ledger it is named,
# which may be a read-only copy).
WRITTEN = ("report_dir", "backup_dir", SHARED + "ledger_dir")


def entry_point_of(task):
    """The entry point whose options a task of a role reads: the role's tasks file the task is in (an entry point's options are
    its tasks file's), else main. A role run whole reads its main entry point's file first, whose options are its own."""
    path = to_text(task.get_path() or "").rpartition(":")[0]
    return os.path.splitext(os.path.basename(path))[0] or "main"


def title_of(runbook):
    """The runbook's title within a sentence: the DR test, the failover."""
    return runbook.title if runbook.title[:2].isupper() else runbook.title[0].lower() + runbook.title[1:]


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    _requires_connection = False
    OPTIONS = dict(entry_point=dict(type="str"), begins=dict(type="bool", default=False), answer=dict(type="bool", default=True))

    def step(self, args):
        # The role the task is in, as Ansible tells every task of a role (its magic variables).
        name, role_path = self.task_vars.get("role_name"), self.task_vars.get("role_path")
        if not name or not role_path:
            raise StepFailed("runbook_options reads the options of the role it runs in: run it in a role's tasks.")
        entry_point = args["entry_point"] or entry_point_of(self._task)
        try:
            specs = role_options(argument_specs(role_path), entry_point)
            own = (argument_specs(role_path).get(entry_point) or {}).get("options") or {}
            if args["begins"] and name in BY_NAME:
                self.refuse_what_was_not_meant(role_path, BY_NAME[name], specs, own)
        except (OSError, yaml.YAMLError) as error:
            raise StepFailed("The argument specs of the role %s cannot be read: %s" % (name, to_text(error)))
        if not args["answer"]:
            return {}
        given = dict((option, self._templar.template(self.task_vars[option])) for option in specs if option in self.task_vars)
        # What the runbook that runs this one gives it (a game day, its scenario's options) over the variables of the same names.
        handed = self._templar.template(self.task_vars.get(HANDED) or {})
        if not isinstance(handed, dict):
            raise StepFailed("%s is a mapping of options by their names, not %s: nothing was done." % (HANDED, type(handed).__name__))
        given.update((option, value) for option, value in handed.items() if option in specs)
        try:
            options = options_of(specs, given, name + "_", own)
        except OptionRefused as refused:
            raise StepFailed("%s (the role %s): nothing was done." % (to_text(refused), name))
        self.warn_of_relative_directories(specs, given, name)
        # An option of no_log, or one that carries a connection's secret (a scenario's node in another account): not shown.
        secret = any(spec.get("no_log") and options.get(option[len(name) + 1:]) for option, spec in specs.items()) or holds_secret(options)
        return dict(options, _ansible_no_log=secret)

    def warn_of_relative_directories(self, specs, given, name):
        """Under AWX the working directory is the job's private one, removed when the job ends: a relative directory a run
        writes to is lost with it."""
        if not any(self.task_vars.get(variable) for variable in AWX_VARIABLES):
            return
        for option, spec in sorted(specs.items()):
            value = given.get(option, spec.get("default"))
            if spec.get("type") == "path" and option.endswith("_dir") and isinstance(value, str) and value and not os.path.isabs(
                    os.path.expanduser(value)):
                self.warn("%s is relative (%s): under AWX it is in the job's private directory (%s), which is removed when the job ends. "
                          "Set it to a lasting path (a mounted volume)." % (option, value, os.path.join(os.getcwd(), value)))

    # -- what the user cannot have meant, refused before anything is read or written -------------------------------------

    def refuse_what_was_not_meant(self, role_path, runbook, specs, own):
        """Refuse, by name and in one line, what the user cannot have meant, before anything is read or written: a play not
        of strategy linear; text -e key=value split at a space; a variable of the runbook's prefixes that is no option of it,
        given by the user (extra variables, the play's, the task's, the role's parameters) or, within NEAR edits of an option,
        anywhere else (the inventory) - one further off there is warned about; a required option not given; a directory the
        run writes that takes no file."""
        title = title_of(runbook)
        strategy = to_text(self._task.get_play().strategy or "linear").rpartition(".")[2]
        if strategy not in LINEAR:
            raise StepFailed("The %s runs in a play of strategy linear, not strategy %s: its waves and the hosts it adds move every "
                             "host of the play together. Set strategy: linear on the play; nothing was read or written." % (title, strategy))
        prefixes = (runbook.prefix,) + tuple(BY_NAME[used].prefix for used in runbook.uses) + (SHARED,)
        split = split_text(context.CLIARGS.get("extra_vars") or (), prefixes)
        if split:
            key, text, whole = split
            if (specs.get(key) or {}).get("no_log"):
                raise StepFailed("%s was given as -e key=value, which Ansible splits at its spaces: give it as JSON text, -e "
                                 "'{\"%s\": ...}'; nothing was read or written." % (key, key))
            raise StepFailed("%s was given as -e '%s', which Ansible splits at its spaces: it would take the first word and drop the "
                             "rest. Give it as JSON text, -e '%s'; nothing was read or written." % (
                                 key, text, json.dumps({key: whole})))
        known = known_names(role_path, runbook)
        given = self.given_by_the_user()
        missing = self.missing(own)
        refused = unknown(given, known, prefixes)
        if refused:
            raise StepFailed(" ".join(refusal(name, given[name], near, title, near[0] in missing) for name, near in sorted(refused.items())))
        elsewhere = unknown(set(self.task_vars) - set(given) - self.set_by_the_collection(), known, prefixes)
        near = dict((name, found) for name, found in elsewhere.items() if found[1] <= NEAR)
        if near:
            raise StepFailed(" ".join(refusal(name, "an inventory or group variable", found, title, found[0] in missing)
                                      for name, found in sorted(near.items())))
        if missing:
            raise StepFailed("%s is required, and was not given; nothing was read or written." % missing[0])
        self.prove_writable(runbook, specs)
        self.prove_task_files(runbook, specs)
        if elsewhere:
            self.warn("%s: no option of the %s, and far from every one (another role's, of the inventory?): not read." % (
                ", ".join(sorted(elsewhere)), title))

    def prove_writable(self, runbook, specs):
        """Every directory of the controller the run will write - its report, backup and ledger directories (the default
        ledger when none is named) and where it keeps its state while it runs - takes a file before anything is launched or
        changed: a run's result is never lost to a directory found unwritable at its end."""
        directories = []
        for option, spec in sorted(specs.items()):
            if spec.get("type") == "path" and option.endswith(WRITTEN):
                try:
                    value = typed(option, spec, self._templar.template(self.task_vars.get(option, spec.get("default"))))
                except OptionRefused:
                    continue  # the option's own reading refuses it, by name
                if value:
                    directories.append((option, value))
        if runbook.ledger and not any(option == SHARED + "ledger_dir" and value for option, value in directories):
            directories.append(("the default ledger", default_directory()))
        if runbook.launches:
            directories.append(("where the run keeps its state, TMPDIR", tempfile.gettempdir()))
        for option, directory in directories:
            why = unwritable(directory)
            if why:
                raise StepFailed("The %s cannot write in %s (%s): %s. Nothing was read or written: give a directory it can write, "
                                 "or make this one writable." % (title_of(runbook), directory, option, why))

    def prove_task_files(self, runbook, specs):
        """Every task file of the user's the run includes (its checks, its hooks: the options named *_tasks) reads as a list of
        tasks before anything is launched: Ansible reads one only as it includes it - after the launch - and one missing or not
        YAML stopped the playbook there, its machines left up and no report written."""
        paths = {}
        for option, spec in specs.items():
            if spec.get("type") == "path" and option.endswith(TASK_FILES):
                try:
                    paths[option] = typed(option, spec, self._templar.template(self.task_vars.get(option, spec.get("default"))))
                except OptionRefused:
                    continue  # the option's own reading refuses it, by name
        refused = task_files_refused(paths, self._loader, self._task.get_variable_manager())
        if refused:
            raise StepFailed("%s. Nothing was read or written: give a task file of yours (a YAML list of tasks)." % refused[0])

    def missing(self, own):
        """The required options of the entry point (``own``) that were not given, in order."""
        handed = self._templar.template(self.task_vars.get(HANDED) or {})
        return sorted(option for option, spec in own.items() if required(spec) and no_value(self.task_vars.get(option))
                      and option not in (handed if isinstance(handed, dict) else {}))

    def given_by_the_user(self):
        """The variables the user gave the run, by where: extra variables (an AWX survey's too), the play's, the task's and
        its blocks' and includes' (include_role's vars), the role's parameters."""
        task = self._task
        given = {}
        manager = task.get_variable_manager()
        for where, names in (("an extra variable (-e, or an AWX survey)", manager.extra_vars if manager else {}),
                             ("a variable of the play", task.get_play().get_vars()),
                             ("a variable of the task that runs the role", task.get_vars()),
                             ("a variable of the task that runs the role", task.get_include_params()),
                             ("a parameter of the role", dict(pair for role in self.roles_here() for pair in role.get_role_params().items()))):
            for name in names or ():
                given.setdefault(to_text(name), where)
        return given

    def roles_here(self):
        """The play's instances of the role the task is in - its roles, included and imported ones too, and their dependencies.
        A role knows its path resolved (a collection linked into the collections path, as a checkout often is): so is ours."""
        role_path = os.path.realpath(self.task_vars["role_path"])
        return [role for top in self._task.get_play().get_roles() for role in [top] + top.get_all_dependencies()
                if role.get_role_path() == role_path]

    def set_by_the_collection(self):
        """The variables tasks set on this host (registered results, facts: the collection's own, a DR test's before a
        failover's in one play) and the role's defaults and vars: never taken for the user's."""
        manager = self._task.get_variable_manager()
        host = self.task_vars.get("inventory_hostname")
        names = set()
        for role in self.roles_here():
            names |= set(role.get_default_vars()) | set(role.get_vars(include_params=False))
        for cache in ("_nonpersistent_fact_cache", "_fact_cache"):
            try:
                names |= set(getattr(manager, cache, None).get(host) or ())
            except (AttributeError, KeyError, TypeError):
                continue
        return set(to_text(name) for name in names)
