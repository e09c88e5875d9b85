"""A test-only service whose handler always raises on results tagged ``explode``.

Run as a process (``python -m tests.reliability.raising_service``) beside the real
services: it stands for a handler bug that no retry can fix. Its other input succeeds.
With ``RAISER_JOB_FAILS_AFTER_S`` set it also runs a background job that raises after
that many seconds: a task of the host ending on its own, which no entry can cause.
"""

from __future__ import annotations

import asyncio
import os

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, run_main
from rcaloop.shared.settings import RuntimeSettings


def build(_settings: RuntimeSettings | None = None) -> Service:
    def handle(result: RawResult) -> list[Emit]:
        if result.result_id.startswith("explode"):
            raise RuntimeError(f"handler bug: cannot handle {result.result_id}")
        return []

    async def failing_job(stop: asyncio.Event) -> None:
        await asyncio.sleep(float(os.environ["RAISER_JOB_FAILS_AFTER_S"]))
        raise RuntimeError("background job bug")

    jobs = [failing_job] if os.environ.get("RAISER_JOB_FAILS_AFTER_S") else []
    return Service(name="raiser", subscriptions=[Subscription(Stream.RESULTS, RawResult, handle, group="raiser")],
                   background=jobs)


if __name__ == "__main__":
    run_main(build, RuntimeSettings)
