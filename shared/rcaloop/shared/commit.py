"""One atomic commit per batch: the Lua script the worker runs, and its arguments.

For each handled entry the script claims the entry's idempotency key (``SET NX EX``);
when newly claimed (or keyless) it ``XADD``s the entry's emits; it always ``XACK``s the
entry. So an entry is either fully processed or not at all, and a key claimed before
turns a redelivery into a no-op even when two consumers race. It returns how many
entries were skipped that way.

ARGV: in_key, group, maxlen, ttl, n_items, then per item:
done_key|"", msg_id, n_emits, then per emit: stream_key, n_pairs, field, value, …
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rcaloop.shared.wire import Fields

COMMIT_LUA = """
local in_key, group, maxlen, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local n_items = tonumber(ARGV[5])
local i = 6
local skipped = 0
for _ = 1, n_items do
  local done_key, msg_id, n_emits = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  i = i + 3
  local fresh = true
  if done_key ~= '' then
    fresh = redis.call('SET', done_key, '1', 'NX', 'EX', ttl)
  end
  for _ = 1, n_emits do
    local stream_key, n_pairs = ARGV[i], tonumber(ARGV[i + 1])
    i = i + 2
    if fresh then
      local args = {'XADD', stream_key, 'MAXLEN', '~', maxlen, '*'}
      for k = 0, 2 * n_pairs - 1 do args[#args + 1] = ARGV[i + k] end
      redis.call(unpack(args))
    end
    i = i + 2 * n_pairs
  end
  if not fresh then skipped = skipped + 1 end
  redis.call('XACK', in_key, group, msg_id)
end
return skipped
"""


@dataclass
class Item:
    """One entry's share of a batch commit: ack ``msg_id``; emit unless ``done_key`` was claimed."""

    msg_id: str
    done_key: str = ""
    emits: list[tuple[str, Fields]] = field(default_factory=list)  # (stream key, fields)


def commit_args(items: list[Item], in_key: str, group: str, maxlen: int, ttl_s: int) -> list[Any]:
    args: list[Any] = [in_key, group, maxlen, ttl_s, len(items)]
    for item in items:
        args += [item.done_key, item.msg_id, len(item.emits)]
        for stream_key, fields in item.emits:
            args += [stream_key, len(fields)]
            for k, v in fields.items():
                args += [k, v]
    return args
