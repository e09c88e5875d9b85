"""kill -9 of a worker holding a batch: every result is handled exactly once.

The harness (effects only on streams) and the annotation service (a database transaction
per batch, then the stream commit) are the two kinds of consumer.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from collections import Counter

from rcaloop.cli.compose import cli_deps
from rcaloop.contracts import Stream
from rcaloop.shared.wire import encode
from tests.reliability.flow import dlq, evaluated_ids, n_evaluated, pending, publish, result, wait_until

N = 1000


def _held(r, prefix: str, consumer: str, stream: Stream = Stream.PARSED, group: str = "harness") -> int:
    for c in r.xinfo_consumers(stream.key(prefix), group):
        if c["name"].decode() == consumer:
            return int(c["pending"])
    return 0


def _freeze_holding_a_batch(r, prefix, victim, stream: Stream = Stream.PARSED, group: str = "harness",
                            timeout: float = 60) -> int:
    """SIGSTOP the victim at a moment it has read a batch it has not committed yet."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        victim.proc.send_signal(signal.SIGSTOP)
        held = _held(r, prefix, victim.consumer, stream, group)
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


def test_kill9_annotation_mid_batch_stores_and_announces_every_verdict_once(r, prefix, procs, tmp_path):
    n = 600
    analyze = cli_deps().analyze
    verdicts = [analyze(result(i)) for i in range(n)]
    victim = procs.start("annotation", consumer="annotation-victim", BATCH_SIZE="200")
    rescuer = procs.start("annotation", consumer="annotation-rescuer")  # same store: one data dir
    pipe = r.pipeline(transaction=False)
    for v in verdicts:
        pipe.xadd(Stream.EVALUATED.key(prefix), encode(v))
    pipe.execute()

    held = _freeze_holding_a_batch(r, prefix, victim, Stream.EVALUATED, "annotation")
    victim.kill()  # maybe mid-transaction: the database rolls it back
    assert held > 0

    def done() -> bool:
        return r.xlen(Stream.REVIEW_TASKS.key(prefix)) >= n and pending(r, prefix, Stream.EVALUATED, "annotation") == 0

    wait_until(done, 90, "every verdict stored and its review task published")
    time.sleep(1.5)  # one more reclaim interval: a late duplicate would show up now
    announced = Counter(json.loads(f[b"payload"])["analysis_hash"]
                        for _, f in r.xrange(Stream.REVIEW_TASKS.key(prefix)))
    assert set(announced) == {v.analysis_hash for v in verdicts}
    assert max(announced.values()) == 1
    with sqlite3.connect(tmp_path / "data" / "annotation.db") as db:
        stored = Counter(h for (h,) in db.execute("SELECT analysis_hash FROM review_tasks"))
        n_verdicts = db.execute("SELECT count(*) FROM verdicts").fetchone()[0]
    assert stored == Counter({v.analysis_hash: 1 for v in verdicts}) and n_verdicts == n
    assert _held(r, prefix, victim.consumer, Stream.EVALUATED, "annotation") == 0
    assert "reclaimed" in rescuer.events()
    assert dlq(r, prefix, Stream.EVALUATED) == []
