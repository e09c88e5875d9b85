"""Redis crashes and comes back (own instance, AOF fsync always): nothing acknowledged is lost."""

from __future__ import annotations

import time

import redis

from rcaloop.contracts import Stream
from tests.reliability.flow import drained, evaluated_ids, n_evaluated, publish, result, wait_until
from tests.reliability.procs import Procs


def test_redis_crash_and_restart_loses_nothing_and_services_reconnect(private_redis, prefix, tmp_path):
    r = redis.Redis.from_url(private_redis.url)
    procs = Procs(private_redis.url, prefix, tmp_path)
    try:
        services = [procs.start(name) for name in ("ingestion", "parser", "harness")]
        publish(r, prefix, [result(i, "before") for i in range(300)])
        wait_until(lambda: drained(r, prefix) and n_evaluated(r, prefix) >= 300, 60, "first batch")
        before = set(evaluated_ids(r, prefix))

        publish(r, prefix, [result(i, "during") for i in range(1500)])  # acknowledged by Redis …
        wait_until(lambda: r.xlen(Stream.EVALUATED.key(prefix)) > 400, 60, "second batch flowing")
        done_at_crash = n_evaluated(r, prefix)
        private_redis.kill()  # … and the server dies mid-flow (kill -9)
        assert done_at_crash < 1800, "everything was done before the crash: the test proves nothing"
        time.sleep(2.0)  # the services notice the outage and back off
        private_redis.start()  # same port, same AOF

        wait_until(lambda: drained(r, prefix) and n_evaluated(r, prefix) >= 1800, 90,
                   "everything evaluated after the restart")
        seen = evaluated_ids(r, prefix)
        assert before <= set(seen), "an evaluation acknowledged before the crash is gone"
        expected = {f"before-{i}" for i in range(300)} | {f"during-{i}" for i in range(1500)}
        assert set(seen) == expected
        assert max(seen.values()) == 1
        # a worker that was judging a batch through the whole outage finds Redis back and never sees it down;
        # every worker that saw it down says so and says when it is back
        noticed = [sp for sp in services if "redis_unreachable" in sp.events()]
        assert noticed, "no service noticed the outage"
        for sp in services:
            assert sp.proc.poll() is None, f"{sp.consumer} died:\n{sp.logs()[-2000:]}"
            if sp in noticed:
                assert "redis_reconnected" in sp.events(), (sp.consumer, sp.logs()[-2000:])
            assert "Traceback" not in sp.logs(), sp.logs()[-3000:]
    finally:
        procs.stop_all()
        r.close()
