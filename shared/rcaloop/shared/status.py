"""Per-stream figures for ``rcaloop status``: length, groups, lag, pending, DLQ size."""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from rcaloop.contracts import Stream


@dataclass(frozen=True)
class GroupStatus:
    stream: str
    group: str | None
    length: int
    lag: int | None
    pending: int
    dlq: int
    consumers: int


def _s(v) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


async def _lag(redis: aioredis.Redis, key: str, group: dict) -> int | None:
    if group.get("lag") is not None:
        return int(group["lag"])
    last = _s(group.get("last-delivered-id", "0-0"))  # Redis 6.2 has no lag field: count what is after
    entries = await redis.xrange(key, min=f"({last}", max="+", count=100_000)
    return len(entries)


async def stream_status(redis: aioredis.Redis, prefix: str = "") -> list[GroupStatus]:
    rows: list[GroupStatus] = []
    for stream in Stream:
        key = stream.key(prefix)
        length = await redis.xlen(key)
        dlq = await redis.xlen(stream.dlq_key(prefix))
        try:
            groups = await redis.xinfo_groups(key)
        except ResponseError:
            groups = []
        if not groups:
            rows.append(GroupStatus(key, None, length, None, 0, dlq, 0))
        for g in groups:
            rows.append(
                GroupStatus(key, _s(g["name"]), length, await _lag(redis, key, g), int(g["pending"]), dlq, int(g["consumers"]))
            )
    return rows
