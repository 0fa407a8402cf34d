# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A session with the service: the client, made when first asked for, and what it read - lists, projects, target machines,
the names of things by ID - kept until a write forgets them, with the one look-up rule for every kind (``KINDS``).

A session needs no AnsibleModule: a module holds one (``ServiceModule.session``) and leaves it its reads and look-ups,
keeping Ansible's parts itself (options, check mode, the diff, the exit); code that is no module can hold one too. What
cannot be answered - nothing of a name, two of it, settings that make no client - is ``Refused``, with the words a task
fails with.
"""

import hashlib
import json

from ansible_collections.replication.recovery.plugins.module_utils._client import PAGE_LIMIT, ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._connection import make_client
from ansible_collections.replication.recovery.plugins.module_utils._domain import looks_like_id
from ansible_collections.replication.recovery.plugins.module_utils._machines import by_id_and_name, name_of

# In check mode, what an earlier task of the same run would create is not there yet: a look-up of it
# is predicted (an ID made of the name and this mark) instead of failing the task.
PREDICTED = " (predicted)"


def _kind(what, path=None, key="name", one=None, within=None, id_key="id", params=None, paged=True, predict=True, plural=None):
    return dict(what=what, path=path, key=key, one=one, within=within, id_key=id_key, params=params, paged=paged, predict=predict,
                plural=plural or what.lower() + "s")


# Everything a module names, and where a name is found: a list read once per run (its path takes the
# IDs of the scope: project, credentials), the items of a region (within), or - for what the service
# only has one at a time - a read of one (one). ``key`` is the member (or function) that names an item.
# ``predict``: in check mode a name not found is taken as made by an earlier task of the run.
KINDS = dict(
    cloud=_kind("Cloud", "/clouds"),
    cloud_credentials=_kind("Cloud credentials", "/cloudCredentials", plural="cloud credentials"),
    project=_kind("Project", "/projects", one="/projects/{id}"),
    region=_kind("Region", "/cloudCredentials/{credentials}/regions"),
    subnet=_kind("Subnet", within="subnets", id_key="subnetId", predict=False),
    security_group=_kind("Security group", within="securityGroups", id_key="securityGroupId", predict=False),
    machine=_kind("Machine", "/projects/{project}/machines", key=name_of, params=dict(all="true"), predict=False),
    recovery_plan=_kind("Recovery plan", "/projects/{project}/recoveryPlans", paged=False),
    target_machine=_kind("Target machine", one="/projects/{project}/replicas/{id}", predict=False),
)


class Refused(Exception):
    """What a session cannot answer, in the words a task fails with: nothing of that name, two of it, no client, a job that
    did not end in time; ``result``: what the failed task shows besides (the job)."""

    def __init__(self, message, **result):
        super(Refused, self).__init__(message)
        self.result = result


class Session(object):
    """One connection's client and reads. ``settings`` are the connection's (module_utils._connection); ``projects`` the mapping a
    session keeps its reads of projects in - given, to share them with other sessions of the same connection (a runbook
    step's modules: module_utils._in_process); ``warn`` says a warning (by default kept in ``warnings``)."""

    def __init__(self, settings, check_mode=False, projects=None, client=None, warn=None):
        self.settings = settings
        self.check_mode = check_mode
        self.warnings = []
        self.warn = warn or self.warnings.append
        self._client = client
        self._lists = {}
        self._projects = {} if projects is None else projects
        self._names = {}  # ID -> name of everything looked up, to show names beside IDs in the diff
        self._indexes = {}  # (kind, the list's identity) -> (the list, its length, by ID, by name): see indexed

    # -- the client --------------------------------------------------------------------------

    @property
    def client(self):
        if self._client is None:
            try:
                self._client = make_client(self.settings, check_mode=self.check_mode)
            except ValueError as error:
                raise Refused(str(error))
        return self._client

    def close(self):
        """Log out if the session logged in; a failing logout must not hide what the session's user says."""
        client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except ServiceError:
                pass

    # -- reads ---------------------------------------------------------------------------------

    def list(self, path, params=None, paged=True):
        """A whole list, fetched once per session however often it is asked for. Under something
        predicted in check mode there is nothing yet, and nothing to ask."""
        key = (path, tuple(sorted((params or {}).items())))
        reads = self._reads_of(path)
        if key not in reads:
            if PREDICTED in path:
                reads[key] = []
            else:
                reads[key] = self.client.list(path, params) if paged else self.client.get(path, params)["items"]
        return reads[key]

    def _reads_of(self, path):
        """Where a read of ``path`` is kept: a project, or the list of them, with the projects' mapping (shared or not);
        anything else for this session."""
        return self._projects if path == "/projects" or (path.startswith("/projects/") and path.count("/") == 2) else self._lists

    def read_ahead(self, ones=(), lists=()):
        """Read many things the interface has no list of - each one a path (``ones``), or a short list
        (``lists``: one page holds it all) - a few at a time, and keep them, so that the reads that
        follow (``lookup``, ``list``) find them. What was read already is not read again."""
        ones = [path for path in dict.fromkeys(ones) if (path, ()) not in self._reads_of(path) and PREDICTED not in path]
        lists = [path for path in dict.fromkeys(lists) if (path, ()) not in self._reads_of(path) and PREDICTED not in path]
        if not ones and not lists:
            return
        answers = self.client.get_many([(path, None) for path in ones] + [(path, dict(offset=0, limit=PAGE_LIMIT)) for path in lists])
        for path, answer in zip(ones + lists, answers):
            if isinstance(answer, ServiceError):
                continue  # read again when it is needed, and judged there (a target machine gone, ...)
            if path in ones:
                self._reads_of(path)[(path, ())] = answer
            elif len(answer["items"]) < PAGE_LIMIT:  # a full page may have more: list() reads them all when asked
                self._reads_of(path)[(path, ())] = answer["items"]

    def forget(self, path):
        """Drop what was read under ``path`` after a write, or a job, that changed it."""
        for reads in (self._lists, self._projects):
            for key in [key for key in reads if key[0].startswith(path)]:
                del reads[key]

    # -- look-ups ----------------------------------------------------------------------------

    def items_of(self, kind, **scope):
        """Everything of a kind in its scope (a project, credentials, a region): one request per session."""
        spec = KINDS[kind]
        if spec["within"]:
            items = scope["region"].get(spec["within"], [])
        else:
            items = self.list(spec["path"].format(**ids_in(scope)), spec["params"], spec["paged"])
        self.indexed(kind, items)
        return items

    def indexed(self, kind, items):
        """The items of a list of ``kind`` by ID and by name, each a list in the list's order - made once for each list read
        (its names remembered then), so that a run's look-ups of a thousand machines cost one pass over their list, not one
        each. A list that grew or was read anew is indexed again."""
        entry = self._indexes.get((kind, id(items)))
        if entry is None or entry[0] is not items or entry[1] != len(items):
            spec = KINDS[kind]
            self.remember_names(items, spec["id_key"], spec["key"])
            entry = self._indexes[(kind, id(items))] = (items, len(items)) + by_id_and_name(items, name_in(spec), spec["id_key"])
        return entry[2], entry[3]

    def lookup(self, kind, value, required=True, **scope):
        """The one thing of ``kind`` that ``value`` names or is the ID of, by the one rule for every kind.

        A kind the service reads one at a time (a project by its ID, a target machine) costs one read,
        kept for the session; any other is found in its list (see ``items_of``). Two of one name are
        ambiguous: refused, asking for the ID. None found: None unless ``required``; in check mode, a
        name is predicted (see ``predicted``) for a kind that a task can create; else refused, naming
        what is known.
        """
        spec = KINDS[kind]
        if spec["one"] and (looks_like_id(value) or not spec["path"]):
            return self._one(spec, value, required, scope)
        items, name = self.items_of(kind, **scope), name_in(spec)
        by_id, by_name = self.indexed(kind, items)
        try:
            matches = list(by_id.get(value) or by_name.get(value) or ())
        except TypeError:  # a value that can be no ID or name (a mapping) names nothing
            matches = []
        if len(matches) > 1:
            owner = " of " + owner_of(scope) if owner_of(scope) else ""
            raise Refused("%s name %r is ambiguous: %d %s%s have it; give the ID (one of %s)." % (
                spec["what"], value, len(matches), spec["plural"], owner, ", ".join(sorted(m[spec["id_key"]] for m in matches))))
        if matches or not required:
            return matches[0] if matches else None
        if self.check_mode and not looks_like_id(value):
            predicted = self._predicted_under(spec, value, scope)
            if predicted:
                return predicted
        known = ", ".join(sorted(str(name(item)) for item in items)) or "none"
        owner = owner_of(scope)
        if owner:
            raise Refused("%s%s has no %s %r. Known: %s." % (owner[0].upper(), owner[1:], spec["what"].lower(), value, known))
        raise Refused("%s %r was not found. Known: %s." % (spec["what"], value, known))

    def _predicted_under(self, spec, value, scope):
        """Under --check, what a name not found stands for: a thing under something predicted (warned of already), or one a
        task of the run could create (see ``predicted``); None when neither."""
        if PREDICTED in (scope.get("region") or {}).get("id", "") or PREDICTED in (spec["path"] or "").format(**ids_in(scope)):
            return {spec["id_key"]: value + PREDICTED, spec["key"]: value}
        if spec["predict"]:
            return self.predicted(spec["what"], value, spec["key"])
        return None

    def _one(self, spec, value, required, scope):
        path = spec["one"].format(id=value, **ids_in(scope))
        key, reads = (path, ()), self._reads_of(path)
        if key not in reads:
            try:
                reads[key] = self.client.get(path)
            except ServiceError as error:
                if error.status != 404:
                    raise
                if not required:
                    return None
                raise Refused("%s %s was not found." % (spec["what"], value))
        return reads[key]

    def project_to_read_under(self, value):
        """The project a reader reads under, as a scope: by its name, looked up; by its ID, not read - a reader a run calls
        at every look (a job's, the safety lever's) then costs one request - since a read under a project the service does
        not have answers 404, which ``not_found_under`` turns into the project not found."""
        return {"id": value} if looks_like_id(value) else self.lookup("project", value)

    def not_found_under(self, project, error):
        """A read under ``project`` (project_to_read_under) that failed: when it was not found, refused saying so of the
        project if the service does not have that; else the error stands, for the caller to say or raise."""
        if error.status == 404:
            self.lookup("project", project["id"])  # refused: Project <id> was not found.
        return error

    def predicted(self, what, value, key="name"):
        """Something named that does not exist, in check mode: taken as made by an earlier task of the
        run (whose creation check mode only predicted), so that a --check run of a whole playbook goes
        on. It is an item whose ID carries the name; a real run fails if it is still missing."""
        self.warn("Check mode: %s %r does not exist yet; taken as one an earlier task of this run creates. "
                  "A real run fails if it is still missing." % (what, value))
        return {"id": value + PREDICTED, key: value}

    # -- names beside IDs ----------------------------------------------------------------------

    def remember_names(self, items, id_key="id", key="name"):
        """Note the names of items read, to show them beside their IDs in the diff."""
        for item in items:
            name = key(item) if callable(key) else item.get(key) if isinstance(item, dict) else None
            if name and item.get(id_key) and name != item[id_key]:
                self._names[item[id_key]] = name

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


def shared_projects(shared, settings):
    """The mapping in ``shared`` where sessions of one connection keep their reads of projects - another account, another
    service, has projects of its own - so that a runbook step and the modules it runs read a project once. The key is a
    digest: the connection's secrets are kept nowhere else."""
    connection = json.dumps([settings.get(name) for name in ("api_url", "username", "api_token", "session")])
    return shared.setdefault(hashlib.sha256(connection.encode("utf-8")).hexdigest(), {})


def name_in(spec):
    """How an item of a kind of KINDS is named: its key's value, or what its key (a function) makes of it."""
    return spec["key"] if callable(spec["key"]) else (lambda item: item.get(spec["key"]))


def ids_in(scope):
    """The IDs a path of KINDS takes, from the scope of a look-up."""
    ids = {}
    for name in ("project", "credentials"):
        if scope.get(name) is not None:
            ids[name] = scope[name]["id"] if isinstance(scope[name], dict) else scope[name]
    return ids


def owner_of(scope):
    """What a scoped look-up searched in, for messages: project 'x' or region y; empty if neither."""
    if scope.get("region"):
        return "region %s" % scope["region"].get("name")
    if isinstance(scope.get("project"), dict):
        return "project %r" % scope["project"].get("name")
    return ""
