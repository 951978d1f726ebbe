"""Turns every failure into a JSON answer with a clear message and never a traceback or internal detail.

Unexpected errors are logged with their traceback on the server and answered with a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from boundloop.policies.errors import (
    BoundloopError,
    EntitlementError,
    StoreDamaged,
    StoreUnwritable,
    UnknownConversation,
)
from boundloop.service.errors import AuthenticationFailed, ServiceError
from boundloop.service.ingest_upload import UploadRejected
from boundloop.service.models import error_body

log = logging.getLogger(__name__)
MALFORMED_JSON = "json_invalid"


def _problem(error: dict[str, Any]) -> dict[str, Any]:
    """A validation error without the echoed input or pydantic's internals."""
    loc = [part for part in error.get("loc", ()) if isinstance(part, str | int)]
    message = str(error.get("msg", "invalid value"))
    if error.get("type") == "extra_forbidden":
        message = f"unknown field {loc[-1]!r}" if loc else "unknown field"
    return {"loc": loc, "msg": message}


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if any(e.get("type") == MALFORMED_JSON for e in errors):
        return JSONResponse(error_body("the request body is not valid JSON"), status_code=400)
    return JSONResponse(error_body([_problem(e) for e in errors]), status_code=422)


async def _service_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(exc, AuthenticationFailed) else None
    if isinstance(exc, UploadRejected):
        detail: Any = [{"loc": ["body", where], "msg": message} for where, message in exc.problems]
        return JSONResponse(error_body(detail), status_code=exc.status_code)
    return JSONResponse(error_body(str(exc)), status_code=exc.status_code, headers=headers)


async def _unknown_conversation(request: Request, exc: Exception) -> JSONResponse:
    # Another user's conversation reads the same as one that does not exist.
    return JSONResponse(error_body(str(exc)), status_code=404)


async def _entitlement(request: Request, exc: Exception) -> JSONResponse:
    # Its message may name the directory file; the caller learns only that access was refused.
    log.warning("entitlement refused: %s", exc)
    return JSONResponse(error_body("access denied"), status_code=403)


async def _store(request: Request, exc: Exception) -> JSONResponse:
    # The message names a file on the server: it goes to the log; the caller learns what failed and that it may pass.
    log.error("request failed: %s %s: %s", request.method, request.url.path, exc)
    what = "cannot write its data (its disk is full)" if isinstance(exc, StoreUnwritable) else "found a damaged file"
    return JSONResponse(error_body(f"the service is unavailable: it {what}; try again later"), status_code=503)


async def _internal(request: Request, exc: Exception) -> JSONResponse:
    log.error("request failed: %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse(error_body("internal error"), status_code=500)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    # Mounted in the LangGraph server, this also renders the server's own errors, whose detail may be structured.
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(EntitlementError, _entitlement)
    app.add_exception_handler(UnknownConversation, _unknown_conversation)
    app.add_exception_handler(StoreUnwritable, _store)
    app.add_exception_handler(StoreDamaged, _store)
    app.add_exception_handler(BoundloopError, _internal)
    app.add_exception_handler(Exception, _internal)
