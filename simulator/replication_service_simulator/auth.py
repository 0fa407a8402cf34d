"""Authentication as docs/wire.md describes it: login, the session cookie, the XSRF header, roles.

A session ends after ``Simulator.session_lifetime`` seconds without a request (virtual time).
Five failed logins of one username within fifteen minutes lock it for fifteen minutes.
"""

from dataclasses import dataclass
from typing import Union

from fastapi import Depends, Request, Response

from .errors import ServiceError, forbidden
from .models import PasswordLogin, TokenLogin, User
from .routing import ServiceRouter
from .state import LOCKOUT_WINDOW, Session
from . import views

router = ServiceRouter()
XSRF_SUFFIX = "\\012"


@dataclass
class Caller:
    user: object
    session: Session


def _sim(request):
    return request.app.state.sim


def authenticated(request: Request) -> Caller:
    """The user behind the request's session cookie, for reads."""
    sim = _sim(request)
    sid = request.cookies.get("session")
    if not sid:
        raise ServiceError(401, "unauthenticated", "Log in first: this request has no session.")
    session = sim.sessions.get(sid)
    now = sim.now()
    if session is None:
        raise ServiceError(401, "unauthenticated", "The session is not known; log in again.")
    if now - session.last_used > sim.session_lifetime:
        del sim.sessions[sid]
        raise ServiceError(401, "sessionExpired", "The session has expired; log in again.")
    user = sim.users.get(session.user_id)
    if user is None or user.status == "DELETED":
        del sim.sessions[sid]
        raise ServiceError(401, "unauthenticated", "The session's user no longer exists.")
    session.last_used = now
    return Caller(user, session)


def normalise_xsrf(value):
    """Accept the token as real clients send it: quoted or not, with or without ``\\012``."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if value.endswith(XSRF_SUFFIX):
        value = value[:-len(XSRF_SUFFIX)]
    return value.rstrip("\n")


def _check_xsrf(request, caller):
    sent = request.headers.get("x-xsrf-token")
    if sent is None or normalise_xsrf(sent) != caller.session.xsrf:
        raise ServiceError(401, "xsrfMismatch", "The X-XSRF-TOKEN header is missing or does not match the session.")


def writer(request: Request, caller: Caller = Depends(authenticated)) -> Caller:
    """A caller allowed to change something: XSRF header right, and not read-only."""
    _check_xsrf(request, caller)
    if caller.user.read_only:
        raise forbidden("A GLOBAL_READONLY user cannot change anything.")
    return caller


def poster(request: Request, caller: Caller = Depends(authenticated)) -> Caller:
    """A read sent as a POST (a search): the XSRF header is needed, any role may."""
    _check_xsrf(request, caller)
    return caller


def admin(caller: Caller = Depends(writer)) -> Caller:
    if not caller.user.admin:
        raise forbidden("Only an ACCOUNT_ADMIN or ACCOUNT_OWNER can do that.")
    return caller


def _check_lockout(sim, username, now):
    until = sim.locked_until.get(username)
    if until is not None and now < until:
        raise ServiceError(429, "tooManyRequests", "Too many failed logins for this user; try again later.",
                           headers={"Retry-After": str(int(until - now) + 1)})


def _fail_login(sim, username, now):
    if username is not None:
        recent = [t for t in sim.failed_logins.get(username, []) if now - t < LOCKOUT_WINDOW] + [now]
        sim.failed_logins[username] = recent
        if len(recent) >= sim.limits.failed_logins_before_lockout:
            sim.locked_until[username] = now + LOCKOUT_WINDOW
            sim.failed_logins[username] = []
    raise ServiceError(401, "unauthenticated", "The username and password, or the API token, are not valid.")


@router.post("/login", response_model=User, tags=["authentication"])
async def login(body: Union[PasswordLogin, TokenLogin], request: Request, response: Response):
    sim = _sim(request)
    now = sim.now()
    if isinstance(body, PasswordLogin):
        username = body.username.strip().lower()
        _check_lockout(sim, username, now)
        user = next((u for u in sim.users.values() if u.username == username and u.status == "CONFIRMED"), None)
        if user is None or user.password is None or user.password != body.password:
            _fail_login(sim, username, now)
        sim.failed_logins.pop(username, None)
    else:
        user = next((u for u in sim.users.values() if u.api_token and u.api_token == body.userApiToken and u.status == "CONFIRMED"), None)
        if user is None:
            _fail_login(sim, None, now)
    if not any(lic.expiration > now for lic in sim.account_licenses(user.account_id)):
        raise ServiceError(402, "licenseExpired", "The account has no active license.")
    session = Session(id=sim.new_token(32), user_id=user.id, xsrf=sim.new_token(16), last_used=now)
    sim.sessions[session.id] = session
    response.headers.append("set-cookie", "session=%s; HttpOnly; Path=/; SameSite=Lax" % session.id)
    response.headers.append("set-cookie", 'XSRF-TOKEN="%s%s"; Path=/' % (session.xsrf, XSRF_SUFFIX))
    return views.user(sim, user, with_token=True)


@router.post("/logout", status_code=204, tags=["authentication"])
async def logout(request: Request, caller: Caller = Depends(authenticated)):
    _check_xsrf(request, caller)
    _sim(request).sessions.pop(caller.session.id, None)
    return Response(status_code=204)
