"""How every route of the service is served: statistics, injected faults, paging, no nulls.

``ServiceRoute`` wraps each handler so that the request is counted under its path template
(the path after the base URL, e.g. ``/projects/{projectId}/machines``) and the fault rules of
the control interface apply to it before and after the work is done.

Handlers answer plain dictionaries in the wire form (``views``); they are written out as JSON
directly. FastAPI would otherwise validate every answer against its response model, which
costs more than the work itself for a list of a thousand machines. The models still describe
the answers in the OpenAPI document, and with ``Simulator.check_answers`` (the simulator's
own tests, ``--check-answers``) every answer is checked against its model, nulls included.
"""

import asyncio
import collections
import contextvars
import functools
import math
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pydantic_core
from fastapi import APIRouter, Query, Request
from fastapi.datastructures import DefaultPlaceholder
from fastapi.routing import APIRoute
from pydantic import TypeAdapter
from starlette.responses import JSONResponse, Response

from .errors import ServiceError, unprocessable

API_PREFIXES = ("/api/latest", "/api/v5")
MAX_LIMIT = 1500


def route_template(path):
    for prefix in API_PREFIXES:
        if path.startswith(prefix):
            return path[len(prefix):] or "/"
    return path


# The request being served, for the answer's check (not every handler takes the request).
_SERVING = contextvars.ContextVar("serving")


class AnswerDoesNotFit(Exception):
    """An answer of the simulator that its response model does not describe: a bug here."""


def _answering(endpoint, response_model, status_code):
    """The endpoint, answering its dictionary as JSON (checked against the model when asked)."""
    if isinstance(response_model, DefaultPlaceholder):
        response_model = response_model.value
    if getattr(endpoint, "answers_json", False) or response_model is None:
        return endpoint
    adapter = TypeAdapter(response_model)

    @functools.wraps(endpoint)
    async def answer(**values):
        data = await endpoint(**values)
        if isinstance(data, Response):
            return data
        if _SERVING.get().app.state.sim.check_answers:
            _check(adapter, data)
        response = Response(pydantic_core.to_json(data), status_code=status_code or 200, media_type="application/json")
        for value in values.values():
            if isinstance(value, Response):  # headers the handler set on the injected response (cookies)
                response.headers.raw.extend(value.headers.raw)
        return response

    answer.answers_json = True
    return answer


def _check(adapter, data):
    """The answer must be exactly what its model makes of it: no member it lacks, no null."""
    try:
        fitted = adapter.dump_python(adapter.validate_python(data), mode="json", exclude_none=True)
    except pydantic_core.ValidationError as error:
        raise AnswerDoesNotFit(str(error))
    sent = pydantic_core.from_json(pydantic_core.to_json(data))
    if fitted != sent:
        raise AnswerDoesNotFit("the answer has members its model leaves out, or nulls: %r" % (sent,))


class ServiceRoute(APIRoute):
    def __init__(self, path, endpoint, **kwargs):
        super().__init__(path, _answering(endpoint, kwargs.get("response_model"), kwargs.get("status_code")), **kwargs)

    def get_route_handler(self):
        handler = super().get_route_handler()
        template = route_template(self.path_format)

        async def serve(request: Request):
            sim = request.app.state.sim
            _SERVING.set(request)
            method = request.method
            sim.stats.record(method, template)
            try:
                response = await answer(request, method)
            except ServiceError as error:
                sim.stats.refused(error.status)
                raise
            sim.stats.refused(response.status_code)
            return response

        async def answer(request, method):
            throttled = _throttled(request.app.state.sim, request)
            if throttled is not None:
                return throttled
            # Each rule that fires spends one of its count.
            sim = request.app.state.sim
            rules = [rule for rule in sim.faults if rule.matches(method, template) and _fires(sim, rule)]
            delay = sum(rule.latency_ms for rule in rules) / 1000.0
            if not delay:
                return await respond(request, rules)
            # Latency comes before the work, and the work is done even when the client has given up
            # meanwhile (a late write): the body is read now, and the work does not stop with the connection.
            await request.body()
            return await asyncio.shield(asyncio.ensure_future(_after(delay, respond(request, rules))))

        async def respond(request, rules):
            for rule in rules:
                if rule.status:
                    return _fault_response(rule)
            if not any(rule.drop_after_write for rule in rules):
                return await handler(request)
            try:
                await handler(request)
            except ServiceError:
                pass
            await _drop_connection(request)
            return Response(status_code=204)  # never delivered: the connection is gone

        return serve


async def _after(delay, work):
    await asyncio.sleep(delay)
    return await work


def _fires(sim, rule):
    """Whether a rule applies to this request; spends one of its ``count`` if it has one."""
    if rule.count is not None:
        if rule.count <= 0:
            return False
        rule.count -= 1
        return True
    if rule.rate is not None:
        return sim.rng.random() < rule.rate
    return True


def _throttled(sim, request):
    """A 429 with Retry-After for a session past its requests a second (the setting requestsPerSecond; none by default).
    Its requests of the last second of the host's clock count; one refused does not."""
    limit, session = sim.limits.requests_per_second, request.cookies.get("session")
    if not limit or not session:
        return None
    now = time.monotonic()
    recent = sim.requests_of_session.setdefault(session, collections.deque())
    while recent and now - recent[0] >= 1.0:
        recent.popleft()
    if len(recent) >= limit:
        wait = max(1, math.ceil(recent[0] + 1.0 - now))
        return JSONResponse({"code": "tooManyRequests", "message": "Too many requests: this session sends at most %g a second." % limit},
                            status_code=429, headers={"Retry-After": str(wait)})
    recent.append(now)
    return None


def _fault_response(rule):
    code = {429: "tooManyRequests", 401: "unauthenticated", 403: "forbidden", 404: "notFound", 409: "conflict", 503: "unavailable"}
    headers = {}
    if rule.status in (429, 503) and rule.retry_after is not None:
        # Seconds, or as an HTTP date (RFC 9110 allows both): that moment of the host's clock, which a client compares
        # with its own.
        headers["Retry-After"] = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=rule.retry_after), usegmt=True) \
            if rule.retry_after_as_date else str(rule.retry_after)
    body = {"code": code.get(rule.status, "internalError" if rule.status >= 500 else "invalidInput"), "message": "Injected fault: status %d." % rule.status}
    return JSONResponse(body, status_code=rule.status, headers=headers)


async def _drop_connection(request):
    transport = request.scope.get("state", {}).get("simulator_transport")
    if transport is None:
        raise RuntimeError("dropAfterWrite needs the simulator's own server (replication-service-simulator)")
    transport.abort()
    # Let the server see the connection go before the handler returns, so it sends nothing.
    await asyncio.sleep(0)
    await asyncio.sleep(0)


class ServiceRouter(APIRouter):
    """An APIRouter whose routes count, take faults and leave out members with no value."""

    def __init__(self, **kwargs):
        kwargs.setdefault("route_class", ServiceRoute)
        super().__init__(**kwargs)

    def add_api_route(self, path, endpoint, **kwargs):
        # Forced, not defaulted: FastAPI's decorators always pass this argument.
        kwargs["response_model_exclude_none"] = True
        super().add_api_route(path, endpoint, **kwargs)


class Page:
    def __init__(self, offset, limit):
        self.offset = offset
        self.limit = limit

    def of(self, items, view=None):
        """The page of ``items``; ``view`` makes the wire form of only the items on it."""
        chosen = items[self.offset:self.offset + self.limit]
        return {"items": [view(item) for item in chosen] if view else list(chosen)}


def paging(offset: int = Query(0, description="0-based index of the first item."),
           limit: int = Query(MAX_LIMIT, description="Items per page, 1 to 1500.")):
    if offset < 0:
        raise unprocessable("offset must be 0 or more, not %d." % offset)
    if not 1 <= limit <= MAX_LIMIT:
        raise unprocessable("limit must be between 1 and %d, not %d." % (MAX_LIMIT, limit))
    return Page(offset, limit)


def describe_validation(errors):
    """One sentence from pydantic's errors: where, and what is wrong."""
    parts = []
    for error in errors[:3]:
        location = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body",))
        parts.append("%s: %s" % (location or "body", error.get("msg", "invalid")))
    return "Invalid input. " + "; ".join(parts) + "."
