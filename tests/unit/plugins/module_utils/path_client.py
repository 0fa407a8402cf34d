# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A stand-in for ServiceClient's reads, for tests of what is read and how often."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._domain import iso_time
from ansible_collections.replication.recovery.plugins.module_utils._session import Session


def set_up_without_ansible(module, client, params=None, check_mode=False):
    """Give a ServiceModule (or a module's class built on it) what its set-up gives it, without AnsibleModule's: a session
    with this client, parameters, no warnings yet, nothing read or changed."""
    module.params = params or {}
    module.check_mode = check_mode
    module.warnings = []
    module.session = Session(module.params, check_mode=check_mode, client=client, warn=module.warn)
    module.changed = False
    module.diff = dict(before={}, after={})


class Counted(dict):
    """A machine that counts how often its name is read (name_of reads its sourceProperties): for the tests of work that
    must not grow with the square of the machines."""

    reads = 0

    def get(self, key, default=None):
        if key == "sourceProperties":
            Counted.reads += 1
        return super(Counted, self).get(key, default)


class PathClient:
    """Answers reads from a dictionary of paths: a dictionary (a GET), a list (a whole paged list) or an error;
    a path it does not know is answered 404. Records every path read, in order."""

    def __init__(self, answers):
        self.answers = answers
        self.requests = []
        self.batches = []
        self.retries = 0  # ServiceClient's count of calls sent again: this one answers each at once

    def get(self, path, params=None):
        self.requests.append(path)
        answer = self.answers.get(path, ServiceError("GET", path, 404, "notFound", "not found"))
        if isinstance(answer, Exception):
            raise answer
        return answer

    list = get

    def items(self, path, params=None, page_size=None):
        """A paged list's items one by one, as ServiceClient.items gives them: here, the whole list at once."""
        return iter(self.get(path, params))

    def get_many(self, reads):
        """Many reads at once, as ServiceClient.get_many answers them: a list's first page, a failed read's error."""
        self.batches.append([path for path, unused in reads])
        answers = []
        for path, unused in reads:
            answer = self.answers.get(path, ServiceError("GET", path, 404, "notFound", "not found"))
            answers.append(dict(items=answer) if isinstance(answer, list) else answer)
        return answers

    def close(self):
        """A session closes its client as it ends (ServiceClient logs out): nothing to close here."""


class ClockedClient(PathClient):
    """A PathClient with the service's clock (``now``, epoch seconds), which /extendedAccountInfo answers. An answer may
    be a function of the clock (machines that replicate while time goes by). A path in ``slow`` is answered, the first
    time it is read, only after retries that take that many seconds of the service's clock (counted in ``retries``, as
    ServiceClient counts them)."""

    def __init__(self, answers, now, slow=None):
        super(ClockedClient, self).__init__(answers)
        self.now = now
        self.slow = dict(slow or {})

    def get(self, path, params=None):
        if path in self.slow:
            self.now += self.slow.pop(path)
            self.retries += 1
        if path == "/extendedAccountInfo":
            self.requests.append(path)
            return {"dateTime": {"dateTime": iso_time(self.now)}}
        answer = super(ClockedClient, self).get(path, params)
        return answer(self.now) if callable(answer) else answer

    list = get
