"""A poison message moved to ``<stream>.dlq`` with why and how often it failed."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from rcaloop.contracts.common import Contract, utcnow


class DeadLetter(Contract):
    stream: str
    group: str
    message_id: str
    fields: dict[str, str] = Field(description="the original entry's fields, decoded as UTF-8 with replacement")
    error_code: str = Field(description="invalid_payload | handler_error | …")
    error: str
    deliveries: int
    consumer: str | None = None
    failed_at: datetime = Field(default_factory=utcnow)
