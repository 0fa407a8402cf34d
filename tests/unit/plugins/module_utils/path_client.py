# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A stand-in for ServiceClient's reads, for tests of what is read and how often."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError


class PathClient:
    """Answers reads from a dictionary of paths: a dictionary (a GET), a list (a whole paged list) or an error;
    a path it does not know is answered 404. Records every path read, in order."""

    def __init__(self, answers):
        self.answers = answers
        self.requests = []
        self.batches = []

    def get(self, path, params=None):
        self.requests.append(path)
        answer = self.answers.get(path, ServiceError("GET", path, 404, "notFound", "not found"))
        if isinstance(answer, Exception):
            raise answer
        return answer

    list = get

    def get_many(self, reads):
        """Many reads at once, as ServiceClient.get_many answers them: a list's first page, a failed read's error."""
        self.batches.append([path for path, unused in reads])
        answers = []
        for path, unused in reads:
            answer = self.answers.get(path, ServiceError("GET", path, 404, "notFound", "not found"))
            answers.append(dict(items=answer) if isinstance(answer, list) else answer)
        return answers
