"""Structured logs (structlog): JSON lines by default, one ``service`` key on each.

Every line a process writes takes the format configured (``LOG_FORMAT``): loggers from
``get_logger`` are lazy — they assemble themselves from the configuration in force when
they log, so one made at import time, before ``configure_logging``, still obeys it — and
the standard library's loggers (uvicorn, alembic, asyncio) are rendered the same way.
Every event passes the secret detector before it is rendered: a secret value logged by
mistake (an exception message quoting a token, a field named ``password``) is redacted.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog
from structlog.typing import EventDict, Processor

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


class _StderrHandler(logging.StreamHandler):
    """A handler on whatever ``sys.stderr`` is when it writes (as ``_StderrLogger``)."""

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def _redacted(logger: Any, method: str, event: EventDict) -> EventDict:
    """``redact_event``, failing closed: an event the detector cannot read keeps only its name."""
    try:
        return redact_event(logger, method, event if isinstance(event, dict) else dict(event))
    except Exception as exc:  # noqa: BLE001 - a log call must never raise into its caller
        return {"event": event.get("event"), "level": event.get("level"), "timestamp": event.get("timestamp"),
                "redaction_failed": type(exc).__name__}


def configure_logging(service: str, level: str = "INFO", fmt: str = "json") -> structlog.stdlib.BoundLogger:
    renderer: Processor = (structlog.processors.JSONRenderer() if fmt == "json"
                           else structlog.dev.ConsoleRenderer(colors=False))
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, _redacted, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=_stderr_logger_factory,
        cache_logger_on_first_use=False,
    )
    handler = _StderrHandler()
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name, structlog.stdlib.ExtraAdder()],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, structlog.processors.format_exc_info,
                    _redacted, renderer],
    ))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(numeric, logging.WARNING))  # libraries speak up for warnings and errors only
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "alembic"):  # their own handlers would print plain text
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    return get_logger(service)


def get_logger(service: str, **context) -> structlog.stdlib.BoundLogger:
    """A lazy logger with ``service`` and ``context`` on every line (safe at import time)."""
    return structlog.get_logger(service=service, **context)
