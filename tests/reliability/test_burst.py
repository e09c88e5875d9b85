"""A burst of results (3,000 by default) with 2 harness workers: all evaluated once, pending 0, XLEN bounded.

``RCALOOP_BURST_N`` sets the count (10,000 is the full run; 3,000 keeps the suite short). Streams are
trimmed by ``MAXLEN ~`` (``STREAM_MAXLEN``); trimming ignores consumer groups, so the
producer keeps at most ``WINDOW`` results in flight (< MAXLEN) and nothing unread is cut.
"""

from __future__ import annotations

import os
import time
from collections import Counter

from rcaloop.contracts import Stream
from tests.reliability.flow import drained, publish, result, wait_until

N = int(os.environ.get("RCALOOP_BURST_N", "3000"))
MAXLEN = 2000
WINDOW = 1000
STALL_S = 90  # no new verdict for this long: the pipeline is stuck
HOPS = (Stream.RESULTS, Stream.INGESTED, Stream.PARSED, Stream.EVALUATED)


def test_burst_with_two_harness_workers(r, prefix, procs):
    env = {"STREAM_MAXLEN": str(MAXLEN)}
    procs.start("ingestion", **env)
    procs.start("parser", **env)
    workers = [procs.start("harness", consumer=f"harness-{i}", **env) for i in range(2)]
    results = [result(i, "burst") for i in range(N)]
    evaluated = Stream.EVALUATED.key(prefix)
    seen: Counter = Counter()
    sent, last, max_len = 0, "0-0", dict.fromkeys(HOPS, 0)
    moved = time.monotonic()  # the bound is on a stall, not on the whole burst: a loaded machine is slow, not stuck
    while len(seen) < N and time.monotonic() - moved < STALL_S:
        room = WINDOW - (sent - len(seen))
        if sent < N and room >= 250:
            chunk = results[sent : sent + room]
            publish(r, prefix, chunk, maxlen=MAXLEN)
            sent += len(chunk)
        for _key, entries in r.xread({evaluated: last}, count=5000, block=100) or []:
            for entry_id, fields in entries:
                seen[_result_id(fields)] += 1
                last, moved = entry_id, time.monotonic()
        with r.pipeline(transaction=False) as pipe:
            for hop in HOPS:
                pipe.xlen(hop.key(prefix))
            for hop, n in zip(HOPS, pipe.execute(), strict=True):
                max_len[hop] = max(max_len[hop], n)

    wait_until(lambda: drained(r, prefix), 60, "pending and lag drain to 0")
    assert len(seen) == N, f"{N - len(seen)} results never reached rca.evaluated (none for {STALL_S} s)"
    assert max(seen.values()) == 1
    assert all(n <= MAXLEN + 200 for n in max_len.values()), max_len  # MAXLEN ~ trims whole nodes of 100
    assert max_len[Stream.EVALUATED] >= MAXLEN, "the test never reached the trim point"
    busy = {c["name"].decode() for c in r.xinfo_consumers(Stream.PARSED.key(prefix), "harness")}
    assert {w.consumer for w in workers} <= busy, "both harness workers took a share"
    assert r.xlen(Stream.PARSED.dlq_key(prefix)) == 0
    # trimmed only what was read
    assert not [p.consumer for p in procs.running if "entries_trimmed_unread" in p.events()]


def _result_id(fields: dict) -> str:
    payload = fields[b"payload"]
    start = payload.index(b'"result_id":"') + 13  # cheaper than json.loads of a whole verdict
    return payload[start : payload.index(b'"', start)].decode()
