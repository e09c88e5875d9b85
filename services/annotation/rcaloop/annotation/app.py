"""FastStream/worker wiring for annotation: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.annotation import core
from rcaloop.contracts import HarnessVerdict, Stream
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class AnnotationSettings(RuntimeSettings):
    pass


def build(settings: AnnotationSettings | None = None) -> Service:
    def handle(verdict: HarnessVerdict) -> list[Emit]:
        return [Emit(Stream.REVIEW_TASKS, core.review_task_for(verdict))]

    return Service(
        name="annotation",
        subscriptions=[
            Subscription(Stream.EVALUATED, HarnessVerdict, handle, group="annotation", idempotency_key=lambda v: v.analysis_hash)
        ],
    )


def main() -> None:
    settings = AnnotationSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, AnnotationSettings())
