"""What the CLI writes to and reads from the streams: submitted results, the drain, verdicts."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from rcaloop.contracts import HarnessVerdict, RawResult, Stream
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.sources import load_result
from rcaloop.shared.status import stream_status
from rcaloop.shared.wire import decode, decode_fields, encode


def example_paths(root: Path) -> list[Path]:
    """Bundled samples: job directories, skill text outputs and captures."""
    paths = sorted(p for p in (root / "jobs").iterdir() if p.is_dir()) if (root / "jobs").is_dir() else []
    for sub, pattern in (("skill_outputs", "*.txt"), ("captures", "*.json")):
        if (root / sub).is_dir():
            paths += sorted((root / sub).glob(pattern))
    return paths


async def publish(redis, results: list[RawResult], prefix: str = "") -> list[str]:
    """Publish each result on ``rca.results`` in one round trip; returns the result ids."""
    pipe = redis.pipeline(transaction=False)
    for r in results:
        pipe.xadd(Stream.RESULTS.key(prefix), encode(r, producer=r.producer))
    await pipe.execute()
    return [r.result_id for r in results]


async def submit_paths(url: str, paths: list[Path], prefix: str = "") -> list[str]:
    """Publish each path as a ``RawResult`` on ``rca.results``; returns the result ids."""
    results = [load_result(p) for p in paths]
    redis = connect(url)
    try:
        return await publish(redis, results, prefix)
    finally:
        await redis.aclose()


async def verdicts(redis, prefix: str) -> list[HarnessVerdict]:
    """Every verdict on ``rca.evaluated``, oldest first."""
    return [decode(decode_fields(raw), HarnessVerdict) for _id, raw in await redis.xrange(Stream.EVALUATED.key(prefix))]


async def wait_until_drained(url: str, prefix: str, timeout_s: float = 60, settle_polls: int = 3) -> bool:
    """True once every consumer group has read and acknowledged everything.

    The status is read stream by stream, not atomically, so the drained state must hold
    for ``settle_polls`` consecutive polls before it counts.
    """
    redis = connect(url)
    deadline = time.monotonic() + timeout_s
    quiet = 0
    try:
        while time.monotonic() < deadline:
            rows = [r for r in await stream_status(redis, prefix) if r.group]
            quiet = quiet + 1 if rows and all(r.lag == 0 and r.pending == 0 for r in rows) else 0
            if quiet >= settle_polls:
                return True
            await asyncio.sleep(0.2)
        return False
    finally:
        await redis.aclose()
