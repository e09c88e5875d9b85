"""A poison message moved to ``<stream>.dlq`` with why and how often it failed."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from rcaloop.contracts.common import Contract, utcnow


class DeadLetter(Contract):
    stream: str
    group: str
    message_id: str
    fields: dict[str, str] = Field(
        description="the original entry's fields as text (bytes that are not UTF-8 shown as \\xNN); the payload "
        "whole unless the entry was too large, every other field cut to its first KiB"
    )
    error_code: str = Field(
        description="a stable code: invalid_json, contract_violation, handler_failed, … (docs/wire-format.md)")
    error: str
    deliveries: int
    consumer: str | None = None
    failed_at: datetime = Field(default_factory=utcnow)
