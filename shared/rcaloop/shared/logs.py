"""Structured logs (structlog): JSON lines by default, one ``service`` key on each.

Every event passes the secret detector before it is rendered: a secret value logged by
mistake (an exception message quoting a token, a field named ``password``) is redacted.
"""

from __future__ import annotations

import logging
import sys

import structlog

from rcaloop.shared.secrets import redact_event


class _StderrLogger:
    """Writes each line to whatever ``sys.stderr`` is *now* (test runners swap it)."""

    def msg(self, message: str) -> None:
        try:
            print(message, file=sys.stderr, flush=True)
        except ValueError:  # stderr closed under us: drop the line rather than fail the caller
            pass

    log = debug = info = warn = warning = error = critical = exception = fatal = msg


def _stderr_logger_factory(*_args) -> _StderrLogger:
    return _StderrLogger()


def configure_logging(service: str, level: str = "INFO", fmt: str = "json") -> structlog.stdlib.BoundLogger:
    renderer = structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            redact_event,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping().get(level.upper(), 20)),
        logger_factory=_stderr_logger_factory,
        cache_logger_on_first_use=False,
    )
    return structlog.get_logger().bind(service=service)


def get_logger(service: str) -> structlog.stdlib.BoundLogger:
    return structlog.get_logger().bind(service=service)
