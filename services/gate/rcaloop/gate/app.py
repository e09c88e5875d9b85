"""FastStream/worker wiring for the gate service: a thin adapter over ``core``."""

from __future__ import annotations

from rcaloop.contracts import KnowledgeEvent, Stream
from rcaloop.gate import core
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.logs import get_logger
from rcaloop.shared.service import Service, faststream_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class GateSettings(RuntimeSettings):
    pass


def build(settings: GateSettings | None = None) -> Service:
    log = get_logger("gate")

    def handle(event: KnowledgeEvent) -> list[Emit]:
        if core.requires_gate_rerun(event):
            log.info("gate_rerun_required", package_id=event.package_id, kind=event.kind)
        return []

    return Service(
        name="gate",
        subscriptions=[Subscription(Stream.KNOWLEDGE_EVENTS, KnowledgeEvent, handle, group="gate")],
    )


def main() -> None:
    settings = GateSettings()
    run_main(lambda: build(settings), settings)


app = faststream_app(build, GateSettings())
