"""Letting go: stream entries every group has acknowledged, and consumers that are gone.

Two atomic scripts, run by each worker every ``RETENTION_INTERVAL_S`` for its own stream and
group (any worker may run them: they are idempotent):

* **trim** — removes entries older than the stream's retention (``STREAM_RETENTION_S``, or its
  entry in ``STREAM_RETENTION``; ``rca.results`` defaults to 0, ``RESULTS_RETENTION_S``: it
  holds what producers sent before redaction, which ``rca.ingested`` carries redacted from
  then on) that *every* consumer group on the stream has read and
  acknowledged: the trim point is the oldest of the retention cut-off, each group's oldest
  pending entry and each group's last-read entry, so nothing a group has not acknowledged is
  ever trimmed (``XTRIM MINID``, exact). A stream without groups is left to ``STREAM_MAXLEN``.
* **consumers** — deletes a consumer of this group that holds no pending entry and has not
  read for ``CONSUMER_IDLE_S`` (a process that died or was scaled away); one with pending
  entries is left for the reclaim loop, which takes them over first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import redis.asyncio as aioredis

from rcaloop.shared.lag import STREAM_LUA

TRIM_LUA = STREAM_LUA + """
local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', KEYS[1])
if not ok or #groups == 0 then return 0 end
local cut = ARGV[1] .. '-0'
for _, g in ipairs(groups) do
  local name, last = field(g, 'name'), field(g, 'last-delivered-id')
  local ms, seq = string.match(last, '^(%d+)-(%d+)$')
  local next_unread = ms .. '-' .. (tonumber(seq) + 1)
  if cmp(next_unread, cut) < 0 then cut = next_unread end
  local pending = redis.call('XPENDING', KEYS[1], name)
  if pending[1] > 0 and cmp(pending[2], cut) < 0 then cut = pending[2] end
end
return redis.call('XTRIM', KEYS[1], 'MINID', cut)
"""

CONSUMERS_LUA = """
local removed = 0
local ok, consumers = pcall(redis.call, 'XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
if not ok then return 0 end
for _, c in ipairs(consumers) do
  local name, pending, idle
  for i = 1, #c, 2 do
    if c[i] == 'name' then name = c[i + 1] elseif c[i] == 'pending' then pending = c[i + 1]
    elseif c[i] == 'idle' then idle = c[i + 1] end
  end
  if name ~= ARGV[3] and pending == 0 and idle >= tonumber(ARGV[2]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], name)
    removed = removed + 1
  end
end
return removed
"""


@dataclass(frozen=True)
class Released:
    trimmed: int
    consumers_removed: int


RESULTS_RETENTION_S = 0.0
"""``rca.results`` is trimmed as soon as every group acknowledged an entry (at the next
retention pass): its entries are the producers' text before redaction. ``STREAM_RETENTION``
(``{"rca.results": 3600}``) keeps them longer."""
DEFAULT_RETENTION = {"rca.results": RESULTS_RETENTION_S}


def retention_s(stream: str, default_s: float, overrides: dict[str, float]) -> float:
    """How long acknowledged entries of ``stream`` (its name without the prefix) are kept:
    its ``STREAM_RETENTION`` entry, else its default here, else ``STREAM_RETENTION_S``."""
    return float(overrides.get(stream, DEFAULT_RETENTION.get(stream, default_s)))


async def release(redis: aioredis.Redis, stream_key: str, group: str, *, keep_s: float, consumer_idle_s: float,
                  me: str, now: float | None = None) -> Released:
    """Trim what every group has acknowledged and is older than ``keep_s``; remove idle,
    empty consumers of ``group`` other than ``me``."""
    cut_ms = int(((time.time() if now is None else now) - keep_s) * 1000)
    trimmed = await redis.register_script(TRIM_LUA)(keys=[stream_key], args=[max(cut_ms, 0)])
    removed = await redis.register_script(CONSUMERS_LUA)(keys=[stream_key],
                                                         args=[group, int(consumer_idle_s * 1000), me])
    return Released(int(trimmed or 0), int(removed or 0))
