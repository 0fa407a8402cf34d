# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every module: connection options, a logged-in client, name-to-ID look-ups,
the desired-versus-current comparison, check mode, --diff, errors and the exit.

The base is plumbing only - options, check mode, the diff and the exit; the client, the reads and the look-ups are the
module's session's (module_utils._session: ``self.session``, which needs no AnsibleModule). What a module reads of the
domain is in named modules it imports: module_utils._machine_reads (a project's machines, their target machines and
restore servers), _points (points in time), _regions (the target region, blueprints proven), _fleet (the service's clock).

A module subclasses ``ServiceModule``, declares its options and implements ``work()``;
``run()`` does the rest. A state module's options are a table: each row is AnsibleModule's
argument spec of the option plus how it maps to the API (see TABLE_KEYS). ``desired()`` builds
the desired state from the table and ``ensure()`` compares, changes, predicts and records the
diff. Every write goes through ``change()``: modules never test check mode nor touch the diff.
"""

import os
from functools import partial

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible.module_utils.common.validation import check_type_dict
from ansible.module_utils.common.warnings import get_warning_messages

from ansible_collections.replication.recovery.plugins.module_utils._agent import without_token
from ansible_collections.replication.recovery.plugins.module_utils._client import (
    HAS_REQUESTS, REQUESTS_IMPORT_ERROR, ServiceError, WriteInCheckMode)
from ansible_collections.replication.recovery.plugins.module_utils._compare import differences, managed
from ansible_collections.replication.recovery.plugins.module_utils._connection import CONNECTION_ARGUMENT_SPEC
from ansible_collections.replication.recovery.plugins.module_utils._domain import looks_like_id, parse_moment
from ansible_collections.replication.recovery.plugins.module_utils._in_process import Answered, arguments, here, shared_reads
from ansible_collections.replication.recovery.plugins.module_utils._limits import beyond, limits_of
from ansible_collections.replication.recovery.plugins.module_utils._session import KINDS, PREDICTED, Refused, Session, shared_projects


# The keys of an option's row that say how it maps to the API; the rest of the row is AnsibleModule's.
#   member       the API member the option sets
#   lookup       the kind (see KINDS) whose name or ID the option gives, or a method of the module that
#                resolves it; the member gets the ID (a list option: a list of IDs)
#   unordered    a list member whose order does not matter
#   create_only  set only when the resource is created: a different value fails the task
#   convert      a function from the option's value (after the look-up) to the member's
# An option that is no_log is secret: it is sent, but never shown in the diff.
TABLE_KEYS = ("member", "lookup", "unordered", "create_only", "convert")


# Numeric options that cannot be negative, and those that must be more than zero.
NOT_NEGATIVE = ("wait_timeout", "limit", "lag_threshold", "stale_after", "return_after", "bandwidth_throttling", "retry_timeout")
POSITIVE = ("poll_interval", "timeout")


def _structure_problem(spec, params, prefix=""):
    """What is wrong with a dictionary option, or a list of dictionaries, as given; None if nothing."""
    for option, details in spec.items():
        value = params.get(option) if isinstance(params, dict) else None
        kind, elements = details.get("type"), details.get("elements")
        if value is None or not (kind == "dict" or (kind == "list" and elements == "dict")):
            continue
        name = prefix + option
        if kind == "dict":
            value = _as_dict(value)
            if value is None:
                return "%s must be a dictionary, not %s." % (name, _shown(params[option]))
            items = [value]
        else:
            if not isinstance(value, list):
                return "%s must be a list of dictionaries, not %s." % (name, _shown(value))
            items = [_as_dict(item) for item in value]
            for index, item in enumerate(items):
                if item is None:
                    return "%s[%d] must be a dictionary, not %s." % (name, index, _shown(value[index]))
        for index, item in enumerate(items):
            inner = _structure_problem(details.get("options") or {}, item, "%s%s." % (name, "[%d]" % index if kind == "list" else ""))
            if inner:
                return inner
    return None


def _as_dict(value):
    """A dictionary as AnsibleModule takes one (a dict, or JSON or key=value text); None if it is none."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            return check_type_dict(value)
        except (TypeError, ValueError):
            return None
    return None


def _shown(value):
    shown = repr(value)
    return "%s %s" % (type(value).__name__, shown if len(shown) <= 60 else shown[:57] + "...")


def _empty_text(spec, params, allowed, prefix=""):
    """The first text option (or element of a list of texts) that is empty or blank; None if none."""
    for option, details in spec.items():
        value = params.get(option) if isinstance(params, dict) else None
        if value is None or option in allowed:
            continue
        kind, elements = details.get("type", "str"), details.get("elements")
        if kind == "str" and isinstance(value, str) and not value.strip():
            return prefix + option
        if kind == "list" and elements == "str" and any(isinstance(item, str) and not item.strip() for item in value):
            return prefix + option
        if details.get("options"):
            for index, item in enumerate(value if kind == "list" else [value]):
                inner = _empty_text(details["options"], item, allowed, "%s%s." % (prefix + option, "[%d]" % index if kind == "list" else ""))
                if inner:
                    return inner
    return None


class ServiceModule(AnsibleModule):
    """An AnsibleModule that speaks to the service."""

    # Text options that may be empty (an empty proxy URL means no proxy; an empty connection option,
    # often an unset environment variable, means not given); every other one may not.
    ALLOW_EMPTY = ("proxy_url",) + tuple(CONNECTION_ARGUMENT_SPEC)

    def __init__(self, argument_spec, **kwargs):
        spec = dict(CONNECTION_ARGUMENT_SPEC)
        self.table = {}
        for option, row in argument_spec.items():
            spec[option] = dict((key, value) for key, value in row.items() if key not in TABLE_KEYS)
            self.table[option] = dict((key, value) for key, value in row.items() if key in TABLE_KEYS)
        kwargs.setdefault("supports_check_mode", True)
        super(ServiceModule, self).__init__(argument_spec=spec, **kwargs)
        self.session = Session(self.params, check_mode=self.check_mode, projects=_projects_read(self.params), warn=self.warn)
        self.changed = False
        self.diff = dict(before={}, after={})
        if not HAS_REQUESTS:
            self.fail_json(msg=missing_required_lib("requests"), exception=REQUESTS_IMPORT_ERROR)
        self._check_inputs()

    def _load_params(self):
        """The module's arguments: given in this process by a runbook step (module_utils._in_process), else its input."""
        self.params = arguments()
        if self.params is None:
            super(ServiceModule, self)._load_params()

    def _set_internal_properties(self):
        """Check the structured options as they were given, before AnsibleModule validates them: its
        own messages do not always name the option, and a list given for a dictionary crashes it."""
        super(ServiceModule, self)._set_internal_properties()
        problem = _structure_problem(self.argument_spec, self.params)
        if problem:
            self.fail_json(msg=problem)

    def _check_inputs(self):
        """Refuse input the service would refuse, or that makes no sense, before anything is sent."""
        params = self.params
        empty = _empty_text(self.argument_spec, params, self.ALLOW_EMPTY)
        if empty:
            self.fail_json(msg="%s must not be empty." % empty)
        try:
            self.limits = limits_of(params.get("service_limits"))
        except ValueError as error:
            self.fail_json(msg=str(error))
        for option in NOT_NEGATIVE:
            if params.get(option) is not None and params[option] < 0:
                self.fail_json(msg="%s must be 0 or more, not %s." % (option, params[option]))
        for option in POSITIVE:
            if params.get(option) is not None and params[option] <= 0:
                self.fail_json(msg="%s must be more than 0, not %s." % (option, params[option]))
        # A module in a process of its own runs in the playbook's directory (Ansible's local connection), one in the task's
        # process where the user started: a relative path would land in either - beside the playbook, inside an installed
        # collection for its playbooks. The roles make theirs absolute.
        for option, row in sorted(self.argument_spec.items()):
            if row.get("type") == "path" and params.get(option) and not os.path.isabs(params[option]):
                self.fail_json(msg="%s must be an absolute path, not %r: a module runs in the playbook's directory, not where you started "
                                   "ansible-playbook. Give the whole path (-e %s=$PWD/%s)." % (option, params[option], option, params[option]))

    # -- the session: the client, the reads and the look-ups (module_utils._session) ---------------

    @property
    def client(self):
        return self._answered(lambda: self.session.client)

    def _answered(self, call):
        """What the session answers; what it refuses fails the task in its words."""
        try:
            return call()
        except Refused as refused:
            self.fail_json(msg=str(refused), **refused.result)

    def _close(self):
        """Log out if the module logged in; a failing logout must not hide the task's result."""
        # Argument validation fails inside AnsibleModule.__init__, before there is a session.
        session = getattr(self, "session", None)
        if session is not None:
            session.close()

    def exit_json(self, **kwargs):
        self._close()
        # A project's agent installation token is a secret: no result shows it (service_agent names it apart).
        self._answer_here(without_token(kwargs))
        super(ServiceModule, self).exit_json(**without_token(kwargs))

    def fail_json(self, msg, **kwargs):
        """Fail the task; it reports changed when it wrote something before failing."""
        self._close()
        kwargs.setdefault("changed", getattr(self, "changed", False))
        self._answer_here(dict(without_token(kwargs), msg=msg, failed=True))
        super(ServiceModule, self).fail_json(msg=msg, **without_token(kwargs))

    def warn(self, warning, *args, **kwargs):
        self.__dict__.setdefault("_warned", []).append(warning)
        super(ServiceModule, self).warn(warning, *args, **kwargs)

    def _answer_here(self, result):
        """Run in the controller's process (module_utils._in_process): the result and the values to hide in it go back to
        the step that runs the module, instead of out - with the module's warnings where ansible-core keeps them for the
        result (before 2.19; 2.19 shows a warning given in the controller's process at once)."""
        if here():
            kept = get_warning_messages()
            warnings = [warning for warning in getattr(self, "_warned", []) if warning in kept]
            if warnings:
                result = dict(result, warnings=list(result.get("warnings") or []) + warnings)
            raise Answered(result, set(getattr(self, "no_log_values", set())))

    def run(self):
        """Do the module's work and exit with its result; service errors fail the task cleanly."""
        try:
            result = self.work() or {}
        except ServiceError as error:
            if PREDICTED in (error.path or ""):
                self.fail_json(msg="Check mode cannot go further: this task reads %s, which does not exist yet (see the "
                                   "warning above)." % error.path.split(PREDICTED)[0])
            # Changed when something was written before, or when this write got no answer and may be done.
            self.fail_json(msg=str(error), error=error.details(), changed=self.changed or error.maybe_done)
        except Refused as refused:  # what a read of the domain (module_utils._points, _jobs, ...) cannot answer
            self.fail_json(msg=str(refused), **refused.result)
        except WriteInCheckMode as error:
            self.fail_json(msg="Bug in this module: %s. Please report it." % error)
        result.setdefault("changed", self.changed)
        if self._diff and self.changed and "diff" not in result:
            result["diff"] = self.named(self.diff)
        self.exit_json(**result)

    def work(self):
        raise NotImplementedError

    def within_limits(self, count):
        """Fail closed: a job of ``count`` machines past the service's limits (service_limits) is refused before
        anything is written."""
        problem = beyond(self.limits, count)
        if problem:
            self.fail_json(msg="%s. Nothing was sent: send them in jobs of fewer machines (the runbooks do)." % problem)

    def list(self, path, params=None, paged=True):
        return self.session.list(path, params, paged)

    def read_ahead(self, ones=(), lists=()):
        self.session.read_ahead(ones, lists)

    def forget(self, path):
        self.session.forget(path)

    def items_of(self, kind, **scope):
        return self.session.items_of(kind, **scope)

    def lookup(self, kind, value, required=True, **scope):
        """The one thing of ``kind`` that ``value`` names or is the ID of (Session.lookup); the task fails on a name two
        things have, or - when ``required`` - one nothing has."""
        return self._answered(lambda: self.session.lookup(kind, value, required, **scope))

    def project_to_read_under(self, value):
        return self._answered(lambda: self.session.project_to_read_under(value))

    def not_found_under(self, project, error):
        return self._answered(lambda: self.session.not_found_under(project, error))

    def resolve(self, kind, value, **scope):
        """The ID of what ``value`` names. An ID is taken as it is, without a request (the service
        rejects one it does not know); a name is looked up. A kind that is not in KINDS is a method
        of the module that resolves the value."""
        if kind not in KINDS:
            return getattr(self, kind)(value, **scope)
        spec = KINDS[kind]
        if looks_like_id(value) and not spec["within"]:
            return value
        return self.lookup(kind, value, **scope)[spec["id_key"]]

    def predicted(self, what, value, key="name"):
        return self.session.predicted(what, value, key)

    def remember_names(self, items, id_key="id", key="name"):
        self.session.remember_names(items, id_key, key)

    def named(self, value):
        return self.session.named(value)

    # -- an option given as a moment -------------------------------------------------------

    def moment(self, option, value):
        """A date-time option as epoch seconds (None when not given): RFC 3339 with a time and Z or an offset; the task
        fails on anything else (module_utils._domain.parse_moment)."""
        if value is None:
            return None
        try:
            return parse_moment(value, option)
        except ValueError as error:
            self.fail_json(msg="%s. Nothing was changed." % error)

    # -- state -------------------------------------------------------------------------------

    def desired(self, current=None, **scope):
        """The desired state from the option table: the members of the options the user set, names made
        IDs and values converted. A create-only member that would change fails the task."""
        desired = {}
        for option, row in self.table.items():
            value = self.params.get(option)
            if value is None or "member" not in row:
                continue
            if "lookup" in row:
                look = partial(self.resolve, row["lookup"], current=current, desired=desired, **scope)
                value = [look(item) for item in value] if isinstance(value, list) else look(value)
            if "convert" in row:
                value = row["convert"](value)
            if row.get("create_only") and current is not None and current.get(row["member"]) != value:
                self.fail_json(msg="%s of %r is %s and cannot change to %s: it is set when it is created; create another instead."
                                   % (option, current.get("name", current.get("id")), current.get(row["member"]), value))
            desired[row["member"]] = value
        return desired

    def change(self, write, before=None, after=None, wrote=None):
        """The one way to change anything: ``write()`` runs outside check mode only, and its answer is
        returned (None in check mode). The task reports changed, and the diff shows ``before`` and
        ``after``, once the write went through (a write the service refused changed nothing) - unless
        ``wrote(answer)`` says it changed nothing after all (a job it adopted was started before)."""
        answer = None if self.check_mode else write()
        if wrote is None or answer is None or wrote(answer):
            self.changed = True
            self.record_diff(before or {}, after or {})
        return answer

    def ensure(self, current, desired, create, update, unordered=None, secrets=None, compare=None, shown=None):
        """Bring a resource from ``current`` (None when it does not exist) to ``desired``.

        ``desired`` holds only the members the user set. ``compare(current, desired)`` answers the
        members that differ (by default those whose values differ; list members the table marks
        unordered compare as sets); only they are sent to ``update(changes)``. ``create(desired)``
        makes a missing resource. In check mode nothing is sent and the answer is the predicted
        resource. The diff shows ``shown(resource)``, by default the members set, without secrets.
        Returns the resource as it is now (or would be).
        """
        unordered = self._members("unordered") if unordered is None else unordered
        secrets = self._members("no_log") if secrets is None else secrets
        shown = shown or (lambda resource: managed(resource, list(desired), secrets))
        if current is None:
            return self.change(lambda: create(desired), after=shown(desired)) or dict(desired)
        changes = compare(current, desired) if compare else differences(current, desired, unordered)
        if not changes:
            return current
        after = dict(current, **changes)
        return self.change(lambda: update(changes), before=shown(current), after=shown(after)) or after

    def _members(self, flag):
        return tuple(row["member"] for option, row in self.table.items() if "member" in row and (row.get(flag) or self.argument_spec[option].get(flag)))

    def ensure_absent(self, current, delete, members=(), shown=None):
        """Delete a resource that exists; nothing to do when it does not. The diff shows ``shown(current)``,
        by default its ``members``."""
        if current is not None:
            self.change(lambda: delete(current), before=(shown or (lambda resource: managed(resource, members or list(resource))))(current))

    def record_diff(self, before, after):
        """Merge into the task's diff, so that a module may ensure several things in one task."""
        self.diff["before"].update(before)
        self.diff["after"].update(after)


def _projects_read(params):
    """Where a module keeps its reads of projects: with the runbook step that runs it and the step's other modules, by connection
    (module_utils._in_process), or its own."""
    shared = shared_reads()
    return {} if shared is None else shared_projects(shared, params)
