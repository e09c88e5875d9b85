"""A consumer that was down while its backlog outgrew STREAM_MAXLEN says what it lost."""

from __future__ import annotations

import json
import signal

from rcaloop.contracts import Stream
from tests.reliability.flow import pending, publish, result, wait_until


def _ingested(r, prefix: str) -> int:
    return r.xlen(Stream.INGESTED.key(prefix))


def test_restarted_consumer_reports_entries_trimmed_while_it_was_down(r, prefix, procs):
    first = procs.start("ingestion", consumer="ingestion-1")
    publish(r, prefix, [result(i, "before") for i in range(50)])
    wait_until(lambda: _ingested(r, prefix) >= 50 and pending(r, prefix, Stream.RESULTS, "ingestion") == 0,
               30, "the first 50 ingested")
    first.proc.send_signal(signal.SIGTERM)
    first.proc.wait(15)
    assert "entries_trimmed_unread" not in first.events()

    # down: 600 more arrive, and producers cap the stream at 200 entries (exactly)
    key = Stream.RESULTS.key(prefix)
    with r.pipeline(transaction=False) as pipe:
        for i in range(600):
            pipe.xadd(key, {"payload": result(i, "while-down").model_dump_json()}, maxlen=200, approximate=False)
        pipe.execute()

    second = procs.start("ingestion", consumer="ingestion-2")
    wait_until(lambda: _ingested(r, prefix) >= 250, 60, "what was left ingested")
    reports = [json.loads(line) for line in second.logs().splitlines()
               if line.startswith("{") and "entries_trimmed_unread" in line]
    assert reports, second.logs()[-2000:]
    assert reports[0]["missed"] == 400  # 600 arrived, 200 were left to read
    assert reports[0]["level"] == "error"
    assert _ingested(r, prefix) == 250
