"""The ``KnowledgeStore`` protocol both stores implement (TypeDB and embedded SQLite).

Every write is keyed (verdict by ``analysis_hash``, review by annotation id, package by
package id) with insert-if-absent semantics, so redelivered messages change nothing;
package updates are compare-and-set on the package's ``revision`` (bumped by every change).
"""

from __future__ import annotations

from datetime import UTC
from typing import Protocol, runtime_checkable

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import KnowledgePackage


class StoreUnavailable(RuntimeError):
    """The knowledge store cannot be reached (TypeDB down, file unreadable); say where, never credentials."""


def revision(package: KnowledgePackage) -> int:
    return package.revision


def evaluated_stamp(verdict: HarnessVerdict) -> str:
    """``evaluated_at`` as fixed-width UTC text, so later analyses sort later."""
    return verdict.evaluated_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@runtime_checkable
class KnowledgeStore(Protocol):
    name: str

    async def open(self) -> None:
        """Connect and create the schema if needed (idempotent)."""

    async def close(self) -> None: ...

    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        """Store the verdict unless one with its ``analysis_hash`` exists; True when inserted."""

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None: ...

    async def latest_analysis(self, subject: str) -> str | None:
        """The ``analysis_hash`` of the latest stored verdict (by ``evaluated_at``) of this subject
        (``rcaloop.shared.analysis_subject``); ``None`` when none is stored."""

    async def put_review(self, review: AnnotationRecord) -> bool:
        """Store the review unless its annotation id exists; True when inserted."""

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]: ...

    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        """Insert unless the id exists; returns the stored package (the existing one if any)."""

    async def get_package(self, package_id: str) -> KnowledgePackage | None: ...

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]: ...

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        """Replace the package if its stored revision is still ``expected_revision``."""
