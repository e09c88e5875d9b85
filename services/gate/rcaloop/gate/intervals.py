"""Instants and incident windows in ISO-8601, read one way by measurement, check and rollout.

A window is ``START/END`` (dates or date-times; a date-only END includes that whole
day; a time without a zone is UTC). It must be closed: START before END, and END not
after the moment it is judged. An instant in the future is refused wherever the gate
reads one: a self-declared future timestamp would otherwise outlive every later change.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

CLOCK_SKEW = timedelta(seconds=60)
"""How far ahead of this machine's clock an instant may be and still count as "now"."""


class WindowError(ValueError):
    """The window is unusable; ``code`` says how (GATE203 not an interval, 204 reversed, 205 open)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def parse_instant(value: Any) -> datetime | None:
    """An ISO-8601 date-time (``Z`` or an offset; none means UTC), else ``None``."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        at = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def in_future(at: datetime, now: datetime) -> bool:
    return at > now + CLOCK_SKEW


def parse_window(text: Any, now: datetime) -> tuple[datetime, datetime]:
    """``(start, end)`` of a closed window; raises ``WindowError`` with its code otherwise."""
    start, end = window_bounds(text)
    if in_future(end, now):
        raise WindowError("GATE205",
                          f"the incident window {text!r} ends in the future ({end.isoformat()}); measure a window that "
                          "has closed")
    return start, end


def window_bounds(text: Any) -> tuple[datetime, datetime]:
    """``(start, end)`` of a window, closed or not; raises ``WindowError`` (GATE203, GATE204)."""
    example = "e.g. 2026-11-01/2026-11-14 or 2026-11-01T00:00Z/2026-11-02T00:00Z"
    if not isinstance(text, str) or text.count("/") != 1:
        raise WindowError("GATE203", f"the incident window must be an ISO-8601 interval START/END, {example}")
    start_s, end_s = (s.strip() for s in text.split("/"))
    start, end = parse_instant(start_s), parse_instant(end_s)
    if start is None or end is None:
        raise WindowError("GATE203", f"the incident window {text!r} is not START/END in ISO-8601, {example}")
    if len(end_s) == 10:  # a date: the whole day
        end += timedelta(days=1)
    if end <= start:
        raise WindowError("GATE204", f"the incident window {text!r} ends before it starts (or is empty)")
    return start, end
