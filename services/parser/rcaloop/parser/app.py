"""FastStream/worker wiring for the parser: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.contracts import IngestedRecord, Stream
from rcaloop.parser import core
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class ParserSettings(RuntimeSettings):
    pass


def build(settings: ParserSettings | None = None) -> Service:
    def handle(record: IngestedRecord) -> list[Emit]:
        return [Emit(Stream.PARSED, core.parse_record(record))]

    return Service(
        name="parser",
        subscriptions=[
            Subscription(Stream.INGESTED, IngestedRecord, handle, group="parser", idempotency_key=lambda r: r.analysis_hash)
        ],
    )


def main() -> None:
    settings = ParserSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, ParserSettings())
