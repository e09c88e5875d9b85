"""Runtime guards added with this suite: the payload size limit and the one-pass decode."""

from __future__ import annotations

import json

import pytest

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.consumer import Emit, Subscription
from rcaloop.shared.service import Service
from rcaloop.shared.wire import PayloadError, decode, encode
from tests.conftest import running
from tests.helpers.streams import dlq, entries


async def test_oversized_payload_is_dead_lettered_unparsed_and_clipped(redis, prefix, settings_factory, wait):
    forward = Subscription(Stream.RESULTS, RawResult, lambda r: [Emit(Stream.INGESTED, r)], group="echo")
    big = RawResult(result_id="big", kind="skill_text", content="y" * 20_000)
    small = RawResult(result_id="small", kind="skill_text", content="# ok\n")
    for m in (big, small):
        await redis.xadd(Stream.RESULTS.key(prefix), encode(m))
    async with running([Service("echo", [forward])], settings_factory(max_payload_bytes=10_000)):
        await wait(lambda: _has(redis, Stream.INGESTED.key(prefix), Stream.RESULTS.dlq_key(prefix)))
    [letter] = await dlq(redis, Stream.RESULTS, prefix)
    assert letter["error_code"] == "payload_too_large"
    assert "over the 10000 byte limit (MAX_PAYLOAD_BYTES)" in letter["error"]
    assert len(letter["fields"]["payload"]) < 1100 and letter["fields"]["payload"].endswith(
        f"(truncated from {len(big.model_dump_json())} bytes)")
    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["small"]


VALID = RawResult(result_id="r-1", kind="skill_text", content="# x\n").model_dump_json()


@pytest.mark.parametrize(
    "payload,code",
    [
        ("{not json", "invalid_json"),
        ("[1, 2]", "invalid_shape"),
        (VALID.replace('"schema_version":1', '"schema_version":2'), "unsupported_schema_version"),
        (VALID.replace('"kind":"skill_text"', '"kind":"pdf"'), "contract_violation"),
    ],
)
def test_fast_decode_keeps_the_precise_reason(payload, code):
    with pytest.raises(PayloadError) as err:
        decode({"payload": payload}, RawResult)
    assert err.value.code == code


def test_fast_decode_equals_the_slow_path():
    fields = encode(RawResult(result_id="r-1", kind="capture", content={"a": [1, {"b": None}]}, metadata={"k": "v"}))
    assert decode(fields, RawResult) == RawResult.model_validate(json.loads(fields["payload"]))


async def _has(redis, *keys: str) -> bool:
    return all([await redis.xlen(k) > 0 for k in keys])


async def test_dead_letters_keep_the_payload_and_clip_every_other_field(redis, prefix, settings_factory, wait):
    from rcaloop.ingestion.app import IngestionSettings, build  # noqa: PLC0415

    key = Stream.RESULTS.key(prefix)
    header = "h" * 300_000  # under MAX_PAYLOAD_BYTES with the payload, so the entry is read
    await redis.xadd(key, {"payload": "{not json", "producer": header, b"trace\xff": b"\xfe\xff binary"})
    bad_job = RawResult(result_id="r-job", kind="skill_text", content="# x\n", job_id="../etc")  # a rule rejects it
    await redis.xadd(key, {**encode(bad_job), "correlation_id": header})
    settings = settings_factory(IngestionSettings)
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.RESULTS.dlq_key(prefix), 2))
    unreadable, rejected = await dlq(redis, Stream.RESULTS, prefix)
    assert unreadable["error_code"] == "invalid_json" and unreadable["fields"]["payload"] == "{not json"
    assert unreadable["fields"]["producer"].endswith("(truncated from 300000 bytes)")
    assert len(unreadable["fields"]["producer"]) < 1100
    assert unreadable["fields"]["trace\\xff"] == "\\xfe\\xff binary"  # bytes that are not UTF-8 shown, not replaced
    assert rejected["error_code"] == "invalid_job_id"
    assert json.loads(rejected["fields"]["payload"])["result_id"] == "r-job"
    assert len(rejected["fields"]["correlation_id"]) < 1100
    assert max(len(e[1][b"payload"]) for e in await redis.xrange(Stream.RESULTS.dlq_key(prefix))) < 8 * 1024


async def _count(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n
