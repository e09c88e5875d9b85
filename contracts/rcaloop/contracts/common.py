"""Base model and small value types shared by every contract."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

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
