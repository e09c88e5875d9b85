"""Worker wiring for the gate service: record what the gate measures, nothing more.

Subscribes to ``rca.evaluated``, ``review.annotations`` and ``knowledge.events`` and
writes each message once into the gate's own SQLite store (insert-if-absent keyed by
``analysis_hash`` / ``annotation_id`` / ``event_id``). ``rcaloop gate measure`` reads it.
"""

from __future__ import annotations

import asyncio

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, KnowledgeEvent, Stream
from rcaloop.gate import rollout
from rcaloop.gate.settings import GateSettings
from rcaloop.gate.store import GateStore
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.logs import get_logger
from rcaloop.shared.service import Service, lazy_app, run_main


def build(settings: GateSettings | None = None) -> Service:
    settings = settings or GateSettings()
    log = get_logger("gate")
    state: dict[str, GateStore] = {}

    async def open_store() -> None:
        state["store"] = await asyncio.to_thread(GateStore, settings.store_path())

    async def close_store() -> None:
        if "store" in state:
            await asyncio.to_thread(state.pop("store").close)

    def _store() -> GateStore:
        if "store" not in state:  # started without the hook (e.g. faststream run): open lazily
            state["store"] = GateStore(settings.store_path())
        return state["store"]

    async def store() -> str | None:
        """Ready while the gate store takes writes."""
        try:
            await asyncio.to_thread(_store().check_writable)
        except Exception as exc:  # noqa: BLE001 - any refusal means not ready; the name says which
            return f"the gate store refuses writes ({type(exc).__name__})"
        return None

    async def on_verdicts(verdicts: list[HarnessVerdict]) -> list[list[Emit]]:
        await asyncio.to_thread(_store().record_verdicts, verdicts)  # one commit per batch
        return [[] for _ in verdicts]

    async def on_verdict(verdict: HarnessVerdict) -> list[Emit]:
        return (await on_verdicts([verdict]))[0]

    async def on_review(record: AnnotationRecord) -> list[Emit]:
        await asyncio.to_thread(_store().record_review, record)
        return []

    async def on_event(event: KnowledgeEvent) -> list[Emit]:
        fresh = await asyncio.to_thread(_store().record_event, event)
        if fresh and rollout.requires_gate_rerun(event):
            log.info("gate_rerun_required", package_id=event.package_id, kind=event.kind)
        return []

    return Service(
        name="gate",
        subscriptions=[
            Subscription(Stream.EVALUATED, HarnessVerdict, on_verdict, group="gate",
                         idempotency_key=lambda v: f"verdict:{v.analysis_hash}",
                         handle_batch=on_verdicts),
            Subscription(Stream.REVIEW_ANNOTATIONS, AnnotationRecord, on_review, group="gate",
                         idempotency_key=lambda r: f"review:{r.annotation_id}:{r.revision}"),
            Subscription(Stream.KNOWLEDGE_EVENTS, KnowledgeEvent, on_event, group="gate",
                         idempotency_key=lambda e: f"event:{e.event_id}"),
        ],
        on_startup=[open_store],
        on_shutdown=[close_store],
        readiness=[store],
    )


def main() -> None:
    run_main(build, GateSettings)


__getattr__ = lazy_app(build, GateSettings)
