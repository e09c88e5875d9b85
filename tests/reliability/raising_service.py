"""A test-only service whose handler always raises on results tagged ``explode``.

Run as a process (``python -m tests.reliability.raising_service``) beside the real
services: it stands for a handler bug that no retry can fix. Its other input succeeds.
"""

from __future__ import annotations

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service, run_main
from rcaloop.shared.settings import RuntimeSettings


def build() -> Service:
    def handle(result: RawResult) -> list[Emit]:
        if result.result_id.startswith("explode"):
            raise RuntimeError(f"handler bug: cannot handle {result.result_id}")
        return []

    return Service(name="raiser", subscriptions=[Subscription(Stream.RESULTS, RawResult, handle, group="raiser")])


if __name__ == "__main__":
    run_main(build, RuntimeSettings())
