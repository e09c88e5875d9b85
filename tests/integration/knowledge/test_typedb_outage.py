"""A real TypeDB driver against an address where no server answers: the outage as the agent meets it."""

from __future__ import annotations

import socket

import pytest

from rcaloop.knowledge.snapshot import SnapshotCache, typedb_outage_runtime_activation_success
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.store import StoreUnavailable
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore, is_conflict, lit
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


def test_typeql_literals_escape_quotes_and_drop_control_characters():
    assert lit('a"b\\c') == '"a\\"b\\\\c"'
    assert lit("x\ny\x00") == '"xy"'
    assert lit('"; match $x isa thing; delete $x;') == '"\\"; match $x isa thing; delete $x;"'


def test_isolation_conflicts_are_recognised_for_retry():
    assert is_conflict(RuntimeError("[TSV7] Transaction commit failed: Isolation conflict: write-write"))
    assert not is_conflict(RuntimeError("[CXN04] Connection Error"))
