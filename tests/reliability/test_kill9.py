"""kill -9 of a harness worker holding a batch: every result reaches rca.evaluated exactly once."""

from __future__ import annotations

import signal
import time

from rcaloop.contracts import Stream
from tests.reliability.flow import dlq, evaluated_ids, n_evaluated, pending, publish, result, wait_until

N = 1000


def _held(r, prefix: str, consumer: str) -> int:
    for c in r.xinfo_consumers(Stream.PARSED.key(prefix), "harness"):
        if c["name"].decode() == consumer:
            return int(c["pending"])
    return 0


def _freeze_holding_a_batch(r, prefix, victim, timeout: float = 60) -> int:
    """SIGSTOP the victim at a moment it has read a batch it has not committed yet."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        victim.proc.send_signal(signal.SIGSTOP)
        held = _held(r, prefix, victim.consumer)
        if held:
            return held
        victim.proc.send_signal(signal.SIGCONT)
        time.sleep(0.005)
    raise AssertionError("the victim never held a batch")


def test_kill9_harness_mid_batch_loses_nothing_and_duplicates_nothing(r, prefix, procs):
    procs.start("ingestion")
    procs.start("parser")
    victim = procs.start("harness", consumer="harness-victim", BATCH_SIZE="200")
    rescuer = procs.start("harness", consumer="harness-rescuer")
    publish(r, prefix, [result(i) for i in range(N)])

    held = _freeze_holding_a_batch(r, prefix, victim)
    victim.kill()
    assert _held(r, prefix, victim.consumer) == held > 0  # died with a batch read, nothing of it acked

    wait_until(lambda: n_evaluated(r, prefix) >= N and pending(r, prefix, Stream.PARSED, "harness") == 0,
               90, "every result evaluated and nothing pending")
    time.sleep(1.5)  # one more reclaim interval: a late duplicate would show up now
    seen = evaluated_ids(r, prefix)
    assert set(seen) == {f"r-{i}" for i in range(N)}
    assert max(seen.values()) == 1, [k for k, v in seen.items() if v > 1][:5]
    assert _held(r, prefix, victim.consumer) == 0
    assert "reclaimed" in rescuer.events()
    assert dlq(r, prefix, Stream.PARSED) == []
