"""The gate's own store (SQLite): verdicts, reviews, knowledge events, gate decisions.

Every insert is "insert if absent" keyed by the message's natural id
(``analysis_hash`` / ``annotation_id`` / ``event_id`` / ``decision_id``), so a
redelivered message changes nothing; a review's later revision replaces the stored one.
Timestamps are stored as UTC ISO strings of one fixed format, so a window is a plain string
range.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from rcaloop.contracts import AnnotationRecord, GateDecision, HarnessVerdict, KnowledgeEvent
from rcaloop.gate.rollout import MATERIAL_CHANGES

SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (analysis_hash TEXT PRIMARY KEY, at TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reviews (annotation_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, at TEXT NOT NULL,
                                    payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS knowledge_events (event_id TEXT PRIMARY KEY, kind TEXT NOT NULL, at TEXT NOT NULL,
                                             payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (decision_id TEXT PRIMARY KEY, kind TEXT NOT NULL, stage TEXT,
                                      artifact_hash TEXT NOT NULL, passed INTEGER NOT NULL, at TEXT NOT NULL,
                                      payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS store_probe (probed_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS verdicts_at ON verdicts(at);
CREATE INDEX IF NOT EXISTS reviews_at ON reviews(at);
CREATE INDEX IF NOT EXISTS events_at ON knowledge_events(at);
"""


class StoreError(ValueError):
    pass


def stamp(at: datetime) -> str:
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def store_path(database_url: str | None, data_dir: Path) -> Path:
    """``GATE_DATABASE_URL`` (``sqlite:///path`` or a path) or ``<data dir>/gate.db``."""
    if not database_url:
        return Path(data_dir) / "gate.db"
    if database_url.startswith("sqlite:///"):
        return Path(database_url.removeprefix("sqlite:///"))
    if "://" in database_url:
        raise StoreError("GATE_DATABASE_URL must be sqlite:///<path> (the gate store is SQLite)")
    return Path(database_url)


class GateStore:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # one connection shared by the service's worker threads: every use holds the lock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def check_writable(self) -> None:
        """Commit a write that leaves nothing behind (the service's readiness); raises while the
        file refuses writes (read-only, disk full)."""
        at = stamp(datetime.now(UTC))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO store_probe VALUES (?)", (at,))
                self._db.execute("DELETE FROM store_probe WHERE probed_at = ?", (at,))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _insert(self, sql: str, args: tuple) -> bool:
        with self._lock:
            return self._db.execute(sql, args).rowcount == 1

    # -- recording (idempotent) --------------------------------------------------------
    def record_verdict(self, v: HarnessVerdict) -> bool:
        return self.record_verdicts([v])[0]

    def record_verdicts(self, verdicts: list[HarnessVerdict]) -> list[bool]:
        """Each verdict unless present, all in one transaction (one commit for a worker's batch);
        True for each newly stored."""
        rows = [(v.analysis_hash, stamp(v.evaluated_at), v.model_dump_json()) for v in verdicts]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                fresh = [self._db.execute("INSERT OR IGNORE INTO verdicts VALUES (?, ?, ?)", row).rowcount == 1
                         for row in rows]
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return fresh

    def record_review(self, r: AnnotationRecord) -> bool:
        """Insert, or replace with a later revision (an earlier or equal one changes nothing)."""
        return self._insert(
            "INSERT INTO reviews VALUES (?, ?, ?, ?) ON CONFLICT (annotation_id) DO UPDATE SET "
            "analysis_hash = excluded.analysis_hash, at = excluded.at, payload = excluded.payload "
            "WHERE json_extract(excluded.payload, '$.revision') > "
            "coalesce(json_extract(reviews.payload, '$.revision'), 1)",
            (r.annotation_id, r.analysis_hash, stamp(r.created_at), r.model_dump_json()),
        )

    def record_event(self, e: KnowledgeEvent) -> bool:
        return self._insert(
            "INSERT OR IGNORE INTO knowledge_events VALUES (?, ?, ?, ?)",
            (e.event_id, e.kind, stamp(e.created_at), e.model_dump_json())
        )

    def record_decision(self, d: GateDecision) -> bool:
        return self._insert(
            "INSERT OR IGNORE INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)",
            (d.decision_id, d.kind, d.stage, d.artifact_hash, int(d.passed), stamp(d.created_at), d.model_dump_json()),
        )

    # -- reading -----------------------------------------------------------------------
    def _rows(self, sql: str, args: Iterable = ()) -> list[str]:
        with self._lock:
            return [row[0] for row in self._db.execute(sql, tuple(args))]

    def _one(self, sql: str, args: Iterable = ()) -> tuple:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchone()

    def verdicts(self, start: datetime, end: datetime) -> list[HarnessVerdict]:
        rows = self._rows("SELECT payload FROM verdicts WHERE at >= ? AND at < ? ORDER BY at",
                          (stamp(start), stamp(end)))
        return [HarnessVerdict.model_validate_json(p) for p in rows]

    def verdicts_by_hash(self, hashes: Iterable[str]) -> dict[str, HarnessVerdict]:
        out: dict[str, HarnessVerdict] = {}
        wanted = sorted(set(hashes))
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for p in self._rows(f"SELECT payload FROM verdicts WHERE analysis_hash IN ({marks})", chunk):  # noqa: S608 - placeholders only
                v = HarnessVerdict.model_validate_json(p)
                out[v.analysis_hash] = v
        return out

    def reviews(self, start: datetime, end: datetime) -> list[AnnotationRecord]:
        rows = self._rows("SELECT payload FROM reviews WHERE at >= ? AND at < ? ORDER BY at",
                          (stamp(start), stamp(end)))
        return [AnnotationRecord.model_validate_json(p) for p in rows]

    def events(self, start: datetime, end: datetime) -> list[KnowledgeEvent]:
        rows = self._rows("SELECT payload FROM knowledge_events WHERE at >= ? AND at < ? ORDER BY at",
                          (stamp(start), stamp(end)))
        return [KnowledgeEvent.model_validate_json(p) for p in rows]

    def records_of(self, analysis_hash: str) -> dict[str, list]:
        """What the gate recorded of one analysis (``rcaloop show``): its verdict, reviews, knowledge events."""
        verdicts = self._rows("SELECT payload FROM verdicts WHERE analysis_hash = ?", (analysis_hash,))
        reviews = self._rows("SELECT payload FROM reviews WHERE analysis_hash = ? ORDER BY at", (analysis_hash,))
        events = self._rows("SELECT payload FROM knowledge_events WHERE json_extract(payload, '$.analysis_hash') = ? "
                            "ORDER BY at", (analysis_hash,))
        return {"verdicts": [HarnessVerdict.model_validate_json(p) for p in verdicts],
                "reviews": [AnnotationRecord.model_validate_json(p) for p in reviews],
                "events": [KnowledgeEvent.model_validate_json(p) for p in events]}

    def promotions(self) -> list[GateDecision]:
        rows = self._rows("SELECT payload FROM decisions WHERE kind = 'promotion' ORDER BY at")
        return [GateDecision.model_validate_json(p) for p in rows]

    def last_material_change(self) -> datetime | None:
        """The latest event that changed the runtime knowledge (``rollout.requires_gate_rerun``)."""
        marks = ",".join("?" * len(MATERIAL_CHANGES))
        row = self._one(
            f"SELECT MAX(at) FROM knowledge_events WHERE kind IN ({marks})"  # noqa: S608 - placeholders only
            " OR (kind = 'rejected' AND json_extract(payload, '$.detail.from_state') = 'activated')",
            MATERIAL_CHANGES,
        )
        return datetime.strptime(row[0], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC) if row and row[0] else None

    def counts(self) -> dict[str, int]:
        tables = ("verdicts", "reviews", "knowledge_events", "decisions")
        return {t: self._one(f"SELECT COUNT(*) FROM {t}")[0] for t in tables}  # noqa: S608 - fixed names
