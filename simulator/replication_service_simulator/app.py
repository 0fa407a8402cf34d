"""The FastAPI application: the service under /api/latest and /api/v5, the control interface
under /_simulator, and the service's own error body for every error, framework errors included."""

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from . import agents, api_account, api_backup, api_blueprints, api_jobs, api_machines, api_projects, auth, control
from .errors import ServiceError
from .routing import API_PREFIXES, describe_validation
from .state import Simulator

SERVICE_ROUTERS = (auth.router, api_account.router, api_projects.router, api_machines.router, api_jobs.router, api_backup.router,
                   api_blueprints.router)
STATUS_CODES = {401: "unauthenticated", 403: "forbidden", 404: "notFound", 409: "conflict", 429: "tooManyRequests"}


def create_app(sim=None, **options):
    """The simulator's ASGI application; ``options`` go to ``Simulator`` when none is given."""
    app = FastAPI(
        title="Replication and Recovery Service (simulator)",
        version="5",
        description="Serves the service's version-5 interface (docs/wire.md) from memory. "
                    "The same interface is served under /api/latest and /api/v5.",
        openapi_url="/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.state.sim = sim or Simulator(**options)
    for index, prefix in enumerate(API_PREFIXES):
        for router in SERVICE_ROUTERS:
            app.include_router(router, prefix=prefix, include_in_schema=index == 0)
    app.include_router(control.router)
    app.include_router(agents.router)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
    return app


async def _service_error(request: Request, error: ServiceError):
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


async def _validation_error(request: Request, error: RequestValidationError):
    return JSONResponse({"code": "invalidInput", "message": describe_validation(error.errors())}, status_code=422)


async def _http_error(request: Request, error: HTTPException):
    if error.status_code == 404:
        message = "No such path: %s." % request.url.path
    elif error.status_code == 405:
        message = "Method %s is not allowed on %s." % (request.method, request.url.path)
    else:
        message = str(error.detail)
    code = STATUS_CODES.get(error.status_code, "internalError" if error.status_code >= 500 else "invalidInput")
    return JSONResponse({"code": code, "message": message}, status_code=error.status_code, headers=getattr(error, "headers", None))


async def _internal_error(request: Request, error: Exception):
    return JSONResponse({"code": "internalError", "message": "The simulator failed: %s." % type(error).__name__}, status_code=500)
