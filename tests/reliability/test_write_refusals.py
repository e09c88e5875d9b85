"""Redis refuses writes mid-flow, for real, then accepts them again: workers wait, nothing is lost.

Each refusal is produced on a private redis-server with AOF (``private_redis``), the way it
happens in production:

* out of memory — ``maxmemory`` below what is used, ``maxmemory-policy noeviction`` (OOM);
* a failed disk — the data directory removed under a ``save`` point, a failing ``BGSAVE``
  with ``stop-writes-on-bgsave-error`` (MISCONF);
* a failover — the server made a replica (``REPLICAOF``) of a master that is not there,
  so it keeps its data but is read-only (READONLY);
* too few replicas — ``min-replicas-to-write 1`` with none (NOREPLICAS).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import redis

from rcaloop.contracts import Stream
from tests.reliability.conftest import PrivateRedis, _free_port
from tests.reliability.flow import drained, dlq, evaluated_ids, groups, n_evaluated, publish, result, wait_until
from tests.reliability.procs import Procs

N = 600


@dataclass(frozen=True)
class Fault:
    reason: str  # what the workers log as the refusal's reason
    inject: Callable[[redis.Redis, PrivateRedis], None]
    lift: Callable[[redis.Redis, PrivateRedis], None]


def _oom(r: redis.Redis, _server: PrivateRedis) -> None:
    r.config_set("maxmemory-policy", "noeviction")
    r.config_set("maxmemory", max(int(r.info("memory")["used_memory"]) - 64 * 1024, 1024 * 1024))


def _disk_fails(r: redis.Redis, server: PrivateRedis) -> None:
    gone = server.data_dir / "disk-gone"
    gone.mkdir()
    r.config_set("dir", str(gone))
    gone.rmdir()  # the next snapshot cannot be written
    r.config_set("save", "3600 1")
    r.bgsave()
    wait_until(lambda: r.info("persistence")["rdb_last_bgsave_status"] == "err", 60, "BGSAVE failed")


def _disk_back(r: redis.Redis, server: PrivateRedis) -> None:
    back = server.data_dir / "disk-back"
    back.mkdir(exist_ok=True)
    r.config_set("dir", str(back))
    r.bgsave()
    wait_until(lambda: r.info("persistence")["rdb_last_bgsave_status"] == "ok", 60, "BGSAVE succeeded")
    r.config_set("save", "")
    r.config_set("dir", str(server.data_dir))


FAULTS = {
    "out_of_memory": Fault("out_of_memory", _oom, lambda r, _s: r.config_set("maxmemory", 0)),
    "disk_error": Fault("disk_error", _disk_fails, _disk_back),
    "read_only_replica": Fault("read_only_replica", lambda r, _s: r.replicaof("127.0.0.1", _free_port()),
                               lambda r, _s: r.replicaof("NO", "ONE")),
    "not_enough_replicas": Fault("not_enough_replicas", lambda r, _s: r.config_set("min-replicas-to-write", 1),
                                 lambda r, _s: r.config_set("min-replicas-to-write", 0)),
}


INPUTS = {"ingestion": Stream.RESULTS, "parser": Stream.INGESTED, "harness": Stream.PARSED}


def _has_work(r: redis.Redis, prefix: str, service: str) -> bool:
    """The service's group still has entries to read or to acknowledge on its input stream."""
    g = groups(r, prefix).get((INPUTS[service].value, service), {"pending": 0, "lag": 0})
    return g["pending"] > 0 or (g["lag"] or 0) > 0


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_workers_wait_out_a_write_refusal_and_lose_nothing(fault, private_redis, prefix, tmp_path):
    if fault == "disk_error" and private_redis.major < 7:
        pytest.skip("moving the data directory at run time needs Redis 7 (enable-protected-configs)")
    spec = FAULTS[fault]
    r = redis.Redis.from_url(private_redis.url)
    procs = Procs(private_redis.url, prefix, tmp_path)
    try:
        services = [procs.start(name) for name in ("ingestion", "parser", "harness")]
        publish(r, prefix, [result(i, "w") for i in range(N)])
        wait_until(lambda: n_evaluated(r, prefix) >= 100, 60, "results flowing")
        spec.inject(r, private_redis)
        at_fault = n_evaluated(r, prefix)
        assert at_fault < N, "everything was done before the fault: the test proves nothing"

        # each worker with work left notices, says why, and waits (a worker whose input was all read and
        # acknowledged before the fault writes nothing, so it has nothing to be refused)
        busy = [sp for sp in services if _has_work(r, prefix, sp.name)]
        assert any(sp.name == "harness" for sp in busy), "the last hop had nothing left: the test proves nothing"
        for sp in busy:
            wait_until(lambda sp=sp: "redis_refusing_writes" in sp.events(), 60, f"{sp.consumer} notices the refusal")
            assert f'"reason": "{spec.reason}"' in sp.logs(), sp.logs()[-2000:]
        time.sleep(2)  # … refused for a while: no process dies, nothing is written
        assert n_evaluated(r, prefix) <= at_fault + 200, "writes went on while Redis refused them"
        assert all(sp.proc.poll() is None for sp in services)

        spec.lift(r, private_redis)
        wait_until(lambda: drained(r, prefix) and n_evaluated(r, prefix) >= N, 120,
                   "everything evaluated after the fault")
        seen = evaluated_ids(r, prefix)
        assert set(seen) == {f"w-{i}" for i in range(N)} and max(seen.values()) == 1
        assert (not dlq(r, prefix, Stream.RESULTS) and not dlq(r, prefix, Stream.INGESTED)
                and not dlq(r, prefix, Stream.PARSED)), "an outage dead-lettered good entries"
        for sp in services:
            assert sp.proc.poll() is None, f"{sp.consumer} died:\n{sp.logs()[-2000:]}"
            if sp in busy or "redis_refusing_writes" in sp.events():  # whoever was refused says when writes work again
                assert "redis_accepting_writes" in sp.events(), sp.logs()[-2000:]
            assert "Traceback" not in sp.logs(), sp.logs()[-3000:]
    finally:
        procs.stop_all()
        r.close()
        shutil.rmtree(private_redis.data_dir / "disk-back", ignore_errors=True)
