"""The parser service on a real Redis: rca.ingested → rca.parsed, violations as results."""

from __future__ import annotations

from pathlib import Path

from rcaloop.contracts import IngestedRecord, Stream, analysis_hash
from rcaloop.parser.app import ParserSettings, build
from rcaloop.shared.sources import load_result
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import dlq, entries

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = [
    ROOT / "examples" / "skill_outputs" / "checkout-5xx.txt",
    ROOT / "examples" / "skill_outputs" / "resolved-notification.txt",
    ROOT / "examples" / "jobs" / "1234567",
    ROOT / "examples" / "captures" / "checkout-db-pool.json",
]


def ingested(path: Path) -> IngestedRecord:
    raw = load_result(path)
    return IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))


def malformed() -> IngestedRecord:
    text = "# half a report\n\n## Summary\nthe run was cut short"
    return IngestedRecord(
        result_id="cut-short", kind="skill_text", content=text, analysis_hash=analysis_hash("skill_text", text)
    )


async def _count(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


async def test_samples_become_parsed_messages_and_bad_input_does_not_stop_the_stream(
    redis, prefix, settings_factory, wait
):
    settings = settings_factory(
        ParserSettings, rcaloop_registry=ROOT / "tests" / "fixtures" / "parser" / "registry.json"
    )
    key = Stream.INGESTED.key(prefix)
    for path in SAMPLES[:2]:
        await redis.xadd(key, encode(ingested(path)))
    await redis.xadd(key, encode(malformed()))
    await redis.xadd(key, {"payload": '{"result_id": "x", "kind": "skill_text"}'})  # not an IngestedRecord
    for path in SAMPLES[2:]:
        await redis.xadd(key, encode(ingested(path)))
    await redis.xadd(key, encode(ingested(SAMPLES[0])))  # a redelivered duplicate: no second effect
    async with running([build(settings)], settings):
        await wait(lambda: _count(redis, Stream.PARSED.key(prefix), 5), timeout=15)
        await wait(lambda: _count(redis, Stream.INGESTED.dlq_key(prefix), 1), timeout=15)
    parsed = {p["result_id"]: p for p in await entries(redis, Stream.PARSED, prefix)}
    assert len(await entries(redis, Stream.PARSED, prefix)) == 5
    assert {r: p["outcome"] for r, p in parsed.items()} == {
        "checkout-5xx": "report",
        "resolved-notification": "not_applicable",
        "cut-short": "incomplete",
        "job-1234567": "report",
        "inc-2041": "report",
    }
    checkout = parsed["checkout-5xx"]
    assert checkout["fields"]["confidence"] == "high"
    assert all(c["resolved"] for c in checkout["citations"])  # the registry from RCALOOP_REGISTRY was used
    assert "(https://chat.example/m/1001)" in checkout["chat_rendered"]
    assert [e["code"] for e in parsed["cut-short"]["errors"]] == ["RCA101"]
    assert parsed["job-1234567"]["diagnosis"]["root_cause"]["category"] == "credential"
    assert parsed["inc-2041"]["diagnosis"]["family"] == "db_connection_pool_exhaustion"
    assert all(p["analysis_hash"] for p in parsed.values())
    [letter] = await dlq(redis, Stream.INGESTED, prefix)
    assert letter["error_code"] == "contract_violation"
    assert (await redis.xpending(key, "parser"))["pending"] == 0
