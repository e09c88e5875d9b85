"""Ids, hashes and numbers on the internal streams: refused by the contract, the same way on
SQLite and PostgreSQL, at once and with a code that says not to replay.

Before: a verdict whose ``analysis_hash`` held a NUL passed validation; PostgreSQL refused it
five times and it was dead-lettered as ``handler_failed`` (a code the docs say to replay),
while SQLite stored it. A ``NaN`` score passed on every internal stream.
"""

from __future__ import annotations

import json
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from rcaloop.annotation.app import build
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store
from rcaloop.contracts import IngestedRecord, Stream
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import dlq
from tests.integration.annotation.conftest import verdict


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def backend(request, tmp_path):
    """Settings overrides for the service's store: its SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield "sqlite", {}
        return
    url = request.getfixturevalue("pg_url")
    schema = f"strict_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(url)
    async with admin.begin() as conn:
        await conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    yield "postgres", {"database_url": url, "rcaloop_db_schema": schema}
    async with admin.begin() as conn:
        await conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    await admin.dispose()


def _raw(v, **fields: str) -> dict[str, str]:
    """The verdict's JSON with ``fields`` replaced by raw JSON text (what a broken producer writes)."""
    text = v.model_dump_json()
    for key, raw in fields.items():
        data = json.loads(text)
        data[key] = "__raw__"
        text = json.dumps(data).replace('"__raw__"', raw, 1)
    return {"payload": text}


async def _settled(redis, key: str, group: str) -> bool:
    groups = {g["name"].decode(): g for g in await redis.xinfo_groups(key)}
    g = groups.get(group)
    return (bool(g) and g["pending"] == 0
            and g["last-delivered-id"] == (await redis.xinfo_stream(key))["last-generated-id"])


async def _store(settings: AnnotationSettings) -> Store:
    return Store(settings.store_url(), schema=settings.rcaloop_db_schema)


async def test_bad_ids_and_numbers_are_refused_alike_by_both_backends(backend, redis, prefix, settings_factory, wait):
    name, overrides = backend
    settings = settings_factory(AnnotationSettings, max_deliveries=5, **overrides)
    good = verdict(1)
    bad = {
        "NUL in analysis_hash": _raw(verdict(2), analysis_hash=r'"ab\u0000cd"'),
        "newline in result_id": _raw(verdict(3), result_id=r'"INC-1\nINC-2"'),
        "NaN score": _raw(verdict(4), score="NaN"),
        "1e999 score": _raw(verdict(5), score="1e999"),
    }
    key = Stream.EVALUATED.key(prefix)
    await redis.xadd(key, encode(good))
    for fields in bad.values():
        await redis.xadd(key, fields)
    record = IngestedRecord(result_id="r-nul", kind="skill_text", content="report\x00with a NUL\n",
                            analysis_hash="d" * 64)
    await redis.xadd(Stream.INGESTED.key(prefix), encode(record))

    async with running([build(settings)], settings):
        await wait(lambda: _settled(redis, key, "annotation"), timeout=60)
        await wait(lambda: _settled(redis, Stream.INGESTED.key(prefix), "annotation-artifacts"), timeout=60)

    letters = await dlq(redis, Stream.EVALUATED, prefix)
    assert len(letters) == len(bad), (name, letters)
    assert sorted(x["error_code"] for x in letters) == ["contract_violation", "contract_violation",
                                                        "invalid_json", "number_out_of_range"], name
    assert all(x["deliveries"] == 1 for x in letters), "refused at once, never retried"
    assert "\x00" not in json.dumps(letters)
    assert await dlq(redis, Stream.INGESTED, prefix) == []

    store = await _store(settings)
    try:
        assert (await store.verdict(good.analysis_hash)) is not None
        assert len(await store.list_tasks(limit=50)) == 1, "only the good verdict became a task"
        files = await store.artifact_files("d" * 64)
        assert "NUL" in str(files["output.txt"]), files  # listed, not kept: the same on every backend
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_value_the_database_refuses_is_dead_lettered_at_once(redis, prefix, settings_factory, wait, pg_url):
    """What the contract takes but PostgreSQL still refuses (here: a column narrowed under the
    service) can never succeed on a retry: ``store_refused`` at once, the batch's others stored."""
    schema = f"strict_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(pg_url)
    async with admin.begin() as conn:
        await conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        settings = settings_factory(AnnotationSettings, database_url=pg_url, rcaloop_db_schema=schema, max_deliveries=5)
        store = await _store(settings)
        await store.migrate()
        async with store.engine.begin() as conn:
            await conn.execute(sa.text("ALTER TABLE verdicts ALTER COLUMN result_id TYPE varchar(8)"))
        await store.close()
        fits, too_long = verdict(1, result_id="INC-1"), verdict(2, result_id="INC-" + "9" * 20)
        key = Stream.EVALUATED.key(prefix)
        for v in (fits, too_long, verdict(3, result_id="INC-3")):
            await redis.xadd(key, encode(v))
        async with running([build(settings)], settings):
            await wait(lambda: _settled(redis, key, "annotation"), timeout=60)
        [letter] = await dlq(redis, Stream.EVALUATED, prefix)
        assert letter["error_code"] == "store_refused" and letter["deliveries"] == 1, letter
        assert json.loads(letter["fields"]["payload"])["analysis_hash"] == too_long.analysis_hash
        store = await _store(settings)
        try:
            assert len(await store.list_tasks(limit=50)) == 2
        finally:
            await store.close()
    finally:
        async with admin.begin() as conn:
            await conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()
