"""Reading what landed on a stream, for assertions."""

from __future__ import annotations

import json

import redis.asyncio as aioredis

from rcaloop.contracts import Stream
from rcaloop.shared.wire import decode_fields


async def entries(redis: aioredis.Redis, stream: Stream | str, prefix: str) -> list[dict]:
    """Every entry's decoded payload (or its raw fields when it has no payload)."""
    key = stream.key(prefix) if isinstance(stream, Stream) else f"{prefix}{stream}"
    out = []
    for _id, raw in await redis.xrange(key):
        fields = decode_fields(raw)
        out.append(json.loads(fields["payload"]) if "payload" in fields else fields)
    return out


async def dlq(redis: aioredis.Redis, stream: Stream, prefix: str) -> list[dict]:
    return await entries(redis, stream.dlq_key(""), prefix)
