"""Parser service wiring (``rca.ingested`` → ``rca.parsed``): a thin adapter over ``core``.

A contract violation is a result (outcome ``incomplete`` with errors) published like any
other; only a payload that is not an ``IngestedRecord`` reaches the DLQ (the worker does
that). The registry file named by ``RCALOOP_REGISTRY`` is re-read when it changes. Parsing
(and the redaction it starts with) runs in a child process within ``ENTRY_BUDGET_S``
(``offload``), so a huge output never stalls the event loop.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import Field

from rcaloop.contracts import IngestedRecord, Stream
from rcaloop.parser import core
from rcaloop.parser.registry_file import RegistryError, RegistrySource
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.logs import get_logger
from rcaloop.shared.offload import Offload
from rcaloop.shared.service import Service, lazy_app, run_main
from rcaloop.shared.settings import RuntimeSettings


class ParserSettings(RuntimeSettings):
    rcaloop_registry: Path | None = Field(
        default=None, description="citation registry JSON (message, RCA and project links); unset = none")


def build(settings: ParserSettings | None = None) -> Service:
    settings = settings or ParserSettings()
    registry = RegistrySource(settings.rcaloop_registry)

    log = get_logger("parser")
    parse = Offload(settings.entry_budget_s, imports=(core.__name__, "rcaloop.shared.secret_engine"))

    async def handle(record: IngestedRecord) -> list[Emit]:
        parsed = await parse.run(core.parse_record, record, registry.current())
        if parsed.outcome == "incomplete":  # codes and ids only: never the output's text
            log.info("incomplete", analysis_hash=parsed.analysis_hash, errors=[e.code for e in parsed.errors])
        return [Emit(Stream.PARSED, parsed)]

    return Service(
        name="parser",
        subscriptions=[
            Subscription(
                Stream.INGESTED, IngestedRecord, handle, group="parser", idempotency_key=lambda r: r.analysis_hash
            )
        ],
        on_startup=[parse.start],
        on_shutdown=[parse.close],
    )


def main() -> None:
    def checked(settings: ParserSettings) -> Service:
        try:
            return build(settings)  # fail fast, with the reason, on an unusable RCALOOP_REGISTRY
        except RegistryError as exc:
            sys.exit(f"parser: {exc}")

    run_main(checked, ParserSettings)


__getattr__ = lazy_app(build, ParserSettings)
