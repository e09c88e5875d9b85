"""Annotation service wiring: the composition root for store, worker, outbox and HTTP routes.

* ``rca.ingested`` → the result's files (step files, skill text, capture) are kept with the
  analysis, content-addressed and size-bounded (``artifacts``), for validation, the
  walkthrough and the web UI;
* ``rca.evaluated`` → the verdict and its review task are stored (insert-if-absent by
  ``analysis_hash``; a worker batch in one transaction) and the task is emitted on ``review.tasks``
  (the worker commits the emit with the ack, keyed by ``analysis_hash``: a redelivery creates
  nothing twice);
* stored annotations/evaluations reach ``review.annotations`` through the outbox drainer;
* the HTTP API (``api.build_router``) serves annotation UIs; the web UI (``ui.build_router``)
  is the reviewers' own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from fastapi import APIRouter
from sqlalchemy.exc import DBAPIError, DataError

from rcaloop.annotation import artifacts, core, lead_api, lead_ui, ui
from rcaloop.annotation.api import ApiState, build_router, guard
from rcaloop.annotation.auth import ROLE_SETTINGS, Annotators, TokenConfigError
from rcaloop.annotation.outbox import OutboxPublisher
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store
from rcaloop.contracts import HarnessVerdict, IngestedRecord, Stream
from rcaloop.shared.consumer import Emit, PermanentError, Subscription
from rcaloop.shared.logs import get_logger
from rcaloop.shared.redis_conn import connect, redis_url
from rcaloop.shared.service import Service, host_redis, lazy_app, run_main
from rcaloop.shared.tokens import Tokens

__all__ = ["AnnotationSettings", "build", "main"]

log = get_logger("annotation", component="retention")


def build(settings: AnnotationSettings | None = None) -> Service:
    settings = settings or AnnotationSettings()
    state = _api_state(settings)

    async def open_store() -> None:
        store = Store(settings.store_url(), schema=settings.rcaloop_db_schema)
        await store.migrate()
        state.store = store  # the routes answer 503 until the tables exist, never a 500

    async def store() -> str | None:
        """Ready while the annotation store takes writes."""
        if state.store is None:
            return "the annotation store is not open yet"
        try:
            await state.store.check_writable()
        except Exception as exc:  # noqa: BLE001 - any refusal means not ready; the name says which
            return f"the annotation store refuses writes ({type(exc).__name__})"
        return None

    async def close_store() -> None:
        if state.store is not None:
            await state.store.close()

    return Service(
        name="annotation",
        subscriptions=_subscriptions(state, settings),
        on_startup=[open_store],
        on_shutdown=[close_store],
        http_router=_routes(state),
        http_guards=[guard(state)],
        http_browser_paths=["/ui"],
        background=_background(state, settings),
        readiness=[store],
    )


def _api_state(settings: AnnotationSettings) -> ApiState:
    """The HTTP routes' state: the settings and the reviewers' tokens (a bad token setting stops the start)."""

    def secret(value) -> str | None:
        return value.get_secret_value() if value else None

    try:
        return ApiState(
            settings=settings,
            annotators=Annotators.parse(secret(settings.rcaloop_annotator_tokens)),
            operators=Tokens.parse(secret(settings.rcaloop_operator_tokens), ROLE_SETTINGS["operator"]),
            leads=Tokens.parse(secret(settings.rcaloop_lead_tokens), ROLE_SETTINGS["lead"]),
        )
    except TokenConfigError as exc:
        raise SystemExit(f"error: {exc}") from None


def _subscriptions(state: ApiState, settings: AnnotationSettings) -> list[Subscription]:
    """Verdicts become stored review tasks; ingested results keep their files with the analysis."""

    async def handle_batch(batch: list[HarnessVerdict]) -> list[list[Emit]]:
        tasks = [core.review_task_for(verdict, overlap=settings.review_overlap) for verdict in batch]
        await state.opened().add_verdicts(list(zip(batch, tasks, strict=True)))  # one commit per batch
        return [[Emit(Stream.REVIEW_TASKS, task, {"producer": "annotation"})] for task in tasks]

    async def handle(verdict: HarnessVerdict) -> list[Emit]:
        with refused_values():
            return (await handle_batch([verdict]))[0]

    async def keep_artifacts_batch(records: list[IngestedRecord]) -> list[list[Emit]]:
        limits = (settings.review_artifact_max_bytes, settings.review_artifacts_max_total_bytes)
        await state.opened().add_artifacts_batch(  # one commit per batch
            [(r.analysis_hash, r.job_id, artifacts.artifacts_of(r, *limits)) for r in records])
        return [[] for _ in records]

    async def keep_artifacts(record: IngestedRecord) -> list[Emit]:
        with refused_values():
            return (await keep_artifacts_batch([record]))[0]

    return [
        Subscription(
            Stream.EVALUATED,
            HarnessVerdict,
            handle,
            group="annotation",
            idempotency_key=lambda v: v.analysis_hash,
            handle_batch=handle_batch,
        ),
        Subscription(
            Stream.INGESTED,
            IngestedRecord,
            keep_artifacts,
            group="annotation-artifacts",
            idempotency_key=lambda r: r.analysis_hash,
            handle_batch=keep_artifacts_batch,
        ),
    ]


def _background(
    state: ApiState, settings: AnnotationSettings
) -> list[Callable[[asyncio.Event], Coroutine[Any, Any, None]]]:
    """The outbox drainer and the hourly purge."""

    async def drain_outbox(stop: asyncio.Event) -> None:
        shared = host_redis()
        redis = shared or connect(redis_url(settings))
        try:
            await OutboxPublisher(state.opened(), redis, settings).run(stop, settings.outbox_interval_ms / 1000)
        finally:
            if shared is None:
                await redis.aclose()

    async def purge(stop: asyncio.Event) -> None:
        """At start, then hourly: ended sessions, stale drafts, long-published outbox rows (``Store.purge``)."""
        while not stop.is_set():
            try:
                done = await state.opened().purge(drafts_older_than_s=settings.review_draft_retention_s,
                                                  outbox_older_than_s=settings.annotation_outbox_retention_s)
                if any(done.values()):
                    log.info("purged", **done)
            except Exception as exc:  # noqa: BLE001 - a store outage: readiness reports it; try again later
                log.warning("purge_failed", error=type(exc).__name__)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=3600)

    return [drain_outbox, purge]


@contextlib.contextmanager
def refused_values() -> Iterator[None]:
    """A value the database refuses (SQLSTATE class 22, "data exception": invalid text, a value
    too long) is refused again on every retry: the entry is dead-lettered at once as
    ``store_refused``. (A batch that fails is retried one entry at a time, so only the entry
    that holds the value lands there.) Every other database error stays a retried failure."""
    try:
        yield
    except DBAPIError as exc:
        state = str(getattr(exc.orig, "sqlstate", "") or "")
        if not (isinstance(exc, DataError) or state.startswith("22")):
            raise
        raise PermanentError("store_refused", f"the annotation store refuses a value of this entry "
                                              f"(SQLSTATE {state or 'data exception'})") from None


def _routes(state: ApiState) -> APIRouter:
    """The JSON API for annotation UIs and the web UI, mounted together."""
    router = APIRouter()
    router.include_router(build_router(state))
    router.include_router(ui.build_router(state))
    router.include_router(lead_api.build_router(state))  # the lead's figures (JSON)
    router.include_router(lead_ui.build_router(state))  # the lead's cockpit (/ui/lead)
    return router


def main() -> None:
    run_main(build, AnnotationSettings)


__getattr__ = lazy_app(build, AnnotationSettings)
