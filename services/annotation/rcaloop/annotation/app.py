"""Annotation service wiring: the composition root for store, worker, outbox and HTTP routes.

* ``rca.evaluated`` → the verdict and its review task are stored (insert-if-absent by
  ``analysis_hash``; a worker batch in one transaction) and the task is emitted on ``review.tasks`` (the worker commits the
  emit with the ack, keyed by ``analysis_hash``: a redelivery creates nothing twice);
* stored annotations/evaluations reach ``review.annotations`` through the outbox drainer;
* the HTTP API (``api.build_router``) serves annotation UIs.
"""

from __future__ import annotations

import asyncio

from rcaloop.annotation import core
from rcaloop.annotation.api import ApiState, build_router
from rcaloop.annotation.auth import Annotators, TokenConfigError
from rcaloop.annotation.outbox import OutboxPublisher
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store
from rcaloop.contracts import HarnessVerdict, Stream
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.redis_conn import connect, redis_url
from rcaloop.shared.service import Service, host_redis, lazy_app, run_main

__all__ = ["AnnotationSettings", "build", "main", "app"]


def build(settings: AnnotationSettings | None = None) -> Service:
    settings = settings or AnnotationSettings()
    tokens = settings.rcaloop_annotator_tokens
    try:
        annotators = Annotators.parse(tokens.get_secret_value() if tokens else None)
    except TokenConfigError as exc:
        raise SystemExit(f"error: {exc}") from None
    state = ApiState(settings=settings, annotators=annotators)

    async def open_store() -> None:
        state.store = Store(settings.store_url(), schema=settings.rcaloop_db_schema)
        await state.store.migrate()

    async def close_store() -> None:
        if state.store is not None:
            await state.store.close()

    async def handle_batch(batch: list[HarnessVerdict]) -> list[list[Emit]]:
        tasks = [core.review_task_for(verdict, overlap=settings.review_overlap) for verdict in batch]
        await state.store.add_verdicts(list(zip(batch, tasks, strict=True)))  # one commit per batch
        return [[Emit(Stream.REVIEW_TASKS, task, {"producer": "annotation"})] for task in tasks]

    async def handle(verdict: HarnessVerdict) -> list[Emit]:
        return (await handle_batch([verdict]))[0]

    async def drain_outbox(stop: asyncio.Event) -> None:
        shared = host_redis()
        redis = shared or connect(redis_url(settings))
        try:
            await OutboxPublisher(state.store, redis, settings).run(stop, settings.outbox_interval_ms / 1000)
        finally:
            if shared is None:
                await redis.aclose()

    return Service(
        name="annotation",
        subscriptions=[
            Subscription(
                Stream.EVALUATED,
                HarnessVerdict,
                handle,
                group="annotation",
                idempotency_key=lambda v: v.analysis_hash,
                handle_batch=handle_batch,
            )
        ],
        on_startup=[open_store],
        on_shutdown=[close_store],
        http_router=build_router(state),
        background=[drain_outbox],
    )


def main() -> None:
    settings = AnnotationSettings()
    run_main(lambda: build(settings), settings, http_port=settings.http_port)


__getattr__ = lazy_app(build, AnnotationSettings)
