"""SIGTERM to every service during a burst: in-flight work finished and acked, nothing lost."""

from __future__ import annotations

import time

from rcaloop.contracts import Stream
from tests.reliability.flow import drained, evaluated_ids, n_evaluated, groups, publish, result, wait_until
from tests.reliability.procs import PRIMARY

N = 1000
GRACE_S = 5.0


def test_sigterm_during_burst_drains_in_flight_work_and_exits_within_grace(r, prefix, procs):
    services = [procs.start(name, wait=False, SHUTDOWN_GRACE_S=str(GRACE_S)) for name in PRIMARY]
    for sp in services:  # started together: imports overlap
        procs.wait_consuming(sp)
    publish(r, prefix, [result(i) for i in range(N)])
    wait_until(lambda: n_evaluated(r, prefix) >= 200, 60, "the burst is flowing")

    stopped_at = time.monotonic()
    for sp in services:  # every service at once, as `docker compose stop` would
        sp.proc.terminate()
    for sp in services:
        sp.proc.wait(30)
        sp.exit_seconds = time.monotonic() - stopped_at
    left = N - n_evaluated(r, prefix)
    assert left > 0, "the burst was over before the stop: the test proves nothing"

    for sp in services:
        assert sp.proc.returncode == 0, f"{sp.consumer} exited {sp.proc.returncode}:\n{sp.logs()[-2000:]}"
        # drained within the grace period by its own clock; the wall-clock bound only catches a hang
        assert "grace_period_exceeded" not in sp.events(), sp.consumer
        assert sp.exit_seconds < GRACE_S + 25, f"{sp.consumer} took {sp.exit_seconds:.1f} s"
        assert "Traceback" not in sp.logs(), sp.logs()[-2000:]
    in_flight = {k: g["pending"] for k, g in groups(r, prefix).items() if g["pending"]}
    assert in_flight == {}, f"read but not acknowledged at exit: {in_flight}"

    for sp in [procs.start(name, consumer=f"{name}-next", wait=False) for name in PRIMARY]:
        procs.wait_consuming(sp)  # the next generation picks up exactly where the last one stopped
    wait_until(lambda: drained(r, prefix) and n_evaluated(r, prefix) >= N, 90, "the rest drained")
    seen = evaluated_ids(r, prefix)
    assert set(seen) == {f"r-{i}" for i in range(N)} and max(seen.values()) == 1
    assert r.xlen(Stream.RESULTS.dlq_key(prefix)) == 0
