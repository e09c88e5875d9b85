"""Dead letters on real Redis: made by real workers, then listed, shown, replayed and dropped with
``rcaloop dlq`` (and the functions behind it).

The story an operator lives: a consumer's store was down, its entries were dead-lettered as
``handler_failed`` after ``MAX_DELIVERIES``; the store is back; the letters are replayed; each
result is handled once — by that consumer, and by no other group a second time.
"""

from __future__ import annotations

import asyncio
import json

import redis as redis_sync
from prometheus_client import REGISTRY
from typer.testing import CliRunner

from rcaloop.cli.main import app
from rcaloop.contracts import RawResult, Stream
from rcaloop.shared import dead_letters
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.dead_letters import Selection
from rcaloop.shared.service import Service
from rcaloop.shared.wire import encode
from tests.conftest import running, wait_for


class Consumer:
    """A service whose handler fails while ``down`` (its store unreachable); each result it handles
    is emitted to its own output stream, committed under the result's idempotency key."""

    def __init__(self, name: str, prefix: str, down: bool = False):
        self.name, self.down, self.out = name, down, f"{prefix}out.{name}"

    def handle(self, result: RawResult) -> list[Emit]:
        if self.down:
            raise ConnectionError("store unreachable")
        return [Emit(self.out, result)]

    async def handled(self, redis) -> list[str]:
        return sorted(json.loads(f[b"payload"])["result_id"] for _i, f in await redis.xrange(self.out))

    def service(self) -> Service:
        return Service(name=self.name, subscriptions=[Subscription(
            Stream.RESULTS, RawResult, self.handle, group=self.name, idempotency_key=lambda r: r.result_id)])


def _result(n: int) -> dict[str, str]:
    return encode(RawResult(result_id=f"r-{n}", kind="skill_text", content=f"report {n}"), producer="agent-7",
                  correlation_id=f"run-{n}")


async def _dead_lettered(redis, prefix: str, settings, down: Consumer, steady: Consumer, n: int = 3) -> None:
    """``n`` good results and one that is not JSON; ``down`` dead-letters every one, ``steady`` only the bad one."""
    key = Stream.RESULTS.key(prefix)
    for i in range(n):
        await redis.xadd(key, _result(i))
    await redis.xadd(key, {"payload": "{not json", "producer": "agent-7"})
    async with running([down.service(), steady.service()], settings):
        await wait_for(lambda: _dlq_len(redis, prefix, n + 2), timeout=30)


async def _dlq_len(redis, prefix: str, want: int) -> bool:
    return await redis.xlen(Stream.RESULTS.dlq_key(prefix)) >= want


async def _letters(redis, prefix: str, selection: Selection | None = None, limit=None) -> list:
    return [x async for x in dead_letters.select(redis, prefix, selection or Selection(), limit=limit)]


async def test_replayed_letters_are_handled_once_and_no_group_does_anything_twice(redis, prefix, settings_factory):
    settings = settings_factory(max_deliveries=2)
    down, steady = Consumer("store-service", prefix, down=True), Consumer("steady", prefix)
    await _dead_lettered(redis, prefix, settings, down, steady)
    letters = await _letters(redis, prefix)
    codes = sorted(letter.letter.error_code for letter in letters)
    assert codes == ["handler_failed"] * 3 + ["invalid_json"] * 2
    assert await steady.handled(redis) == ["r-0", "r-1", "r-2"] and await down.handled(redis) == []
    labels = {"service": "store-service", "stream": Stream.RESULTS.key(prefix)}
    assert REGISTRY.get_sample_value("rcaloop_messages_dead_lettered_total", labels | {"code": "handler_failed"}) == 3
    assert REGISTRY.get_sample_value("rcaloop_messages_dead_lettered_total", labels | {"code": "invalid_json"}) == 1

    failed = await _letters(redis, prefix, Selection(streams=(Stream.RESULTS,), codes=frozenset({"handler_failed"})))
    bad_json = [letter for letter in letters if letter.letter.error_code == "invalid_json"]
    outcome = await dead_letters.replay(redis, prefix, failed + bad_json, settings.stream_maxlen)
    assert len(outcome.done) == 5 and outcome.refused == []
    assert await redis.xlen(Stream.RESULTS.dlq_key(prefix)) == 0, "replayed letters leave the queue"
    assert len({new for _l, new in outcome.done}) == 4, "the entry both groups dead-lettered goes back once"

    down.down = False  # the store is back
    again = await dead_letters.replay(redis, prefix, failed, settings.stream_maxlen)  # a second replay of the same
    assert again.done == [] and {why for _l, why in again.refused} == {"gone: replayed or dropped meanwhile"}
    async with running([down.service(), steady.service()], settings):
        async def caught_up() -> bool:
            return await down.handled(redis) == ["r-0", "r-1", "r-2"] and await _dlq_len(redis, prefix, 2)

        await wait_for(caught_up, timeout=30)  # the bad JSON fails again, once in each group
        await asyncio.sleep(0.5)
    assert await down.handled(redis) == ["r-0", "r-1", "r-2"], "each replayed result handled once"
    assert await steady.handled(redis) == ["r-0", "r-1", "r-2"], "the group that had handled them skipped the replays"
    assert await redis.xlen(Stream.RESULTS.dlq_key(prefix)) == 2

    replayed = [f for _id, f in await redis.xrange(Stream.RESULTS.key(prefix)) if b"replay_of" in f]
    assert len(replayed) == 4
    first = {k.decode(): v.decode() for k, v in replayed[0].items()}
    assert first["producer"] == "agent-7" and first["correlation_id"] == "run-0", "headers as the producer sent them"
    assert first["replays"] == "1" and first["replayed_from"] == failed[0].letter_id
    assert first["replay_of"] == failed[0].letter.message_id
    assert json.loads(first["payload"])["result_id"] == "r-0", "the same wire format: payload = the contract's JSON"
    twice = await _letters(redis, prefix)
    assert {letter.letter.fields.get("replays") for letter in twice} == {"1"}, "a letter says it was replayed before"


async def test_selection_by_code_age_and_limit_and_letters_that_cannot_be_replayed(redis, prefix, settings_factory):
    settings = settings_factory(max_deliveries=2)
    await _dead_lettered(redis, prefix, settings, Consumer("store-service", prefix, down=True),
                         Consumer("steady", prefix))
    assert len(await _letters(redis, prefix, limit=2)) == 2
    assert await _letters(redis, prefix, Selection(older_than_s=3600)) == []
    assert len(await _letters(redis, prefix, Selection(newer_than_s=3600))) == 5
    assert len(await _letters(redis, prefix, Selection(streams=(Stream.PARSED,)))) == 0
    one = (await _letters(redis, prefix))[0]
    by_id = await _letters(redis, prefix, Selection(streams=(Stream.RESULTS,), ids=(one.letter_id,)))
    assert [x.letter_id for x in by_id] == [one.letter_id]

    # letters that do not hold the entry as it was sent, or that name another stream, are refused
    key = Stream.RESULTS.dlq_key(prefix)
    forged = one.letter.model_copy(update={"stream": "somewhere.else"})
    clipped = one.letter.model_copy(update={"error_code": "payload_too_large"})
    for letter in (forged, clipped):
        await redis.xadd(key, encode(letter))
    await redis.xadd(key, {"payload": "not a letter"})
    tail = (await _letters(redis, prefix))[-3:]
    outcome = await dead_letters.replay(redis, prefix, tail, settings.stream_maxlen)
    assert outcome.done == []
    whys = [why for _l, why in outcome.refused]
    assert "not the one its queue belongs to" in whys[0]
    assert "first KiB" in whys[1]
    assert whys[2].startswith("the letter is not readable")
    assert await redis.xlen("somewhere.else") == 0


def test_the_dlq_commands_as_an_operator_runs_them(redis_url, prefix, settings_factory):
    settings = settings_factory(max_deliveries=2)

    async def setup() -> None:
        from rcaloop.shared.redis_conn import connect  # noqa: PLC0415

        client = connect(redis_url)
        try:
            await _dead_lettered(client, prefix, settings, Consumer("store-service", prefix, down=True),
                                 Consumer("steady", prefix))
        finally:
            await client.aclose()

    asyncio.run(setup())
    sync = redis_sync.Redis.from_url(redis_url)
    env = {"REDIS_URL": redis_url, "RCALOOP_STREAM_PREFIX": prefix}
    cli = CliRunner()

    def run(*args: str):
        return cli.invoke(app, ["dlq", *args], env=env)

    try:
        listed = run("list", "--json")
        assert listed.exit_code == 0, listed.output
        rows = json.loads(listed.output)
        assert len(rows) == 5 and {r["error_code"] for r in rows} == {"handler_failed", "invalid_json"}
        assert {r["subject"] for r in rows if r["error_code"] == "handler_failed"} == {"r-0", "r-1", "r-2"}
        table = run("list", "--code", "invalid_json")
        assert table.exit_code == 0 and "invalid_json" in table.output and "handler_failed" not in table.output

        shown = run("show", "rca.results", rows[0]["id"])
        assert shown.exit_code == 0 and json.loads(shown.output)["letter"]["group"] in ("steady", "store-service")
        assert run("show", "rca.results", "1-0").exit_code == 1

        assert run("drop").exit_code == 2, "drop needs an explicit selection"
        assert run("drop", "--id", rows[0]["id"]).exit_code == 2, "an id needs its stream"
        dry = run("drop", "--all", "--code", "invalid_json", "--dry-run")
        assert dry.exit_code == 0 and dry.output.count("would be dropped") == 2
        assert sync.xlen(Stream.RESULTS.dlq_key(prefix)) == 5

        replayed = run("replay", "--stream", "rca.results", "--code", "handler_failed", "--limit", "2", "--json")
        assert replayed.exit_code == 0, replayed.output
        assert len(json.loads(replayed.output)["replayed"]) == 2, "bounded by --limit"
        rest = run("replay", "--code", "handler_failed", "--all")
        assert rest.exit_code == 0 and rest.output.count("replayed") == 1
        dropped = run("drop", "--all", "--code", "invalid_json")
        assert dropped.exit_code == 0 and dropped.output.count("dropped") == 2
        assert sync.xlen(Stream.RESULTS.dlq_key(prefix)) == 0
        assert run("list").output.strip() == "no dead letters match"
        assert run("list", "--older-than", "soon").exit_code == 2
        assert run("list", "--stream", "rca.nothing").exit_code == 2
    finally:
        keys = list(sync.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            sync.delete(*keys)
        sync.close()
