"""A 4 MiB entry built to make the secret scan slow, on every stream with a consumer group,
neither stalls that group nor holds the good entries behind it.

The shapes are the ones that froze the previous detector for minutes (``?password=`` and
``;passwd=`` repeated on one line, ``BEGIN PRIVATE KEY`` lines with no ``END``). Each stream gets
one as a payload that is no JSON (dead-lettered, and its dead letter redacted, by the worker on
its event loop); ``rca.results`` also gets two results whose content is made of them (one within
the result size limit: redacted by ingestion and judged down the line; one over it: rejected
and dead-lettered). Then good results are published: they are judged, and every group drains,
within a generous bound; every hostile entry ends as a dead letter (or a judged result) and no
service process dies.
"""

from __future__ import annotations

import time

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.wire import encode
from tests.reliability.flow import dlq, drained, n_evaluated, publish, result, wait_until

SHAPES = ("?password=", ";passwd=", "-----BEGIN PRIVATE KEY-----\n")
SIZE = 4 * 1024 * 1024 - 4096  # under MAX_PAYLOAD_BYTES: the worker reads it and writes its dead letter
STREAMS = (Stream.RESULTS, Stream.INGESTED, Stream.PARSED, Stream.EVALUATED, Stream.REVIEW_ANNOTATIONS,
           Stream.KNOWLEDGE_EVENTS)  # every stream a consumer group reads
BOUND_S = 120  # generous: six processes share two cores with the rest of the suite


def hostile(i: int, size: int = SIZE) -> str:
    pattern = SHAPES[i % len(SHAPES)]
    return (pattern * (size // len(pattern) + 1))[:size]


def test_a_hostile_entry_on_every_stream_neither_stalls_its_group_nor_holds_good_ones(r, procs, prefix):
    # a 4 MiB entry may take longer than the suite's 1 s reclaim on a loaded machine: this test is about the first
    # delivery (dead-lettered, never retried), so nothing is reclaimed while it is being read
    services = [procs.start(name, ENTRY_BUDGET_S="20", CLAIM_IDLE_MS="120000")
                for name in ("ingestion", "parser", "harness", "annotation", "knowledge", "gate")]
    for i, stream in enumerate(STREAMS):
        r.xadd(stream.key(prefix), {"payload": hostile(i)})
    within = RawResult(result_id="hostile-within", kind="skill_text", content=hostile(0, 900_000), producer="fuzz")
    over = RawResult(result_id="hostile-over", kind="skill_text", content=hostile(2, 3_000_000), producer="fuzz")
    r.xadd(Stream.RESULTS.key(prefix), encode(within))
    r.xadd(Stream.RESULTS.key(prefix), encode(over))

    started = time.monotonic()
    publish(r, prefix, [result(i, "good") for i in range(3)])
    wait_until(lambda: n_evaluated(r, prefix) >= 4, BOUND_S, "the good results judged behind the hostile entries")
    judged_after = time.monotonic() - started
    wait_until(lambda: drained(r, prefix), BOUND_S, "every group drained")
    print(f"good results judged {judged_after:.1f} s after they were published behind 4 MiB hostile entries")

    for stream in STREAMS:
        letters = dlq(r, prefix, stream)
        assert letters, f"the hostile entry on {stream} was not dead-lettered"
        assert all(x["deliveries"] == 1 for x in letters), (stream, [x["error_code"] for x in letters])
        for letter in letters:
            assert len(letter["fields"].get("payload", "")) < SIZE // 4, (stream, letter["error_code"])
    codes = {x["error_code"] for x in dlq(r, prefix, Stream.RESULTS)}
    assert "invalid_json" in codes and len(codes) >= 2, codes  # and the result over the size limit
    for sp in services:
        assert sp.proc.poll() is None, f"{sp.consumer} died:\n{sp.logs()[-2000:]}"
        assert "Traceback" not in sp.logs(), sp.logs()[-2000:]
