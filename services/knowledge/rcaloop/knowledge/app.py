"""FastStream/worker wiring for knowledge promotion: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.contracts import AnnotationRecord, Stream
from rcaloop.knowledge import core
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class KnowledgeSettings(RuntimeSettings):
    typedb_address: str | None = None


def build(settings: KnowledgeSettings | None = None) -> Service:
    def handle(record: AnnotationRecord) -> list[Emit]:
        event = core.candidate_for(record)
        return [Emit(Stream.KNOWLEDGE_EVENTS, event)] if event else []

    return Service(
        name="knowledge",
        subscriptions=[
            Subscription(
                Stream.REVIEW_ANNOTATIONS, AnnotationRecord, handle, group="knowledge", idempotency_key=lambda r: r.annotation_id
            )
        ],
    )


def main() -> None:
    settings = KnowledgeSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, KnowledgeSettings())
