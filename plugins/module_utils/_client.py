# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one client of the Replication and Recovery Service that every module uses.

It logs in (password or API token) or takes a session from ``service_login``, sends the
``session`` cookie and the ``X-XSRF-TOKEN`` header, pages through lists, turns error bodies
into ``ServiceError`` and retries what is safe to retry:

* the first contact with the service - a login, before the service has ever answered this
  client - is not retried when it cannot be made or finds no service: a refused connection, a
  name that does not resolve, a TLS failure, or an answer that is not the service's (404, 405,
  not JSON). Those mean a wrong URL, port or certificate, and waiting would not mend them;
* after that, reads (GET) and logins are retried on connection errors, on 429 and on 5xx answers,
  within a time budget (``retry_budget``, 60 seconds, the option ``retry_timeout``): after as long
  as a 429's or a 503's ``Retry-After`` says (seconds or an HTTP date), else after an exponential
  backoff with jitter. A wait that would end past the budget is not begun: the call fails at once
  and says so. A login creates nothing, so it is retried like a read, also when a session ends
  mid-task;
* a write answered 429 or 503 is retried the same way: those answers say the service did not act
  on it (429: refused for the rate of requests, RFC 6585; 503: unable to handle it now, RFC 9110).
  A 500, 502 or 504 may come after the service acted, so a write answered so is not sent again;
* any call answered 401 is sent again after a fresh login (up to three times for one call),
  because a 401 means the service did nothing;
* a write that went out and got no answer is never repeated here: the caller decides, because
  only it knows how to find out whether the write happened (for example by looking for the job
  a launch created). ``ServiceError.maybe_done`` says when that is the case.

While check mode is on, the client refuses every write, so a module that forgot to predict
instead of act fails loudly rather than changing anything.
"""

import base64
import json
import random
import re
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from email.utils import parsedate_to_datetime

from ansible.module_utils.ansible_release import __version__ as ANSIBLE_VERSION
from ansible_collections.replication.recovery.plugins.module_utils._wait import monotonic, pause

try:
    import requests
except ImportError:
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = traceback.format_exc()
else:
    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None

# The collection's version is written once, in galaxy.yml: code that runs on a managed node cannot
# read it, so the User-Agent names ansible-core's version instead.
USER_AGENT = "replication.recovery (Ansible collection; ansible-core %s)" % ANSIBLE_VERSION
PAGE_LIMIT = 1500
READ_METHODS = ("GET", "HEAD")
RETRY_STATUSES = (429, 500, 502, 503, 504)
# Answers that say the service did not act on the request: a write answered so is sent again.
NOT_ACTED_ON = (429, 503)
RETRY_BUDGET = 60.0
MAX_LOGINS_PER_CALL = 3
MAX_BACKOFF = 10.0
# How many reads get_many has under way at once: the interface has no list of some things (target
# machines, a machine's points in time), and one read after another costs a round trip each.
READS_AT_ONCE = 8


class ServiceError(Exception):
    """A call that failed: what was asked, and what the service (or the network) answered."""

    def __init__(self, method, path, status=None, code=None, message=None, maybe_done=False):
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.message = message
        self.maybe_done = maybe_done
        super(ServiceError, self).__init__(str(self))

    def __str__(self):
        where = "%s %s" % (self.method, self.path)
        if self.status is None:
            return "%s failed: %s" % (where, self.message)
        return "%s failed: HTTP %s %s: %s" % (where, self.status, self.code or "error", self.message or "(no message)")

    def details(self):
        """The error as a dictionary for fail_json; it never holds a body, cookie or secret."""
        return dict(method=self.method, path=self.path, status=self.status, code=self.code, message=self.message)


class WriteInCheckMode(Exception):
    """A module tried to change something while check mode is on: a bug in that module."""


def encode_session(api_url, session, xsrf):
    """The opaque value ``service_login`` returns and other modules accept as ``session``."""
    raw = json.dumps({"url": api_url, "session": session, "xsrf": xsrf}, sort_keys=True)
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii")


def decode_session(value):
    try:
        data = json.loads(base64.urlsafe_b64decode(value.encode("ascii")).decode("utf-8"))
        return data["url"], data["session"], data["xsrf"]
    except (ValueError, KeyError, TypeError, UnicodeError):
        raise ValueError("session is not a value returned by replication.recovery.service_login")


class ServiceClient:
    """A logged-in conversation with the service, at ``api_url`` (``…/api/latest``)."""

    def __init__(self, api_url, username=None, password=None, api_token=None, session=None,
                 validate_certs=True, ca_path=None, timeout=30, check_mode=False,
                 retry_budget=RETRY_BUDGET, backoff=0.5, sleep=pause, clock=monotonic, jitter=None, http=None):
        if session:
            session_url, self._session, self._xsrf = decode_session(session)
            api_url = api_url or session_url
        else:
            self._session = self._xsrf = None
        # A session comes from a login the service answered: there has been contact already.
        self._answered = bool(session)
        if not api_url:
            raise ValueError("api_url is required (or the environment variable REPLICATION_SERVICE_URL)")
        self.api_url = api_url.rstrip("/")
        self._username = username
        self._password = password
        self._api_token = api_token
        self._owns_session = False
        self.timeout = timeout
        self.check_mode = check_mode
        self.retry_budget = retry_budget
        self.backoff = backoff
        self._sleep = sleep
        self._clock = clock
        # Half to all of each step, so that many clients that failed together do not retry together.
        self._jitter = jitter or (lambda step: random.uniform(step / 2, step))
        self._logging_in = threading.Lock()
        # How many times a call was sent again (a retry, a new login): a reader that pairs the service's clock with what
        # it read sees whether time went by between them (module_utils._fleet.read_next_to_the_clock).
        self.retries = 0
        self.http = http or requests.Session()
        self.http.headers["User-Agent"] = USER_AGENT
        # Given with every request: a session's own setting loses to REQUESTS_CA_BUNDLE and CURL_CA_BUNDLE.
        self.verify = ca_path if ca_path else validate_certs
        if self._session:
            self.http.cookies.set("session", self._session)

    # -- sessions ---------------------------------------------------------------------------

    @property
    def has_credentials(self):
        return bool(self._api_token or (self._username and self._password))

    def login(self):
        """Log in with the API token, else username and password; answers the user."""
        if self._api_token:
            body = {"userApiToken": self._api_token}
        elif self._username and self._password:
            body = {"username": self._username, "password": self._password}
        else:
            raise ServiceError("POST", "/login", message="no credentials: give api_token, or username and password, or session")
        with self._logging_in:
            # A session given earlier may have ended; its cookie must not shadow the new one.
            self.http.cookies.clear()
            user = self._send("POST", "/login", body=body, read=True)  # a login creates nothing: retried like a read
            self._session = self.http.cookies.get("session")
            self._xsrf = self.http.cookies.get("XSRF-TOKEN")
        if not self._session or not self._xsrf:
            raise ServiceError("POST", "/login", status=200, message="the service set no session cookie")
        self._owns_session = True
        return user

    def logout(self):
        if self._session:
            try:
                self._send("POST", "/logout")
            finally:
                self._session = self._xsrf = None
                self._owns_session = False
                self.http.cookies.clear()

    def close(self):
        """End the session if this client started it; a session it was given stays open."""
        if self._owns_session:
            self.logout()

    def forget_session(self):
        """Leave the session open when this client is done, for whoever holds its value."""
        self._owns_session = False

    def session_value(self):
        if not self._session:
            self.login()
        return encode_session(self.api_url, self._session, self._xsrf)

    # -- calls -------------------------------------------------------------------------------

    def get(self, path, params=None):
        return self.request("GET", path, params=params)

    def post(self, path, body=None):
        return self.request("POST", path, body=body)

    def patch(self, path, body):
        return self.request("PATCH", path, body=body)

    def delete(self, path, body=None):
        return self.request("DELETE", path, body=body)

    def get_many(self, reads):
        """The answers to many reads - (path, params) pairs - in their order, up to READS_AT_ONCE under
        way at once. Each read is retried as any read is; one whose session ended meanwhile is sent again,
        after a fresh login, once the others are done. A read that fails is answered with its
        ServiceError, for the caller to judge."""
        if not self._session:
            self.login()
        reads = list(reads)

        def read(one):
            try:
                return self._send("GET", one[0], params=one[1], read=True)
            except ServiceError as error:
                return error

        with ThreadPoolExecutor(max_workers=min(READS_AT_ONCE, max(1, len(reads)))) as pool:
            answers = list(pool.map(read, reads))
        for index, ((path, params), answer) in enumerate(zip(reads, answers)):
            if isinstance(answer, ServiceError) and answer.status == 401:
                try:
                    answers[index] = self.get(path, params)
                except ServiceError as error:
                    answers[index] = error
        return answers

    def search(self, path, body):
        """A read sent as a POST (a file search): allowed in check mode, retried like a read."""
        return self.request("POST", path, body=body, read=True)

    def list(self, path, params=None):
        """Every item of a paged list, reading pages of 1500 until one comes back short."""
        return list(self.items(path, params))

    def items(self, path, params=None, page_size=PAGE_LIMIT):
        """The items of a paged list one by one, reading the next page only when it is reached."""
        offset = 0
        while True:
            query = dict(params or {}, offset=offset, limit=page_size)
            page = self.get(path, params=query)["items"]
            yield from page
            if len(page) < page_size:
                return
            offset += page_size

    def request(self, method, path, params=None, body=None, read=False):
        """One call of the interface, logged in, with the retries of the module docstring.

        ``read`` marks a call that changes nothing although it is not a GET.
        """
        read = read or method in READ_METHODS
        if self.check_mode and not read:
            raise WriteInCheckMode("%s %s was about to be sent in check mode" % (method, path))
        if not self._session:
            self.login()
        logins = 0
        while True:
            try:
                return self._send(method, path, params=params, body=body, read=read)
            except ServiceError as error:
                if error.status != 401 or logins >= MAX_LOGINS_PER_CALL:
                    raise
                if not self.has_credentials:
                    raise ServiceError(method, path, 401, error.code,
                                       "%s; the session has ended: log in again with service_login, or give credentials" % error.message)
            # The session ended (also, on a short-lived one, while a read waited to be retried): a
            # fresh one, as long as logging in works; a wrong password fails the login itself.
            self.retries += 1
            self.login()
            logins += 1

    def _send(self, method, path, params=None, body=None, read=None):
        url = self.api_url + path
        read = method in READ_METHODS if read is None else read
        headers = {}
        if method not in READ_METHODS and self._xsrf:
            headers["X-XSRF-TOKEN"] = self._xsrf
        deadline = self._clock() + self.retry_budget
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self.http.request(method, url, params=params, json=body, headers=headers, timeout=self.timeout,
                                             verify=self.verify)
            except (requests.ConnectionError, requests.Timeout) as error:
                if not self._answered and _cannot_connect(error):
                    raise ServiceError(method, path, message="cannot reach the service at %s: %s. It has never answered, so this is "
                                       "taken for a wrong api_url, port or certificate rather than a passing fault, and not retried"
                                       % (url, _cause(error)))
                if read and self._wait_to_retry(self._backoff(attempt), deadline):
                    continue
                # A write may have reached the service before the connection failed.
                raise ServiceError(method, path, message="no answer from the service at %s: %s" % (url, _cause(error)),
                                   maybe_done=not read)
            if not self._answered:
                self._first_answer(method, path, response)
            status = response.status_code
            if status in RETRY_STATUSES and (read or status in NOT_ACTED_ON):
                asked = self._retry_after(response)
                if self._wait_to_retry(self._backoff(attempt) if asked is None else asked, deadline):
                    continue
                raise self._error(method, path, response, why=self._not_waited(asked, attempt, deadline))
            if status >= 400:
                raise self._error(method, path, response)
            if not response.content:
                return None
            try:
                return response.json()
            except ValueError:
                raise ServiceError(method, path, response.status_code, message="the answer is not JSON")

    def _first_answer(self, method, path, response):
        """The first answer this client gets: one that is not the service's fails at once."""
        if response.status_code in (404, 405) or (response.status_code < 400 and response.content and not _is_json(response)):
            raise ServiceError(method, path, response.status_code, message=(
                "there is no Replication and Recovery Service at %s: it answered %s%s. api_url must be the base of the service's "
                "interface, such as https://dr.example.com/api/latest" % (
                    self.api_url, response.status_code, "" if _is_json(response) else " with something other than JSON")))
        if response.status_code not in RETRY_STATUSES:
            self._answered = True

    def _backoff(self, attempt):
        return self._jitter(min(MAX_BACKOFF, self.backoff * (2 ** (attempt - 1))))

    def _wait_to_retry(self, delay, deadline):
        """Wait ``delay`` seconds and answer True, unless that would go past the retry budget."""
        if self._clock() + delay > deadline:
            return False
        self._sleep(delay)
        self.retries += 1
        return True

    def _not_waited(self, asked, attempt, deadline):
        """Why a call answered with a passing fault is not sent again: its retry budget (none is said when it is 0)."""
        if self.retry_budget <= 0:
            return None
        budget = "the retry budget of %g s (retry_timeout)" % self.retry_budget
        if asked is not None:
            return "the service asks to wait %g s before the next request (Retry-After); %g s are left of %s, so it was not waited" % (
                asked, max(deadline - self._clock(), 0.0), budget)
        return "still so after %d attempts, within %s" % (attempt, budget)

    @staticmethod
    def _retry_after(response):
        """The seconds a 429 or a 503 asks to wait (RFC 9110: a number of seconds, or an HTTP date), or None."""
        value = response.headers.get("Retry-After")
        if response.status_code not in NOT_ACTED_ON or not value:
            return None
        try:
            seconds = float(value)
        except ValueError:
            try:
                seconds = parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError, IndexError):
                return None
        return max(seconds, 0.0)

    @staticmethod
    def _error(method, path, response, why=None):
        try:
            body = response.json()
            code, message = body.get("code"), body.get("message")
        except (ValueError, AttributeError):
            code, message = None, (response.reason or "").strip() or None
        if why:
            message = "%s - %s" % (message or "(no message)", why)
        return ServiceError(method, path, response.status_code, code, message)


def _cannot_connect(error):
    """Whether no connection could be made at all - refused, a name that does not resolve, TLS refused -
    rather than one that was made and then failed or timed out."""
    if isinstance(error, requests.exceptions.SSLError):
        return True
    if isinstance(error, requests.Timeout):
        return False
    return bool(re.search(r"NewConnectionError|NameResolutionError|Failed to establish a new connection|Failed to resolve|"
                          r"Name or service not known|Connection refused", str(error)))


def _is_json(response):
    return "json" in (response.headers.get("Content-Type") or "").lower()


def _cause(error):
    """What went wrong with a connection, in a few words: a certificate not trusted, a refused
    connection, a name that does not resolve, a timeout. Never more than the error says."""
    text = str(error)
    for pattern in (r"\[SSL: \w+\] ([^(]+?) \(_ssl", r"\[Errno -?\d+\] ([^\"')]+)", r"(Read timed out|Connect timed out|timed out)"):
        match = re.search(pattern, text)
        if match:
            return "%s (%s)" % (match.group(1).strip(), type(error).__name__)
    return type(error).__name__
