"""The embedded knowledge store: the graph as tables in one SQLite file (no TypeDB).

Used when ``TYPEDB_ADDRESS`` is unset. One table per node type and one per relation,
mirroring ``schema.tql`` (the views mirror its functions), so every query here is the SQL
twin of one in ``typeql.py`` and both stores answer alike. Calls run in a worker thread on
one connection guarded by a lock; a write is one ``BEGIN IMMEDIATE`` transaction, so two
handles on one file (two processes) serialise their writes.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import CatalogPackage, KnowledgePackage, ProbeMetric
from rcaloop.knowledge import graph, queries
from rcaloop.knowledge.queries import ActionRow, CatalogRow, HypothesisFact, SimilarRow
from rcaloop.knowledge.store import IncidentFacts, StoreQueryError, StoreUnavailable, WriteRecord

T = TypeVar("T")
SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS incidents (incident_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS alerts (alert_name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS runs (
    analysis_hash TEXT PRIMARY KEY, incident_id TEXT NOT NULL REFERENCES incidents, alert_name TEXT,
    verdict TEXT NOT NULL, score REAL NOT NULL, evaluated_at TEXT NOT NULL, started_at TEXT, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_incident ON runs (incident_id);
CREATE INDEX IF NOT EXISTS runs_by_alert ON runs (alert_name);
CREATE TABLE IF NOT EXISTS planes (group_name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS evidence (
    evidence_key TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL REFERENCES runs, evidence_id TEXT NOT NULL,
    collector TEXT, plane TEXT REFERENCES planes, live INTEGER NOT NULL, target_verified INTEGER NOT NULL,
    observed_at TEXT, time_relation TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS evidence_by_run ON evidence (analysis_hash);
CREATE TABLE IF NOT EXISTS families (family_name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS hypotheses (
    hypothesis_key TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL REFERENCES runs, hypothesis_id TEXT NOT NULL,
    family TEXT REFERENCES families, is_root_cause INTEGER NOT NULL, rank INTEGER);
CREATE INDEX IF NOT EXISTS hypotheses_by_run ON hypotheses (analysis_hash);
CREATE TABLE IF NOT EXISTS claims (
    claim_key TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL REFERENCES runs, claim_id TEXT NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS supports (
    node_key TEXT NOT NULL, evidence_key TEXT NOT NULL REFERENCES evidence, PRIMARY KEY (node_key, evidence_key));
CREATE TABLE IF NOT EXISTS refutations (
    node_key TEXT NOT NULL, evidence_key TEXT NOT NULL REFERENCES evidence, PRIMARY KEY (node_key, evidence_key));
CREATE TABLE IF NOT EXISTS templates (probe_template_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS executions (
    execution_key TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL REFERENCES runs, ordinal INTEGER NOT NULL,
    probe_template_id TEXT NOT NULL REFERENCES templates, outcome TEXT NOT NULL, collector TEXT,
    plane TEXT REFERENCES planes, hypothesis_key TEXT REFERENCES hypotheses);
CREATE INDEX IF NOT EXISTS executions_by_run ON executions (analysis_hash);
CREATE TABLE IF NOT EXISTS yields (
    execution_key TEXT NOT NULL REFERENCES executions, evidence_key TEXT NOT NULL REFERENCES evidence,
    PRIMARY KEY (execution_key, evidence_key));
CREATE TABLE IF NOT EXISTS reviews (
    annotation_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, kind TEXT NOT NULL, resolution_outcome TEXT,
    body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reviews_by_hash ON reviews (analysis_hash);
CREATE TABLE IF NOT EXISTS packages (
    package_id TEXT PRIMARY KEY, analysis_hash TEXT NOT NULL, annotation_id TEXT NOT NULL, state TEXT NOT NULL,
    evidence_source TEXT NOT NULL, valid INTEGER NOT NULL, revision INTEGER NOT NULL,
    family TEXT REFERENCES families, promoted_run TEXT REFERENCES runs, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS packages_by_state ON packages (state);
CREATE TABLE IF NOT EXISTS groundings (
    package_id TEXT NOT NULL REFERENCES packages, evidence_key TEXT NOT NULL REFERENCES evidence,
    PRIMARY KEY (package_id, evidence_key));
CREATE TABLE IF NOT EXISTS actions (action_text TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS remediations (
    package_id TEXT NOT NULL REFERENCES packages, action_text TEXT NOT NULL REFERENCES actions,
    incident_id TEXT NOT NULL REFERENCES incidents, outcome TEXT NOT NULL CHECK (outcome IN ('resolved', 'mitigated')),
    PRIMARY KEY (package_id, action_text, incident_id));
CREATE TABLE IF NOT EXISTS decisions (
    decision_key TEXT PRIMARY KEY, package_id TEXT NOT NULL REFERENCES packages, ordinal INTEGER NOT NULL,
    decision TEXT NOT NULL, reviewer TEXT NOT NULL, decided_at TEXT NOT NULL, accepted INTEGER NOT NULL,
    from_state TEXT NOT NULL, to_state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS store_probe (probed_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS catalogs (
    package_id TEXT PRIMARY KEY, version TEXT NOT NULL, state TEXT NOT NULL, valid INTEGER NOT NULL,
    revision INTEGER NOT NULL, activated_at TEXT, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS catalogs_by_state ON catalogs (state);
CREATE TABLE IF NOT EXISTS signatures (signature_key TEXT PRIMARY KEY, kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS listings (
    package_id TEXT NOT NULL REFERENCES catalogs, family TEXT NOT NULL REFERENCES families,
    signature_key TEXT NOT NULL REFERENCES signatures, stance TEXT NOT NULL CHECK (stance IN ('supports', 'refutes')),
    PRIMARY KEY (package_id, family, signature_key, stance));
CREATE TABLE IF NOT EXISTS confirmations (
    package_id TEXT NOT NULL REFERENCES catalogs, family TEXT NOT NULL REFERENCES families,
    probe_template_id TEXT NOT NULL REFERENCES templates, PRIMARY KEY (package_id, family, probe_template_id));
CREATE TABLE IF NOT EXISTS catalog_decisions (
    decision_key TEXT PRIMARY KEY, package_id TEXT NOT NULL REFERENCES catalogs, ordinal INTEGER NOT NULL,
    decision TEXT NOT NULL, reviewer TEXT NOT NULL, decided_at TEXT NOT NULL, accepted INTEGER NOT NULL,
    from_state TEXT NOT NULL, to_state TEXT NOT NULL);

CREATE VIEW IF NOT EXISTS approved_executions AS
    SELECT DISTINCT x.execution_key FROM executions x
    JOIN packages p ON p.promoted_run = x.analysis_hash
    WHERE p.state = 'activated' AND p.evidence_source = 'ledger';
CREATE VIEW IF NOT EXISTS contributing_executions AS
    SELECT DISTINCT x.execution_key FROM executions x
    JOIN packages p ON p.promoted_run = x.analysis_hash
    JOIN yields y ON y.execution_key = x.execution_key
    JOIN groundings g ON g.package_id = p.package_id AND g.evidence_key = y.evidence_key
    WHERE p.state = 'activated' AND p.evidence_source = 'ledger' AND x.outcome = 'supports';
CREATE VIEW IF NOT EXISTS support_planes AS
    SELECT h.hypothesis_key, COUNT(DISTINCT e.plane) AS planes FROM hypotheses h
    JOIN (SELECT node_key, evidence_key FROM supports
          UNION SELECT x.hypothesis_key, y.evidence_key FROM executions x
                JOIN yields y ON y.execution_key = x.execution_key WHERE x.outcome = 'supports') s
      ON s.node_key = h.hypothesis_key
    JOIN evidence e ON e.evidence_key = s.evidence_key
    WHERE e.live = 1 AND e.plane IS NOT NULL
    GROUP BY h.hypothesis_key;
CREATE VIEW IF NOT EXISTS refuted_hypotheses AS
    SELECT DISTINCT x.hypothesis_key FROM executions x
    JOIN yields y ON y.execution_key = x.execution_key
    JOIN evidence e ON e.evidence_key = y.evidence_key
    WHERE x.outcome = 'refutes' AND e.live = 1 AND x.hypothesis_key IS NOT NULL;
"""

# -- queries (each the twin of the TypeQL builder of the same name) ----------------------------------------
LATEST_ANALYSIS = """
SELECT analysis_hash FROM runs WHERE incident_id = ? ORDER BY evaluated_at DESC, analysis_hash DESC LIMIT 1"""
METRICS_OUTCOMES = """
SELECT x.probe_template_id, x.outcome, COUNT(*) FROM executions x
JOIN approved_executions a ON a.execution_key = x.execution_key
GROUP BY x.probe_template_id, x.outcome"""
METRICS_CONTRIBUTIONS = """
SELECT x.probe_template_id, COUNT(*) FROM executions x
JOIN contributing_executions c ON c.execution_key = x.execution_key
GROUP BY x.probe_template_id"""
OBSERVED = """
SELECT DISTINCT e.collector, e.plane FROM runs r JOIN evidence e ON e.analysis_hash = r.analysis_hash
WHERE r.incident_id = ? AND e.live = 1 AND e.collector IS NOT NULL AND e.plane IS NOT NULL"""
INCIDENT_HYPOTHESES = """
SELECT h.hypothesis_key, h.family, h.rank, COALESCE(s.planes, 0), f.hypothesis_key IS NOT NULL
FROM runs r JOIN hypotheses h ON h.analysis_hash = r.analysis_hash
LEFT JOIN support_planes s ON s.hypothesis_key = h.hypothesis_key
LEFT JOIN refuted_hypotheses f ON f.hypothesis_key = h.hypothesis_key
WHERE r.incident_id = ?"""
PROBE_CATALOG = """
SELECT DISTINCT x.probe_template_id, x.collector, x.plane, h.family FROM executions x
JOIN approved_executions a ON a.execution_key = x.execution_key
JOIN hypotheses h ON h.hypothesis_key = x.hypothesis_key
WHERE x.outcome != 'inconclusive' AND x.collector IS NOT NULL AND x.plane IS NOT NULL AND h.family IS NOT NULL"""
VERIFIED_ACTIONS = """
SELECT m.action_text, m.incident_id, m.outcome, p.package_id FROM remediations m
JOIN packages p ON p.package_id = m.package_id
WHERE p.state = 'activated' AND p.family = ?"""
SIMILAR_BY_FAMILY = """
SELECT DISTINCT r2.incident_id, p.package_id, h.family FROM runs r
JOIN hypotheses h ON h.analysis_hash = r.analysis_hash
JOIN packages p ON p.family = h.family AND p.state = 'activated'
JOIN runs r2 ON r2.analysis_hash = p.promoted_run
WHERE r.incident_id = ? AND r2.incident_id != r.incident_id"""
ACTIVE_CATALOG = """
SELECT body FROM catalogs WHERE state = 'activated' AND activated_at IS NOT NULL
ORDER BY activated_at DESC, package_id DESC LIMIT 1"""
SIMILAR_BY_ALERT = """
SELECT DISTINCT r2.incident_id, p.package_id, r.alert_name, p.family FROM runs r
JOIN runs r2 ON r2.alert_name = r.alert_name
JOIN packages p ON p.promoted_run = r2.analysis_hash AND p.state = 'activated'
WHERE r.incident_id = ? AND r2.incident_id != r.incident_id"""


def _ts(moment: datetime | None) -> str | None:
    return graph.utc(moment).isoformat(timespec="microseconds") if moment else None  # type: ignore[union-attr]


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


_UNAVAILABLE = ("locked", "busy", "unable to open", "disk", "readonly", "i/o", "no such file", "not a database")


class SqliteKnowledgeStore:
    name = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.writes = WriteRecord()

    # -- connection --------------------------------------------------------------------------------------
    async def open(self) -> None:
        await asyncio.to_thread(self._open)

    def _open(self) -> sqlite3.Connection:
        with self._lock:
            if self._conn is not None:
                return self._conn
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
                conn.execute("PRAGMA journal_mode=WAL")
                # off by default: a relation to a missing node must fail, as in TypeDB
                conn.execute("PRAGMA foreign_keys=ON")
                _migrate(conn)
            except (OSError, sqlite3.Error) as exc:
                raise StoreUnavailable(f"knowledge store {self.path}: {exc}") from None
            self._conn = conn
            return conn

    async def close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.to_thread(conn.close)

    def _failure(self, exc: Exception) -> Exception:
        text = str(exc)
        if isinstance(exc, sqlite3.OperationalError) and any(m in text.lower() for m in _UNAVAILABLE):
            return StoreUnavailable(f"knowledge store {self.path}: {text}")
        return StoreQueryError(f"knowledge store {self.path}: {type(exc).__name__}: {text}")

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` in one read transaction (one consistent snapshot)."""

        def run() -> T:
            conn = self._open()
            with self._lock:
                try:
                    conn.execute("BEGIN")
                    try:
                        return work(conn)
                    finally:
                        conn.execute("COMMIT")
                except (sqlite3.Error, ValueError) as exc:
                    raise self._failure(exc) from None

        return await asyncio.to_thread(run)

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` in one ``BEGIN IMMEDIATE`` transaction: all of it or nothing."""

        def run() -> T:
            conn = self._open()
            with self._lock:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = work(conn)
                    except BaseException:
                        conn.execute("ROLLBACK")
                        raise
                    conn.execute("COMMIT")
                except (sqlite3.Error, ValueError, UnicodeError) as exc:
                    failure = self._failure(exc)
                    self.writes.failed(failure)
                    raise failure from None
            self.writes.ok()
            return result

        return await asyncio.to_thread(run)

    async def check_writable(self) -> None:
        def probe(conn: sqlite3.Connection) -> None:
            at = _ts(graph.utc(datetime.now()))
            conn.execute("INSERT INTO store_probe (probed_at) VALUES (?)", (at,))
            conn.execute("DELETE FROM store_probe WHERE probed_at = ?", (at,))

        await self._write(probe)

    # -- runs and reviews --------------------------------------------------------------------------------------
    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        return (await self.put_verdicts([verdict]))[0]

    async def put_verdicts(self, verdicts: list[HarnessVerdict]) -> list[bool]:
        runs = [(graph.run_graph(v), v.model_dump_json()) for v in verdicts]  # built outside the write lock
        return await self._write(lambda conn: [_insert_run(conn, run, body) for run, body in runs])

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None:
        rows = await self._read(
            lambda c: c.execute("SELECT body FROM runs WHERE analysis_hash = ?", (analysis_hash,)).fetchall())
        return HarnessVerdict.model_validate_json(rows[0][0]) if rows else None

    async def latest_analysis(self, subject: str) -> str | None:
        rows = await self._read(lambda c: c.execute(LATEST_ANALYSIS, (subject,)).fetchall())
        return rows[0][0] if rows else None

    async def put_review(self, review: AnnotationRecord) -> bool:
        node = graph.review_node(review)

        def work(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(  # a later revision replaces the stored one; an earlier or equal one changes nothing
                "INSERT INTO reviews (annotation_id, analysis_hash, kind, resolution_outcome, body) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (annotation_id) DO UPDATE SET analysis_hash = excluded.analysis_hash, kind = "
                "excluded.kind, "
                "resolution_outcome = excluded.resolution_outcome, body = excluded.body "
                "WHERE json_extract(excluded.body, '$.revision') > coalesce(json_extract(reviews.body, '$.revision'), "
                "1)",
                (node.annotation_id, node.analysis_hash, node.kind, node.resolution_outcome, review.model_dump_json()),
            )
            return cur.rowcount == 1

        return await self._write(work)

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]:
        rows = await self._read(
            lambda c: c.execute(
                "SELECT body FROM reviews WHERE analysis_hash = ? ORDER BY annotation_id", (analysis_hash,)
            ).fetchall()
        )
        return [AnnotationRecord.model_validate_json(body) for (body,) in rows]

    async def reviews_for_many(self, analysis_hashes: list[str]) -> dict[str, list[AnnotationRecord]]:
        wanted = sorted(set(analysis_hashes))
        marks = ", ".join("?" * len(wanted))
        rows = await self._read(
            lambda c: c.execute(
                f"SELECT analysis_hash, body FROM reviews WHERE analysis_hash IN ({marks}) ORDER BY annotation_id",
                wanted
            ).fetchall()
        ) if wanted else []
        found: dict[str, list[AnnotationRecord]] = {}
        for analysis_hash, body in rows:
            found.setdefault(analysis_hash, []).append(AnnotationRecord.model_validate_json(body))
        return found

    # -- packages ------------------------------------------------------------------------------------------------
    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        def work(conn: sqlite3.Connection) -> str:
            existing = conn.execute("SELECT body FROM packages WHERE package_id = ?", (package.package_id,)).fetchall()
            if existing:
                return existing[0][0]
            run = _read_run(conn, package.analysis_hash)
            review = _read_review(conn, package.annotation_id)
            _insert_package(conn, graph.package_graph(package, run, review), package.model_dump_json())
            return package.model_dump_json()

        return KnowledgePackage.model_validate_json(await self._write(work))

    async def get_package(self, package_id: str) -> KnowledgePackage | None:
        rows = await self._read(
            lambda c: c.execute("SELECT body FROM packages WHERE package_id = ?", (package_id,)).fetchall())
        return KnowledgePackage.model_validate_json(rows[0][0]) if rows else None

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]:
        args: tuple[str, ...] = ()
        if state is None:
            sql = "SELECT body FROM packages ORDER BY package_id"
        else:
            sql, args = "SELECT body FROM packages WHERE state = ? ORDER BY package_id", (state,)
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [KnowledgePackage.model_validate_json(body) for (body,) in rows]

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        new = graph.package_graph(package, None, None)

        def work(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE packages SET state = ?, revision = ?, valid = ?, body = ? "
                "WHERE package_id = ? AND revision = ?",
                (new.state, new.revision, new.valid, package.model_dump_json(), new.package_id, expected_revision),
            )
            if cur.rowcount != 1:
                return False
            [(stored,)] = conn.execute("SELECT COUNT(*) FROM decisions WHERE package_id = ?", (new.package_id,))
            for d in new.decisions[stored:]:
                _insert_decision(conn, new.package_id, d)
            return True

        return await self._write(work)

    # -- the family catalog -------------------------------------------------------------------------------------
    async def insert_catalog(self, package: CatalogPackage) -> CatalogPackage:
        def work(conn: sqlite3.Connection) -> str:
            existing = conn.execute("SELECT body FROM catalogs WHERE package_id = ?", (package.package_id,)).fetchall()
            if existing:
                return existing[0][0]
            _insert_catalog(conn, graph.catalog_graph(package), package.model_dump_json())
            return package.model_dump_json()

        return CatalogPackage.model_validate_json(await self._write(work))

    async def get_catalog(self, package_id: str) -> CatalogPackage | None:
        rows = await self._read(
            lambda c: c.execute("SELECT body FROM catalogs WHERE package_id = ?", (package_id,)).fetchall())
        return CatalogPackage.model_validate_json(rows[0][0]) if rows else None

    async def list_catalogs(self, state: str | None = None) -> list[CatalogPackage]:
        sql, args = "SELECT body FROM catalogs WHERE state = ? OR ? IS NULL ORDER BY package_id", (state, state)
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [CatalogPackage.model_validate_json(body) for (body,) in rows]

    async def active_catalog(self) -> CatalogPackage | None:
        rows = await self._read(lambda c: c.execute(ACTIVE_CATALOG).fetchall())
        return CatalogPackage.model_validate_json(rows[0][0]) if rows else None

    async def save_catalog(self, package: CatalogPackage, expected_revision: int) -> bool:
        new = graph.catalog_graph(package)

        def work(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE catalogs SET state = ?, revision = ?, valid = ?, activated_at = ?, body = ? "
                "WHERE package_id = ? AND revision = ?",
                (new.state, new.revision, new.valid, _ts(new.activated_at), package.model_dump_json(), new.package_id,
                 expected_revision),
            )
            if cur.rowcount != 1:
                return False
            [(stored,)] = conn.execute("SELECT COUNT(*) FROM catalog_decisions WHERE package_id = ?", (new.package_id,))
            for d in new.decisions[stored:]:
                _insert_decision(conn, new.package_id, d, "catalog_decisions")
            return True

        return await self._write(work)

    async def catalog_graph(self, package_id: str) -> graph.CatalogGraph | None:
        return await self._read(lambda conn: _read_catalog(conn, package_id))

    # -- the graph as stored ------------------------------------------------------------------------------------
    async def run_graph(self, analysis_hash: str) -> graph.RunGraph | None:
        return await self._read(lambda conn: _read_run(conn, analysis_hash))

    async def package_graph(self, package_id: str) -> graph.PackageGraph | None:
        return await self._read(lambda conn: _read_package(conn, package_id))

    # -- queries ---------------------------------------------------------------------------------------------------
    async def probe_metrics(self) -> list[ProbeMetric]:
        def work(conn: sqlite3.Connection) -> list[ProbeMetric]:
            outcomes = conn.execute(METRICS_OUTCOMES).fetchall()
            return queries.probe_metrics(outcomes, conn.execute(METRICS_CONTRIBUTIONS).fetchall())

        return await self._read(work)

    async def incident_facts(self, incident_id: str) -> IncidentFacts | None:
        def work(conn: sqlite3.Connection) -> IncidentFacts | None:
            if not conn.execute("SELECT 1 FROM incidents WHERE incident_id = ?", (incident_id,)).fetchall():
                return None
            observed = conn.execute(OBSERVED, (incident_id,)).fetchall()
            return IncidentFacts(
                incident_id=incident_id,
                observed_collectors=frozenset(c for c, _ in observed),
                observed_planes=frozenset(p for _, p in observed),
                hypotheses=tuple(
                    sorted(
                        HypothesisFact(k, f, r, int(n), bool(refuted))
                        for k, f, r, n, refuted in conn.execute(INCIDENT_HYPOTHESES, (incident_id,))
                    )
                ),
                catalog=tuple(sorted(CatalogRow(*row) for row in conn.execute(PROBE_CATALOG))),
            )

        return await self._read(work)

    async def verified_actions(self, family: str) -> list[ActionRow]:
        rows = await self._read(lambda c: c.execute(VERIFIED_ACTIONS, (family,)).fetchall())
        return sorted(ActionRow(*row) for row in rows)

    async def similar_incidents(self, incident_id: str) -> list[SimilarRow]:
        def work(conn: sqlite3.Connection) -> list[SimilarRow]:
            by_family = [
                SimilarRow(j, p, f, "family", f) for j, p, f in conn.execute(SIMILAR_BY_FAMILY, (incident_id,))
            ]
            by_alert = [
                SimilarRow(j, p, f, "alert", a) for j, p, a, f in conn.execute(SIMILAR_BY_ALERT, (incident_id,))
            ]
            return sorted(by_family + by_alert)

        return await self._read(work)


# -- writes ----------------------------------------------------------------------------------------------------------
def _insert_run(conn: sqlite3.Connection, run: graph.RunGraph, body: str) -> bool:
    if conn.execute("SELECT 1 FROM runs WHERE analysis_hash = ?", (run.analysis_hash,)).fetchall():
        return False
    conn.execute("INSERT OR IGNORE INTO incidents (incident_id) VALUES (?)", (run.incident_id,))
    if run.alert_name:
        conn.execute("INSERT OR IGNORE INTO alerts (alert_name) VALUES (?)", (run.alert_name,))
    conn.execute(
        "INSERT INTO runs (analysis_hash, incident_id, alert_name, verdict, score, evaluated_at, started_at, body) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (run.analysis_hash, run.incident_id, run.alert_name, run.verdict, run.score, _ts(run.evaluated_at),
         _ts(run.incident_started_at), body),
    )
    conn.executemany("INSERT OR IGNORE INTO planes (group_name) VALUES (?)", [(p,) for p in run.planes])
    conn.executemany("INSERT OR IGNORE INTO families (family_name) VALUES (?)", [(f,) for f in run.families])
    conn.executemany("INSERT OR IGNORE INTO templates (probe_template_id) VALUES (?)", [(t,) for t in run.templates])
    conn.executemany(
        "INSERT INTO evidence (evidence_key, analysis_hash, evidence_id, collector, plane, live, target_verified, "
        "observed_at, time_relation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(e.key, run.analysis_hash, e.evidence_id, e.collector, e.plane, e.live, e.target_verified,
          _ts(e.observed_at), e.time_relation) for e in run.evidence],
    )
    conn.executemany(
        "INSERT INTO hypotheses (hypothesis_key, analysis_hash, hypothesis_id, family, is_root_cause, rank) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(h.key, run.analysis_hash, h.hypothesis_id, h.family, h.is_root_cause, h.rank) for h in run.hypotheses],
    )
    conn.executemany(
        "INSERT INTO claims (claim_key, analysis_hash, claim_id, kind, status, text) VALUES (?, ?, ?, ?, ?, ?)",
        [(c.key, run.analysis_hash, c.claim_id, c.kind, c.status, c.text) for c in run.claims],
    )
    supports = [(h.key, e) for h in run.hypotheses for e in h.supported_by]
    supports += [(c.key, e) for c in run.claims for e in c.supported_by]
    conn.executemany("INSERT INTO supports (node_key, evidence_key) VALUES (?, ?)", supports)
    conn.executemany(
        "INSERT INTO refutations (node_key, evidence_key) VALUES (?, ?)",
        [(c.key, e) for c in run.claims for e in c.refuted_by],
    )
    conn.executemany(
        "INSERT INTO executions (execution_key, analysis_hash, ordinal, probe_template_id, outcome, collector, "
        "plane, hypothesis_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(x.key, run.analysis_hash, x.ordinal, x.probe_template_id, x.outcome, x.collector, x.plane,
          x.hypothesis_key) for x in run.executions],
    )
    conn.executemany(
        "INSERT INTO yields (execution_key, evidence_key) VALUES (?, ?)",
        [(x.key, e) for x in run.executions for e in x.evidence_keys],
    )
    return True


def _insert_package(conn: sqlite3.Connection, p: graph.PackageGraph, body: str) -> None:
    if p.family:
        conn.execute("INSERT OR IGNORE INTO families (family_name) VALUES (?)", (p.family,))
    conn.execute(
        "INSERT INTO packages (package_id, analysis_hash, annotation_id, state, evidence_source, valid, revision, "
        "family, promoted_run, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (p.package_id, p.analysis_hash, p.annotation_id, p.state, p.evidence_source, p.valid, p.revision, p.family,
         p.promoted_run, body),
    )
    conn.executemany(
        "INSERT INTO groundings (package_id, evidence_key) VALUES (?, ?)", [(p.package_id, e) for e in p.grounding]
    )
    conn.executemany("INSERT OR IGNORE INTO actions (action_text) VALUES (?)", [(m.action,) for m in p.remediations])
    conn.executemany(
        "INSERT INTO remediations (package_id, action_text, incident_id, outcome) VALUES (?, ?, ?, ?)",
        [(p.package_id, m.action, m.incident_id, m.outcome) for m in p.remediations],
    )
    for d in p.decisions:
        _insert_decision(conn, p.package_id, d)


def _insert_catalog(conn: sqlite3.Connection, c: graph.CatalogGraph, body: str) -> None:
    conn.execute(
        "INSERT INTO catalogs (package_id, version, state, valid, revision, activated_at, body) VALUES (?, ?, ?, ?, ?, "
        "?, ?)",
        (c.package_id, c.version, c.state, c.valid, c.revision, _ts(c.activated_at), body),
    )
    conn.executemany("INSERT OR IGNORE INTO families (family_name) VALUES (?)", [(f,) for f in c.families])
    conn.executemany("INSERT OR IGNORE INTO signatures (signature_key, kind) VALUES (?, ?)",
                     [(x.signature_key, x.signature_kind) for x in c.listings])
    conn.executemany("INSERT OR IGNORE INTO templates (probe_template_id) VALUES (?)",
                     [(t,) for _, t in c.confirmations])
    conn.executemany("INSERT INTO listings (package_id, family, signature_key, stance) VALUES (?, ?, ?, ?)",
                     [(c.package_id, x.family, x.signature_key, x.stance) for x in c.listings])
    conn.executemany("INSERT INTO confirmations (package_id, family, probe_template_id) VALUES (?, ?, ?)",
                     [(c.package_id, f, t) for f, t in c.confirmations])
    for d in c.decisions:
        _insert_decision(conn, c.package_id, d, "catalog_decisions")


def _insert_decision(conn: sqlite3.Connection, package_id: str, d: graph.DecisionNode,
                     table: str = "decisions") -> None:
    conn.execute(
        f"INSERT INTO {table} (decision_key, package_id, ordinal, decision, reviewer, decided_at, accepted, "  # noqa: S608 - a table of this module
        "from_state, to_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (d.key, package_id, d.ordinal, d.decision, d.reviewer, _ts(d.decided_at), d.accepted, d.from_state,
         d.to_state),
    )


# -- reads -------------------------------------------------------------------------------------------------------------
def _read_review(conn: sqlite3.Connection, annotation_id: str) -> graph.ReviewNode | None:
    rows = conn.execute(
        "SELECT analysis_hash, kind, resolution_outcome FROM reviews WHERE annotation_id = ?", (annotation_id,)
    ).fetchall()
    return graph.ReviewNode(annotation_id, *rows[0]) if rows else None


def _keys(conn: sqlite3.Connection, sql: str, *args: Any) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for node, evidence in conn.execute(sql, args):
        out.setdefault(node, []).append(evidence)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _read_run(conn: sqlite3.Connection, analysis_hash: str) -> graph.RunGraph | None:
    rows = conn.execute(
        "SELECT incident_id, alert_name, started_at, verdict, score, evaluated_at FROM runs WHERE analysis_hash = ?",
        (analysis_hash,),
    ).fetchall()
    if not rows:
        return None
    incident, alert, started, verdict, score, evaluated = rows[0]
    supports = _keys(
        conn, "SELECT s.node_key, s.evidence_key FROM supports s JOIN evidence e ON e.evidence_key = s.evidence_key "
        "WHERE e.analysis_hash = ?", analysis_hash,
    )
    refutations = _keys(
        conn, "SELECT s.node_key, s.evidence_key FROM refutations s JOIN evidence e ON e.evidence_key = s.evidence_key "
        "WHERE e.analysis_hash = ?", analysis_hash,
    )
    yields = _keys(
        conn, "SELECT y.execution_key, y.evidence_key FROM yields y JOIN executions x ON x.execution_key = "
              "y.execution_key "
        "WHERE x.analysis_hash = ?", analysis_hash,
    )
    evidence = tuple(
        graph.EvidenceNode(k, i, c, p, bool(live), bool(tv), _dt(o), tr)
        for k, i, c, p, live, tv, o, tr in conn.execute(
            "SELECT evidence_key, evidence_id, collector, plane, live, target_verified, observed_at, time_relation "
            "FROM evidence WHERE analysis_hash = ? ORDER BY evidence_key", (analysis_hash,),
        )
    )
    hypotheses = tuple(
        graph.HypothesisNode(k, i, f, bool(root), rank, supports.get(k, ()))
        for k, i, f, root, rank in conn.execute(
            "SELECT hypothesis_key, hypothesis_id, family, is_root_cause, rank FROM hypotheses "
            "WHERE analysis_hash = ? ORDER BY hypothesis_key", (analysis_hash,),
        )
    )
    claims = tuple(
        graph.ClaimNode(k, i, kind, status, text, supports.get(k, ()), refutations.get(k, ()))
        for k, i, kind, status, text in conn.execute(
            "SELECT claim_key, claim_id, kind, status, text FROM claims WHERE analysis_hash = ? ORDER BY claim_key",
            (analysis_hash,),
        )
    )
    executions = tuple(
        graph.ExecutionNode(k, n, t, o, c, p, h, yields.get(k, ()))
        for k, n, t, o, c, p, h in conn.execute(
            "SELECT execution_key, ordinal, probe_template_id, outcome, collector, plane, hypothesis_key "
            "FROM executions WHERE analysis_hash = ? ORDER BY ordinal", (analysis_hash,),
        )
    )
    return graph.RunGraph(
        analysis_hash, incident, alert, _dt(started), verdict, score, _dt(evaluated),  # type: ignore[arg-type]
        evidence, hypotheses, claims, executions,
    )


def _read_package(conn: sqlite3.Connection, package_id: str) -> graph.PackageGraph | None:
    rows = conn.execute(
        "SELECT analysis_hash, annotation_id, state, evidence_source, valid, revision, family, promoted_run "
        "FROM packages WHERE package_id = ?", (package_id,),
    ).fetchall()
    if not rows:
        return None
    h, annotation, state, source, valid, rev, family, run = rows[0]
    grounding = tuple(
        e for (e,) in conn.execute(
            "SELECT evidence_key FROM groundings WHERE package_id = ? ORDER BY evidence_key", (package_id,)
        )
    )
    decisions = tuple(
        graph.DecisionNode(k, n, d, r, _dt(at), bool(acc), f, t)  # type: ignore[arg-type]
        for k, n, d, r, at, acc, f, t in conn.execute(
            "SELECT decision_key, ordinal, decision, reviewer, decided_at, accepted, from_state, to_state "
            "FROM decisions WHERE package_id = ? ORDER BY ordinal", (package_id,),
        )
    )
    remediations = tuple(
        graph.Remediation(*row) for row in conn.execute(
            "SELECT action_text, incident_id, outcome FROM remediations WHERE package_id = ? "
            "ORDER BY action_text, incident_id, outcome", (package_id,),
        )
    )
    return graph.PackageGraph(
        package_id, h, annotation, state, source, bool(valid), rev, family, run, grounding, decisions, remediations
    )


def _read_catalog(conn: sqlite3.Connection, package_id: str) -> graph.CatalogGraph | None:
    rows = conn.execute(
        "SELECT version, state, valid, revision, activated_at FROM catalogs WHERE package_id = ?", (package_id,)
    ).fetchall()
    if not rows:
        return None
    version, state, valid, rev, activated = rows[0]
    listings = tuple(
        graph.Listing(*row) for row in conn.execute(
            "SELECT l.family, l.stance, l.signature_key, s.kind FROM listings l "
            "JOIN signatures s ON s.signature_key = l.signature_key WHERE l.package_id = ? "
            "ORDER BY l.family, l.stance, l.signature_key", (package_id,),
        )
    )
    confirmations = tuple(
        (f, t) for f, t in conn.execute(
            "SELECT family, probe_template_id FROM confirmations WHERE package_id = ? ORDER BY 1, 2", (package_id,)
        )
    )
    decisions = tuple(
        graph.DecisionNode(k, n, d, r, _dt(at), bool(acc), f, t)  # type: ignore[arg-type]
        for k, n, d, r, at, acc, f, t in conn.execute(
            "SELECT decision_key, ordinal, decision, reviewer, decided_at, accepted, from_state, to_state "
            "FROM catalog_decisions WHERE package_id = ? ORDER BY ordinal", (package_id,),
        )
    )
    return graph.CatalogGraph(package_id, version, state, bool(valid), rev, _dt(activated), listings, confirmations,
                              decisions)


# -- schema versions ---------------------------------------------------------------------------------------------------
def _migrate(conn: sqlite3.Connection) -> None:
    """Create the graph tables; a file of the first layout (JSON bodies only) is rewritten into the graph."""
    [(version,)] = conn.execute("PRAGMA user_version").fetchall()
    if version == SCHEMA_VERSION:
        return
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"written by a newer rcaloop (layout {version}, this one reads {SCHEMA_VERSION})")
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.execute("BEGIN IMMEDIATE")
    try:
        legacy: dict[str, list[str]] = {}
        if "verdicts" in tables:  # the first layout: verdicts, reviews, packages as JSON bodies
            legacy = {
                "verdicts": [b for (b,) in conn.execute("SELECT body FROM verdicts")],
                "reviews": [b for (b,) in conn.execute("SELECT body FROM reviews")],
                "packages": [b for (b,) in conn.execute("SELECT body FROM packages")],
            }
            for table in ("verdicts", "reviews", "packages"):
                conn.execute(f"DROP TABLE {table}")
        for statement in _statements(_SCHEMA):
            conn.execute(statement)
        for body in legacy.get("verdicts", []):
            _insert_run(conn, graph.run_graph(HarnessVerdict.model_validate_json(body)), body)
        for body in legacy.get("reviews", []):
            review = graph.review_node(AnnotationRecord.model_validate_json(body))
            conn.execute(
                "INSERT OR IGNORE INTO reviews (annotation_id, analysis_hash, kind, resolution_outcome, body) "
                "VALUES (?, ?, ?, ?, ?)",
                (review.annotation_id, review.analysis_hash, review.kind, review.resolution_outcome, body),
            )
        for body in legacy.get("packages", []):
            package = KnowledgePackage.model_validate_json(body)
            run = _read_run(conn, package.analysis_hash)
            _insert_package(conn, graph.package_graph(package, run, _read_review(conn, package.annotation_id)), body)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """The schema's statements, to run one by one inside the migration's transaction."""
    out, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        if sqlite3.complete_statement("\n".join(current)):
            out.append("\n".join(current))
            current = []
    return out
