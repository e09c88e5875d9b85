"""The reliable worker on a real Redis: at-least-once, idempotent, dead-lettering, reclaim."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.consumer import Emit, StreamWorker, Subscription
from rcaloop.shared.service import Service
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import dlq, entries


def _result(i: int) -> RawResult:
    return RawResult(result_id=f"r-{i}", kind="skill_text", content=f"# report {i}\n")


async def _publish(redis, prefix, *models: BaseModel, stream: Stream = Stream.RESULTS) -> None:
    for m in models:
        await redis.xadd(stream.key(prefix), encode(m))


def _echo_service(handle, *, key=None) -> Service:
    sub = Subscription(Stream.RESULTS, RawResult, handle, group="echo", idempotency_key=key)
    return Service(name="echo", subscriptions=[sub])


def _forward(result: RawResult) -> list[Emit]:
    return [Emit(Stream.INGESTED, result)]


async def test_group_reads_entries_published_before_it_existed(redis, prefix, settings_factory, wait):
    await _publish(redis, prefix, _result(1), _result(2))  # no group yet: FastStream would skip these
    async with running([_echo_service(_forward)], settings_factory()):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 2))
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["r-1", "r-2"]


POISON = RawResult(result_id="r-poison", kind="skill_text", content="x")


@pytest.mark.parametrize("fails_in", ["handler", "key", "prepare"])
async def test_an_entry_that_fails_is_retried_then_dead_lettered_while_the_stream_keeps_flowing(
    fails_in, redis, prefix, settings_factory, wait
):
    def poisoned(result: RawResult) -> RawResult:  # raises for the poison entry only
        if result.result_id == POISON.result_id:
            raise RuntimeError(f"{fails_in} says no")
        return result

    sub = Subscription(
        Stream.RESULTS,
        RawResult,
        lambda r: _forward(poisoned(r) if fails_in == "handler" else r),
        group="echo",
        idempotency_key=lambda r: (poisoned(r) if fails_in == "key" else r).result_id,
        prepare=poisoned if fails_in == "prepare" else None,
    )
    await _publish(redis, prefix, _result(1), POISON, _result(2))
    async with running([Service(name="echo", subscriptions=[sub])], settings_factory(max_deliveries=3)):
        await wait(lambda: _len(redis, Stream.RESULTS.dlq_key(prefix), 1))
        await _publish(redis, prefix, _result(3))
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 3))
    [letter] = await dlq(redis, Stream.RESULTS, prefix)
    assert letter["error_code"] == f"{fails_in}_failed"  # the step that failed, after MAX_DELIVERIES
    assert f"RuntimeError: {fails_in} says no" in letter["error"]
    assert letter["deliveries"] == 3
    assert '"r-poison"' in letter["fields"]["payload"]
    assert sorted(e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)) == ["r-1", "r-2", "r-3"]
    assert (await redis.xpending(Stream.RESULTS.key(prefix), "echo"))["pending"] == 0


async def test_prepare_runs_once_per_entry_and_feeds_both_key_and_handler(redis, prefix, settings_factory, wait):
    prepared: list[str] = []

    def prepare(result: RawResult) -> tuple[RawResult, str]:
        prepared.append(result.result_id)
        return result, f"key-{result.content.strip()}"

    sub = Subscription(Stream.RESULTS, RawResult, lambda pair: _forward(pair[0]), group="echo",
                       prepare=prepare, idempotency_key=lambda pair: pair[1])
    twin = RawResult(result_id="r-twin", kind="skill_text", content="# report 1\n")  # same key as r-1
    await _publish(redis, prefix, _result(1), twin, _result(2))
    async with running([Service(name="echo", subscriptions=[sub])], settings_factory()):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 2))
        await wait(lambda: _pending_is(redis, Stream.RESULTS.key(prefix), 0))
    assert prepared == ["r-1", "r-twin", "r-2"]
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["r-1", "r-2"]
    assert await redis.exists(f"{prefix}rcaloop:done:echo:key-# report 1")


async def test_batch_handler_takes_a_whole_batch_in_one_call(redis, prefix, settings_factory, wait):
    calls: list[list[str]] = []

    def handle_batch(batch: list[RawResult]) -> list[list[Emit]]:
        calls.append([r.result_id for r in batch])
        return [_forward(r) for r in batch]

    sub = Subscription(Stream.RESULTS, RawResult, _forward, group="echo", idempotency_key=lambda r: r.result_id,
                       handle_batch=handle_batch)
    await _publish(redis, prefix, *(_result(i) for i in range(5)), _result(0))
    async with running([Service(name="echo", subscriptions=[sub])], settings_factory()):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 5))
        await wait(lambda: _pending_is(redis, Stream.RESULTS.key(prefix), 0))
    assert calls == [[f"r-{i}" for i in range(5)]]  # one call; the in-batch twin of r-0 is not handled
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == [f"r-{i}" for i in range(5)]


async def test_a_failing_batch_is_retried_one_entry_at_a_time_so_one_bad_entry_fails_alone(
    redis, prefix, settings_factory, wait
):
    def handle(result: RawResult) -> list[Emit]:
        if result.result_id == POISON.result_id:
            raise RuntimeError("constraint violated")
        return _forward(result)

    def handle_batch(batch: list[RawResult]) -> list[list[Emit]]:
        return [handle(r) for r in batch]  # one bad entry fails the whole call

    sub = Subscription(Stream.RESULTS, RawResult, handle, group="echo", handle_batch=handle_batch)
    await _publish(redis, prefix, _result(1), POISON, _result(2))
    async with running([Service(name="echo", subscriptions=[sub])], settings_factory(max_deliveries=2)):
        await wait(lambda: _len(redis, Stream.RESULTS.dlq_key(prefix), 1))
    assert sorted(e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)) == ["r-1", "r-2"]
    [letter] = await dlq(redis, Stream.RESULTS, prefix)
    assert "RuntimeError: constraint violated" in letter["error"]


async def test_unreadable_payload_is_dead_lettered_at_once_with_reason(redis, prefix, settings_factory, wait):
    key = Stream.RESULTS.key(prefix)
    await redis.xadd(key, {"payload": "{not json"})
    await redis.xadd(key, {"body": "no payload field"})
    await redis.xadd(key, {"payload": '{"schema_version": 2, "result_id": "x", "kind": "skill_text", "content": ""}'})
    await redis.xadd(key, {"payload": '{"result_id": "../x", "kind": "pdf", "content": ""}'})
    await _publish(redis, prefix, _result(1))
    async with running([_echo_service(_forward)], settings_factory()):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 1))
        await wait(lambda: _len(redis, Stream.RESULTS.dlq_key(prefix), 4))
    codes = [d["error_code"] for d in await dlq(redis, Stream.RESULTS, prefix)]
    assert codes == ["invalid_json", "missing_payload", "unsupported_schema_version", "contract_violation"]


async def test_same_message_twice_has_one_effect(redis, prefix, settings_factory, wait):
    calls: list[str] = []

    def handle(result: RawResult) -> list[Emit]:
        calls.append(result.result_id)
        return _forward(result)

    service = _echo_service(handle, key=lambda r: r.result_id)
    await _publish(redis, prefix, _result(1), _result(1), _result(2))
    async with running([service], settings_factory()):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 2))
        await _publish(redis, prefix, _result(1))  # a later redelivery of the same key
        await asyncio.sleep(0.5)
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["r-1", "r-2"]
    # the in-batch twin is never handled; the later copy may be (a fresh read does not look
    # the key up first) but the commit script skips its effects
    assert calls[:2] == ["r-1", "r-2"] and set(calls[2:]) <= {"r-1"}
    assert (await redis.xpending(Stream.RESULTS.key(prefix), "echo"))["pending"] == 0


async def test_redelivered_message_already_committed_is_not_handled_again(redis, prefix, settings_factory, wait):
    calls: list[str] = []

    def handle(result: RawResult) -> list[Emit]:
        calls.append(result.result_id)
        return _forward(result)

    key = Stream.RESULTS.key(prefix)
    await redis.xgroup_create(key, "echo", id="0", mkstream=True)
    await _publish(redis, prefix, _result(1))
    await redis.set(f"{prefix}rcaloop:done:echo:r-1", "1")  # its effect was committed by a consumer that then died
    await redis.xreadgroup("echo", "dead-consumer", {key: ">"})  # ... leaving the entry pending
    async with running([_echo_service(handle, key=lambda r: r.result_id)], settings_factory()):
        await wait(lambda: _pending_is(redis, key, 0))
    assert calls == []
    assert await redis.xlen(Stream.INGESTED.key(prefix)) == 0


async def _pending_is(redis, key: str, n: int) -> bool:
    return (await redis.xpending(key, "echo"))["pending"] == n


async def test_consumer_killed_mid_message_loses_nothing(redis, prefix, settings_factory, wait):
    started = asyncio.Event()

    async def hang(result: RawResult) -> list[Emit]:
        started.set()
        await asyncio.sleep(3600)
        return []

    victim_settings = settings_factory(consumer_name="victim", claim_interval_ms=60_000)
    victim = StreamWorker(redis, Subscription(Stream.RESULTS, RawResult, hang, group="echo"), victim_settings, "echo")
    await _publish(redis, prefix, _result(1))
    stop = asyncio.Event()
    task = asyncio.create_task(victim.run(stop))
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()  # the consumer dies holding the message, unacknowledged
    pending = await redis.xpending(Stream.RESULTS.key(prefix), "echo")
    assert pending["pending"] == 1

    async with running([_echo_service(_forward)], settings_factory(consumer_name="rescuer")):
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 1))
    assert (await redis.xpending(Stream.RESULTS.key(prefix), "echo"))["pending"] == 0


async def _len(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


async def test_entries_trimmed_before_the_group_read_them_are_reported(redis, prefix, settings_factory):
    from rcaloop.shared import metrics  # noqa: PLC0415

    key = Stream.RESULTS.key(prefix)
    worker = StreamWorker(redis, Subscription(Stream.RESULTS, RawResult, _forward, group="echo"), settings_factory(),
                          "echo")
    gauge = metrics.TRIMMED_UNREAD.labels(service="echo", stream=key)
    await worker.ensure_group()
    await _publish(redis, prefix, _result(1))
    assert await worker.read_once() == 1
    await worker.flush()
    await worker.reclaim()  # caught up
    assert gauge._value.get() == 0

    for i in range(2, 30):  # 28 more while the group is not reading; the stream keeps 10
        await redis.xadd(key, encode(_result(i)), maxlen=10, approximate=False)
    await worker.reclaim()
    assert gauge._value.get() == 18  # r-2 … r-19 are gone unread

    while await worker.read_once():  # reading on from what is left
        await worker.flush()
    await worker.reclaim()
    assert gauge._value.get() == 0
    ingested = [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)]
    assert ingested == ["r-1"] + [f"r-{i}" for i in range(20, 30)]


class Deep(BaseModel):
    value: dict


def _deep(depth: int) -> dict:
    node: dict = {}
    for _ in range(depth):
        node = {"a": node}
    return node


async def test_emits_that_cannot_be_encoded_dead_letter_their_entry_at_once(redis, prefix, settings_factory, wait):
    def handle(result: RawResult) -> list[Emit]:  # past the JSON encoder's depth limit for one entry only
        return [Emit(Stream.INGESTED, Deep(value=_deep(400)) if result.result_id == "r-2" else result)]

    await _publish(redis, prefix, _result(1), _result(2), _result(3))
    async with running([_echo_service(handle, key=lambda r: r.result_id)], settings_factory()):
        await wait(lambda: _len(redis, Stream.RESULTS.dlq_key(prefix), 1))
        await _publish(redis, prefix, _result(4))
        await wait(lambda: _len(redis, Stream.INGESTED.key(prefix), 3))
    [letter] = await dlq(redis, Stream.RESULTS, prefix)
    assert (letter["error_code"], letter["deliveries"]) == ("emit_unencodable", 1)
    assert "serializ" in letter["error"].lower() and '"r-2"' in letter["fields"]["payload"]
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["r-1", "r-3", "r-4"]
    assert not await redis.exists(f"{prefix}rcaloop:done:echo:r-2"), "its key is not claimed: nothing was done"


async def test_a_task_that_ends_on_its_own_stops_the_host_non_zero_and_health_says_so(redis, prefix, settings_factory):
    import httpx  # noqa: PLC0415

    from rcaloop.shared import health, metrics  # noqa: PLC0415
    from rcaloop.shared.service import HostError  # noqa: PLC0415
    from tests.reliability.conftest import _free_port  # noqa: PLC0415

    async def broken_job(stop: asyncio.Event) -> None:
        raise RuntimeError("a bug outside any entry")

    broken_job.__name__ = f"broken_job_{prefix}"
    service = Service(name="echo", subscriptions=[Subscription(Stream.RESULTS, RawResult, _forward, group="echo")],
                      background=[broken_job])
    port = _free_port()
    metrics.serve_metrics(port)
    try:
        with pytest.raises(HostError, match=f"echo:broken_job_{prefix}"):
            async with running([service], settings_factory()) as host:
                await asyncio.wait_for(asyncio.shield(host), 10)
        async with httpx.AsyncClient() as client:
            answer = await client.get(f"http://127.0.0.1:{port}/healthz")
        assert answer.status_code == 503
        assert "a bug outside any entry" in answer.json()["tasks_ended"][f"echo:broken_job_{prefix}"]
    finally:
        health.forget_ended(f"echo:broken_job_{prefix}")
