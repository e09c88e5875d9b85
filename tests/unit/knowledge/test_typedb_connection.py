"""How the TypeDB store handles its connection: leaks, outages, refused queries, conflicts, the schema.

Connection events are hard to cause on demand against a server, so these tests hand the store
a stand-in for the driver's connection lifecycle (open, close, transactions that answer nothing or raise the errors a
real driver raises, with the real exception type and the server's own messages). They test
the store's handling of those events, not TypeDB: the queries themselves are checked by the
TypeQL parser (``tests/integration/knowledge/test_typeql_grammar.py``) and, with a server,
by the contract suite.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from typedb.driver import TypeDBDriverException

from rcaloop.knowledge import typeql
from rcaloop.knowledge.typedb_schema import plan
from rcaloop.knowledge.store import StoreQueryError, StoreUnavailable
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore
from tests.unit.knowledge.builders import evaluation

LOST = "[CXN06] Connection Error: The connection has been closed unexpectedly and no further operation is allowed."
REFUSED = "[INF2] Type inference. Type-inference was unable to find compatible types for the pair of variables."
CONFLICT = ("[STC2] Storage commit. Commit in database 'rcaloop' failed with isolation conflict: "
            "Transaction uses a lock.")
BUSY = "timed out waiting on channel\nCaused: [TXN1] Transaction timeout.\nCaused: [SRV22] Failed to open transaction."
EXISTS = "[DBE6] Database 'rcaloop' already exists."
WRITES = ("insert", "put ", "update", "delete")
FULL_SCHEMA = typeql.SCHEMA  # what a database that already holds the schema reports


class Answer:
    def __init__(self, rows=()):
        self.rows = list(rows)

    def resolve(self):
        return self

    def as_concept_rows(self):
        return iter(self.rows)


class Transaction:
    def __init__(self, driver, kind):
        self.driver, self.kind = driver, kind

    def __enter__(self):
        self.driver.transactions.append(self.kind.name)
        return self

    def __exit__(self, *exc):
        return False

    def query(self, text):
        self.driver.queries.append(text)
        if self.driver.hold is not None:
            self.driver.inside.set()
            self.driver.hold.wait(10)
        if self.driver.query_errors:
            raise TypeDBDriverException(self.driver.query_errors.pop(0))
        matched = any(w in text for w in WRITES) and not self.driver.writes_match_nothing
        return Answer([object()] if matched else [])  # a write answers a row per match

    def commit(self):
        self.driver.commits += 1
        if self.driver.commit_errors:
            raise TypeDBDriverException(self.driver.commit_errors.pop(0))


class Databases:
    def __init__(self, driver):
        self.driver = driver

    def contains(self, name):
        if self.driver.database_error:
            raise TypeDBDriverException(self.driver.database_error)
        return self.driver.exists

    def create(self, name):
        self.driver.exists = True  # another replica created it first: this create is refused
        if self.driver.create_error:
            raise TypeDBDriverException(self.driver.create_error)

    def get(self, name):
        return self

    def schema(self):
        return self.driver.schema


class Driver:
    """A stand-in for ``TypeDB.driver(...)``'s lifecycle."""

    def __init__(self, schema=FULL_SCHEMA, database_error=None, exists=True, create_error=None):
        self.schema, self.database_error = schema, database_error
        self.exists, self.create_error = exists, create_error
        self.writes_match_nothing = False
        self.commits = 0
        self.transaction_errors: list[str] = []
        self.closed = False
        self.transactions: list[str] = []
        self.queries: list[str] = []
        self.query_errors: list[str] = []
        self.commit_errors: list[str] = []
        self.hold: threading.Event | None = None
        self.inside = threading.Event()
        self.databases = Databases(self)

    def is_open(self):
        return not self.closed

    def close(self):
        self.closed = True

    def transaction(self, database, kind, options=None):
        if self.closed:
            raise TypeDBDriverException("[PDR01] Driver Error: The driver has been closed.")
        if self.transaction_errors:
            raise TypeDBDriverException(self.transaction_errors.pop(0))
        return Transaction(self, kind)


def _store(*drivers: Driver) -> tuple[TypeDBKnowledgeStore, list[Driver]]:
    made: list[Driver] = []
    queue = list(drivers)

    def factory(*_args):
        made.append(queue.pop(0) if queue else Driver())
        return made[-1]

    return TypeDBKnowledgeStore("typedb:1729", "admin", "s3cret", driver_factory=factory), made


async def test_a_connect_attempt_that_fails_after_creating_its_driver_closes_it():
    store, made = _store(*(Driver(database_error=LOST) for _ in range(3)))
    for _ in range(3):
        with pytest.raises(StoreUnavailable) as info:
            await store.open()
        assert "s3cret" not in str(info.value)
    assert len(made) == 3 and all(d.closed for d in made)  # one driver per attempt, none leaked


async def test_a_schema_the_server_refuses_is_a_query_error_and_its_driver_is_closed():
    refusing = Driver(schema="")
    refusing.query_errors = ["[SVL4] Schema validation. 'probe-execution' is already a relation type."]
    store, made = _store(refusing)
    with pytest.raises(StoreQueryError):
        await store.open()
    assert made[0].closed and made[0].transactions == ["SCHEMA"]


async def test_the_schema_is_defined_once_and_only_what_is_missing():
    empty, fresh = Driver(schema=""), Driver(schema="")
    store, made = _store(empty, fresh)
    await store.open()
    assert empty.transactions == ["SCHEMA"]
    assert empty.queries == plan(typeql.SCHEMA, "").queries()
    empty.close()  # the connection is lost: the next call reconnects without touching the schema
    await store.put_review(evaluation())
    assert len(made) == 2 and fresh.transactions == ["WRITE"]

    complete, _ = _store(Driver())
    await complete.open()
    assert complete._driver.transactions == []  # a database holding the schema gets no schema transaction


async def test_a_refused_query_is_a_query_error_and_keeps_the_connection():
    driver = Driver()
    driver.query_errors = [REFUSED]
    store, made = _store(driver)
    with pytest.raises(StoreQueryError) as info:
        await store.get_package("kp-1")
    assert "Type-inference" in str(info.value)
    assert await store.get_package("kp-1") is None  # same driver, still open
    assert made == [driver] and not driver.closed


async def test_an_outage_retires_the_driver_but_never_closes_it_under_another_user():
    shared = Driver()
    store, made = _store(shared)
    await store.open()
    shared.hold = threading.Event()  # the next query waits inside its transaction
    reader = asyncio.create_task(store.get_package("kp-1"))
    await asyncio.to_thread(shared.inside.wait, 10)
    shared.query_errors = [LOST]
    failing = threading.Thread(target=lambda: _swallow(store._read, lambda tx: tx.query("x").resolve()))
    shared.hold, held = None, shared.hold
    failing.start()
    failing.join(10)
    assert not shared.closed, "closed while the reader still uses it"
    held.set()
    await reader
    assert shared.closed  # closed once its last user released it
    await store.get_package("kp-1")
    assert len(made) == 2 and not made[1].closed


def _swallow(fn, *args):
    try:
        fn(*args)
    except StoreUnavailable:
        pass


async def test_commits_retry_on_isolation_conflicts_and_repeated_failures_show_in_the_write_record():
    driver = Driver()
    driver.commit_errors = [CONFLICT, CONFLICT]
    store, _ = _store(driver)
    assert await store.put_review(evaluation()) is True
    assert driver.transactions.count("WRITE") == 3 and store.writes.problem() is None
    driver.query_errors = [REFUSED] * 3
    for n in range(3):
        with pytest.raises(StoreQueryError):
            await store.put_review(evaluation(annotation_id=f"ev-{n}"))
    assert "the last 3 writes failed" in store.writes.problem()
    await store.check_writable()
    assert store.writes.problem() is None


async def test_a_database_another_replica_created_meanwhile_is_no_error():
    racing = Driver(schema="", exists=False, create_error=EXISTS)
    store, made = _store(racing)
    await store.open()
    assert made == [racing] and racing.transactions == ["SCHEMA"] and not racing.closed


async def test_a_transaction_kept_waiting_by_the_schema_lock_is_retried_not_an_outage():
    driver = Driver()
    driver.transaction_errors = [BUSY, BUSY]
    store, made = _store(driver)
    assert await store.put_review(evaluation()) is True
    assert made == [driver] and not driver.closed and store.writes.problem() is None
    driver.transaction_errors = [BUSY] * 5
    with pytest.raises(StoreUnavailable, match="schema lock"):
        await store.put_review(evaluation(annotation_id="ev-late"))
    assert not driver.closed, "a busy server is not a lost connection"


async def test_a_write_that_matched_nothing_fails_and_is_never_committed():
    driver = Driver()
    store, _ = _store(driver)
    await store.open()
    driver.writes_match_nothing = True
    with pytest.raises(StoreQueryError, match="matched nothing"):
        await store.put_review(evaluation())
    assert driver.transactions == ["WRITE"] and driver.commits == 0


def test_the_schema_lock_wait_stays_below_the_request_timeout():
    with pytest.raises(ValueError):
        TypeDBKnowledgeStore("typedb:1729", "admin", "pw", timeout_ms=3000, lock_wait_ms=3000)
