"""The family catalog the harness judges with, kept current without a restart.

The harness holds a snapshot: the bundled catalog at start, replaced by the catalog an event
on ``knowledge.events`` carries (the knowledge service attaches the catalog active from then
on to every event that changes it). It never asks the knowledge store, so judging goes on
with the last catalog it held while the store, or the knowledge service, is down.

Every harness replica must see every catalog change, so the stream is read without a
consumer group (a group would hand each event to one replica only): at start the stream is
read back to its newest catalog event, then followed from there.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rcaloop.contracts import KnowledgeEvent, Stream
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.shared import metrics
from rcaloop.shared.logs import get_logger
from rcaloop.shared.wire import PayloadError, decode, decode_fields

PAGE = 100
RETRY_S = 2.0
log = get_logger("harness")


@dataclass
class CatalogSnapshot:
    """The catalog judged with, and where it came from (``bundled`` or the catalog package that carried it)."""

    catalog: FamilyCatalog
    package_id: str | None = None
    since: datetime | None = None

    def __post_init__(self) -> None:
        metrics.observe_catalog(self.catalog.version, self.package_id or "bundled")

    def apply(self, event: KnowledgeEvent) -> bool:
        """Take the catalog an event carries unless the one held came with a later event; True when taken."""
        if event.catalog is None or (self.since is not None and event.created_at <= self.since):
            return False
        self.catalog, self.package_id, self.since = event.catalog, event.package_id, event.created_at
        metrics.observe_catalog(self.catalog.version, self.package_id)
        return True


def _event(raw: dict) -> KnowledgeEvent | None:
    try:
        return decode(decode_fields(raw), KnowledgeEvent)
    except PayloadError as exc:
        log.warning("knowledge_event_unreadable", code=exc.code)
        return None


async def catch_up(snapshot: CatalogSnapshot, redis: Any, key: str) -> str:
    """Apply the newest catalog event of the stream; returns the id to follow the stream from."""
    newest = await redis.xrevrange(key, "+", "-", count=1)
    if not newest:
        return "0-0"
    top = _id(newest[0][0])
    before = top
    while True:
        page = await redis.xrevrange(key, before, "-", count=PAGE)
        for _entry_id, raw in page:
            event = _event(raw)
            if event is not None and event.catalog is not None:
                _take(snapshot, event)
                return top
        if len(page) < PAGE:
            return top
        before = "(" + _id(page[-1][0])


async def follow(snapshot: CatalogSnapshot, redis: Any, key: str, stop: asyncio.Event, block_ms: int = 1000) -> None:
    """Catch up, then apply every catalog event as it arrives, until ``stop``; Redis outages are waited out."""
    last: str | None = None
    while not stop.is_set():
        try:
            if last is None:
                last = await catch_up(snapshot, redis, key)
            answer = await redis.xread({key: last}, count=PAGE, block=block_ms)
            for _stream, entries in answer or []:
                for entry_id, raw in entries:
                    last = _id(entry_id)
                    event = _event(raw)
                    if event is not None:
                        _take(snapshot, event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - Redis down or restarting: keep the catalog held, try again
            log.warning("catalog_follow_failed", error=type(exc).__name__)
            try:
                await asyncio.wait_for(stop.wait(), timeout=RETRY_S)
            except TimeoutError:
                pass


def _take(snapshot: CatalogSnapshot, event: KnowledgeEvent) -> None:
    if snapshot.apply(event):
        log.info("family_catalog_updated", version=snapshot.catalog.version, package_id=snapshot.package_id,
                 event_id=event.event_id)


def _id(entry_id: Any) -> str:
    return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)


def stream_key(prefix: str) -> str:
    return Stream.KNOWLEDGE_EVENTS.key(prefix)
