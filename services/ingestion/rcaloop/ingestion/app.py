"""Worker wiring for ingestion (``rca.results`` → ``rca.ingested``): thin adapters over ``core``.

Exact duplicates are dropped by the worker: the subscription's idempotency key is the
record's ``analysis_hash``, claimed in the same Lua commit as the emit and the XACK.
A record that breaks an ingestion rule is dead-lettered to ``rca.results.dlq`` with the
first finding's code and every finding in the message.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

from pydantic import Field

from rcaloop.contracts import DeadLetter, Issue, RawResult, Stream
from rcaloop.ingestion import core
from rcaloop.ingestion.pollers import JumpboxPoller, LocalPoller, poll_forever
from rcaloop.shared.consumer import Emit, Subscription, current_delivery
from rcaloop.shared.jumpbox import JumpboxSettings
from rcaloop.shared.logs import get_logger
from rcaloop.shared.secrets import SCAN_BUDGET_S, redact_dead_letter
from rcaloop.shared.service import Service, host_redis, lazy_app, run_main
from rcaloop.shared.settings import RuntimeSettings
from rcaloop.shared.wire import PAYLOAD_FIELD

DLQ_PAYLOAD_PREVIEW = 16 * 1024
"""An oversized payload is cut to this many characters in its dead letter (the DLQ stays small)."""


class IngestionSettings(RuntimeSettings, JumpboxSettings):
    rcaloop_max_result_bytes: int = Field(
        default=core.DEFAULT_MAX_RESULT_BYTES, ge=1024, description="largest record accepted"
    )
    rcaloop_poll_local: Path | None = Field(
        default=None, description="poll this .analysis/ root for job directories; unset = off"
    )
    rcaloop_poll_jumpbox: bool = Field(default=False,
                                       description="poll JUMPBOX_ROOT on JUMPBOX_URI for job directories")
    rcaloop_poll_interval_s: float = Field(default=30.0, gt=0)
    rcaloop_poll_settle_s: float = Field(
        default=2.0, ge=0, description="a local job directory must be this quiet before it is read"
    )


def dead_letter(result: RawResult, issues: list[Issue], budget_s: float | None = SCAN_BUDGET_S) -> Emit:
    """The rejected record as a ``DeadLetter`` on the DLQ of the stream it came from,
    its secret values redacted like everything else rcaloop stores (within ``budget_s``:
    over it ``ScanBudgetExceeded``, and the worker dead-letters the entry withheld)."""
    delivery = current_delivery()
    if delivery is None:  # called outside the worker (tests, tools): describe the record itself
        fields = {PAYLOAD_FIELD: core.safe_json(result).encode("utf-8", "replace").decode("utf-8")}
        stream, group, msg_id, n, consumer = Stream.RESULTS.value, "ingestion", "", 1, None
        dlq_key = Stream.RESULTS.dlq_key()
    else:
        fields, stream, group = dict(delivery.fields), delivery.stream, delivery.group
        msg_id, n, consumer, dlq_key = delivery.message_id, delivery.deliveries, delivery.consumer, delivery.dlq_key
    letter = redact_dead_letter(
        DeadLetter(
            stream=stream,
            group=group,
            message_id=msg_id,
            fields=fields,
            error_code=issues[0].code,
            error=core.rejection_message(issues),
            deliveries=n,
            consumer=consumer,
        ),
        budget_s,
    )  # redacted whole, then cut: a cut never splits a secret past the detector
    payload = letter.fields.get(PAYLOAD_FIELD, "")
    if len(payload) > DLQ_PAYLOAD_PREVIEW:
        cut = {PAYLOAD_FIELD: payload[:DLQ_PAYLOAD_PREVIEW], "payload_truncated_from": str(len(payload))}
        letter = letter.model_copy(update={"fields": {**letter.fields, **cut}})
    return Emit(dlq_key, letter)


def build(settings: IngestionSettings | None = None) -> Service:
    settings = settings or IngestionSettings()
    limits = core.Limits(max_result_bytes=settings.rcaloop_max_result_bytes)

    def handle(assessed: core.Assessment) -> list[Emit]:
        result = assessed.result
        if not assessed.accepted:
            codes = [i.code for i in assessed.issues]
            get_logger("ingestion").warning("record_rejected", result_id=result.result_id, codes=codes)
            return [dead_letter(result, assessed.issues, settings.secret_scan_budget_s)]
        return [Emit(Stream.INGESTED, core.ingest(assessed, settings.secret_scan_budget_s))]

    return Service(
        name="ingestion",
        subscriptions=[
            Subscription(
                Stream.RESULTS,
                RawResult,
                handle,
                group="ingestion",
                prepare=partial(core.assess, limits=limits),
                idempotency_key=lambda assessed: assessed.key,
            )
        ],
        background=pollers(settings),
    )


def pollers(settings: IngestionSettings) -> list:
    """The background jobs the settings turn on (none by default)."""
    jobs = []
    log = get_logger("ingestion")
    if settings.rcaloop_poll_local is not None:
        local = LocalPoller(
            settings.rcaloop_poll_local, settings.prefix, settings.rcaloop_poll_settle_s, settings.stream_maxlen
        )
        jobs.append(_job("local", lambda: local.poll_once(host_redis()), settings.rcaloop_poll_interval_s))
    if settings.rcaloop_poll_jumpbox:
        if not settings.jumpbox_uri:
            log.error("poller_disabled", poller="jumpbox", reason="RCALOOP_POLL_JUMPBOX is set but JUMPBOX_URI is not")
        else:
            remote = JumpboxPoller(settings, settings.prefix, settings.stream_maxlen)
            jobs.append(_job("jumpbox", lambda: remote.poll_once(host_redis()), settings.rcaloop_poll_interval_s))
    return jobs


def _job(name, poll_once, interval_s):
    async def job(stop: asyncio.Event) -> None:
        await poll_forever(name, poll_once, interval_s, stop)

    job.__name__ = f"poll_{name}"
    return job


def main() -> None:
    run_main(build, IngestionSettings)


__getattr__ = lazy_app(build, IngestionSettings)
