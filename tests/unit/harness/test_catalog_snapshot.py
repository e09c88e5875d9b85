"""The harness's catalog snapshot: the catalog of the latest event that carries one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rcaloop.contracts import KnowledgeEvent
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.harness.catalog import CatalogSnapshot
from rcaloop.shared.catalog import bundled_catalog

BUNDLED = bundled_catalog()
AT = datetime(2026, 12, 7, 10, tzinfo=UTC)


def _catalog(version: str) -> FamilyCatalog:
    return FamilyCatalog.model_validate({**BUNDLED.model_dump(mode="json", exclude_none=True), "version": version})


def _event(version: str | None, minutes: int, kind: str = "activated") -> KnowledgeEvent:
    return KnowledgeEvent(event_id=f"kc-{version}:{minutes}", kind=kind, package_id=f"kc-{version}",
                          created_at=AT + timedelta(minutes=minutes), catalog=_catalog(version) if version else None)


def test_the_bundled_catalog_until_an_event_carries_another_then_the_latest_one():
    snapshot = CatalogSnapshot(BUNDLED)
    assert snapshot.catalog == BUNDLED and snapshot.package_id is None
    assert snapshot.apply(_event(None, 1, "candidate")) is False  # carries no catalog
    assert snapshot.apply(_event("2", 5)) is True
    assert snapshot.catalog.version == "2" and snapshot.package_id == "kc-2"
    assert snapshot.apply(_event("1", 3)) is False  # an older announcement, re-sent late
    assert snapshot.apply(_event("2", 5)) is False  # the same one again
    assert snapshot.apply(_event("3", 9, "rejected")) is True  # a rejection names the catalog active from then on
    assert snapshot.catalog.version == "3"
