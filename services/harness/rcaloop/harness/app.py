"""Worker wiring for the harness (``rca.parsed`` → ``rca.evaluated``): a thin adapter over ``core``.

Scale horizontally by running more workers: every one joins the consumer group
``harness``, so each parsed RCA is evaluated by exactly one of them; the idempotency
key (``analysis_hash``) makes a redelivery a no-op.
"""

from __future__ import annotations

from rcaloop.contracts import ParsedRCA, Stream
from rcaloop.contracts.common import utcnow
from rcaloop.judge import core
from rcaloop.harness.settings import HarnessSettings
from rcaloop.shared import metrics
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, lazy_app, run_main

__all__ = ["HarnessSettings", "build", "main"]


def build(settings: HarnessSettings | None = None) -> Service:
    config = (settings or HarnessSettings()).harness_config()

    def handle(parsed: ParsedRCA) -> list[Emit]:
        verdict = core.evaluate(parsed, config, now=utcnow())
        metrics.observe_verdict(verdict)  # verdicts, scores, failed gates, red flags
        return [Emit(Stream.EVALUATED, verdict)]

    return Service(
        name="harness",
        subscriptions=[
            Subscription(Stream.PARSED, ParsedRCA, handle, group="harness", idempotency_key=lambda p: p.analysis_hash)
        ],
    )


def main() -> None:
    run_main(build, HarnessSettings)


__getattr__ = lazy_app(build, HarnessSettings)
