"""A deployment's environment for tests that run the services and the CLI as a user would: Redis under the
test's own prefix, a data directory of its own, and on PostgreSQL a schema of its own, dropped afterwards."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine


async def run_sql(url: str, sql: str) -> list[str]:
    """One statement on its own connection; the rows as text (none for a statement that returns none)."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            result = await conn.execute(sa.text(sql))
            return [str(row) for row in result] if result.returns_rows else []
    finally:
        await engine.dispose()


@contextmanager
def deployment(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, redis_url: str, prefix: str,
               data_dir: Path, **settings: str) -> Iterator[dict[str, str]]:
    """The environment the services and the CLI read (``request.param``: ``sqlite`` or ``postgres``), set for
    the test; the prefix's keys go with the ``prefix`` fixture, the schema when the test ends."""
    env = {"REDIS_URL": redis_url, "RCALOOP_STREAM_PREFIX": prefix, "RCALOOP_DATA_DIR": str(data_dir),
           "CLAIM_INTERVAL_MS": "100", "BLOCK_MS": "50", "OUTBOX_INTERVAL_MS": "50", **settings}
    schema = None
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")
        schema = f"t_{uuid.uuid4().hex[:12]}"
        asyncio.run(run_sql(url, f'CREATE SCHEMA "{schema}"'))
        env |= {"DATABASE_URL": url, "RCALOOP_DB_SCHEMA": schema}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    try:
        yield env
    finally:
        if schema:
            asyncio.run(run_sql(env["DATABASE_URL"], f'DROP SCHEMA "{schema}" CASCADE'))
