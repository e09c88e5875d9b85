"""Base model and small value types shared by every contract."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

SCHEMA_VERSION: Final = 1
"""Bumped on any incompatible change; consumers dead-letter other versions."""

Confidence = Literal["high", "medium", "low"]
Category = Literal[
    "configuration",
    "infrastructure",
    "application_bug",
    "dependency",
    "network",
    "resource",
    "cloud_api",
    "credential",
    "secrets",
    "unknown",
]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
CaseType = Literal["known", "compositional", "novel", "tool_degraded"]

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}$"
Identifier = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
"""Every id and hash a message is keyed by (``analysis_hash``, ``result_id``, ``task_id``,
``annotation_id``, ``event_id``, ``package_id`` …): 1-128 printable ASCII characters from
letters, digits and ``. _ : @ / + = -``, starting with a letter or digit. Such a value is
the same text in Redis, SQLite, PostgreSQL and TypeDB, so no store can refuse what another
took (PostgreSQL refuses NUL in text; a control character would reach logs and pages)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


class Contract(BaseModel):
    """Every stream message: tolerant of unknown keys, versioned."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    schema_version: Literal[1] = SCHEMA_VERSION


class Issue(BaseModel):
    """A finding with a stable code, as linters report them (``RCA101 …``)."""

    model_config = ConfigDict(extra="ignore")

    code: str
    message: str
    line: int | None = None
    path: str | None = Field(default=None, description="JSON path of the offending field, when it has one")
