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

import re

from ansible.module_utils.basic import AnsibleModule, env_fallback, missing_required_lib

from ansible_collections.replication.recovery.plugins.module_utils.client import (
    HAS_REQUESTS, REQUESTS_IMPORT_ERROR, ServiceClient, ServiceError, WriteInCheckMode)
from ansible_collections.replication.recovery.plugins.module_utils.compare import differences, managed
from ansible_collections.replication.recovery.plugins.module_utils.machines import name_of, parse_time

ID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _env(name):
    return (env_fallback, ["REPLICATION_SERVICE_" + name])


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


def looks_like_id(value):
    """IDs are lowercase UUIDs; anything else is taken for a name."""
    return isinstance(value, str) and bool(ID_PATTERN.match(value))


class ServiceModule(AnsibleModule):
    """An AnsibleModule that speaks to the service."""

    def __init__(self, argument_spec, **kwargs):
        spec = dict(CONNECTION_ARGUMENT_SPEC)
        spec.update(argument_spec)
        kwargs.setdefault("supports_check_mode", True)
        super(ServiceModule, self).__init__(argument_spec=spec, **kwargs)
        if not HAS_REQUESTS:
            self.fail_json(msg=missing_required_lib("requests"), exception=REQUESTS_IMPORT_ERROR)
        self._client = None
        self._lists = {}
        self.changed = False
        self.diff = dict(before={}, after={})

    # -- the client --------------------------------------------------------------------------

    @property
    def client(self):
        if self._client is None:
            params = self.params
            try:
                self._client = ServiceClient(
                    api_url=params["api_url"], username=params["username"], password=params["password"],
                    api_token=params["api_token"], session=params["session"], validate_certs=params["validate_certs"],
                    ca_path=params["ca_path"], timeout=params["timeout"], check_mode=self.check_mode)
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
        self._close()
        super(ServiceModule, self).fail_json(msg=msg, **kwargs)

    def run(self):
        """Do the module's work and exit with its result; service errors fail the task cleanly."""
        try:
            result = self.work() or {}
        except ServiceError as error:
            self.fail_json(msg=str(error), error=error.details())
        except WriteInCheckMode as error:
            self.fail_json(msg="Bug in this module: %s. Please report it." % error)
        result.setdefault("changed", self.changed)
        if self._diff and self.changed and "diff" not in result:
            result["diff"] = self.diff
        self.exit_json(**result)

    def work(self):
        raise NotImplementedError

    # -- look-ups ----------------------------------------------------------------------------

    def list(self, path, params=None):
        """A whole list, fetched once per run however often a module asks for it."""
        key = (path, tuple(sorted((params or {}).items())))
        if key not in self._lists:
            self._lists[key] = self.client.list(path, params)
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
        """The item of the list at ``path`` that ``value`` names (or is the ID of); the task fails if none."""
        items = self.list(path)
        item = self.find(items, what, value, key)
        if item is None:
            known = sorted(str(other.get(key)) for other in items)
            self.fail_json(msg="%s %r was not found. Known: %s." % (what, value, ", ".join(known) if known else "none"))
        return item

    def resolve(self, path, what, value, key="name"):
        """The ID of what ``value`` names, looked up in the list at ``path``.

        An ID is taken as it is, without a request: the service itself rejects one it does
        not know. A name costs one list call per path and run.
        """
        return value if looks_like_id(value) else self.item(path, what, value, key)["id"]

    def region_item(self, region, collection, id_key, what, value):
        """The ID of a subnet, security group... of ``region``, named by its ID or name."""
        items = region.get(collection, [])
        for item in items:
            if value in (item[id_key], item.get("name")):
                return item[id_key]
        self.fail_json(msg="%s %r is not in region %s. Known: %s." % (what, value, region["name"], ", ".join(
            "%s (%s)" % (item.get("name"), item[id_key]) for item in items) or "none"))

    def machines(self, project):
        """Every machine of the project, stopped ones included: one list call per run."""
        return self.list("/projects/%s/machines" % project["id"], dict(all="true"))

    def resolve_machines(self, project, values):
        """The machines named (or with the IDs) in ``values``, all of them if None.

        Unknown names fail the task before anything is written.
        """
        machines = self.machines(project)
        if values is None:
            return list(machines)
        found, unknown = [], []
        for value in values:
            machine = next((m for m in machines if value in (m["id"], name_of(m))), None)
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
        info = self.client.get("/extendedAccountInfo")
        return parse_time(info["dateTime"]["dateTime"])

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

    def ensure(self, current, desired, create, update, unordered=(), secrets=()):
        """Bring a resource from ``current`` (None when it does not exist) to ``desired``.

        ``desired`` holds only the members the user set. Only members that differ are sent
        to ``update(changes)``; ``create(desired)`` makes a missing resource. In check mode
        nothing is sent and the answer is the predicted resource. Returns the resource as it
        is now (or would be).
        """
        members = list(desired)
        if current is None:
            self.changed = True
            after = dict(desired) if self.check_mode else create(desired)
            self.record_diff({}, managed(after, members, secrets))
            return after
        changes = differences(current, desired, unordered)
        if not changes:
            return current
        self.changed = True
        after = dict(current, **changes) if self.check_mode else update(changes)
        self.record_diff(managed(current, members, secrets), managed(after, members, secrets))
        return after

    def ensure_absent(self, current, delete, members=(), secrets=()):
        """Delete a resource that exists; nothing to do when it does not."""
        if current is None:
            return
        self.changed = True
        if not self.check_mode:
            delete(current)
        self.record_diff(managed(current, members or list(current), secrets), {})

    def record_diff(self, before, after):
        """Merge into the task's diff, so that a module may ensure several things in one task."""
        self.diff["before"].update(before)
        self.diff["after"].update(after)
