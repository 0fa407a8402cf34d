# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every module: connection options, a logged-in client, name-to-ID look-ups,
the desired-versus-current comparison, check mode, --diff, errors and the exit.

A module subclasses ``ServiceModule``, declares its options and implements ``work()``;
``run()`` does the rest. State modules describe their resource and call ``ensure()``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible.module_utils.errors import AnsibleFallbackNotFound
from ansible.module_utils.common.validation import check_type_bool, check_type_dict, check_type_int, check_type_path, check_type_str

from ansible_collections.replication.recovery.plugins.module_utils._client import (
    HAS_REQUESTS, REQUESTS_IMPORT_ERROR, ServiceClient, ServiceError, WriteInCheckMode)
from ansible_collections.replication.recovery.plugins.module_utils._compare import differences, managed
from ansible_collections.replication.recovery.plugins.module_utils._fleet import service_time
from ansible_collections.replication.recovery.plugins.module_utils._machines import name_of

# In check mode, what an earlier task of the same run would create is not there yet: a look-up of it
# is predicted (an ID made of the name and this mark) instead of failing the task.
PREDICTED = " (predicted)"

ID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

# Numeric options that cannot be negative, and those that must be more than zero.
NOT_NEGATIVE = ("wait_timeout", "limit", "lag_threshold", "stale_after", "return_after", "bandwidth_throttling")
POSITIVE = ("poll_interval", "timeout")


def _set_in_environment(name):
    """A fallback like Ansible's env_fallback, except that an empty variable is not set: an AWX
    credential injects every variable it defines, empty when the field was left blank."""
    if os.environ.get(name):
        return os.environ[name]
    raise AnsibleFallbackNotFound


def _env(name):
    return (_set_in_environment, ["REPLICATION_SERVICE_" + name])


CONNECTION_ARGUMENT_SPEC = dict(
    api_url=dict(type="str", fallback=_env("URL")),
    username=dict(type="str", fallback=_env("USERNAME")),
    password=dict(type="str", no_log=True, fallback=_env("PASSWORD")),
    api_token=dict(type="str", no_log=True, fallback=_env("API_TOKEN")),
    session=dict(type="str", no_log=True),
    validate_certs=dict(type="bool", default=True, fallback=_env("VALIDATE_CERTS")),
    ca_path=dict(type="path", fallback=_env("CA_PATH")),
    timeout=dict(type="int", default=30, fallback=_env("TIMEOUT")),
)


CONVERT = dict(str=check_type_str, bool=check_type_bool, int=check_type_int, path=check_type_path)


def connection_settings(given):
    """The connection settings from options given (for a plugin, those its configuration sets), else
    from the environment variables the modules read, else the defaults - as AnsibleModule resolves
    CONNECTION_ARGUMENT_SPEC. An empty environment variable is not set."""
    settings = {}
    for name, spec in CONNECTION_ARGUMENT_SPEC.items():
        value = given.get(name)
        if value is None and "fallback" in spec:
            value = os.environ.get(spec["fallback"][1][0]) or None
        if value is None:
            value = spec.get("default")
        settings[name] = None if value is None else CONVERT[spec["type"]](value)
    return settings


def make_client(settings, check_mode=False):
    """A client of the service from connection settings (see connection_settings)."""
    return ServiceClient(api_url=settings["api_url"], username=settings["username"], password=settings["password"],
                         api_token=settings["api_token"], session=settings["session"], validate_certs=settings["validate_certs"],
                         ca_path=settings["ca_path"], timeout=settings["timeout"], check_mode=check_mode)


def looks_like_id(value):
    """IDs are lowercase UUIDs; anything else is taken for a name."""
    return isinstance(value, str) and bool(ID_PATTERN.match(value))


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
        spec.update(argument_spec)
        kwargs.setdefault("supports_check_mode", True)
        super(ServiceModule, self).__init__(argument_spec=spec, **kwargs)
        self._client = None
        self._lists = {}
        self._names = {}  # ID -> name of everything looked up, to show names beside IDs in the diff
        self.changed = False
        self.diff = dict(before={}, after={})
        if not HAS_REQUESTS:
            self.fail_json(msg=missing_required_lib("requests"), exception=REQUESTS_IMPORT_ERROR)
        self._check_inputs()

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
        for option in NOT_NEGATIVE:
            if params.get(option) is not None and params[option] < 0:
                self.fail_json(msg="%s must be 0 or more, not %s." % (option, params[option]))
        for option in POSITIVE:
            if params.get(option) is not None and params[option] <= 0:
                self.fail_json(msg="%s must be more than 0, not %s." % (option, params[option]))

    # -- the client --------------------------------------------------------------------------

    @property
    def client(self):
        if self._client is None:
            try:
                self._client = make_client(self.params, check_mode=self.check_mode)
            except ValueError as error:
                self.fail_json(msg=str(error))
        return self._client

    def _close(self):
        """Log out if the module logged in; a failing logout must not hide the task's result."""
        # Argument validation fails inside AnsibleModule.__init__, before there is a client.
        client, self._client = getattr(self, "_client", None), None
        if client is not None:
            try:
                client.close()
            except ServiceError:
                pass

    def exit_json(self, **kwargs):
        self._close()
        super(ServiceModule, self).exit_json(**kwargs)

    def fail_json(self, msg, **kwargs):
        """Fail the task; it reports changed when it wrote something before failing."""
        self._close()
        kwargs.setdefault("changed", getattr(self, "changed", False))
        super(ServiceModule, self).fail_json(msg=msg, **kwargs)

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
        except WriteInCheckMode as error:
            self.fail_json(msg="Bug in this module: %s. Please report it." % error)
        result.setdefault("changed", self.changed)
        if self._diff and self.changed and "diff" not in result:
            result["diff"] = self.named(self.diff)
        self.exit_json(**result)

    def work(self):
        raise NotImplementedError

    # -- look-ups ----------------------------------------------------------------------------

    def list(self, path, params=None):
        """A whole list, fetched once per run however often a module asks for it. Under something
        predicted in check mode there is nothing yet, and nothing to ask."""
        key = (path, tuple(sorted((params or {}).items())))
        if key not in self._lists:
            self._lists[key] = [] if PREDICTED in path else self.client.list(path, params)
        return self._lists[key]

    def forget(self, path):
        """Drop cached lists under ``path`` after a write that changed them."""
        for key in [key for key in self._lists if key[0].startswith(path)]:
            del self._lists[key]

    def find(self, items, what, value, key="name"):
        """The one item whose ``key`` (or ID) is ``value``; None if there is none.

        Two items of one name are ambiguous: the task fails and asks for the ID.
        """
        if looks_like_id(value):
            matches = [item for item in items if item.get("id") == value]
        else:
            matches = [item for item in items if item.get(key) == value]
        if len(matches) > 1:
            self.fail_json(msg="%s %r is ambiguous: %d have that %s; give the ID (one of %s)."
                           % (what, value, len(matches), key, ", ".join(sorted(item["id"] for item in matches))))
        return matches[0] if matches else None

    def item(self, path, what, value, key="name"):
        """The item of the list at ``path`` that ``value`` names (or is the ID of); the task fails if
        none, except in check mode, where a name not found is predicted (see ``predicted``)."""
        items = self.list(path)
        self.remember_names(items, "id", key)
        item = self.find(items, what, value, key)
        if item is None:
            if self.check_mode and not looks_like_id(value):
                return self.predicted(what, value, key, quietly=PREDICTED in path)
            known = sorted(str(other.get(key)) for other in items)
            self.fail_json(msg="%s %r was not found. Known: %s." % (what, value, ", ".join(known) if known else "none"))
        return item

    def predicted(self, what, value, key="name", quietly=False):
        """Something named that does not exist, in check mode: taken as made by an earlier task of the
        run (whose creation check mode only predicted), so that a --check run of a whole playbook goes
        on. It is an item whose ID carries the name; a real run fails if it is still missing."""
        if not quietly:
            self.warn("Check mode: %s %r does not exist yet; taken as one an earlier task of this run creates. "
                      "A real run fails if it is still missing." % (what, value))
        return {"id": value + PREDICTED, key: value}

    def remember_names(self, items, id_key="id", key="name"):
        """Note the names of items read, to show them beside their IDs in the diff."""
        for item in items:
            if isinstance(item, dict) and item.get(id_key) and item.get(key) and item[key] != item[id_key]:
                self._names[item[id_key]] = item[key]

    def named(self, value):
        """``value`` with each ID whose name is known shown as "ID (name)", for the diff: the user wrote
        names, the service answers IDs."""
        if isinstance(value, dict):
            return dict((key, self.named(item)) for key, item in value.items())
        if isinstance(value, list):
            return [self.named(item) for item in value]
        if isinstance(value, str) and value in self._names:
            return "%s (%s)" % (value, self._names[value])
        return value

    def resolve(self, path, what, value, key="name"):
        """The ID of what ``value`` names, looked up in the list at ``path``.

        An ID is taken as it is, without a request: the service itself rejects one it does
        not know. A name costs one list call per path and run.
        """
        return value if looks_like_id(value) else self.item(path, what, value, key)["id"]

    def region_item(self, region, collection, id_key, what, value):
        """The ID of a subnet, security group... of ``region``, named by its ID or name."""
        items = region.get(collection, [])
        self.remember_names(items, id_key)
        for item in items:
            if value in (item[id_key], item.get("name")):
                return item[id_key]
        if PREDICTED in region["id"]:
            return value + PREDICTED  # the region of predicted credentials: its items are not known either
        self.fail_json(msg="%s %r is not in region %s. Known: %s." % (what, value, region["name"], ", ".join(
            "%s (%s)" % (item.get("name"), item[id_key]) for item in items) or "none"))

    def machines(self, project):
        """Every machine of the project, stopped ones included: one list call per run."""
        return self.list("/projects/%s/machines" % project["id"], dict(all="true"))

    def machine(self, project, value):
        """The machine with the ID ``value``, or the one machine of that name; None if there is none.

        Two machines of one name (an agent installed again leaves both) are ambiguous: the task
        fails and names their IDs, so that nothing acts on one of two by chance.
        """
        machines = self.machines(project)
        matches = [m for m in machines if m["id"] == value] or [m for m in machines if name_of(m) == value]
        if len(matches) > 1:
            self.fail_json(msg="Machine name %r is ambiguous: %d machines of project %r have it; give the ID (one of %s)."
                           % (value, len(matches), project["name"], ", ".join(sorted(m["id"] for m in matches))))
        return matches[0] if matches else None

    def resolve_machines(self, project, values):
        """The machines named (or with the IDs) in ``values``, all of them if None.

        Unknown or ambiguous names fail the task before anything is written.
        """
        machines = self.machines(project)
        if values is None:
            return list(machines)
        found, unknown = [], []
        for value in values:
            machine = self.machine(project, value)
            if machine is None:
                unknown.append(value)
            elif machine not in found:
                found.append(machine)
        if unknown:
            self.fail_json(msg="Project %r has no machine %s. Known: %s." % (
                project["name"], ", ".join(repr(v) for v in unknown), ", ".join(sorted(name_of(m) for m in machines)) or "none"))
        return found

    def points_in_time(self, project, machine):
        """The machine's points in time, newest first (the service lists them oldest first)."""
        return list(reversed(self.list("/projects/%s/machines/%s/pointsintime" % (project["id"], machine["id"]))))

    def service_now(self):
        """The service's own time, in epoch seconds: lags are measured against it, not this host's clock."""
        return service_time(self.client)

    def project(self, value):
        """The project named (or with the ID) ``value``; the task fails if there is none.

        An ID costs one read of that project; a name, one list of the projects.
        """
        if not looks_like_id(value):
            return self.item("/projects", "Project", value)
        try:
            return self.client.get("/projects/%s" % value)
        except ServiceError as error:
            if error.status != 404:
                raise
            self.fail_json(msg="Project %s was not found." % value)

    # -- state -------------------------------------------------------------------------------

    def change(self, write, before=None, after=None):
        """Make a change: outside check mode with ``write()``, whose answer is returned (None in check
        mode). The task reports changed, and the diff shows ``before`` and ``after``, only once the
        write went through: a write the service refused changed nothing."""
        answer = None if self.check_mode else write()
        self.changed = True
        self.record_diff(before or {}, after or {})
        return answer

    def ensure(self, current, desired, create, update, unordered=(), secrets=()):
        """Bring a resource from ``current`` (None when it does not exist) to ``desired``.

        ``desired`` holds only the members the user set. Only members that differ are sent
        to ``update(changes)``; ``create(desired)`` makes a missing resource. In check mode
        nothing is sent and the answer is the predicted resource. Returns the resource as it
        is now (or would be).
        """
        members = list(desired)
        if current is None:
            after = self.change(lambda: create(desired)) or dict(desired)
            self.record_diff({}, managed(after, members, secrets))
            return after
        changes = differences(current, desired, unordered)
        if not changes:
            return current
        after = self.change(lambda: update(changes)) or dict(current, **changes)
        self.record_diff(managed(current, members, secrets), managed(after, members, secrets))
        return after

    def ensure_absent(self, current, delete, members=(), secrets=()):
        """Delete a resource that exists; nothing to do when it does not."""
        if current is None:
            return
        self.change(lambda: delete(current), before=managed(current, members or list(current), secrets))

    def record_diff(self, before, after):
        """Merge into the task's diff, so that a module may ensure several things in one task."""
        self.diff["before"].update(before)
        self.diff["after"].update(after)
