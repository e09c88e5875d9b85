"""Worker wiring for the harness (``rca.parsed`` → ``rca.evaluated``): a thin adapter over ``core``.

Scale horizontally by running more workers: every one joins the consumer group
``harness``, so each parsed RCA is evaluated by exactly one of them; the idempotency
key (``analysis_hash``) makes a redelivery a no-op. Judging runs in a child process
(``offload``) within ``ENTRY_BUDGET_S``, so the event loop keeps answering probes and an
output that would take minutes is dead-lettered (``time_budget_exceeded``) instead.
"""

from __future__ import annotations

import asyncio

from rcaloop.contracts import ParsedRCA, Stream
from rcaloop.contracts.common import utcnow
from rcaloop.judge import core
from rcaloop.harness.catalog import CatalogSnapshot, follow, stream_key
from rcaloop.harness.settings import HarnessSettings
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.shared import metrics
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.offload import Offload
from rcaloop.shared.service import Service, host_redis, lazy_app, run_main

__all__ = ["HarnessSettings", "build", "main"]


def build(settings: HarnessSettings | None = None) -> Service:
    settings = settings or HarnessSettings()
    config = settings.harness_config()
    judge = Offload(settings.entry_budget_s, imports=(core.__name__,))
    catalog = CatalogSnapshot(bundled_catalog())

    async def handle(parsed: ParsedRCA) -> list[Emit]:
        verdict = await judge.run(core.evaluate, parsed, config, now=utcnow(), catalog=catalog.catalog)
        metrics.observe_verdict(verdict)  # verdicts, scores, failed gates, red flags
        return [Emit(Stream.EVALUATED, verdict)]

    async def follow_catalog(stop: asyncio.Event) -> None:
        """Keep the catalog current from knowledge.events (every replica reads every event)."""
        await follow(catalog, host_redis(), stream_key(settings.prefix), stop, block_ms=settings.block_ms)

    return Service(
        name="harness",
        subscriptions=[
            Subscription(Stream.PARSED, ParsedRCA, handle, group="harness", idempotency_key=lambda p: p.analysis_hash)
        ],
        on_startup=[judge.start],
        on_shutdown=[judge.close],
        background=[follow_catalog],
    )


def main() -> None:
    run_main(build, HarnessSettings)


__getattr__ = lazy_app(build, HarnessSettings)
