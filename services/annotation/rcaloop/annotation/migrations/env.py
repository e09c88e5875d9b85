"""Alembic environment: runs on the connection the store hands over (``config.attributes``)."""

from __future__ import annotations

from alembic import context

from rcaloop.annotation.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("run migrations through `rcaloop annotation migrate` (rcaloop.annotation.store.migrate)")
context.configure(
    connection=connection, target_metadata=metadata, render_as_batch=True, version_table="annotation_alembic_version"
)
with context.begin_transaction():
    context.run_migrations()
