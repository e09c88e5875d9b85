"""Per-stream figures for ``rcaloop status``: length, groups, lag (checked: ``lag.group_lag``), pending, DLQ size."""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from rcaloop.contracts import Stream
from rcaloop.shared.lag import group_lag
from rcaloop.shared.wire import as_text


@dataclass(frozen=True)
class GroupStatus:
    stream: str
    group: str | None
    length: int
    lag: int | None
    pending: int
    dlq: int
    consumers: int
    trimmed_unread: int = 0


def _id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms or 0), int(seq or 0)


def trimmed_unread(group: dict, stream_info: dict) -> int:
    """Entries trimmed away before ``group`` read them (0 when none, or unknown).

    Trimming (``MAXLEN``) ignores consumer groups. While a group is still behind the
    stream's first entry, Redis 7 counts what it has not read (``lag``) including what was
    trimmed, so ``lag`` over the stream's length is the gap. Once the group reads on,
    Redis forgets it; Redis 6 has neither figure.
    """
    lag, last = group.get("lag"), as_text(group.get("last-delivered-id"))
    first, length = as_text(stream_info.get("recorded-first-entry-id")), int(stream_info.get("length") or 0)
    if lag is None or not first or _id(last) >= _id(first):
        return 0
    return max(int(lag) - length, 0)


async def stream_status(redis: aioredis.Redis, prefix: str = "") -> list[GroupStatus]:
    rows: list[GroupStatus] = []
    for stream in Stream:
        key = stream.key(prefix)
        length = await redis.xlen(key)
        dlq = await redis.xlen(stream.dlq_key(prefix))
        try:
            groups = await redis.xinfo_groups(key)
            info = await redis.xinfo_stream(key) if groups else {}
        except ResponseError:
            groups, info = [], {}
        if not groups:
            rows.append(GroupStatus(key, None, length, None, 0, dlq, 0))
        for g in groups:
            rows.append(
                GroupStatus(key, as_text(g["name"]), length,
                            (await group_lag(redis, key, as_text(g["name"]), prefix)).entries,
                            int(g["pending"]), dlq, int(g["consumers"]), trimmed_unread(g, info))
            )
    return rows
