"""One error body for every HTTP API: ``{"error": {"code": ..., "message": ...}}``.

Routes raise ``api_error(status, code, message)``; whatever FastAPI or Starlette raise on
their own (an unknown path, a wrong method, a body or query that does not match the API)
is answered in the same shape, so a client reads one field whatever went wrong. A
validator that *reports* findings (``{"valid": false, "errors": [...]}``) is giving an
answer, not failing, and keeps its own shape.

Needs FastAPI: imported only by services that serve routes (never by the harness).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

_DEFAULT_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    503: "unavailable",
}
_MAX_ISSUES = 20


def api_error(status: int, code: str, message: str, *, headers: dict[str, str] | None = None,
              **extra: Any) -> HTTPException:
    """The exception a route raises; ``extra`` fields (a finding's ``path`` …) ride along."""
    return HTTPException(status, detail={"code": code, "message": message, **extra}, headers=headers)


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The one error body as a response, for code that answers outside a route (middleware)."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def _error_body(status: int, detail: Any) -> dict[str, Any]:
    if isinstance(detail, dict) and "code" in detail and "message" in detail:
        return {"error": detail}
    return {"error": {"code": _DEFAULT_CODES.get(status, f"http_{status}"), "message": str(detail)}}


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)  # registered for it alone
    return JSONResponse(_error_body(exc.status_code, exc.detail), status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """422 naming each mismatch by where it is (``body.decision``, ``query.limit``), never
    echoing the input (it may hold anything, a token included)."""
    assert isinstance(exc, RequestValidationError)  # registered for it alone
    issues = [
        {"path": ".".join(str(p) for p in err.get("loc", ())) or "request", "message": err.get("msg", "invalid")}
        for err in exc.errors()[:_MAX_ISSUES]
    ]
    first = f"{issues[0]['path']}: {issues[0]['message']}" if issues else "invalid request"
    body = {"code": "invalid_request", "message": f"the request does not match the API ({first})", "issues": issues}
    return JSONResponse({"error": body}, status_code=422)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` with the one body (``rcaloop.shared.service.http_app`` does this)."""
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
