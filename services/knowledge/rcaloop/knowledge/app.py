"""Composition root of the knowledge service: store, cache, publisher, workers, HTTP routes.

The stream handlers are thin adapters: either half of the (review, verdict) pair may
arrive first; the one that completes it emits the package's event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import redis.asyncio as aioredis

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, KnowledgeEvent, Stream
from rcaloop.knowledge.api import guards, router
from rcaloop.knowledge.settings import KnowledgeSettings, knowledge_tokens
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.store import KnowledgeStore, StoreError
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore
from rcaloop.knowledge.workflow import KnowledgeWorkflow, Publish
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.logs import get_logger
from rcaloop.shared.redis_conn import connect, redis_url
from rcaloop.shared.service import Service, lazy_app, run_main
from rcaloop.shared.tokens import TokenConfigError
from rcaloop.shared.wire import encode

__all__ = ["KnowledgeSettings", "build", "open_store", "workflow_for"]

OUTBOX_INTERVAL_S = 5.0


def open_store(settings: KnowledgeSettings) -> KnowledgeStore:
    """TypeDB when ``TYPEDB_ADDRESS`` is set, else the embedded SQLite file under the data dir."""
    if settings.typedb_address:
        return TypeDBKnowledgeStore(
            settings.typedb_address,
            settings.typedb_username,
            settings.typedb_password.get_secret_value(),
            settings.typedb_database,
        )
    return SqliteKnowledgeStore(settings.sqlite_path)


def publish_url(settings: KnowledgeSettings) -> str:
    """``REDIS_URL``, else the embedded server of ``rcaloop up`` (its socket in the data dir), else loopback."""
    if settings.redis_url is None:
        sock = (settings.rcaloop_data_dir / "redis" / "redis.sock").resolve()
        if sock.exists():
            return f"unix://{sock}"
    return redis_url(settings)


class RedisPublisher:
    """Publishes decision events to ``knowledge.events`` (worker emits go through the worker's commit)."""

    def __init__(self, settings: KnowledgeSettings):
        self.settings = settings
        self._redis: aioredis.Redis | None = None

    async def __call__(self, events: list[KnowledgeEvent]) -> None:
        if self._redis is None:
            self._redis = connect(publish_url(self.settings))
        key = Stream.KNOWLEDGE_EVENTS.key(self.settings.prefix)
        for event in events:
            fields = encode(event, producer="knowledge")
            await self._redis.xadd(key, fields, maxlen=self.settings.stream_maxlen, approximate=True)

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None


def workflow_for(settings: KnowledgeSettings, publish: Publish | None = None) -> KnowledgeWorkflow:
    return KnowledgeWorkflow(
        open_store(settings), SnapshotCache(settings.snapshot_path), publish,
        min_review_score=settings.knowledge_min_review_score
    )


def build(settings: KnowledgeSettings | None = None, publish: Publish | None = None) -> Service:
    settings = settings or KnowledgeSettings()
    try:
        reviewers, readers, leads = knowledge_tokens(settings)
    except TokenConfigError as exc:
        raise SystemExit(f"error: {exc}") from None
    publisher = RedisPublisher(settings) if publish is None else None
    workflow = workflow_for(settings, publish or publisher)
    log = get_logger("knowledge")

    async def startup() -> None:
        try:
            await workflow.store.open()
            await offer_catalog()
            await workflow.snapshot()  # refresh the runtime cache
        except StoreError as exc:
            log.warning("knowledge_store_unavailable", store=workflow.store.name, error=str(exc))

    offered = asyncio.Event()

    async def offer_catalog() -> None:
        """The bundled catalog, offered once the store answers: a new installation activates it, an upgrade
        proposes it."""
        await workflow.offer_bundled_catalog()
        offered.set()

    async def store() -> str | None:
        """Ready while the knowledge store takes writes (also ``GET /api/v1/knowledge/ready``)."""
        return await workflow.readiness()

    async def shutdown() -> None:
        await workflow.store.close()
        if publisher is not None:
            await publisher.close()

    return Service(
        name="knowledge",
        subscriptions=_subscriptions(workflow),
        on_startup=[startup],
        on_shutdown=[shutdown],
        background=[_republisher(workflow, offer_catalog, offered, log)],
        readiness=[store],
        http_router=router(lambda: workflow),
        http_guards=guards(reviewers, readers, leads, public_reads=settings.rcaloop_knowledge_public_reads),
    )


def _subscriptions(workflow: KnowledgeWorkflow) -> list[Subscription]:
    """Verdicts and reviews, either half of a pair first: the one that completes it emits the package's event."""

    async def on_verdicts(verdicts: list[HarnessVerdict]) -> list[list[Emit]]:
        return [[Emit(Stream.KNOWLEDGE_EVENTS, e) for e in events] for events in await workflow.on_verdicts(verdicts)]

    async def on_verdict(verdict: HarnessVerdict) -> list[Emit]:
        return (await on_verdicts([verdict]))[0]

    async def on_review(review: AnnotationRecord) -> list[Emit]:
        return [Emit(Stream.KNOWLEDGE_EVENTS, e) for e in await workflow.on_review(review)]

    return [
        Subscription(
            Stream.EVALUATED,
            HarnessVerdict,
            on_verdict,
            group="knowledge",
            idempotency_key=lambda v: f"verdict:{v.analysis_hash}",
            handle_batch=on_verdicts,  # one write transaction per batch
        ),
        Subscription(
            Stream.REVIEW_ANNOTATIONS,
            AnnotationRecord,
            on_review,
            group="knowledge",
            idempotency_key=lambda r: f"review:{r.annotation_id}:{r.revision}",  # each revision applied
        ),
    ]


def _republisher(
    workflow: KnowledgeWorkflow, offer_catalog: Callable[[], Awaitable[None]], offered: asyncio.Event, log: Any
) -> Callable[[asyncio.Event], Coroutine[Any, Any, None]]:
    async def republish(stop: asyncio.Event) -> None:
        """Decision events whose publishing failed (Redis down) are re-sent from the package outbox; the
        bundled catalog is offered once the store answers, if it did not at start."""
        while not stop.is_set():
            if not offered.is_set():  # the store was down at start
                try:
                    await offer_catalog()
                except StoreError as exc:
                    log.warning("knowledge_catalog_not_offered", error=str(exc)[:300])
            if workflow.outbox_pending:
                try:
                    sent = await workflow.flush_outbox()
                    if sent:
                        log.info("knowledge_events_republished", events=sent)
                except Exception as exc:  # noqa: BLE001 - store or Redis still down: try again later
                    log.warning("knowledge_outbox_flush_failed", error=type(exc).__name__)
            try:
                await asyncio.wait_for(stop.wait(), timeout=OUTBOX_INTERVAL_S)
            except TimeoutError:
                pass

    return republish


def main() -> None:
    run_main(build, KnowledgeSettings)


__getattr__ = lazy_app(build, KnowledgeSettings)
