"""Poison messages go to the DLQ with their reason while the other traffic flows; a host
whose task ends anyway exits non-zero."""

from __future__ import annotations

from rcaloop.contracts import RawResult, Stream
from tests.reliability.flow import dlq, drained, evaluated_ids, publish, result, wait_until

FIVE_MB = 5 * 1024 * 1024


def _nested(depth: int) -> str:
    return '{"result_id":"p","kind":"capture","content":{"x":' + '{"a":' * depth + "1" + "}" * depth + "}}"


def test_poison_messages_are_dead_lettered_with_reason_and_traffic_flows(r, prefix, procs):
    services = [procs.start(name) for name in ("ingestion", "parser", "harness")]
    services.append(procs.start("raiser", module="tests.reliability.raising_service"))
    key = Stream.RESULTS.key(prefix)

    publish(r, prefix, [result(i, "good") for i in range(100)])
    poison = {
        r.xadd(key, {"payload": '{"result_id": "broken", "kind": '}).decode(): "invalid_json",
        r.xadd(key,
               {"payload": result(0, "v2").model_dump_json().replace('"schema_version":1',
                                                                     '"schema_version":2')}).decode():
            "unsupported_schema_version",
        r.xadd(key,
               {"payload": RawResult(result_id="huge", kind="skill_text",
                                     content="x" * FIVE_MB).model_dump_json()}).decode(): "too_large",
        # each of these once ended the worker's task for good, the process still up and silent
        r.xadd(key, {"payload": _nested(300)}).decode(): "payload_too_deep",
        r.xadd(key, {"payload": _nested(10_000)}).decode(): "payload_too_deep",
        r.xadd(key,
               {"payload": '{"result_id":"p","kind":"capture","content":{"x":' + "9" * 5000 + "}}"}).decode():
            "number_out_of_range",
        r.xadd(key,
               {"payload": result(2, "utf8").model_dump_json().encode().replace(b"utf8-2", b"utf8-\xff")}).decode():
            "invalid_utf8",
    }
    explode_id = publish(r, prefix, [result(1, "explode")])[0]
    publish(r, prefix, [result(i, "good") for i in range(100, 200)])

    def letters(group: str) -> dict[str, dict]:
        return {d["message_id"]: d for d in dlq(r, prefix, Stream.RESULTS) if d["group"] == group}

    wait_until(lambda: len(letters("ingestion")) >= len(poison) and len(letters("raiser")) >= len(poison) + 1
               and drained(r, prefix), 60,
               "poison dead-lettered and the rest drained")

    for group in ("ingestion", "raiser"):  # each group judges the entry on its own
        got = letters(group)
        for msg_id, code in poison.items():
            assert code in got[msg_id]["error_code"], (group, got[msg_id])
            assert got[msg_id]["error"]
    huge = letters("ingestion")[next(k for k, v in poison.items() if v == "too_large")]
    assert str(FIVE_MB) in huge["error"] or "bytes" in huge["error"]
    assert max(len(e[1][b"payload"])
               for e in r.xrange(Stream.RESULTS.dlq_key(prefix))) < 128 * 1024, "DLQ holds the 5 MB"

    exploded = letters("raiser")[explode_id]
    assert exploded["error_code"] == "handler_failed" and exploded["deliveries"] == 3
    assert "RuntimeError: handler bug: cannot handle explode-1" in exploded["error"]
    assert explode_id not in letters("ingestion")  # only the buggy handler's group gave up on it

    seen = evaluated_ids(r, prefix)
    assert set(seen) == {f"good-{i}" for i in range(200)} | {"explode-1"} and max(seen.values()) == 1
    for sp in services:
        assert sp.proc.poll() is None, f"{sp.consumer} died:\n{sp.logs()[-2000:]}"
        assert "Traceback" not in sp.logs()


def test_a_host_whose_task_ends_on_its_own_exits_non_zero_and_says_why(r, prefix, procs):
    raiser = procs.start("raiser", module="tests.reliability.raising_service", RAISER_JOB_FAILS_AFTER_S="1")
    assert raiser.proc.wait(30) == 1
    events = raiser.events()
    assert "task_ended" in events and "host_failed" in events and "worker_stopped" in events, raiser.logs()[-2000:]
    assert "Traceback" not in raiser.logs()
