"""A result carrying a secret of every class, run through every service in-process on real Redis
(the annotation store on SQLite and on PostgreSQL): no raw value is left in any stream, dead
letter, Redis key, log line or store, and the parsed result names each finding's rule.

The values are the realistic RCA corpus's (``tests/fixtures/secrets/rca-corpus.yaml``), one of
each class, written into the chat, the report, the input text, the evidence and the metadata
of one result; a rejected copy of it (an unknown ``kind``) and an entry that is not JSON
carry them to the dead letters. ``rca.results``, which holds what producers sent, is trimmed once
acknowledged.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from rcaloop.cli import pipeline, streams
from rcaloop.contracts import EvidenceArtifact, RawResult, Stream
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.settings import RuntimeSettings
from rcaloop.shared.wire import encode
from tests.conftest import running, wait_for
from tests.helpers.deployment import deployment, run_sql

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "examples" / "skill_outputs" / "checkout-5xx.txt").read_text()
CASES = yaml.safe_load((ROOT / "tests" / "fixtures" / "secrets" / "rca-corpus.yaml").read_text())["cases"]


def one_of_each_class() -> list[dict]:
    seen: dict[str, dict] = {}
    for case in CASES:
        if case["class"].startswith("tp.") and "\n" not in case["text"] or case["class"] == "tp.private-key":
            seen.setdefault(case["class"], case)
    return list(seen.values())


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def environment(request, monkeypatch, redis_url, prefix, tmp_path):
    with deployment(request, monkeypatch, redis_url, prefix, tmp_path / "data", RETENTION_INTERVAL_S="0.5",
                    LOG_FORMAT="json") as env:
        yield env


def _result(cases: list[dict]) -> RawResult:
    lines = "\n".join(f"- {case['text']}" for case in cases if "\n" not in case["text"])
    keys = "\n\n".join(case["text"] for case in cases if "\n" in case["text"])
    content = SAMPLE.replace("## Recommendations", f"{lines}\n\n{keys}\n\n## Recommendations").replace(
        "- compare connection count per pod with the setting",
        "- compare connection count per pod; " + cases[0]["text"])
    return RawResult(
        result_id="secrets-everywhere", kind="skill_text", content=content, producer="agent-7",
        input_text="alert: checkout 5xx\n" + "\n".join(case["text"] for case in cases if "\n" not in case["text"]),
        evidence=[EvidenceArtifact(id=f"E{i:02d}", source="loki", text=case["text"]) for i, case in enumerate(cases)],
        metadata={"note": cases[1]["text"]},
    )


async def _everything_in_redis(redis, prefix: str) -> str:
    """Every key under the prefix, whatever its type, as text."""
    out = []
    async for key in redis.scan_iter(match=f"{prefix}*", count=1000):
        kind = (await redis.type(key)).decode()
        if kind == "stream":
            out += [json.dumps({k.decode(): v.decode("utf-8", "replace") for k, v in f.items()}, ensure_ascii=False)
                    for _id, f in await redis.xrange(key)]
        elif kind == "string":
            out.append((await redis.get(key) or b"").decode("utf-8", "replace"))
        elif kind == "hash":
            out += [v.decode("utf-8", "replace") for v in (await redis.hgetall(key)).values()]
        elif kind in ("set", "zset", "list"):
            members = {"set": redis.smembers, "zset": lambda k: redis.zrange(k, 0, -1),
                       "list": lambda k: redis.lrange(k, 0, -1)}
            out += [m.decode("utf-8", "replace") for m in await members[kind](key)]
    return "\n".join(out)


async def _everything_in_postgres(url: str, schema: str) -> str:
    tables = await run_sql(url, f"SELECT table_name FROM information_schema.tables WHERE table_schema = '{schema}'")
    rows = []
    for table in tables:
        name = table.strip("(),'")
        rows += await run_sql(url, f'SELECT t::text FROM "{schema}"."{name}" t')
    return "\n".join(rows)


def _everything_on_disk(data: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in data.rglob("*") if p.is_file())


def test_no_raw_secret_value_is_left_anywhere(environment, capfd):
    cases = one_of_each_class()
    assert {c["class"] for c in cases} == {c["class"] for c in CASES if c["class"].startswith("tp.")}
    values = [value for case in cases for value in case["secrets"]]
    raw = _result(cases)
    url, prefix = environment["REDIS_URL"], environment["RCALOOP_STREAM_PREFIX"]

    async def scenario() -> tuple[str, dict]:
        redis = connect(url)
        try:
            async with running(pipeline.all_services(), RuntimeSettings()):
                await redis.xadd(Stream.RESULTS.key(prefix), encode(raw, producer="agent-7"))
                rejected = json.loads(raw.model_dump_json()) | {"kind": "bogus", "result_id": "secrets-rejected"}
                await redis.xadd(Stream.RESULTS.key(prefix), {"payload": json.dumps(rejected), "producer": "agent-7"})
                await redis.xadd(Stream.RESULTS.key(prefix),
                                 {"payload": "not json\n" + "\n".join(c["text"] for c in cases)})
                assert await streams.wait_until_drained(url, prefix, timeout_s=120)
                await wait_for(lambda: _results_trimmed(redis, prefix), timeout=60)
            [parsed] = [json.loads(f[b"payload"]) for _id, f in await redis.xrange(Stream.PARSED.key(prefix))
                        if f[b"payload"].startswith(b"{")]
            return await _everything_in_redis(redis, prefix), parsed
        finally:
            await redis.aclose()

    in_redis, parsed = asyncio.run(scenario())
    places = {"redis (streams, dead letters, keys)": in_redis, "data dir (SQLite and files)":
              _everything_on_disk(Path(environment["RCALOOP_DATA_DIR"])), "logs": "\n".join(capfd.readouterr())}
    if "DATABASE_URL" in environment:
        places["postgresql"] = asyncio.run(
            _everything_in_postgres(environment["DATABASE_URL"], environment["RCALOOP_DB_SCHEMA"]))
    assert "[REDACTED:" in in_redis and "scan_budget_exceeded" not in in_redis
    assert len(places["data dir (SQLite and files)"]) + len(places.get("postgresql", "x")) > 0
    leaks = {where: [v for v in values if v in text] for where, text in places.items()}
    assert leaks == {where: [] for where in places}, leaks
    flags = [f for f in parsed["red_flags"] if f["source"] == "detected"]
    assert {f["type"] for f in flags} >= {"private-key", "connection-string", "aws-secret-key", "password-hash"}
    assert all(f["rule"] for f in flags), flags
    assert any(f["rule"].startswith(("betterleaks.", "veles.")) for f in flags), flags  # the engine's own rule ids
    assert {f["where"] for f in flags} >= {"report", "chat", "input", "metadata.note"}


async def _results_trimmed(redis, prefix: str) -> bool:
    return await redis.xlen(Stream.RESULTS.key(prefix)) == 0
