"""Lag after Redis is killed and restarted from its AOF (own instance): right again, in Redis too.

Redis keeps a group's read counter out of its AOF (a read is logged as ``XCLAIM … LASTID``),
so after a restart drained groups reported the entries read since the last AOF rewrite as
lag, for ever: ``rcaloop status``, the lag gauge and KEDA's ``lagCount`` all saw work that did
not exist. The test makes Redis wrong first (and checks that it is), then asks for the lag.
"""

from __future__ import annotations

import asyncio
import time

import redis

from rcaloop.contracts import Stream
from rcaloop.shared.lag import group_lag
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.status import stream_status
from tests.reliability.flow import evaluated_ids, n_evaluated, publish, result, wait_until
from tests.reliability.procs import Procs

STAGES = ("ingestion", "parser", "harness")
HOPS = {(Stream.RESULTS, "ingestion"), (Stream.INGESTED, "parser"), (Stream.PARSED, "harness")}


def _raw_lags(r: redis.Redis, prefix: str) -> dict[tuple[str, str], int | None]:
    """What Redis itself says (what KEDA reads): ``lag`` of every group on the three hops."""
    return {(s.value, g): next((x.get("lag") for x in r.xinfo_groups(s.key(prefix)) if x["name"].decode() == g), None)
            for s, g in HOPS}


def _true_lags(r: redis.Redis, prefix: str) -> dict[tuple[str, str], int]:
    """Counted: the entries after each group's position."""
    out = {}
    for s, g in HOPS:
        last = next(x["last-delivered-id"].decode() for x in r.xinfo_groups(s.key(prefix)) if x["name"].decode() == g)
        out[(s.value, g)] = len(r.xrange(s.key(prefix), min=f"({last}", max="+"))
    return out


def _drained(r: redis.Redis, prefix: str) -> bool:
    """Every group has read to its stream's end and holds nothing (positions, not counters)."""
    for s, g in HOPS:
        info = r.xinfo_stream(s.key(prefix))
        x = next(x for x in r.xinfo_groups(s.key(prefix)) if x["name"].decode() == g)
        if x["pending"] or x["last-delivered-id"] != info["last-generated-id"]:
            return False
    return True


def _rewrite_aof(r: redis.Redis) -> None:
    r.bgrewriteaof()
    wait_until(lambda: not int(r.info("persistence")["aof_rewrite_in_progress"])
               and not int(r.info("persistence")["aof_rewrite_scheduled"]), 30, "AOF rewrite")


async def _status_lags(url: str, prefix: str) -> dict[tuple[str, str], int | None]:
    client = connect(url)
    try:
        rows = await stream_status(client, prefix)
    finally:
        await client.aclose()
    return {(row.stream.removeprefix(prefix), row.group): row.lag for row in rows if row.group}


def test_lag_is_right_after_a_crash_in_status_the_gauge_and_redis_itself(private_redis, prefix, tmp_path):
    r = redis.Redis.from_url(private_redis.url)
    procs = Procs(private_redis.url, prefix, tmp_path)
    try:
        services = [procs.start(name) for name in STAGES]
        publish(r, prefix, [result(i, "a") for i in range(150)])
        wait_until(lambda: _drained(r, prefix) and n_evaluated(r, prefix) >= 150, 90, "first batch")
        _rewrite_aof(r)  # the counters as of now go into the AOF's base …
        publish(r, prefix, [result(i, "b") for i in range(250)])
        wait_until(lambda: _drained(r, prefix) and n_evaluated(r, prefix) >= 400, 90, "second batch")
        assert all(v == 0 for v in _raw_lags(r, prefix).values())
        for sp in services:  # nobody corrects anything while Redis is down and coming back
            sp.kill()
        time.sleep(1.5)  # … the reads after it only as XCLAIM LASTID (appendfsync always: all on disk)
        private_redis.kill()
        private_redis.start()
        r = redis.Redis.from_url(private_redis.url)

        wrong = _raw_lags(r, prefix)
        assert any(v for v in wrong.values()), f"Redis's own counters came back right: the test proves nothing {wrong}"
        publish(r, prefix, [result(i, "c") for i in range(40)])  # a real backlog on the first hop only
        expected = {("rca.results", "ingestion"): 40, ("rca.ingested", "parser"): 0, ("rca.parsed", "harness"): 0}
        assert _true_lags(r, prefix) == expected

        assert asyncio.run(_status_lags(private_redis.url, prefix)) == expected  # what `rcaloop status` prints
        assert _raw_lags(r, prefix) == expected, "Redis's counter (KEDA's lagCount) was written back right"

        services = [procs.start(name) for name in STAGES]  # consumers resume: the lag they report drains to 0
        wait_until(lambda: _drained(r, prefix) and n_evaluated(r, prefix) >= 440, 90, "everything after the restart")
        wait_until(lambda: all(v == 0 for v in _raw_lags(r, prefix).values()), 30, "lag back to 0 in Redis")
        seen = evaluated_ids(r, prefix)
        assert len(seen) == 440 and max(seen.values()) == 1
        for sp in services:
            assert "Traceback" not in sp.logs(), sp.logs()[-3000:]
    finally:
        procs.stop_all()
        r.close()


async def test_a_counter_left_wrong_mid_stream_is_recounted_once_per_restart(private_redis, prefix):
    """A group halfway through a backlog when Redis died: its lag is counted once after the
    restart (then Redis's counter is trusted), exact below the recount limit, a lower bound above."""
    client = connect(private_redis.url)
    key, sync = f"{prefix}lagtest", redis.Redis.from_url(private_redis.url)
    try:
        await client.xgroup_create(key, "g", id="0", mkstream=True)
        for i in range(300):
            await client.xadd(key, {"n": str(i)})
        await client.xreadgroup("g", "c", {key: ">"}, count=100)
        sync.bgrewriteaof()
        wait_until(lambda: not int(sync.info("persistence")["aof_rewrite_in_progress"])
                   and not int(sync.info("persistence")["aof_rewrite_scheduled"]), 30, "AOF rewrite")
        await client.xreadgroup("g", "c", {key: ">"}, count=120)  # position 220, counter 220 … in memory only
        await client.aclose()
        private_redis.kill()
        private_redis.start()
        client = connect(private_redis.url)
        assert (await client.xinfo_groups(key))[0]["lag"] == 200, "the replayed counter is stale (the bug)"
        first = await group_lag(client, key, "g", prefix)
        assert (first.entries, first.corrected, first.exact) == (80, True, True)
        assert (await client.xinfo_groups(key))[0]["lag"] == 80
        await client.xreadgroup("g", "c", {key: ">"}, count=30)
        assert (await group_lag(client, key, "g", prefix)).entries == 50  # Redis's counter, trusted again
        small = await group_lag(client, key, "g", prefix + "other:", limit=20)  # never checked under this marker
        assert small.entries is not None and small.entries > 20 and not small.exact
    finally:
        await client.aclose()
        sync.close()
