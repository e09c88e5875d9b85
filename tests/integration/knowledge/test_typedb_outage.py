"""A real TypeDB driver against an address where no server answers: the outage as the agent meets it."""

from __future__ import annotations

import socket

import pytest

from rcaloop.knowledge.snapshot import SnapshotCache, typedb_outage_runtime_activation_success
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.store import StoreUnavailable
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore, is_conflict, is_unavailable
from rcaloop.knowledge.workflow import KnowledgeWorkflow
from tests.unit.knowledge.builders import evaluation, verdict

PASSWORD = "hunter2-do-not-echo"


def _dead_address() -> str:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


@pytest.fixture
def down() -> TypeDBKnowledgeStore:
    return TypeDBKnowledgeStore(_dead_address(), "admin", PASSWORD, "rcaloop", timeout_ms=1000)


async def test_unreachable_typedb_is_a_clear_error_without_the_password(down):
    with pytest.raises(StoreUnavailable) as info:
        await down.open()
    assert down.address in str(info.value) and PASSWORD not in str(info.value)
    with pytest.raises(StoreUnavailable):
        await down.list_packages("activated")


async def test_snapshot_activated_before_the_outage_keeps_serving_through_it(down, tmp_path):
    cache = SnapshotCache(tmp_path / "runtime_snapshot.json")
    healthy = KnowledgeWorkflow(SqliteKnowledgeStore(tmp_path / "k.sqlite3"), cache)
    await healthy.on_review(evaluation())
    [candidate] = await healthy.on_verdict(verdict())
    _, events = await healthy.decide(candidate.package_id, "approve", "mira")
    assert events[-1].detail["typedb_outage_runtime_activation_success"] is True
    await healthy.store.close()

    during = await KnowledgeWorkflow(down, cache).snapshot()
    assert during.stale and [p.package_id for p in during.packages] == [candidate.package_id]
    check = await typedb_outage_runtime_activation_success(down, cache)
    assert check.typedb_outage_runtime_activation_success and check.package_ids == (candidate.package_id,)


def test_isolation_conflicts_outages_and_refused_queries_are_told_apart():
    # the server's own texts (storage error STC2; driver connection errors CXN; a type-inference refusal)
    conflict = RuntimeError(
        "[DCT3] Data commit. [STC2] Storage commit. Commit in database 'rcaloop' failed with isolation conflict: "
        "Transaction uses a lock held by a concurrent commit."
    )
    outage = RuntimeError("Unable to connect to TypeDB server(s). Details: [CXN04] Connection Error: tcp connect error")
    closed = RuntimeError("[PDR01] Driver Error: The driver has been closed and no further operation is allowed.")
    refused = RuntimeError("[INF2] Type inference. Type-inference was unable to find compatible types for 'x'.")
    assert is_conflict(conflict) and not is_unavailable(conflict)
    assert is_unavailable(outage) and is_unavailable(closed) and not is_conflict(outage)
    assert not is_conflict(refused) and not is_unavailable(refused)
