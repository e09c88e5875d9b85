"""Letting go on a real Redis with AOF: acknowledged entries trimmed, unacknowledged ones never,
consumers that are gone removed from their groups."""

from __future__ import annotations

import json

import redis

from rcaloop.contracts import Stream
from tests.reliability.flow import n_evaluated, publish, result, wait_until
from tests.reliability.procs import Procs

FAST_RELEASE = {"RETENTION_INTERVAL_S": "0.3", "CONSUMER_IDLE_S": "2",
                "STREAM_RETENTION": json.dumps({"rca.results": 0, "rca.ingested": 0, "rca.parsed": 0})}


def _consumers(r: redis.Redis, key: str, group: str) -> dict[str, int]:
    return {c["name"].decode(): int(c["pending"]) for c in r.xinfo_consumers(key, group)}


def test_only_what_every_group_acknowledged_is_trimmed(private_redis, prefix, tmp_path):
    r = redis.Redis.from_url(private_redis.url)
    procs = Procs(private_redis.url, prefix, tmp_path, **FAST_RELEASE)
    results, ingested, parsed = (s.key(prefix) for s in (Stream.RESULTS, Stream.INGESTED, Stream.PARSED))
    try:
        r.xgroup_create(ingested, "laggard", id="0", mkstream=True)  # a group that has read nothing yet
        for name in ("ingestion", "parser", "harness"):
            procs.start(name)
        publish(r, prefix, [result(i, "keep") for i in range(120)])
        wait_until(lambda: n_evaluated(r, prefix) >= 120, 90, "all evaluated")
        wait_until(lambda: r.xlen(results) == 0 and r.xlen(parsed) == 0, 30, "acknowledged entries trimmed")
        assert r.xlen(ingested) == 120, "an entry the laggard group has not read was trimmed"

        got = r.xreadgroup("laggard", "slow-reader", {ingested: ">"}, count=50)[0][1]
        r.xack(ingested, "laggard", *[i for i, _ in got[:30]])  # 30 acknowledged, 20 read but pending
        wait_until(lambda: r.xlen(ingested) == 90, 30, "trimmed up to the laggard's oldest pending entry")
        assert r.xrange(ingested, count=1)[0][0] == got[30][0]
        assert r.xlen(Stream.EVALUATED.key(prefix)) == 120, "streams without a retention override keep 7 days"
    finally:
        procs.stop_all()
        r.close()


def test_consumers_that_are_gone_are_removed_once_they_hold_nothing(private_redis, prefix, tmp_path):
    r = redis.Redis.from_url(private_redis.url)
    procs = Procs(private_redis.url, prefix, tmp_path, **FAST_RELEASE)
    key = Stream.RESULTS.key(prefix)
    try:
        gone = [procs.start("ingestion", consumer=f"ingestion-gone-{i}") for i in range(3)]
        publish(r, prefix, [result(i, "c") for i in range(30)])
        wait_until(lambda: len(_consumers(r, key, "ingestion")) >= 1, 30, "consumers seen")
        for sp in gone:
            sp.kill()  # kill -9: they stay in the group …
        publish(r, prefix, [result(i, "d") for i in range(5)])
        r.xreadgroup("ingestion", "dead-holding-one", {key: ">"}, count=1)  # … one holds an entry
        survivor = procs.start("ingestion", consumer="ingestion-survivor")
        wait_until(lambda: set(_consumers(r, key, "ingestion")) == {"ingestion-survivor"}, 60,
                   "gone consumers removed, the one holding an entry only after its entry was reclaimed")
        assert "released" in survivor.events()
        wait_until(lambda: r.xpending(key, "ingestion")["pending"] == 0, 30, "nothing pending")
    finally:
        procs.stop_all()
        r.close()
