"""FastStream/worker wiring for ingestion: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.contracts import RawResult, Stream
from rcaloop.ingestion import core
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class IngestionSettings(RuntimeSettings):
    pass


def build(settings: IngestionSettings | None = None) -> Service:
    def handle(result: RawResult) -> list[Emit]:
        return [Emit(Stream.INGESTED, core.ingest(result))]

    return Service(
        name="ingestion",
        subscriptions=[Subscription(Stream.RESULTS, RawResult, handle, group="ingestion")],
    )


def main() -> None:
    settings = IngestionSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, IngestionSettings())
