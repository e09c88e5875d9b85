"""FastStream/worker wiring for the harness: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.contracts import ParsedRCA, Stream
from rcaloop.harness import core
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class HarnessSettings(RuntimeSettings):
    pass


def build(settings: HarnessSettings | None = None) -> Service:
    def handle(parsed: ParsedRCA) -> list[Emit]:
        return [Emit(Stream.EVALUATED, core.evaluate(parsed))]

    return Service(
        name="harness",
        subscriptions=[
            Subscription(Stream.PARSED, ParsedRCA, handle, group="harness", idempotency_key=lambda p: p.analysis_hash)
        ],
    )


def main() -> None:
    settings = HarnessSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, HarnessSettings())
