"""Poison messages go to the DLQ with their reason while the other traffic flows."""

from __future__ import annotations

from rcaloop.contracts import RawResult, Stream
from tests.reliability.flow import dlq, drained, evaluated_ids, publish, result, wait_until

FIVE_MB = 5 * 1024 * 1024


def test_poison_messages_are_dead_lettered_with_reason_and_traffic_flows(r, prefix, procs):
    services = [procs.start(name) for name in ("ingestion", "parser", "harness")]
    services.append(procs.start("raiser", module="tests.reliability.raising_service"))
    key = Stream.RESULTS.key(prefix)

    publish(r, prefix, [result(i, "good") for i in range(100)])
    poison = {
        r.xadd(key, {"payload": '{"result_id": "broken", "kind": '}).decode(): "invalid_json",
        r.xadd(key, {"payload": result(0, "v2").model_dump_json().replace('"schema_version":1', '"schema_version":2')}).decode(): "unsupported_schema_version",
        r.xadd(key, {"payload": RawResult(result_id="huge", kind="skill_text", content="x" * FIVE_MB).model_dump_json()}).decode(): "too_large",
    }
    explode_id = publish(r, prefix, [result(1, "explode")])[0]
    publish(r, prefix, [result(i, "good") for i in range(100, 200)])

    def letters(group: str) -> dict[str, dict]:
        return {d["message_id"]: d for d in dlq(r, prefix, Stream.RESULTS) if d["group"] == group}

    wait_until(lambda: len(letters("ingestion")) >= 3 and len(letters("raiser")) >= 4 and drained(r, prefix), 60,
               "poison dead-lettered and the rest drained")

    for group in ("ingestion", "raiser"):  # each group judges the entry on its own
        got = letters(group)
        for msg_id, code in poison.items():
            assert code in got[msg_id]["error_code"], (group, got[msg_id])
            assert got[msg_id]["error"]
    huge = letters("ingestion")[next(k for k, v in poison.items() if v == "too_large")]
    assert str(FIVE_MB) in huge["error"] or "bytes" in huge["error"]
    assert max(len(e[1][b"payload"]) for e in r.xrange(Stream.RESULTS.dlq_key(prefix))) < 64 * 1024, "DLQ holds the 5 MB"

    exploded = letters("raiser")[explode_id]
    assert exploded["error_code"] == "max_deliveries" and exploded["deliveries"] == 3
    assert "RuntimeError: handler bug: cannot handle explode-1" in exploded["error"]
    assert explode_id not in letters("ingestion")  # only the buggy handler's group gave up on it

    seen = evaluated_ids(r, prefix)
    assert set(seen) == {f"good-{i}" for i in range(200)} | {"explode-1"} and max(seen.values()) == 1
    for sp in services:
        assert sp.proc.poll() is None, f"{sp.consumer} died:\n{sp.logs()[-2000:]}"
        assert "Traceback" not in sp.logs()
