"""The HTTP edge every API shares: parameter rule, authentication before the body, body limit.

Checked in this order, before any route runs and before a byte of the body is read:

1. **Parameters** — every path segment and every query name and value is UTF-8 text of
   at most ``MAX_PARAMETER_CHARS`` characters with no control or format characters (NUL,
   newlines, escapes, bidi overrides). Anything else is a 400 ``invalid_parameter``: such
   a value is never an id, and must not reach a database or a log.
2. **Same origin** — an unsafe request (not GET/HEAD/OPTIONS) to a path browsers call with
   a session cookie (``browser_paths``: the review UI) must come from the server's own
   origin: ``Sec-Fetch-Site``, when sent, is ``same-origin``, and ``Origin`` is present and
   equal to ``HTTP_PUBLIC_URL``'s origin (else the request's own scheme and host). Anything
   else is a 403 ``cross_origin_request``: a page on another site, another port of the same
   host or a sibling subdomain cannot make a signed-in browser post (SameSite cookies
   separate none of those). The bearer-token API needs no such check: a browser never
   attaches a bearer token on its own.
3. **Authentication** — a request under a ``Guard``'s prefix needs a bearer token the
   guard knows (401 otherwise, with the one error body). The principal is put in the
   request's state for the route (``principal``), so an anonymous client cannot make the
   server read, buffer or parse a body.
4. **Body size** — ``HTTP_MAX_BODY_BYTES``: a declared ``Content-Length`` over it is
   refused at once, a streamed body as soon as it passes it (413). (FastAPI's own
   ``max_body_size`` sits outside every middleware and answers any request that declares
   too much with its own plain-text 413 — over this edge's 401 and over the one error
   body — so the limit lives here, where it comes after authentication.)

A route that raises anything unexpected is answered 500 in the one error body, with one
log line naming the exception's type (never a plain-text page, never a traceback).

Needs FastAPI: imported only by services that serve routes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes, urlsplit

from fastapi import HTTPException, Request
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rcaloop.shared.http_errors import api_error, error_response
from rcaloop.shared.logs import get_logger
from rcaloop.shared.tokens import MAX_TOKEN_CHARS

log = get_logger("http", component="edge")

MAX_PARAMETER_CHARS = 512
_FORBIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # control, format (bidi, zero width), surrogates, line breaks


@dataclass(frozen=True)
class Principal:
    """Who called: a name from a token, and what that token may do."""

    name: str
    roles: frozenset[str] = field(default_factory=frozenset)


Authenticate = Callable[[str], Awaitable[Principal | None]]


@dataclass(frozen=True)
class Guard:
    """The routes under ``prefix`` need a token ``authenticate`` accepts (longest prefix wins).

    ``public(method, path)`` names requests served without a token; ``authenticate`` may
    raise ``api_error`` itself (e.g. 503 when no tokens are configured at all).
    """

    prefix: str
    authenticate: Authenticate
    what: str = "a valid bearer token"
    public: Callable[[str, str], bool] | None = None


def parameter_problem(value: str) -> str | None:
    """Why ``value`` cannot be a path segment or query parameter (never quoting it), or None."""
    if len(value) > MAX_PARAMETER_CHARS:
        return f"is longer than {MAX_PARAMETER_CHARS} characters"
    for ch in value:
        if unicodedata.category(ch) in _FORBIDDEN:
            return f"holds a control or format character (U+{ord(ch):04X})"
    return None


def request_problem(scope: Scope) -> str | None:
    """The first path segment or query parameter that breaks the parameter rule, described."""
    raw_path = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogatepass")
    for n, segment in enumerate(raw_path.split(b"?", 1)[0].split(b"/")):
        try:
            text = unquote_to_bytes(segment).decode("utf-8")
        except UnicodeDecodeError:
            return f"path segment {n} is not UTF-8 text"
        if problem := parameter_problem(text):
            return f"path segment {n} {problem}"
    query = scope.get("query_string", b"")
    try:
        pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        return "the query string is not UTF-8 text"
    for name, value in pairs:
        if problem := parameter_problem(name):
            return f"a query parameter name {problem}"
        if problem := parameter_problem(value):
            return f"query parameter {name[:40]!r} {problem}"
    return None


def bearer_token(scope: Scope) -> str | None:
    scheme, _, token = (Headers(scope=scope).get("authorization") or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        return None
    return token


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower-case, the default port left out; None when it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS[parts.scheme] else "")


def cross_origin_problem(scope: Scope, public_origin: str | None) -> str | None:
    """Why an unsafe browser request is not from this server's own pages, or None."""
    headers = Headers(scope=scope)
    site = headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        return f"it was sent from another site (Sec-Fetch-Site: {site[:20]})"
    origin = headers.get("origin")
    if not origin:
        return "it carries no Origin header"
    own = public_origin or origin_of(f"{scope.get('scheme', 'http')}://{headers.get('host', '')}")
    if origin_of(origin) != own:
        return "its Origin is not this server's"
    return None


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once a body passes the limit; answered with the one error body."""

    def __init__(self, limit: int):
        super().__init__(413, detail={"code": "payload_too_large",
                                      "message": f"the request body is over the {limit} byte limit "
                                                 "(HTTP_MAX_BODY_BYTES)"})


def _declared_length(scope: Scope) -> int | None:
    try:
        return int(Headers(scope=scope).get("content-length", ""))
    except ValueError:
        return None


class EdgeMiddleware:
    """Pure ASGI: refuses bad parameters, unauthenticated requests and oversized bodies
    before the app reads anything."""

    def __init__(self, app: ASGIApp, guards: list[Guard], max_body_bytes: int, *,
                 browser_paths: list[str] | None = None, public_url: str | None = None):
        self.app = app
        self.guards = sorted(guards, key=lambda g: len(g.prefix), reverse=True)
        self.max_body = max_body_bytes
        self.browser_paths = list(browser_paths or [])
        self.public_origin = origin_of(public_url) if public_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if (refusal := await self._refusal(scope)) is not None:
            return await _answer(refusal, scope, receive, send)
        started, received = False, 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except BodyTooLarge as exc:  # read outside a route (FastAPI answers it inside one)
            if started:
                raise
            await _answer(exc, scope, receive, send)
        except ClientDisconnect:  # the client left (or its body deadline passed): nobody to answer
            return
        except Exception as exc:  # noqa: BLE001 - a bug in a route: one log line, the one error body
            log.error("http_unhandled", method=scope["method"], path=scope["path"][:200], error=type(exc).__name__)
            if started:
                return  # the response is under way: the server closes the connection
            await _answer(api_error(500, "internal_error", "the server failed on this request; it is logged as "
                                                           "http_unhandled"), scope, receive, send)

    async def _refusal(self, scope: Scope) -> HTTPException | None:
        """Why a request is answered before any route reads it (an unprintable parameter, a change
        from another origin, no valid token, a declared body over the limit); none when it goes on.
        A guarded request's principal is put in its scope here."""
        if problem := request_problem(scope):
            return api_error(400, "invalid_parameter", f"{problem}; ids and parameters are printable text")
        if scope["method"] not in SAFE_METHODS and any(_under(scope["path"], p) for p in self.browser_paths):
            if problem := cross_origin_problem(scope, self.public_origin):
                return api_error(403, "cross_origin_request", f"refused: {problem}; the review UI "
                                 "accepts changes only from its own pages")
        guard = self._guard(scope["path"])
        if guard is not None and not (guard.public and guard.public(scope["method"], scope["path"])):
            try:
                principal = await self._authenticate(guard, scope)
            except HTTPException as exc:
                return exc
            scope.setdefault("state", {})["principal"] = principal
        if (declared := _declared_length(scope)) is not None and declared > self.max_body:
            return BodyTooLarge(self.max_body)
        return None

    def _guard(self, path: str) -> Guard | None:
        return next((g for g in self.guards if _under(path, g.prefix)), None)

    @staticmethod
    async def _authenticate(guard: Guard, scope: Scope) -> Principal:
        token = bearer_token(scope)
        try:
            principal = await guard.authenticate(token) if token else None
        except HTTPException:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. the token store unreachable: say so, never a 500
            log.warning("authentication_unavailable", error=type(exc).__name__)
            raise api_error(503, "unavailable", "tokens cannot be checked right now; try again") from None
        if principal is None:
            raise api_error(401, "unauthorized", f"{guard.what} is required (Authorization: Bearer <token>)",
                            headers={"WWW-Authenticate": "Bearer"})
        return principal


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")


async def _answer(exc: HTTPException, scope: Scope, receive: Receive, send: Send) -> None:
    detail: Any = exc.detail  # api_error's body: code and message
    await error_response(exc.status_code, detail["code"], detail["message"], exc.headers)(scope, receive, send)


def principal(request: Request) -> Principal | None:
    """The caller the edge authenticated for this request (None on a public route)."""
    return getattr(request.state, "principal", None)


def require(
    role: str | None = None, *, code: str = "forbidden", message: str | None = None
) -> Callable[[Request], Principal]:
    """A route dependency: the authenticated caller, holding ``role`` when one is named.

    Fails closed: a route reached without the edge's authentication (a router mounted
    without ``install_edge``) answers 401, never serves anonymously.
    """

    def dependency(request: Request) -> Principal:
        who = principal(request)
        if who is None:
            raise api_error(401, "unauthorized", "a valid bearer token is required (Authorization: Bearer <token>)",
                            headers={"WWW-Authenticate": "Bearer"})
        if role is not None and role not in who.roles:
            raise api_error(403, code, message or f"this needs a {role} token")
        return who

    return dependency
