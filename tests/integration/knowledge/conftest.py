"""Both knowledge stores behind one fixture: the embedded SQLite file always, TypeDB when
``TYPEDB_ADDRESS`` is set (each test gets its own database, deleted afterwards)."""

from __future__ import annotations

import os
import uuid

import pytest

from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore

STORES = [
    "sqlite",
    pytest.param(
        "typedb",
        marks=[
            pytest.mark.typedb,
            pytest.mark.skipif(not os.environ.get("TYPEDB_ADDRESS"), reason="TYPEDB_ADDRESS is not set"),
        ],
    ),
]


def make_store(kind: str, tmp_path, name: str):
    if kind == "sqlite":
        return SqliteKnowledgeStore(tmp_path / "knowledge" / "knowledge.sqlite3")
    return TypeDBKnowledgeStore(
        os.environ["TYPEDB_ADDRESS"],
        os.environ.get("TYPEDB_USERNAME", "admin"),
        os.environ.get("TYPEDB_PASSWORD", "password"),
        name,
    )


@pytest.fixture(autouse=True)
def typedb_database(monkeypatch):
    """With ``TYPEDB_ADDRESS`` set, every test's services and CLI use a database of their own
    (``TYPEDB_DATABASE``), deleted afterwards: no state leaks between tests."""
    address = os.environ.get("TYPEDB_ADDRESS")
    if not address:
        yield None
        return
    name = f"rcaloop_test_{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("TYPEDB_DATABASE", name)
    yield name
    _drop_typedb_database(name, address)  # a test may have unset the variable meanwhile


@pytest.fixture(params=STORES)
async def store_factory(request, tmp_path):
    """``make()`` opens another handle on the same store (to test durability across reopen)."""
    kind, name, opened = request.param, f"rcaloop_test_{uuid.uuid4().hex[:10]}", []

    async def make():
        store = make_store(kind, tmp_path, name)
        await store.open()
        opened.append(store)
        return store

    yield make
    for store in opened:
        await store.close()
    if kind == "typedb":
        _drop_typedb_database(name, os.environ["TYPEDB_ADDRESS"])


@pytest.fixture
async def store(store_factory):
    return await store_factory()


def _drop_typedb_database(name: str, address: str) -> None:
    from typedb.driver import Credentials, DriverOptions, DriverTlsConfig, TypeDB  # noqa: PLC0415

    driver = TypeDB.driver(
        address,
        Credentials(os.environ.get("TYPEDB_USERNAME", "admin"), os.environ.get("TYPEDB_PASSWORD", "password")),
        DriverOptions(DriverTlsConfig.disabled()),
    )
    try:
        if driver.databases.contains(name):
            driver.databases.get(name).delete()
    finally:
        driver.close()
