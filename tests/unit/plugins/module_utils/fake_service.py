# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A stand-in for the service under a real requests.Session, for the client's unit tests.

It is a transport adapter: requests builds the requests, parses Set-Cookie into its jar and
JSON out of bodies as it would with a real server; the adapter answers from a script.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import http.client
import json
import types

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

XSRF_COOKIE = '"c2VjcmV0LXhzcmY=\\012"'


class Answer:
    """One scripted answer: a status and body, or an exception to raise instead."""

    def __init__(self, status=200, body=None, headers=None, cookies=(), raises=None):
        self.status = status
        self.body = body
        self.headers = headers or {}
        self.cookies = list(cookies)
        self.raises = raises


class FakeService(BaseAdapter):
    def __init__(self):
        super(FakeService, self).__init__()
        self.script = {}
        self.sent = []

    def on(self, method, path, *answers):
        """Answer ``method path`` with these answers in turn; the last one repeats."""
        self.script[(method, path)] = list(answers)
        return self

    def calls(self, method=None, path=None):
        return [r for r in self.sent if (method is None or r.method == method) and (path is None or r.path == path)]

    def send(self, request, **kwargs):
        path = request.path_url.split("?")[0].replace("/api/latest", "", 1)
        request.path = path
        request.sent_kwargs = kwargs
        request.json_body = json.loads(request.body) if request.body else None
        self.sent.append(request)
        answers = self.script.get((request.method, path))
        if not answers:
            raise AssertionError("unexpected %s %s" % (request.method, path))
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        if answer.raises is not None:
            raise answer.raises
        return self._response(request, answer)

    @staticmethod
    def _response(request, answer):
        response = requests.Response()
        response.status_code = answer.status
        response.request = request
        response.url = request.url
        response.reason = http.client.responses.get(answer.status, "")
        response.headers = CaseInsensitiveDict(answer.headers)
        if isinstance(answer.body, str):  # a page of something else than the service: text, as headers say
            response._content = answer.body.encode()
        else:
            response._content = b"" if answer.body is None else json.dumps(answer.body).encode()
            if answer.body is not None:
                response.headers["Content-Type"] = "application/json"
        message = http.client.HTTPMessage()
        for cookie in answer.cookies:
            message["Set-Cookie"] = cookie
        response.raw = types.SimpleNamespace(_original_response=types.SimpleNamespace(msg=message))
        return response

    def close(self):
        pass


def login_answer(session="s3ss10n"):
    return Answer(200, {"id": "u1", "username": "dr@example.com", "apiToken": "tok"},
                  cookies=["session=%s; HttpOnly; Path=/" % session, "XSRF-TOKEN=%s; Path=/" % XSRF_COOKIE])
