"""The embedded store's file: a file of the first layout (JSON bodies only) is rewritten into the graph."""

from __future__ import annotations

import sqlite3

import pytest

from rcaloop.knowledge import core, graph
from rcaloop.knowledge.sqlite_store import SCHEMA_VERSION, SqliteKnowledgeStore
from rcaloop.knowledge.store import StoreUnavailable
from rcaloop.knowledge.workflow import slim_verdict
from tests.unit.knowledge.builders import evaluation, verdict

FIRST_LAYOUT = """
CREATE TABLE verdicts (analysis_hash TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE reviews (annotation_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE packages (package_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, state TEXT NOT NULL,
    revision INTEGER NOT NULL, body TEXT NOT NULL);
"""


async def test_a_file_of_the_first_layout_is_rewritten_into_the_graph(tmp_path):
    path = tmp_path / "knowledge.sqlite3"
    v, review = slim_verdict(verdict()), evaluation()
    package = core.decide(core.promote(review, v), "approve", "mira").package
    with sqlite3.connect(path) as conn:
        conn.executescript(FIRST_LAYOUT)
        conn.execute("INSERT INTO verdicts VALUES (?, ?)", (v.analysis_hash, v.model_dump_json()))
        conn.execute("INSERT INTO reviews VALUES (?, ?, ?)", (review.annotation_id, v.analysis_hash,
                                                             review.model_dump_json()))
        conn.execute("INSERT INTO packages VALUES (?, ?, ?, ?, ?)", (package.package_id, v.analysis_hash,
                                                                     package.state, package.revision,
                                                                     package.model_dump_json()))
    store = SqliteKnowledgeStore(path)
    await store.open()
    assert await store.get_verdict(v.analysis_hash) == v
    assert await store.list_packages("activated") == [package]
    assert await store.run_graph(v.analysis_hash) == graph.run_graph(v)
    assert (await store.package_graph(package.package_id)).decisions[0].decision == "approve"
    assert {m.probe_template_id for m in await store.probe_metrics()} == {
        "pt.db.pool_usage", "pt.logs.error_signature", "pt.db.slow_query_log",
    }
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def test_a_file_written_by_a_newer_layout_is_refused_not_rewritten(tmp_path):
    path = tmp_path / "knowledge.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreUnavailable, match="newer rcaloop"):
        await SqliteKnowledgeStore(path).open()
