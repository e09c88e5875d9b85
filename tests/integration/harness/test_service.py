"""Harness workers on a real Redis: N workers in one group split ``rca.parsed``; each once."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections import Counter

from rcaloop.contracts import Stream
from rcaloop.harness.app import HarnessSettings, build
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries
from tests.unit.harness.cases import all_cases

N_COPIES = 2  # the labelled set twice over, each copy with its own analysis_hash


def _inputs():
    out = []
    for copy in range(N_COPIES):
        for case in all_cases():
            if case.config.enabled and case.config.max_repair_attempts == 3:
                parsed = case.parsed.model_copy(update={"analysis_hash": f"{case.parsed.analysis_hash}-{copy}"})
                out.append((parsed, case.expected["verdict"]))
    return out


def _traced(settings: HarnessSettings, handled: list[tuple[str, str]]):
    """The real service, its handler wrapped to record which worker evaluated what."""
    service = build(settings)
    sub = service.subscriptions[0]

    async def handle(parsed):
        handled.append((settings.consumer_name, parsed.analysis_hash))
        await asyncio.sleep(0.002)  # yield, so both workers take part
        result = sub.handle(parsed)
        return await result if inspect.isawaitable(result) else result

    service.subscriptions = [dataclasses.replace(sub, handle=handle)]
    return service


async def test_two_workers_in_one_group_split_the_work_and_evaluate_each_result_once(
    redis, prefix, settings_factory, wait
):
    inputs = _inputs()
    handled: list[tuple[str, str]] = []
    # judging runs off the loop now, so a worker's reclaim pass can run while the other judges a
    # batch: the idle time before a reclaim stays above a loaded machine's batch time
    a = settings_factory(HarnessSettings, consumer_name="harness-a", batch_size=4, claim_idle_ms=10_000)
    b = settings_factory(HarnessSettings, consumer_name="harness-b", batch_size=4, claim_idle_ms=10_000)
    async with running([_traced(a, handled)], a), running([_traced(b, handled)], b):
        await asyncio.sleep(0.2)  # both consumers have joined the group
        for parsed, _ in inputs:
            await redis.xadd(Stream.PARSED.key(prefix), encode(parsed))
        await wait(lambda: _has(redis, Stream.EVALUATED.key(prefix), len(inputs)))

    out = await entries(redis, Stream.EVALUATED, prefix)
    hashes = Counter(v["analysis_hash"] for v in out)
    assert len(out) == len(inputs) and set(hashes.values()) == {1}
    assert Counter(h for _, h in handled) == hashes  # each evaluated exactly once
    workers = Counter(w for w, _ in handled)
    assert set(workers) == {"harness-a", "harness-b"} and min(workers.values()) > 0
    expected = {p.analysis_hash: verdict for p, verdict in inputs}
    assert {v["analysis_hash"]: v["verdict"] for v in out} == expected
    assert all(v["evaluated_at"] != "1970-01-01T00:00:00Z" for v in out)
    assert (await redis.xpending(Stream.PARSED.key(prefix), "harness"))["pending"] == 0


async def test_a_redelivered_result_is_not_evaluated_twice(redis, prefix, settings_factory, wait):
    parsed = all_cases()[0].parsed
    settings = settings_factory(HarnessSettings, consumer_name="harness-a")
    async with running([build(settings)], settings):
        for _ in range(3):
            await redis.xadd(Stream.PARSED.key(prefix), encode(parsed))
        await wait(lambda: _has(redis, Stream.EVALUATED.key(prefix), 1))
        await wait(lambda: _acked(redis, Stream.PARSED.key(prefix)))
    assert len(await entries(redis, Stream.EVALUATED, prefix)) == 1


async def test_settings_from_environment_reach_the_worker(redis, prefix, settings_factory, wait):
    parsed = all_cases()[0].parsed
    settings = settings_factory(HarnessSettings, enable_rca_output_harness=False)
    async with running([build(settings)], settings):
        await redis.xadd(Stream.PARSED.key(prefix), encode(parsed))
        await wait(lambda: _has(redis, Stream.EVALUATED.key(prefix), 1))
    [verdict] = await entries(redis, Stream.EVALUATED, prefix)
    assert verdict["verdict"] == "unchecked"


async def _has(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


async def _acked(redis, key: str) -> bool:
    """Every entry delivered to the group and acknowledged (works on Redis 6.2 too)."""
    [(last_id, _)] = await redis.xrevrange(key, count=1)
    [group] = await redis.xinfo_groups(key)
    return group["pending"] == 0 and _text(group["last-delivered-id"]) == _text(last_id)


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
