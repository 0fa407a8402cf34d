# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The options of the role the task is in, typed as its argument specs say, whatever form they were given in (text from
extra variables and AWX surveys); relative paths taken from where ansible-playbook was started. Documented in
plugins/modules/runbook_options.py."""

import os

import yaml
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.plugin_utils._options import OptionRefused, options_of
from ansible_collections.replication.recovery.plugins.plugin_utils._step import AWX_VARIABLES, RunbookStep, StepFailed

_SPECS = {}
HANDED = "replication_recovery_options_given"


def argument_specs(role_path):
    """A role's argument specs (meta/argument_specs.yml), read once per process: {entry point: spec}."""
    if role_path not in _SPECS:
        with open(os.path.join(role_path, "meta", "argument_specs.yml"), encoding="utf-8") as handle:
            _SPECS[role_path] = (yaml.safe_load(handle) or {}).get("argument_specs") or {}
    return _SPECS[role_path]


def role_options(specs, entry_point):
    """Every option of the role: the entry point's, then those of its other entry points (a role's variables are its own,
    whichever entry point reads them)."""
    options = {}
    for name in [entry_point] + sorted(set(specs) - {entry_point}):
        for option, spec in ((specs.get(name) or {}).get("options") or {}).items():
            options.setdefault(option, spec)
    return options


class ActionModule(RunbookStep):
    WITH_RUN = False
    SERVICE = False
    _requires_connection = False
    OPTIONS = dict(entry_point=dict(type="str"))

    def step(self, args):
        role = self._task._role
        if role is None:
            raise StepFailed("runbook_options reads the options of the role it runs in: run it in a role's tasks.")
        name = role.get_name(include_role_fqcn=False)
        entry_point = args["entry_point"] or os.path.splitext(to_text(role._from_files.get("tasks") or "main"))[0]
        try:
            specs = role_options(argument_specs(role.get_role_path()), entry_point)
        except (OSError, yaml.YAMLError) as error:
            raise StepFailed("The argument specs of the role %s cannot be read: %s" % (name, to_text(error)))
        given = dict((option, self._templar.template(self.task_vars[option])) for option in specs if option in self.task_vars)
        # What the runbook that runs this one gives it (a game day, its scenario's options) over the variables of the same names.
        handed = self._templar.template(self.task_vars.get(HANDED) or {})
        if not isinstance(handed, dict):
            raise StepFailed("%s is a mapping of options by their names, not %s: nothing was done." % (HANDED, type(handed).__name__))
        given.update((option, value) for option, value in handed.items() if option in specs)
        try:
            options = options_of(specs, given, name + "_")
        except OptionRefused as refused:
            raise StepFailed("%s (the role %s): nothing was done." % (to_text(refused), name))
        self.warn_of_relative_directories(specs, given, name)
        secret = any(spec.get("no_log") and options.get(option[len(name) + 1:]) for option, spec in specs.items())
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
