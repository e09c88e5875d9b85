"""The annotation store's readiness check on both backends: a committed write that leaves nothing
behind, refused while the database refuses writes."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from rcaloop.annotation.store import Store
from rcaloop.annotation.tables import outbox


async def test_a_writable_store_passes_and_keeps_nothing(store):
    await store.check_writable()
    await store.check_writable()
    async with store.engine.connect() as conn:
        assert await conn.scalar(sa.select(sa.func.count()).select_from(outbox)) == 0


async def test_a_store_that_refuses_writes_fails_the_check(store):
    refusing = Store(store.url, schema=store.schema)
    sqlite = store.url.startswith("sqlite")

    @sa.event.listens_for(refusing.engine.sync_engine, "connect")
    def _read_only(dbapi_conn, _record):  # as a read-only file (SQLite) or a replica (PostgreSQL) would
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA query_only = ON" if sqlite else "SET default_transaction_read_only = on")
        cursor.close()
        dbapi_conn.commit()  # a session setting made in a transaction that is rolled back would be undone

    try:
        with pytest.raises(sa.exc.DBAPIError, match="readonly|read-only"):
            await refusing.check_writable()
    finally:
        await refusing.close()
