"""Publishing results and reading what reached ``rca.evaluated``, for the fault tests."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import redis as redis_sync

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.wire import encode

SAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "skill_outputs" / "checkout-5xx.txt").read_text()


def result(i: int, tag: str = "r") -> RawResult:
    """A realistic skill output, made unique (its own ``analysis_hash``) by one line."""
    return RawResult(result_id=f"{tag}-{i}", kind="skill_text", content=f"{SAMPLE}\n<!-- run {tag}-{i} -->\n",
                     producer="reliability-test")


def publish(r: redis_sync.Redis, prefix: str, results: list[RawResult], *, maxlen: int | None = None) -> list[str]:
    """XADD pipelined in chunks, as an upstream agent fleet would; returns the entry ids."""
    ids: list[str] = []
    for start in range(0, len(results), 500):
        pipe = r.pipeline(transaction=False)
        for res in results[start : start + 500]:
            pipe.xadd(Stream.RESULTS.key(prefix), encode(res, producer=res.producer),
                      maxlen=maxlen, approximate=True)
        ids += [i.decode() for i in pipe.execute()]
    return ids


def evaluated_ids(r: redis_sync.Redis, prefix: str) -> Counter:
    """How many times each ``result_id`` reached ``rca.evaluated``."""
    seen: Counter = Counter()
    for _id, fields in r.xrange(Stream.EVALUATED.key(prefix)):
        seen[json.loads(fields[b"payload"])["result_id"]] += 1
    return seen


def pending(r: redis_sync.Redis, prefix: str, stream: Stream, group: str) -> int:
    try:
        return r.xpending(stream.key(prefix), group)["pending"]
    except redis_sync.ResponseError:
        return 0


def dlq(r: redis_sync.Redis, prefix: str, stream: Stream) -> list[dict]:
    return [json.loads(f[b"payload"]) for _id, f in r.xrange(stream.dlq_key(prefix))]


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{what}: not within {timeout} s")


def groups(r: redis_sync.Redis, prefix: str) -> dict[tuple[str, str], dict]:
    """Every consumer group on every stream of the prefix: its ``pending`` and ``lag``."""
    out = {}
    for stream in Stream:
        try:
            infos = r.xinfo_groups(stream.key(prefix))
        except redis_sync.ResponseError:
            continue
        for g in infos:
            out[(stream.value, g["name"].decode())] = {"pending": int(g["pending"]), "lag": g.get("lag")}
    return out


def drained(r: redis_sync.Redis, prefix: str) -> bool:
    gs = groups(r, prefix)
    return bool(gs) and all(g["pending"] == 0 and g["lag"] == 0 for g in gs.values())


def n_evaluated(r: redis_sync.Redis, prefix: str) -> int:
    """Entries on ``rca.evaluated`` (cheap enough to poll; ``evaluated_ids`` decodes them all)."""
    return r.xlen(Stream.EVALUATED.key(prefix))
