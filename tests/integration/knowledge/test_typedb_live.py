"""The TypeDB adapter against a real server: what can only be shown there (skipped without ``TYPEDB_ADDRESS``).

Each test uses a database of its own and deletes it.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid

import pytest

from rcaloop.knowledge import typedb_schema, typeql
from rcaloop.knowledge.store import StoreQueryError
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore
from tests.integration.knowledge.conftest import _drop_typedb_database
from tests.unit.knowledge.builders import evaluation

pytestmark = [
    pytest.mark.typedb,
    pytest.mark.skipif(not os.environ.get("TYPEDB_ADDRESS"), reason="TYPEDB_ADDRESS is not set"),
]


@pytest.fixture
def database():
    name, address = f"rcaloop_test_{uuid.uuid4().hex[:10]}", os.environ["TYPEDB_ADDRESS"]
    yield name
    _drop_typedb_database(name, address)


def _store(name: str, **kw) -> TypeDBKnowledgeStore:
    return TypeDBKnowledgeStore(os.environ["TYPEDB_ADDRESS"], os.environ.get("TYPEDB_USERNAME", "admin"),
                                os.environ.get("TYPEDB_PASSWORD", "password"), name, **kw)


def _driver():
    from typedb.driver import Credentials, DriverOptions, DriverTlsConfig, TypeDB  # noqa: PLC0415

    return TypeDB.driver(os.environ["TYPEDB_ADDRESS"], Credentials(os.environ.get("TYPEDB_USERNAME", "admin"),
                         os.environ.get("TYPEDB_PASSWORD", "password")), DriverOptions(DriverTlsConfig.disabled()))


def _define(name: str, schema: str) -> None:
    from typedb.driver import TransactionType  # noqa: PLC0415

    driver = _driver()
    try:
        driver.databases.create(name)
        with driver.transaction(name, TransactionType.SCHEMA) as tx:
            tx.query(schema).resolve()
            tx.commit()
    finally:
        driver.close()


def _held(name: str) -> str:
    driver = _driver()
    try:
        return driver.databases.get(name).schema()
    finally:
        driver.close()


async def test_a_database_of_an_earlier_schema_is_brought_to_this_one(database):
    """An added ``owns``, a widened ``@values`` and a changed function: none is a new type name,
    so a check by type names alone would leave them out and every later write would fail."""
    earlier = typeql.SCHEMA.replace('"before_incident", "during_incident", ', '"during_incident", ')
    earlier = earlier.replace("owns incident-started-at, owns body,", "owns body,")
    earlier = earlier.replace("      $e has live true;\n    return check;", "    return check;")
    _define(database, earlier)
    assert typedb_schema.plan(typeql.SCHEMA, _held(database)).changes
    store = _store(database)
    await store.open()
    try:
        plan = typedb_schema.plan(typeql.SCHEMA, _held(database))
        assert not plan.changes and not plan.destructive and plan.kept == ()
    finally:
        await store.close()


async def test_a_destructive_difference_is_refused_with_what_it_is(database):
    _define(database, "define attribute incident-id, value integer;")
    store = _store(database)
    with pytest.raises(StoreQueryError, match="incident-id: 'value integer' in the database"):
        await store.open()
    await store.close()
    assert "entity incident" not in _held(database)  # nothing of the schema was applied


async def test_replicas_opening_one_new_database_at_once_all_succeed(database):
    stores = [_store(database) for _ in range(4)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert all(
            await asyncio.gather(*(s.put_review(evaluation(annotation_id=f"ev-{n}")) for n, s in enumerate(stores))))
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    assert not typedb_schema.plan(typeql.SCHEMA, _held(database)).changes


async def test_a_write_waiting_for_another_replicas_schema_lock_is_retried_not_an_outage(database):
    from typedb.driver import TransactionType  # noqa: PLC0415

    store = _store(database, timeout_ms=3000)
    await store.open()
    holder = _driver()
    schema_tx = holder.transaction(database, TransactionType.SCHEMA)  # another replica migrating
    release = threading.Timer(4.0, schema_tx.close)  # longer than the driver waits for one answer
    release.start()
    started = time.monotonic()
    try:
        assert await store.put_review(evaluation()) is True
        assert time.monotonic() - started >= 3.5  # it waited for the lock, then wrote
        assert store.writes.problem() is None
    finally:
        release.join()
        holder.close()
        await store.close()
