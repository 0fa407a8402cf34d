"""How every route of the service is served: statistics, injected faults, paging, no nulls.

``ServiceRoute`` wraps each handler so that the request is counted under its path template
(the path after the base URL, e.g. ``/projects/{projectId}/machines``) and the fault rules of
the control interface apply to it before and after the work is done.
"""

import asyncio

from fastapi import APIRouter, Query, Request
from fastapi.routing import APIRoute
from starlette.responses import JSONResponse, Response

from .errors import ServiceError, unprocessable

API_PREFIXES = ("/api/latest", "/api/v5")
MAX_LIMIT = 1500


def route_template(path):
    for prefix in API_PREFIXES:
        if path.startswith(prefix):
            return path[len(prefix):] or "/"
    return path


class ServiceRoute(APIRoute):
    def get_route_handler(self):
        handler = super().get_route_handler()
        template = route_template(self.path_format)

        async def serve(request: Request):
            sim = request.app.state.sim
            method = request.method
            sim.stats.record(method, template)
            rules = [rule for rule in sim.faults if rule.matches(method, template)]
            for rule in rules:
                if rule.latency_ms:
                    await asyncio.sleep(rule.latency_ms / 1000.0)
            for rule in rules:
                if rule.status and _fires(sim, rule):
                    return _fault_response(rule)
            drop = next((rule for rule in rules if rule.drop_after_write and _fires(sim, rule)), None)
            if drop is None:
                return await handler(request)
            try:
                await handler(request)
            except ServiceError:
                pass
            await _drop_connection(request)
            return Response(status_code=204)  # never delivered: the connection is gone

        return serve


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


def _fault_response(rule):
    code = {429: "tooManyRequests", 401: "unauthenticated", 403: "forbidden", 404: "notFound", 409: "conflict"}
    headers = {}
    if rule.status == 429 and rule.retry_after is not None:
        headers["Retry-After"] = str(rule.retry_after)
    body = {"code": code.get(rule.status, "internalError" if rule.status >= 500 else "invalidInput"), "message": "Injected fault: status %d." % rule.status}
    return JSONResponse(body, status_code=rule.status, headers=headers)


async def _drop_connection(request):
    transport = request.scope.get("state", {}).get("simulator_transport")
    if transport is None:
        raise RuntimeError("dropAfterWrite needs the simulator's own server (python -m tests.simulator)")
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

    def of(self, items):
        return {"items": list(items[self.offset:self.offset + self.limit])}


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
