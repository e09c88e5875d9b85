"""A consumer group's lag that stays right after Redis restarts: checked, and corrected in Redis.

Redis 7 reports ``lag`` as ``entries-added`` minus the group's ``entries-read`` counter.
Replaying an AOF (or a replica's stream) does not keep that counter: a read is written to
the AOF as ``XCLAIM … LASTID``, which moves the group's position but not its counter
(redis/redis#10569). After a crash and restart a group that had read everything reports the
entries it read since the last AOF rewrite as lag — for ever, since each later read adds
one to the stale counter — and everything that reads it (``rcaloop status``, the
``rcaloop_consumer_lag`` gauge, KEDA's ``lagCount``) sees work that does not exist.

One Lua script, run by every worker with its reclaim pass and by ``rcaloop status``, works out
the true figure and writes the corrected counter back (``XGROUP SETID … ENTRIESREAD``), so
Redis itself — and KEDA, which asks Redis — is right again:

* a group whose position is the stream's last id has nothing waiting: lag 0, always checked;
* otherwise, the first time the group is looked at under a new Redis run id (a restart, a
  failover), the entries after its position are counted (at most ``RECOUNT_LIMIT``); the
  run id is recorded so later passes trust Redis's counter again;
* a group behind the first entry left (``MAXLEN`` trimmed what it had not read) keeps a
  counter that is at least the stream's length: what was trimmed cannot be counted again.

The script is atomic, so a worker reading at the same time never races the correction.
Redis 6.2 has no lag field: there the count is the figure every time.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis

RECOUNT_LIMIT = 10_000
"""Most entries one check counts. Past it the figure is a lower bound (``exact`` false), which
is above any threshold a scaler acts on (KEDA scales the harness to 16 replicas at 3,200), and
the next pass counts again from the group's new position."""

STREAM_LUA = """
local function field(list, name)
  for i = 1, #list, 2 do if list[i] == name then return list[i + 1] end end
  return nil
end
local function cmp(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  if am ~= bm then return am < bm and -1 or 1 end
  if as ~= bs then return as < bs and -1 or 1 end
  return 0
end
"""
"""Lua helpers the stream scripts share: a field of an ``XINFO`` reply, stream ids compared."""

LAG_LUA = STREAM_LUA + """
local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', KEYS[1])
if not ok then return {-1, 0, 0} end
local group
for _, g in ipairs(groups) do if field(g, 'name') == ARGV[1] then group = g end end
if not group then return {-1, 0, 0} end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local last_id = field(group, 'last-delivered-id')
local lag = field(group, 'lag')
local tracked = lag ~= nil
local added = field(info, 'entries-added')
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
local function set_lag(n)
  if tracked and lag ~= n then
    redis.call('XGROUP', 'SETID', KEYS[1], ARGV[1], last_id, 'ENTRIESREAD', added - n)
    return 1
  end
  return 0
end
local function checked()
  if redis.call('HGET', KEYS[2], ARGV[1]) ~= run then redis.call('HSET', KEYS[2], ARGV[1], run) end
end
if cmp(last_id, field(info, 'last-generated-id')) >= 0 then
  local fixed = set_lag(0)
  checked()
  return {0, fixed, 1}
end
if tracked and lag and redis.call('HGET', KEYS[2], ARGV[1]) == run then
  return {lag, 0, 1}
end
local limit, n, cursor = tonumber(ARGV[2]), 0, '(' .. last_id
while n <= limit do
  local page = redis.call('XRANGE', KEYS[1], cursor, '+', 'COUNT', 500)
  n = n + #page
  if #page < 500 then break end
  cursor = '(' .. page[#page][1]
end
local first = field(info, 'recorded-first-entry-id')
if not first and field(info, 'first-entry') then first = field(info, 'first-entry')[1] end
if n > limit then
  local fixed = 0
  if tracked and (not lag or lag < n) then fixed = set_lag(n) end
  return {n, fixed, 0}
end
local fixed = 0
if first and cmp(last_id, first) < 0 then
  if tracked and (not lag or lag < n) then fixed = set_lag(n) else n = lag or n end
else
  fixed = set_lag(n)
end
checked()
return {n, fixed, 1}
"""


@dataclass(frozen=True)
class Lag:
    """What ``group`` has not read yet on its stream (None: no such group)."""

    entries: int | None
    corrected: bool
    """Redis's own counter was wrong and was set right."""
    exact: bool
    """False when more than ``RECOUNT_LIMIT`` entries wait: ``entries`` is a lower bound."""


def marker_key(prefix: str, stream_key: str) -> str:
    """The hash recording, per group, the Redis run id its counter was last checked under."""
    return f"{prefix}rcaloop:lag:{stream_key}"


async def group_lag(redis: aioredis.Redis, stream_key: str, group: str, prefix: str = "",
                    limit: int = RECOUNT_LIMIT) -> Lag:
    """The group's lag, with Redis's counter corrected where it was wrong (see the module docstring)."""
    script = redis.register_script(LAG_LUA)  # loads it again when Redis lost its scripts (a restart)
    reply = await script(keys=[stream_key, marker_key(prefix, stream_key)], args=[group, limit])
    entries, corrected, exact = (int(x) for x in reply)
    return Lag(None if entries < 0 else entries, bool(corrected), bool(exact))

