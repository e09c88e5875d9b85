"""Read deadlines and a connection limit for the HTTP server (uvicorn's h11 protocol).

uvicorn has no timeout for a request being *sent*: its keep-alive timer only covers the
time between requests and restarts on every byte, so a client that trickles a header or a
body one byte at a time holds its connection for ever, and a few hundred such clients hold
every connection the process can serve. This protocol adds what the ASGI app cannot see
(it is called only once the head is complete):

* the request head must be complete within ``HTTP_HEADER_TIMEOUT_S`` of the connection
  opening or the previous response ending (a keep-alive connection waiting for its next
  request counts the same);
* the body must be complete within ``HTTP_BODY_TIMEOUT_S`` of the head;
* beyond ``HTTP_MAX_CONNECTIONS`` open connections a new one is answered 503 at once and
  closed, before it is read.

A deadline that passes is answered 408 (when nothing was answered yet) and the connection
closed. Every answer here is the one error body. Only the request's arrival is timed:
a slow handler or a long response is not.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rcaloop.shared.logs import get_logger

log = get_logger("http", component="server")

_IDLE, _HEAD, _BODY = "idle", "head", "body"


def _raw_error(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n")
    return head.encode("ascii") + body


class EdgeProtocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and the limit above (see ``protocol``)."""

    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    max_connections: int = 1000
    _refused = 0  # refusals since the last log line (one line per 10 s at most: an attack must not flood the log)
    _refused_logged = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = _IDLE

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            cls = type(self)
            cls._refused += 1
            if (now := time.monotonic()) - cls._refused_logged >= 10:
                log.warning("http_connections_refused", count=cls._refused, limit=self.max_connections)
                cls._refused, cls._refused_logged = 0, now
            self._refuse(503, "Service Unavailable", "too_many_connections",
                         f"the server holds its limit of {self.max_connections} connections (HTTP_MAX_CONNECTIONS); "
                         "try again shortly")
            return
        self._arm(_HEAD)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    # -- deadlines --------------------------------------------------------------------
    def _follow(self) -> None:
        """Move the deadline with the request: head → body → none; a new request → head."""
        if self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE and (self.cycle is None or self.cycle.response_complete):
            if self._phase != _HEAD:
                self._arm(_HEAD)
        elif state is h11.SEND_BODY:
            if self._phase == _HEAD:
                self._arm(_BODY)
        elif self._phase != _IDLE:
            self._disarm()

    def _arm(self, phase: str) -> None:
        self._disarm()
        self._phase = phase
        seconds = self.header_timeout_s if phase == _HEAD else self.body_timeout_s
        self._deadline = self.loop.call_later(seconds, self._expired, phase)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline, self._phase = None, _IDLE

    def _expired(self, phase: str) -> None:
        self._deadline = None
        if self._phase != phase or self.transport.is_closing():
            return
        what = "head" if phase == _HEAD else "body"
        setting = "HTTP_HEADER_TIMEOUT_S" if phase == _HEAD else "HTTP_BODY_TIMEOUT_S"
        seconds = self.header_timeout_s if phase == _HEAD else self.body_timeout_s
        log.info("http_read_timeout", part=what, after_s=seconds)
        answered = self.cycle is not None and self.cycle.response_started
        if phase == _BODY and self.cycle is not None:
            self.cycle.keep_alive = False
        if answered:
            self.transport.close()
        else:
            self._refuse(408, "Request Timeout", "request_timeout",
                         f"the request {what} did not arrive within {seconds:g} s ({setting})")

    def _refuse(self, status: int, reason: str, code: str, message: str) -> None:
        self._phase = _IDLE  # an app waiting on the body is told the client left (connection_lost)
        self.transport.write(_raw_error(status, reason, code, message))
        self.transport.close()


def protocol(header_timeout_s: float, body_timeout_s: float, max_connections: int) -> type[EdgeProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)`` with these settings."""
    return type("ConfiguredEdgeProtocol", (EdgeProtocol,), {
        "header_timeout_s": header_timeout_s, "body_timeout_s": body_timeout_s, "max_connections": max_connections})
