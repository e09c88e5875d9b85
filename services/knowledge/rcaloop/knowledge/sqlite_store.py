"""The embedded knowledge store: one SQLite file under ``RCALOOP_DATA_DIR`` (no TypeDB).

Used when ``TYPEDB_ADDRESS`` is unset. Calls run in a worker thread; one connection
guarded by a lock (SQLite serialises writers anyway).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import KnowledgePackage
from rcaloop.knowledge.store import StoreUnavailable, evaluated_stamp, revision
from rcaloop.shared.analysis_subject import subject_of

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (analysis_hash TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reviews (
    annotation_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reviews_by_hash ON reviews (analysis_hash);
CREATE TABLE IF NOT EXISTS packages (
    package_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, state TEXT NOT NULL,
    revision INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS packages_by_state ON packages (state);
CREATE TABLE IF NOT EXISTS analyses (
    analysis_hash TEXT PRIMARY KEY, subject TEXT NOT NULL, evaluated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS analyses_by_subject ON analyses (subject, evaluated_at);
"""
_ADD_ANALYSIS = "INSERT OR IGNORE INTO analyses (analysis_hash, subject, evaluated_at) VALUES (?, ?, ?)"


def _analysis_row(verdict: HarnessVerdict) -> tuple[str, str, str]:
    return verdict.analysis_hash, subject_of(verdict), evaluated_stamp(verdict)


def _index_earlier_verdicts(conn: sqlite3.Connection) -> None:
    """Verdicts stored before the analyses index existed get their row (once, on open)."""
    rows = conn.execute("SELECT body FROM verdicts WHERE analysis_hash NOT IN (SELECT analysis_hash FROM analyses)").fetchall()
    for (body,) in rows:
        conn.execute(_ADD_ANALYSIS, _analysis_row(HarnessVerdict.model_validate_json(body)))


class SqliteKnowledgeStore:
    name = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    async def open(self) -> None:
        await asyncio.to_thread(self._open)

    def _open(self) -> None:
        if self._conn is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
            _index_earlier_verdicts(conn)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"knowledge store {self.path}: {exc}") from None
        self._conn = conn

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await asyncio.to_thread(conn.close)

    async def _run(self, sql: str, params: tuple = ()) -> list[tuple]:
        def work() -> list[tuple]:
            self._open()
            assert self._conn is not None
            with self._lock:
                try:
                    cur = self._conn.execute(sql, params)
                    return cur.fetchall() if cur.description else [(cur.rowcount,)]
                except sqlite3.Error as exc:
                    raise StoreUnavailable(f"knowledge store {self.path}: {exc}") from None

        return await asyncio.to_thread(work)

    # -- verdicts and reviews ------------------------------------------------------------
    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        [(n,)] = await self._run(
            "INSERT OR IGNORE INTO verdicts (analysis_hash, body) VALUES (?, ?)",
            (verdict.analysis_hash, verdict.model_dump_json()),
        )
        await self._run(_ADD_ANALYSIS, _analysis_row(verdict))  # a redelivery fills it if a crash skipped it
        return n == 1

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None:
        rows = await self._run("SELECT body FROM verdicts WHERE analysis_hash = ?", (analysis_hash,))
        return HarnessVerdict.model_validate_json(rows[0][0]) if rows else None

    async def latest_analysis(self, subject: str) -> str | None:
        rows = await self._run(
            "SELECT analysis_hash FROM analyses WHERE subject = ? ORDER BY evaluated_at DESC, analysis_hash DESC LIMIT 1",
            (subject,),
        )
        return rows[0][0] if rows else None

    async def put_review(self, review: AnnotationRecord) -> bool:
        [(n,)] = await self._run(
            "INSERT OR IGNORE INTO reviews (annotation_id, analysis_hash, body) VALUES (?, ?, ?)",
            (review.annotation_id, review.analysis_hash, review.model_dump_json()),
        )
        return n == 1

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]:
        rows = await self._run(
            "SELECT body FROM reviews WHERE analysis_hash = ? ORDER BY annotation_id", (analysis_hash,)
        )
        return [AnnotationRecord.model_validate_json(body) for (body,) in rows]

    # -- packages ----------------------------------------------------------------------------
    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        await self._run(
            "INSERT OR IGNORE INTO packages (package_id, analysis_hash, state, revision, body) VALUES (?, ?, ?, ?, ?)",
            (package.package_id, package.analysis_hash, package.state, revision(package), package.model_dump_json()),
        )
        stored = await self.get_package(package.package_id)
        assert stored is not None
        return stored

    async def get_package(self, package_id: str) -> KnowledgePackage | None:
        rows = await self._run("SELECT body FROM packages WHERE package_id = ?", (package_id,))
        return KnowledgePackage.model_validate_json(rows[0][0]) if rows else None

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]:
        if state is None:
            rows = await self._run("SELECT body FROM packages ORDER BY package_id")
        else:
            rows = await self._run("SELECT body FROM packages WHERE state = ? ORDER BY package_id", (state,))
        return [KnowledgePackage.model_validate_json(body) for (body,) in rows]

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        [(n,)] = await self._run(
            "UPDATE packages SET state = ?, revision = ?, body = ? WHERE package_id = ? AND revision = ?",
            (package.state, revision(package), package.model_dump_json(), package.package_id, expected_revision),
        )
        return n == 1
