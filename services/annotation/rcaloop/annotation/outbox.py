"""Drains the store's outbox to ``review.annotations``: every stored version exactly once.

A row is written in the same transaction as the annotation/evaluation it announces. The
drainer publishes it with one Lua script that claims the row's key (``SET NX``) and
``XADD``s only when the claim is new, then marks the row published. A crash between the
two steps re-runs the script, which finds the key taken and adds nothing: no loss (the row
stays until marked), no duplicate (the key guards the stream).
"""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from rcaloop.annotation.store import Store
from rcaloop.shared.logs import get_logger
from rcaloop.shared.settings import RuntimeSettings

_PUBLISH_ONCE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'payload', ARGV[3], 'producer', 'annotation')
  return 1
end
return 0
"""


class OutboxPublisher:
    def __init__(self, store: Store, redis: aioredis.Redis, settings: RuntimeSettings):
        self.store, self.redis, self.settings = store, redis, settings
        self._script = redis.register_script(_PUBLISH_ONCE)
        self.log = get_logger("annotation", component="outbox")

    async def drain_once(self) -> int:
        """Publish every pending row; returns how many were newly added to a stream."""
        added = 0
        while rows := await self.store.pending_outbox():
            for key, stream, payload in rows:
                added += int(
                    await self._script(
                        keys=[f"{self.settings.prefix}rcaloop:outbox:{key}", f"{self.settings.prefix}{stream}"],
                        args=[self.settings.idempotency_ttl_s, self.settings.stream_maxlen, payload],
                    )
                )
            await self.store.mark_published([r[0] for r in rows])
        return added

    async def run(self, stop: asyncio.Event, interval_s: float = 0.2) -> None:
        failing = False
        while not stop.is_set():
            try:
                await self.drain_once()
                if failing:
                    self.log.info("outbox_recovered")
                failing = False
            except Exception as exc:  # noqa: BLE001 - Redis or the DB away: retry, never die
                if not failing:
                    self.log.warning("outbox_drain_failed", error=type(exc).__name__)
                failing = True
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval_s)
            except TimeoutError:
                pass
