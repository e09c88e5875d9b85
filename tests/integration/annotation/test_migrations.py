"""The Alembic migrations create exactly the tables the code uses (no drift), on both backends."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from rcaloop.annotation.tables import metadata


async def test_migrations_match_the_table_definitions(store):
    def diff(sync_conn):
        ctx = MigrationContext.configure(sync_conn, opts={"version_table": "annotation_alembic_version"})
        return compare_metadata(ctx, metadata)

    async with store.engine.connect() as conn:
        changes = await conn.run_sync(diff)
    assert changes == []


async def test_migrating_twice_is_a_no_op(store):
    await store.migrate()
    assert await store.list_tasks() == []
