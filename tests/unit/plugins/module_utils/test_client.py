# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import pytest
import requests

from ansible_collections.replication.recovery.plugins.module_utils import _client as client_module
from ansible_collections.replication.recovery.plugins.module_utils._client import (
    ServiceClient, ServiceError, WriteInCheckMode, decode_session, encode_session)
from ansible_collections.replication.recovery.plugins.module_utils._connection import connection_settings
from ansible_collections.replication.recovery.plugins.module_utils._connection import make_client as make_connected
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.fake_service import (
    XSRF_COOKIE, Answer, FakeService, login_answer)

URL = "https://dr.example.com/api/latest"


@pytest.fixture
def service():
    return FakeService().on("POST", "/login", login_answer()).on("POST", "/logout", Answer(204))


def make_client(service, sleeps=None, **options):
    """A client of the fake service; its clock moves only when it sleeps, and its backoff has no jitter."""
    http = requests.Session()
    http.mount("https://", service)
    sleeps = [] if sleeps is None else sleeps
    credentials = dict(username="dr@example.com", password="pw", jitter=lambda step: step)
    credentials.update(options)
    return ServiceClient(URL, http=http, sleep=sleeps.append, clock=lambda: sum(sleeps), **credentials)


def test_password_login_then_the_session_cookie_on_every_call(service):
    service.on("GET", "/projects/p1", Answer(200, {"id": "p1"}))
    client = make_client(service)
    assert client.get("/projects/p1") == {"id": "p1"}
    login, read = service.sent
    assert login.json_body == {"username": "dr@example.com", "password": "pw"}
    assert "session=s3ss10n" in read.headers["Cookie"]
    assert "X-XSRF-TOKEN" not in read.headers  # reads do not need it


def test_token_login_is_preferred_to_a_password(service):
    service.on("GET", "/me", Answer(200, {}))
    make_client(service, api_token="t0k3n").get("/me")
    assert service.sent[0].json_body == {"userApiToken": "t0k3n"}


def test_writes_send_the_xsrf_token_of_the_cookie(service):
    service.on("POST", "/projects", Answer(201, {"id": "p1"})).on("PATCH", "/projects/p1", Answer(200, {})).on("DELETE", "/projects/p1", Answer(204))
    client = make_client(service)
    client.post("/projects", {"name": "x"})
    client.patch("/projects/p1", {"name": "y"})
    assert client.delete("/projects/p1") is None
    for request in service.sent[1:]:
        assert request.headers["X-XSRF-TOKEN"] == XSRF_COOKIE


@pytest.mark.parametrize("bundle", [None, "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def test_every_call_has_a_timeout_tls_settings_and_the_user_agent(service, monkeypatch, bundle):
    """With a CA bundle in the environment (common on CI runners) the module's own settings still count."""
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    if bundle:
        monkeypatch.setenv(bundle, "/etc/ssl/certs/ca-certificates.crt")
    service.on("GET", "/me", Answer(200, {}))
    client = make_client(service, timeout=7, ca_path="/etc/ca.pem")
    client.get("/me")
    for request in service.sent:
        assert request.sent_kwargs["timeout"] == 7
        assert request.sent_kwargs["verify"] == "/etc/ca.pem"
        assert request.headers["User-Agent"] == client_module.USER_AGENT
    service.sent.clear()
    make_client(service, validate_certs=False).get("/me")
    assert all(request.sent_kwargs["verify"] is False for request in service.sent)


def test_the_version_of_the_collection_is_written_once_in_galaxy_yml():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")
    with open(os.path.join(root, "galaxy.yml")) as handle:
        version = re.search(r"^version: (\S+)$", handle.read(), re.M).group(1)
    for folder in ("plugins", "roles"):
        for directory, unused, files in os.walk(os.path.join(root, folder)):
            for name in files:
                if not name.endswith((".py", ".yml", ".yaml", ".md", ".j2", ".json")):
                    continue  # compiled caches, and nothing else that could hold the version
                with open(os.path.join(directory, name)) as handle:
                    assert not re.search(r"(?i)version[\"']?\s*[=:]\s*[\"']?%s" % re.escape(version), handle.read()), name
    assert client_module.USER_AGENT.startswith("replication.recovery (Ansible collection; ansible-core ")


@pytest.mark.parametrize("status", [502, 503, 504])
def test_reads_are_retried_on_gateway_errors_with_backoff(service, status):
    service.on("GET", "/projects", Answer(status, {"code": "internalError", "message": "busy"}), Answer(200, {"items": []}))
    sleeps = []
    client = make_client(service, sleeps)
    assert client.get("/projects") == {"items": []}
    assert len(service.calls("GET")) == 2 and sleeps == [0.5]
    assert client.retries == 1  # a reader of the clock beside the machines knows time went by (module_utils._fleet)


@pytest.mark.parametrize("error,cause", [
    (requests.exceptions.SSLError("HTTPSConnectionPool(host='dr.example.com', port=443): Max retries exceeded with url: /api/latest/me "
                                  "(Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
                                  "failed: self-signed certificate (_ssl.c:1006)')))"),
     "certificate verify failed: self-signed certificate (SSLError)"),
    (requests.ConnectionError("HTTPSConnectionPool(host='dr.example.com', port=443): Max retries exceeded with url: /api/latest/me "
                              "(Caused by NewConnectionError(\"...: Failed to establish a new connection: [Errno 111] Connection refused\"))"),
     "Connection refused (ConnectionError)"),
    (requests.exceptions.ReadTimeout("HTTPSConnectionPool(host='dr.example.com', port=443): Read timed out. (read timeout=30)"),
     "Read timed out (ReadTimeout)"),
    (requests.ConnectionError("something else"), "ConnectionError"),
])
def test_no_answer_names_the_url_and_the_cause(service, error, cause):
    service.on("GET", "/me", Answer(raises=error))
    with pytest.raises(ServiceError) as failure:
        make_client(service, retry_budget=0).get("/me")
    assert str(failure.value) == "GET /me failed: no answer from the service at %s/me: %s" % (URL, cause)


def test_reads_are_retried_on_connection_errors(service):
    service.on("GET", "/me", Answer(raises=requests.ConnectionError("reset")), Answer(raises=requests.Timeout("slow")), Answer(200, {}))
    sleeps = []
    make_client(service, sleeps).get("/me")
    assert sleeps == [0.5, 1.0]


def test_429_waits_as_long_as_retry_after_says(service):
    service.on("GET", "/me", Answer(429, {"code": "tooManyRequests", "message": "slow down"}, headers={"Retry-After": "7"}), Answer(200, {}))
    sleeps = []
    make_client(service, sleeps).get("/me")
    assert sleeps == [7.0]


def test_retries_end_with_their_time_budget(service):
    service.on("GET", "/me", Answer(503, {"code": "internalError", "message": "down"}))
    sleeps = []
    with pytest.raises(ServiceError) as failure:
        make_client(service, sleeps, retry_budget=30).get("/me")
    assert failure.value.status == 503
    assert sleeps == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0]  # backing off up to 10 s, within the 30 s budget
    assert len(service.calls("GET")) == 7


def test_the_default_budget_keeps_a_read_going_through_a_minute_of_trouble(service):
    trouble = [Answer(503, {"code": "internalError", "message": "down"})] * 9
    service.on("GET", "/me", *(trouble + [Answer(200, {"id": "me"})]))
    sleeps = []
    assert make_client(service, sleeps).get("/me") == {"id": "me"}
    assert 45 < sum(sleeps) <= 60


def test_backoff_is_jittered_between_half_and_all_of_each_step(service):
    service.on("GET", "/me", *([Answer(502, {})] * 4 + [Answer(200, {})]))
    sleeps = []
    make_client(service, sleeps, jitter=None).get("/me")
    steps = [0.5, 1.0, 2.0, 4.0]
    assert len(sleeps) == 4 and all(step / 2 <= slept <= step for slept, step in zip(sleeps, steps))


@pytest.mark.parametrize("first", [Answer(500, {"code": "internalError", "message": "oops"}), Answer(503, {}),
                                   Answer(raises=requests.ConnectionError("('Connection aborted.', ConnectionResetError(104))")),
                                   Answer(raises=requests.exceptions.ReadTimeout("Read timed out. (read timeout=30)"))])
def test_a_login_is_retried_like_a_read(service, first):
    service.on("POST", "/login", first, login_answer())
    service.on("GET", "/me", Answer(200, {"id": "me"}))
    sleeps = []
    assert make_client(service, sleeps).get("/me") == {"id": "me"}
    assert len(service.calls("POST", "/login")) == 2 and sleeps == [0.5]


def test_a_login_with_wrong_credentials_is_not_retried(service):
    service.on("POST", "/login", Answer(401, {"code": "unauthenticated", "message": "no"}))
    with pytest.raises(ServiceError) as failure:
        make_client(service).get("/me")
    assert failure.value.status == 401 and len(service.calls("POST", "/login")) == 1


def test_a_login_again_in_the_middle_of_a_task_is_retried_too(service):
    """The session ends mid-task, and the service answers the new login with a 500 once."""
    service.on("GET", "/me", Answer(200, {"n": 1}), Answer(401, {"code": "sessionExpired", "message": "expired"}), Answer(200, {"n": 2}))
    service.on("POST", "/login", login_answer(), Answer(500, {"code": "internalError", "message": "oops"}), login_answer())
    client = make_client(service)
    assert client.get("/me") == {"n": 1}
    assert client.retries == 0
    assert client.get("/me") == {"n": 2}
    assert len(service.calls("POST", "/login")) == 3
    assert client.retries == 2  # logged in again, and that login retried once


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_write_answered_with_an_error_it_may_have_acted_on_is_not_retried(service, status):
    service.on("POST", "/projects/p1/launchMachines", Answer(status, {"code": "internalError", "message": "down"}), Answer(202, {}))
    with pytest.raises(ServiceError) as failure:
        make_client(service).post("/projects/p1/launchMachines", {})
    assert len(service.calls("POST", "/projects/p1/launchMachines")) == 1
    assert failure.value.maybe_done is False and failure.value.message == "down"


@pytest.mark.parametrize("refused,waited", [
    (Answer(429, {"code": "tooManyRequests", "message": "slow down"}, headers={"Retry-After": "3"}), [3.0]),
    (Answer(503, {"code": "unavailable", "message": "busy"}, headers={"Retry-After": "3"}), [3.0]),
    (Answer(429, {"code": "tooManyRequests", "message": "slow down"}), [0.5]),
    (Answer(503, {"code": "unavailable", "message": "busy"}), [0.5]),
])
def test_a_write_the_service_refused_without_acting_is_sent_again(service, refused, waited):
    """429 and 503 say the service did not act on the request: the launch is sent again, once, when it may be."""
    service.on("POST", "/projects/p1/launchMachines", refused, Answer(202, {"id": "job-1"}))
    sleeps = []
    assert make_client(service, sleeps).post("/projects/p1/launchMachines", {}) == {"id": "job-1"}
    assert len(service.calls("POST", "/projects/p1/launchMachines")) == 2 and sleeps == waited


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_as_an_http_date_is_waited_out_on_429_and_503(service, monkeypatch, status):
    monkeypatch.setattr(client_module.time, "time", lambda: 1795651200.0)  # Thu, 26 Nov 2026 00:00:00 GMT
    service.on("GET", "/me", Answer(status, {}, headers={"Retry-After": "Thu, 26 Nov 2026 00:00:12 GMT"}), Answer(200, {"id": "me"}))
    sleeps = []
    assert make_client(service, sleeps).get("/me") == {"id": "me"}
    assert sleeps == [12.0]


@pytest.mark.parametrize("value", ["Thu, 25 Nov 2026 23:59:00 GMT", "0"])
def test_a_retry_after_already_past_is_no_wait(service, monkeypatch, value):
    monkeypatch.setattr(client_module.time, "time", lambda: 1795651200.0)
    service.on("GET", "/me", Answer(429, {}, headers={"Retry-After": value}), Answer(200, {}))
    sleeps = []
    make_client(service, sleeps).get("/me")
    assert sleeps == [0.0]


@pytest.mark.parametrize("value", ["soon", "Thu, 32 Nov 2026 25:00:00 XYZ", ""])
def test_a_retry_after_that_is_no_time_leaves_the_backoff(service, value):
    service.on("GET", "/me", Answer(503, {}, headers={"Retry-After": value}), Answer(200, {}))
    sleeps = []
    make_client(service, sleeps).get("/me")
    assert sleeps == [0.5]


def test_a_retry_after_past_the_budget_fails_at_once_and_says_why(service):
    service.on("POST", "/projects/p1/launchMachines", Answer(429, {"code": "tooManyRequests", "message": "slow down"}, headers={"Retry-After": "90"}))
    sleeps = []
    with pytest.raises(ServiceError) as failure:
        make_client(service, sleeps, retry_budget=60).post("/projects/p1/launchMachines", {})
    assert sleeps == []  # never sleeps past the budget, nor a part of it for nothing
    assert len(service.calls("POST", "/projects/p1/launchMachines")) == 1 and not failure.value.maybe_done
    assert failure.value.status == 429 and failure.value.message == (
        "slow down - the service asks to wait 90 s before the next request (Retry-After); 60 s are left of the retry budget "
        "of 60 s (retry_timeout), so it was not waited")


def test_a_budget_spent_by_the_backoff_says_so(service):
    service.on("GET", "/me", Answer(503, {"code": "unavailable", "message": "busy"}))
    with pytest.raises(ServiceError) as failure:
        make_client(service, retry_budget=3).get("/me")
    assert str(failure.value) == "GET /me failed: HTTP 503 unavailable: busy - still so after 3 attempts, within the retry budget of 3 s (retry_timeout)"


def test_a_budget_of_zero_retries_nothing_and_adds_nothing(service):
    service.on("GET", "/me", Answer(429, {"code": "tooManyRequests", "message": "slow down"}, headers={"Retry-After": "1"}))
    with pytest.raises(ServiceError) as failure:
        make_client(service, retry_budget=0).get("/me")
    assert failure.value.message == "slow down" and len(service.calls("GET", "/me")) == 1


def test_a_write_without_an_answer_is_not_retried_and_may_be_done(service):
    service.on("POST", "/projects/p1/launchMachines", Answer(raises=requests.ConnectionError("dropped")))
    with pytest.raises(ServiceError) as failure:
        make_client(service).post("/projects/p1/launchMachines", {})
    assert len(service.calls("POST", "/projects/p1/launchMachines")) == 1
    assert failure.value.maybe_done is True and failure.value.status is None
    assert "no answer from the service" in str(failure.value)


def test_a_401_leads_to_one_fresh_login(service):
    service.on("POST", "/login", login_answer("first"), login_answer("second"))
    service.on("PATCH", "/projects/p1", Answer(401, {"code": "sessionExpired", "message": "expired"}), Answer(200, {"id": "p1"}))
    assert make_client(service).patch("/projects/p1", {"name": "n"}) == {"id": "p1"}
    assert [r.path for r in service.sent] == ["/login", "/projects/p1", "/login", "/projects/p1"]
    assert "session=second" in service.sent[-1].headers["Cookie"]


def test_fresh_logins_for_one_call_are_few(service):
    """A service that keeps answering 401 to a call (however often it lets the user log in) ends it."""
    service.on("GET", "/me", Answer(401, {"code": "unauthenticated", "message": "no"}))
    with pytest.raises(ServiceError) as failure:
        make_client(service).get("/me")
    assert failure.value.status == 401
    assert [r.path for r in service.sent] == ["/login", "/me"] + ["/login", "/me"] * 3


def test_a_session_that_ends_again_while_a_read_waits_to_be_retried(service):
    """Short sessions: the fresh one ends while the read waits out a 503. It logs in again."""
    service.on("GET", "/me", Answer(401, {"code": "sessionExpired", "message": "expired"}), Answer(503, {}),
               Answer(401, {"code": "sessionExpired", "message": "expired"}), Answer(200, {"id": "me"}))
    assert make_client(service).get("/me") == {"id": "me"}
    assert len(service.calls("POST", "/login")) == 3


def test_a_session_without_credentials_says_how_to_go_on(service):
    service.on("GET", "/me", Answer(401, {"code": "sessionExpired", "message": "The session has expired"}))
    session = encode_session(URL, "old", XSRF_COOKIE)
    client = make_client(service, username=None, password=None, session=session)
    with pytest.raises(ServiceError) as failure:
        client.get("/me")
    assert "log in again with service_login" in str(failure.value)
    assert service.calls("POST", "/login") == []


def test_a_reused_session_needs_no_login_and_is_not_logged_out(service):
    service.on("GET", "/me", Answer(200, {})).on("POST", "/projects", Answer(201, {}))
    client = make_client(service, username=None, password=None, session=encode_session(URL, "reused", XSRF_COOKIE))
    client.get("/me")
    client.post("/projects", {"name": "x"})
    client.close()
    assert [r.path for r in service.sent] == ["/me", "/projects"]
    assert "session=reused" in service.sent[0].headers["Cookie"]
    assert service.sent[1].headers["X-XSRF-TOKEN"] == XSRF_COOKIE


def test_close_logs_out_a_session_the_client_started(service):
    service.on("GET", "/me", Answer(200, {}))
    client = make_client(service)
    client.get("/me")
    client.close()
    assert [r.path for r in service.sent] == ["/login", "/me", "/logout"]
    assert service.sent[-1].headers["X-XSRF-TOKEN"] == XSRF_COOKIE


def test_session_values_round_trip_and_carry_the_url():
    value = encode_session(URL, "sid", XSRF_COOKIE)
    assert decode_session(value) == (URL, "sid", XSRF_COOKIE)
    assert ServiceClient(None, session=value).api_url == URL
    with pytest.raises(ValueError):
        decode_session("not a session")


@pytest.mark.parametrize("total,pages", [(0, 1), (1499, 1), (1500, 2), (3001, 3)])
def test_paging_reads_until_a_short_page(service, total, pages):
    items = list(range(total))
    answers = [Answer(200, {"items": items[start:start + 1500]}) for start in range(0, pages * 1500, 1500)]
    service.on("GET", "/projects", *answers)
    assert make_client(service).list("/projects") == items
    offsets = [int(re.search(r"offset=(\d+)", r.url).group(1)) for r in service.calls("GET", "/projects")]
    assert offsets == [1500 * page for page in range(pages)]
    assert all("limit=1500" in r.url for r in service.calls("GET", "/projects"))


def test_items_read_the_next_page_only_when_it_is_reached(service):
    service.on("GET", "/projects/p1/jobs", Answer(200, {"items": [1, 2]}), Answer(200, {"items": [3, 4]}), Answer(200, {"items": []}))
    items = make_client(service).items("/projects/p1/jobs", page_size=2)
    assert [next(items), next(items)] == [1, 2]
    assert len(service.calls("GET")) == 1
    assert list(items) == [3, 4]
    assert [int(re.search(r"offset=(\d+)", r.url).group(1)) for r in service.calls("GET")] == [0, 2, 4]
    assert all("limit=2" in r.url for r in service.calls("GET"))


def test_errors_carry_method_path_status_code_and_message(service):
    service.on("GET", "/projects/nope", Answer(404, {"code": "notFound", "message": "Project nope was not found."}))
    with pytest.raises(ServiceError) as failure:
        make_client(service).get("/projects/nope")
    error = failure.value
    assert str(error) == "GET /projects/nope failed: HTTP 404 notFound: Project nope was not found."
    assert error.details() == {"method": "GET", "path": "/projects/nope", "status": 404, "code": "notFound", "message": "Project nope was not found."}


def test_an_error_without_a_json_body_still_says_what_happened(service):
    service.on("GET", "/me", Answer(500, None))
    with pytest.raises(ServiceError) as failure:
        make_client(service, retry_budget=0).get("/me")
    assert "HTTP 500" in str(failure.value)


def test_bad_credentials_fail_the_login(service):
    service.on("POST", "/login", Answer(401, {"code": "unauthenticated", "message": "The username and password are not valid."}))
    with pytest.raises(ServiceError) as failure:
        make_client(service).get("/me")
    assert str(failure.value) == "POST /login failed: HTTP 401 unauthenticated: The username and password are not valid."
    assert "pw" not in str(failure.value.details())


def test_check_mode_refuses_every_write_before_sending_it(service):
    service.on("GET", "/projects", Answer(200, {"items": []}))
    client = make_client(service, check_mode=True)
    assert client.list("/projects") == []  # reads, and the login they need, go on
    for method in ("POST", "PATCH", "DELETE"):
        with pytest.raises(WriteInCheckMode):
            client.request(method, "/projects", body={})
    assert [r.method for r in service.sent] == ["POST", "GET"]  # the login and the read
    client.close()  # logging out is not a write


def test_no_url_no_client():
    with pytest.raises(ValueError):
        ServiceClient(None, username="u", password="p")


def test_a_search_is_a_read_sent_as_a_post(service):
    service.on("POST", "/projects/p1/findFiles", Answer(503, {"code": "internalError", "message": "busy"}), Answer(200, {"count": 0, "items": []}))
    client = make_client(service, check_mode=True)
    assert client.search("/projects/p1/findFiles", {"query": "x", "machineIDs": ["m"]})["count"] == 0
    searches = service.calls("POST", "/projects/p1/findFiles")
    assert len(searches) == 2  # retried, like a read, and allowed in check mode
    assert searches[0].headers["X-XSRF-TOKEN"] == XSRF_COOKIE


# -- the first contact: a wrong URL, port or certificate fails at once ------------------------------

REFUSED = requests.ConnectionError("HTTPSConnectionPool(host='dr.example.com', port=8443): Max retries exceeded with url: /api/latest/login "
                                   "(Caused by NewConnectionError(\"...: Failed to establish a new connection: [Errno 111] Connection refused\"))")
UNKNOWN_NAME = requests.ConnectionError("HTTPSConnectionPool(host='dr.exmaple.com', port=443): Max retries exceeded with url: /api/latest/login "
                                        "(Caused by NameResolutionError(\"...: Failed to resolve 'dr.exmaple.com' ([Errno -2] Name or service not "
                                        "known)\"))")
UNTRUSTED = requests.exceptions.SSLError("HTTPSConnectionPool(host='dr.example.com', port=443): Max retries exceeded with url: /api/latest/login "
                                         "(Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
                                         "failed: self-signed certificate (_ssl.c:1006)')))")


@pytest.mark.parametrize("error,cause", [(REFUSED, "Connection refused (ConnectionError)"),
                                         (UNKNOWN_NAME, "Name or service not known (ConnectionError)"),
                                         (UNTRUSTED, "certificate verify failed: self-signed certificate (SSLError)")])
def test_a_first_contact_that_cannot_connect_fails_at_once(service, error, cause):
    service.on("POST", "/login", Answer(raises=error), login_answer())
    sleeps = []
    with pytest.raises(ServiceError) as failure:
        make_client(service, sleeps).get("/me")
    assert sleeps == [] and len(service.calls("POST", "/login")) == 1
    assert str(failure.value).startswith("POST /login failed: cannot reach the service at %s/login: %s. It has never answered" % (URL, cause))
    assert not failure.value.maybe_done


@pytest.mark.parametrize("answer,said", [(Answer(404, {"code": "notFound", "message": "no such path"}), "it answered 404."),
                                         (Answer(405, None), "it answered 405 with something other than JSON."),
                                         (Answer(200, "<html>Welcome to nginx</html>", headers={"Content-Type": "text/html"}),
                                          "it answered 200 with something other than JSON.")])
def test_a_first_contact_that_finds_no_service_fails_at_once(service, answer, said):
    service.on("POST", "/login", answer)
    sleeps = []
    with pytest.raises(ServiceError) as failure:
        make_client(service, sleeps).get("/me")
    assert sleeps == [] and len(service.calls("POST", "/login")) == 1
    assert "there is no Replication and Recovery Service at %s: %s api_url must be the base" % (URL, said) in str(failure.value)


def test_after_the_first_answer_the_same_faults_are_retried_within_the_budget(service):
    service.on("GET", "/me", Answer(200, {"id": "me"}))
    service.on("GET", "/projects", Answer(raises=REFUSED), Answer(raises=REFUSED), Answer(200, {"items": []}))
    sleeps = []
    client = make_client(service, sleeps)
    client.get("/me")
    assert client.get("/projects") == {"items": []} and sleeps == [0.5, 1.0]


def test_a_session_given_counts_as_contact_made(service):
    service.on("GET", "/me", Answer(raises=REFUSED), Answer(200, {"id": "me"}))
    sleeps = []
    client = make_client(service, sleeps, username=None, password=None, session=encode_session(URL, "reused", XSRF_COOKIE))
    assert client.get("/me") == {"id": "me"} and sleeps == [0.5]


def test_the_retry_budget_is_the_option_retry_timeout(service, monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_RETRY_TIMEOUT", "5")
    settings = connection_settings(dict(api_url=URL, username="dr@example.com", password="pw"))
    assert settings["retry_timeout"] == 5 and make_connected(settings).retry_budget == 5
    assert connection_settings(dict(api_url=URL, retry_timeout="90"))["retry_timeout"] == 90


# -- many reads at once ---------------------------------------------------------------------------------


def test_many_reads_are_answered_in_their_order_and_a_failed_one_with_its_error(service):
    for number in range(20):
        service.on("GET", "/projects/p1/replicas/r%d" % number, Answer(200, {"id": "r%d" % number}))
    service.on("GET", "/projects/p1/replicas/gone", Answer(404, {"code": "notFound", "message": "no such replica"}))
    reads = [("/projects/p1/replicas/r%d" % number, None) for number in range(20)] + [("/projects/p1/replicas/gone", None)]
    answers = make_client(service).get_many(reads)
    assert [answer["id"] for answer in answers[:20]] == ["r%d" % number for number in range(20)]
    assert isinstance(answers[20], ServiceError) and answers[20].status == 404
    assert len(service.calls("POST", "/login")) == 1


def test_a_read_whose_session_ended_meanwhile_is_sent_again_after_a_fresh_login(service):
    expired = Answer(401, {"code": "sessionExpired", "message": "expired"})
    service.on("GET", "/projects/p1/replicas/r1", expired, expired, Answer(200, {"id": "r1"}))
    service.on("GET", "/projects/p1/replicas/r2", Answer(200, {"id": "r2"}))
    answers = make_client(service).get_many([("/projects/p1/replicas/r1", None), ("/projects/p1/replicas/r2", None)])
    assert [answer["id"] for answer in answers] == ["r1", "r2"] and len(service.calls("POST", "/login")) == 2
