"""The ingestion service on a real Redis: once on rca.ingested, duplicates dropped, bad records dead-lettered."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from rcaloop.contracts import RawResult, Stream, analysis_hash
from rcaloop.ingestion.app import DLQ_PAYLOAD_PREVIEW, IngestionSettings, build
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import dlq, entries

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingestion"


def _text(i: int, **kw) -> RawResult:
    return RawResult(result_id=f"r-{i}", kind="skill_text",
                     content=f"# Disk full on db-{i}\n\nRCA_FIELDS\norigin: internal\n", **kw)


async def _publish(redis, prefix: str, *records: RawResult) -> list[str]:
    ids = []
    for r in records:
        ids.append((await redis.xadd(Stream.RESULTS.key(prefix), encode(r, producer="test-agent"))).decode())
    return ids


async def _count(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


def _duplicates(prefix: str) -> float:
    labels = {"service": "ingestion", "stream": Stream.RESULTS.key(prefix)}
    return REGISTRY.get_sample_value("rcaloop_messages_duplicate_total", labels) or 0.0


async def test_records_arrive_once_and_an_exact_duplicate_is_dropped(redis, prefix, settings_factory, wait):
    settings = settings_factory(IngestionSettings)
    same_content_again = _text(1).model_copy(update={"result_id": "r-1-resent", "producer": "other-agent"})
    await _publish(redis, prefix, _text(1), _text(2), same_content_again, _text(3))
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.INGESTED.key(prefix), 3))
        await _publish(redis, prefix, _text(2))  # resent later, after its first copy was committed
        await wait(lambda: _pending_zero(redis, prefix))
        await asyncio.sleep(0.2)

    ingested = await entries(redis, Stream.INGESTED, prefix)
    assert sorted(e["result_id"] for e in ingested) == ["r-1", "r-2", "r-3"]
    by_id = {e["result_id"]: e for e in ingested}
    assert by_id["r-1"]["analysis_hash"] == analysis_hash("skill_text", _text(1).content)
    assert by_id["r-1"]["size_bytes"] > 0
    assert await dlq(redis, Stream.RESULTS, prefix) == []
    assert _duplicates(prefix) == 2


async def _pending_zero(redis, prefix: str) -> bool:
    groups = await redis.xinfo_groups(Stream.RESULTS.key(prefix))
    return bool(groups) and all(g["pending"] == 0 and (g.get("lag") in (0, None)) for g in groups)


async def test_oversized_and_malformed_records_are_dead_lettered_while_the_stream_keeps_flowing(
    redis, prefix, settings_factory, wait
):
    settings = settings_factory(IngestionSettings, rcaloop_max_result_bytes=4096)
    key = Stream.RESULTS.key(prefix)
    [big_id] = await _publish(redis, prefix, _text(1).model_copy(update={"content": "log line\n" * 1000}))
    await _publish(redis, prefix,
                   RawResult(result_id="bad-job", kind="skill_text", content="# x\n", job_id="../../etc"))
    await _publish(redis, prefix,
                   RawResult(result_id="bad-shape", kind="step_files", content={"step1_job_context.json": {}}))
    await redis.xadd(key, {"payload": '{"result_id": "r-x", "kind": "skill_text", "content": '})  # cut short
    await redis.xadd(key, {"body": "no payload field"})
    await redis.xadd(key, {"payload": '{"result_id": "r-s", "kind": "skill_text", "content": "bad \\ud800 text"}'})
    await _publish(redis, prefix, _text(2))
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.INGESTED.key(prefix), 1))
        await wait(lambda: _count(redis, Stream.RESULTS.dlq_key(prefix), 6))
        await _publish(redis, prefix, _text(3))  # still flowing after the poison
        await wait(lambda: _count(redis, Stream.INGESTED.key(prefix), 2))

    assert [e["result_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["r-2", "r-3"]
    letters = sorted(await dlq(redis, Stream.RESULTS, prefix),
                     key=lambda d: tuple(map(int, d["message_id"].split("-"))))
    assert [d["error_code"] for d in letters] == [
        "result_too_large",
        "invalid_job_id",
        "missing_step5_summary",
        "invalid_json",
        "missing_payload",
        "invalid_text",
    ]
    big = letters[0]
    assert big["message_id"] == big_id and big["stream"] == key and big["group"] == "ingestion"
    assert "over the 4096 byte limit" in big["error"]
    assert "job_id may not contain '..'" in letters[1]["error"]
    assert "step5_summary.json" in letters[2]["error"]
    assert json.loads(letters[1]["fields"]["payload"])["result_id"] == "bad-job"  # the original entry, to replay
    assert (await redis.xpending(key, "ingestion"))["pending"] == 0


async def test_oversized_payload_is_cut_in_its_dead_letter(redis, prefix, settings_factory, wait):
    settings = settings_factory(IngestionSettings)  # default limit: 1 MiB
    [msg_id] = await _publish(redis, prefix, _text(1).model_copy(update={"content": "x" * (1024 * 1024 + 10)}))
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.RESULTS.dlq_key(prefix), 1))
    [letter] = await dlq(redis, Stream.RESULTS, prefix)
    assert letter["error_code"] == "result_too_large" and letter["message_id"] == msg_id
    assert len(letter["fields"]["payload"]) == DLQ_PAYLOAD_PREVIEW
    assert int(letter["fields"]["payload_truncated_from"]) > 1024 * 1024


async def test_resubmitting_a_rejected_record_with_fixed_ids_is_not_taken_for_a_duplicate(
    redis, prefix, settings_factory, wait
):
    settings = settings_factory(IngestionSettings)
    bad = RawResult(result_id="r-1", kind="skill_text", content="# report\n", job_id="a/b")
    await _publish(redis, prefix, bad, bad.model_copy(update={"job_id": "a-b"}))
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.INGESTED.key(prefix), 1))
    assert [e["job_id"] for e in await entries(redis, Stream.INGESTED, prefix)] == ["a-b"]
    assert [d["error_code"] for d in await dlq(redis, Stream.RESULTS, prefix)] == ["invalid_job_id"]


def _redis_cli_args(url: str) -> list[str]:
    if url.startswith("unix://"):
        return ["-s", url.removeprefix("unix://").split("?")[0]]
    return ["-u", url]


@pytest.mark.skipif(shutil.which("redis-cli") is None, reason="redis-cli is not installed")
async def test_plain_redis_cli_xadd_reaches_rca_ingested(redis, redis_url, prefix, settings_factory, wait):
    payload = (FIXTURES / "raw_result_skill_text.json").read_text()
    cmd = ["redis-cli", *_redis_cli_args(redis_url), "XADD", Stream.RESULTS.key(prefix), "*",
           "payload", payload, "producer", "go-agent", "correlation_id", "run-77"]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=10, check=True)
    assert "-" in out.stdout  # the entry id
    settings = settings_factory(IngestionSettings)
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.INGESTED.key(prefix), 1))
    [record] = await entries(redis, Stream.INGESTED, prefix)
    published = json.loads(payload)
    assert record["result_id"] == published["result_id"] and record["job_id"] == published["job_id"]
    assert record["analysis_hash"] == analysis_hash(published["kind"], published["content"])
