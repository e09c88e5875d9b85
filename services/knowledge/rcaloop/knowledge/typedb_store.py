"""The TypeDB knowledge store (``TYPEDB_ADDRESS`` set): typedb-driver 3.x, TypeQL 3.

The driver is synchronous, so every call runs in a worker thread. Every query comes from
``typeql.py``; this module only runs them and reads their answers. Writes retry on
isolation conflicts (two writers committing the same key).

Failures are told apart by the driver's error codes: a connection that can't be made or
was lost (``CXN``, a closed driver or channel, authentication) is ``StoreUnavailable`` and
retires the driver — closed once no other thread still uses it; an isolation conflict is
retried; anything else the server refused is ``StoreQueryError`` (a defect or a schema
mismatch) and leaves the connection alone. The schema is compared with the database's once per
process and only what differs is applied (``typedb_schema``; a schema transaction locks
out every writer).

Verified against a TypeDB CE 3.12.3 server (see docs/knowledge.md).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import CatalogPackage, KnowledgePackage, ProbeMetric
from rcaloop.knowledge import graph, queries, typedb_schema, typeql
from rcaloop.knowledge.queries import ActionRow, CatalogRow, HypothesisFact, SimilarRow
from rcaloop.knowledge.store import IncidentFacts, StoreQueryError, StoreUnavailable, WriteRecord
from rcaloop.shared.logs import get_logger

T = TypeVar("T")
log = get_logger("knowledge")

MAX_COMMIT_ATTEMPTS = 5
CONFLICT_MARKERS = ("isolation conflict", "[stc2]")
"""The server's commit refusal when a concurrent commit took the same key or lock (storage error STC2)."""
BUSY_MARKERS = ("[TXN1]",)
"""The server's answer when a transaction waited for the schema lock longer than it was allowed (then SRV22)."""
UNAVAILABLE_CODES = re.compile(r"\[(CXN\d+|PDR01|INT0[12]|AUT\d+|TKM\d+|SRV\d+)\]")
"""Connection (CXN), closed driver (PDR01), closed channel (INT01/02), authentication (AUT, TKM), server state (SRV)."""
UNAVAILABLE_TEXT = ("unable to connect", "connection refused", "connection closed", "has been closed")
MIN_SERVER = "3.12"
"""typedb-driver 3.14 speaks protocol 8 extension 2; servers before 3.12 refuse it (see ``typedb_versions``)."""


def is_conflict(exc: BaseException) -> bool:
    text = str(exc).casefold()
    return any(m in text for m in CONFLICT_MARKERS)


def is_busy(exc: BaseException) -> bool:
    """A transaction that could not open in time: another replica's schema transaction holds the lock."""
    return any(m in str(exc) for m in BUSY_MARKERS)


def is_unavailable(exc: BaseException) -> bool:
    text = str(exc)
    return bool(UNAVAILABLE_CODES.search(text)) or any(m in text.casefold() for m in UNAVAILABLE_TEXT)


def _safe(exc: BaseException, secret: str) -> str:
    text = str(exc)[:500]
    return text.replace(secret, "***") if secret else text


class _Conflict(Exception):
    pass


class TypeDBKnowledgeStore:
    name = "typedb"

    def __init__(
        self,
        address: str,
        username: str,
        password: str,
        database: str = "rcaloop",
        *,
        timeout_ms: int = 5000,
        lock_wait_ms: int | None = None,
        driver_factory: Callable[..., Any] | None = None,
    ):
        """``driver_factory`` defaults to ``TypeDB.driver`` (tests of the connection handling pass a stand-in).

        ``lock_wait_ms`` (how long a transaction waits for the schema lock) stays below
        ``timeout_ms`` (how long the driver waits for any answer; by default 3/5 of it): a lock
        held past it is answered as busy and retried, never taken for an outage.
        """
        lock_wait_ms = timeout_ms * 3 // 5 if lock_wait_ms is None else lock_wait_ms
        if lock_wait_ms >= timeout_ms:
            raise ValueError("lock_wait_ms must be below timeout_ms")
        self.address = address
        self.database = database
        self._username = username
        self._password = password
        self._timeout_ms = timeout_ms
        self._lock_wait_ms = lock_wait_ms
        self._lock = threading.Lock()
        self._driver: Any = None
        self._users: dict[int, int] = {}
        self._retired: dict[int, Any] = {}
        self._schema_ready = False
        self._driver_factory = driver_factory
        self.writes = WriteRecord()

    # -- connection ----------------------------------------------------------------------------------------
    def _where(self) -> str:
        return f"TypeDB at {self.address} (database {self.database})"

    def _unavailable(self, exc: BaseException) -> StoreUnavailable:
        hint = ""
        if "protocol" in str(exc).casefold() and "version" in str(exc).casefold():
            hint = f" (typedb-driver 3.14 needs a TypeDB server {MIN_SERVER} or later)"
        return StoreUnavailable(f"{self._where()}: {type(exc).__name__}: {_safe(exc, self._password)}{hint}")

    def _refused(self, exc: BaseException) -> StoreQueryError:
        return StoreQueryError(f"{self._where()} refused a query: {_safe(exc, self._password)}")

    def _connect(self) -> Any:
        """The open driver, creating it (and the missing schema) when needed; the caller holds a use of it."""
        from typedb.driver import Credentials, DriverOptions, DriverTlsConfig, TypeDB  # noqa: PLC0415

        with self._lock:
            driver = self._driver
            if driver is None or not driver.is_open():
                driver = None
                try:
                    options = DriverOptions(DriverTlsConfig.disabled(), request_timeout_millis=self._timeout_ms)
                    factory = self._driver_factory or TypeDB.driver
                    driver = factory(self.address, Credentials(self._username, self._password), options)
                    if not self._schema_ready:
                        self._ensure_schema(driver)
                        self._schema_ready = True
                except Exception as exc:  # noqa: BLE001 - the driver raises its own and native errors
                    if driver is not None:  # never leak the driver of a failed attempt
                        _close_quietly(driver)
                    if is_unavailable(exc):
                        raise self._unavailable(exc) from None
                    raise self._refused(exc) from None
                self._driver = driver
            self._users[id(driver)] = self._users.get(id(driver), 0) + 1
            return driver

    def _release(self, driver: Any) -> None:
        with self._lock:
            left = self._users[id(driver)] = self._users[id(driver)] - 1
            retired = left == 0 and self._retired.pop(id(driver), None) is not None
            if left == 0:
                del self._users[id(driver)]
        if retired:
            _close_quietly(driver)

    def _retire(self, driver: Any) -> None:
        """Stop handing out a broken driver; it is closed when its last user releases it."""
        with self._lock:
            if self._driver is driver:
                self._driver = None
            self._retired[id(driver)] = driver

    @contextmanager
    def _lease(self) -> Iterator[Any]:
        driver = self._connect()
        try:
            yield driver
        finally:
            self._release(driver)

    def _ensure_schema(self, driver: Any) -> None:
        """Create the database if absent and bring its schema to ``schema.tql`` (``typedb_schema.plan``).

        Two replicas may do this at once: creating a database another just created is no
        error, and a schema transaction that failed is judged by planning again — nothing
        left to change means the other replica applied it.
        """
        from typedb.driver import TransactionType  # noqa: PLC0415

        self._create_database(driver)
        plan = self._plan(driver)
        if not plan.changes:
            return
        try:
            with driver.transaction(self.database, TransactionType.SCHEMA, self._options()) as tx:
                for query in plan.queries():
                    tx.query(query).resolve()
                tx.commit()
        except Exception:
            if self._plan(driver).changes:
                raise
        log.info("typedb_schema_applied", database=self.database, defined=len(plan.define),
                 redefined=len(plan.redefine), kept=list(plan.kept)[:20])

    def _create_database(self, driver: Any) -> None:
        if driver.databases.contains(self.database):
            return
        try:
            driver.databases.create(self.database)
        except Exception:
            if not driver.databases.contains(self.database):  # "already exists": another replica made it
                raise

    def _plan(self, driver: Any) -> typedb_schema.SchemaPlan:
        plan = typedb_schema.plan(typeql.SCHEMA, driver.databases.get(self.database).schema())
        if plan.destructive:
            raise StoreQueryError(
                f"{self._where()}: its schema can't be brought to this release's without losing data: "
                + "; ".join(plan.destructive)
                + ". Migrate the database, or point TYPEDB_DATABASE at a new one."
            )
        return plan

    def _options(self) -> Any:
        """Wait for the schema lock (held by another replica's schema transaction) less long than a
        request may take, so the server answers "busy" (retried) before the driver gives up on it."""
        from typedb.driver import TransactionOptions  # noqa: PLC0415

        return TransactionOptions(schema_lock_acquire_timeout_millis=self._lock_wait_ms)

    async def open(self) -> None:
        def connect() -> None:
            self._release(self._connect())

        await asyncio.to_thread(connect)

    async def close(self) -> None:
        with self._lock:
            driver, self._driver = self._driver, None
            if driver is not None and self._users.get(id(driver)):
                self._retired[id(driver)] = driver
                driver = None
        if driver is not None:
            await asyncio.to_thread(_close_quietly, driver)

    # -- transactions ----------------------------------------------------------------------------------------
    def _transact(self, kind: str, work: Callable[[Any], T], commit: bool) -> T:
        from typedb.driver import TransactionType  # noqa: PLC0415

        with self._lease() as driver:
            try:
                with driver.transaction(self.database, getattr(TransactionType, kind), self._options()) as tx:
                    result = work(tx)
                    if commit:
                        tx.commit()
                    return result
            except (StoreQueryError, StoreUnavailable):
                raise
            except (ValueError, UnicodeError) as exc:  # a value TypeQL can't carry (not valid Unicode)
                raise StoreQueryError(f"{self._where()}: {exc}") from None
            except Exception as exc:
                if not _from_driver(exc):
                    raise  # a defect of this adapter: let it show as one
                if is_conflict(exc) or is_busy(exc):
                    raise _Conflict(str(exc)) from None
                if is_unavailable(exc):
                    self._retire(driver)
                    raise self._unavailable(exc) from None
                raise self._refused(exc) from None

    def _read(self, work: Callable[[Any], T]) -> T:
        return self._transact("READ", work, commit=False)

    def _write(self, work: Callable[[Any], T]) -> T:
        """``work(tx)`` in a write transaction, committed; retried on isolation conflicts."""
        for attempt in range(1, MAX_COMMIT_ATTEMPTS + 1):
            try:
                result = self._transact("WRITE", work, commit=True)
            except _Conflict as exc:
                if attempt < MAX_COMMIT_ATTEMPTS:
                    time.sleep(0.05 * attempt)
                    continue
                failure: Exception = StoreUnavailable(
                    f"{self._where()}: still conflicting or waiting for the schema lock after "
                    f"{MAX_COMMIT_ATTEMPTS} attempts: {exc}"
                )
            except (StoreQueryError, StoreUnavailable) as exc:
                failure = exc
            else:
                self.writes.ok()
                return result
            self.writes.failed(failure)
            raise failure
        raise AssertionError("unreachable")

    async def check_writable(self) -> None:
        at = datetime.now(UTC)

        def probe(tx) -> None:
            _run_all(tx, [typeql.probe_insert(at), typeql.probe_delete(at)])

        await asyncio.to_thread(self._write, probe)

    # -- runs and reviews --------------------------------------------------------------------------------------
    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        return (await self.put_verdicts([verdict]))[0]

    async def put_verdicts(self, verdicts: list[HarnessVerdict]) -> list[bool]:
        runs = [(graph.run_graph(v), v.model_dump_json()) for v in verdicts]

        def work(tx) -> list[bool]:
            stored = []
            for run, body in runs:
                fresh = not _rows(tx, typeql.exists("rca-run", run.analysis_hash))
                if fresh:
                    _run_all(tx, typeql.run_queries(run, body))
                stored.append(fresh)
            return stored

        return await asyncio.to_thread(self._write, work)

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.run_body(analysis_hash)))
        return HarnessVerdict.model_validate_json(rows[0]["b"]) if rows else None

    async def latest_analysis(self, subject: str) -> str | None:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.latest_analysis(subject)))
        return rows[0]["hash"] if rows else None

    async def put_review(self, review: AnnotationRecord) -> bool:
        node, body = graph.review_node(review), review.model_dump_json()

        def work(tx) -> bool:
            found = _rows(tx, typeql.review_body(node.annotation_id))
            if found:  # a later revision replaces the stored one; an earlier or equal one changes nothing
                if AnnotationRecord.model_validate_json(found[0]["b"]).revision >= review.revision:
                    return False
                _run_all(tx, [typeql.delete_review(node.annotation_id), typeql.insert_review(node, body)])
                return True
            _run_all(tx, [typeql.insert_review(node, body)])
            return True

        return await asyncio.to_thread(self._write, work)

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]:
        return (await self.reviews_for_many([analysis_hash])).get(analysis_hash, [])

    async def reviews_for_many(self, analysis_hashes: list[str]) -> dict[str, list[AnnotationRecord]]:
        wanted = sorted(set(analysis_hashes))
        rows = await asyncio.to_thread(
            self._read, lambda tx: {h: _rows(tx, typeql.review_bodies(h)) for h in wanted})
        return {h: sorted((AnnotationRecord.model_validate_json(r["b"]) for r in found), key=lambda r: r.annotation_id)
                for h, found in rows.items() if found}

    # -- packages ------------------------------------------------------------------------------------------------
    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        body = package.model_dump_json()

        def work(tx) -> str:
            existing = _rows(tx, typeql.package_body(package.package_id))
            if existing:
                return existing[0]["b"]
            run = _read_run(tx, package.analysis_hash)
            review = _read_review(tx, package.annotation_id)
            _run_all(tx, typeql.package_queries(graph.package_graph(package, run, review), body))
            return body

        return KnowledgePackage.model_validate_json(await asyncio.to_thread(self._write, work))

    async def get_package(self, package_id: str) -> KnowledgePackage | None:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.package_body(package_id)))
        return KnowledgePackage.model_validate_json(rows[0]["b"]) if rows else None

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.package_bodies(state)))
        return sorted((KnowledgePackage.model_validate_json(r["b"]) for r in rows), key=lambda p: p.package_id)

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        new, body = graph.package_graph(package, None, None), package.model_dump_json()

        def work(tx) -> bool:
            if not _rows(tx, typeql.package_at_revision(package.package_id, expected_revision)):
                return False
            stored = len(_rows(tx, typeql.read_decisions(package.package_id)))
            _run_all(tx, typeql.save_queries(new, body, stored))
            return True

        return await asyncio.to_thread(self._write, work)

    # -- the family catalog -----------------------------------------------------------------------------------------
    async def insert_catalog(self, package: CatalogPackage) -> CatalogPackage:
        body = package.model_dump_json()

        def work(tx) -> str:
            existing = _rows(tx, typeql.catalog_body(package.package_id))
            if existing:
                return existing[0]["b"]
            _run_all(tx, typeql.catalog_queries(graph.catalog_graph(package), body))
            return body

        return CatalogPackage.model_validate_json(await asyncio.to_thread(self._write, work))

    async def get_catalog(self, package_id: str) -> CatalogPackage | None:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.catalog_body(package_id)))
        return CatalogPackage.model_validate_json(rows[0]["b"]) if rows else None

    async def list_catalogs(self, state: str | None = None) -> list[CatalogPackage]:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.catalog_bodies(state)))
        return sorted((CatalogPackage.model_validate_json(r["b"]) for r in rows), key=lambda p: p.package_id)

    async def active_catalog(self) -> CatalogPackage | None:
        rows = await asyncio.to_thread(self._read, lambda tx: _rows(tx, typeql.active_catalog()))
        return CatalogPackage.model_validate_json(rows[0]["b"]) if rows else None

    async def save_catalog(self, package: CatalogPackage, expected_revision: int) -> bool:
        new, body = graph.catalog_graph(package), package.model_dump_json()

        def work(tx) -> bool:
            if not _rows(tx, typeql.catalog_at_revision(package.package_id, expected_revision)):
                return False
            stored = len(_rows(tx, typeql.read_decisions(package.package_id, "family-catalog")))
            _run_all(tx, typeql.catalog_save_queries(new, body, stored))
            return True

        return await asyncio.to_thread(self._write, work)

    async def catalog_graph(self, package_id: str) -> graph.CatalogGraph | None:
        return await asyncio.to_thread(self._read, lambda tx: _read_catalog(tx, package_id))

    # -- the graph as stored ---------------------------------------------------------------------------------------
    async def run_graph(self, analysis_hash: str) -> graph.RunGraph | None:
        return await asyncio.to_thread(self._read, lambda tx: _read_run(tx, analysis_hash))

    async def package_graph(self, package_id: str) -> graph.PackageGraph | None:
        return await asyncio.to_thread(self._read, lambda tx: _read_package(tx, package_id))

    # -- queries ------------------------------------------------------------------------------------------------------
    async def probe_metrics(self) -> list[ProbeMetric]:
        def work(tx) -> list[ProbeMetric]:
            outcomes = [(r["template"], r["outcome"], r["executions"]) for r in _rows(tx, typeql.metrics_outcomes())]
            contributions = [(r["template"], r["contributions"]) for r in _rows(tx, typeql.metrics_contributions())]
            return queries.probe_metrics(outcomes, contributions)

        return await asyncio.to_thread(self._read, work)

    async def incident_facts(self, incident_id: str) -> IncidentFacts | None:
        def work(tx) -> IncidentFacts | None:
            if not _rows(tx, typeql.exists("incident", incident_id)):
                return None
            observed = _rows(tx, typeql.observed(incident_id))
            hypotheses = [
                HypothesisFact(r["key"], r["family"], r["rank"], int(r["planes"] or 0), bool(r["refuted"]))
                for r in _rows(tx, typeql.incident_hypotheses(incident_id))
            ]
            catalog = [
                CatalogRow(r["template"], r["collector"], r["plane"], r["family"])
                for r in _rows(tx, typeql.probe_catalog())
            ]
            return IncidentFacts(
                incident_id=incident_id,
                observed_collectors=frozenset(r["collector"] for r in observed),
                observed_planes=frozenset(r["plane"] for r in observed),
                hypotheses=tuple(sorted(set(hypotheses))),
                catalog=tuple(sorted(set(catalog))),
            )

        return await asyncio.to_thread(self._read, work)

    async def verified_actions(self, family: str) -> list[ActionRow]:
        def work(tx) -> list[ActionRow]:
            docs = tx.query(typeql.verified_actions(family)).resolve().as_concept_documents()
            return sorted({ActionRow(d["action"], d["incident"], d["outcome"], d["package"]) for d in docs})

        return await asyncio.to_thread(self._read, work)

    async def similar_incidents(self, incident_id: str) -> list[SimilarRow]:
        def work(tx) -> list[SimilarRow]:
            rows = [
                SimilarRow(r["incident"], r["package"], r["family"], "family", r["family"])
                for r in _rows(tx, typeql.similar_by_family(incident_id))
            ]
            rows += [
                SimilarRow(r["incident"], r["package"], r["family"], "alert", r["alert"])
                for r in _rows(tx, typeql.similar_by_alert(incident_id))
            ]
            return sorted(set(rows))

        return await asyncio.to_thread(self._read, work)


# -- answers -------------------------------------------------------------------------------------------------------
def _from_driver(exc: BaseException) -> bool:
    from typedb.driver import TypeDBDriverException  # noqa: PLC0415

    return isinstance(exc, TypeDBDriverException) or type(exc).__module__.startswith("typedb")


def _close_quietly(driver: Any) -> None:
    try:
        driver.close()
    except Exception:  # noqa: BLE001, S110 - already broken; nothing more to do
        pass


def _value(concept: Any) -> Any:
    if concept is None:
        return None
    value = concept.try_get_value()
    return value.datetime_without_nanos if hasattr(value, "datetime_without_nanos") else value


def _rows(tx, query: str) -> list[dict[str, Any]]:
    return [
        {name: _value(row.get(name)) for name in row.column_names()}
        for row in tx.query(query).resolve().as_concept_rows()
    ]


def _run_all(tx, statements: list[str]) -> None:
    """Run writes in order; one that matched nothing (so wrote nothing) fails the whole transaction.

    A ``match … insert`` whose match finds no node inserts nothing and raises nothing: the
    answer's rows are its only sign. Every write here names nodes that must exist, so an
    empty answer is a defect or a lost race, never a write to report as stored.
    """
    for statement in statements:
        if not any(True for _ in tx.query(statement).resolve().as_concept_rows()):
            raise StoreQueryError(f"a write matched nothing, so nothing was stored: {_first_line(statement)}")


def _first_line(statement: str) -> str:
    return " ".join(statement.split())[:160]


def _links(tx, query: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, set[str]] = {}
    for r in _rows(tx, query):
        out.setdefault(r["key"], set()).add(r["evidence"])
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _read_review(tx, annotation_id: str) -> graph.ReviewNode | None:
    rows = _rows(tx, typeql.read_review(annotation_id))
    return graph.ReviewNode(annotation_id, rows[0]["hash"], rows[0]["kind"], rows[0]["outcome"]) if rows else None


def _read_run(tx, h: str) -> graph.RunGraph | None:
    rows = _rows(tx, typeql.read_run(h))
    if not rows:
        return None
    run = rows[0]
    supports = _links(tx, typeql.read_links(h, "support", "hypothesis"))
    claim_supports = _links(tx, typeql.read_links(h, "support", "claim"))
    refutations = _links(tx, typeql.read_links(h, "refutation", "claim"))
    yields = _links(tx, typeql.read_yields(h))
    evidence = sorted({
        graph.EvidenceNode(r["key"], r["id"], r["collector"], r["plane"], r["live"], r["verified"], r["observed"],
                     r["relation"])
        for r in _rows(tx, typeql.read_evidence(h))
    }, key=lambda e: e.key)
    hypotheses = sorted({
        graph.HypothesisNode(r["key"], r["id"], r["family"], r["root"], r["rank"], supports.get(r["key"], ()))
        for r in _rows(tx, typeql.read_hypotheses(h))
    }, key=lambda x: x.key)
    claims = sorted({
        graph.ClaimNode(r["key"], r["id"], r["kind"], r["status"], r["text"], claim_supports.get(r["key"], ()),
                  refutations.get(r["key"], ()))
        for r in _rows(tx, typeql.read_claims(h))
    }, key=lambda c: c.key)
    executions = sorted({
        graph.ExecutionNode(r["key"], r["ordinal"], r["template"], r["outcome"], r["collector"], r["plane"],
                      r["hypothesis"], yields.get(r["key"], ()))
        for r in _rows(tx, typeql.read_executions(h))
    }, key=lambda x: x.ordinal)
    return graph.RunGraph(
        h, run["incident"], run["alert"], run["started"], run["verdict"], run["score"], run["at"],
        tuple(evidence), tuple(hypotheses), tuple(claims), tuple(executions),
    )


def _decisions(tx, package_id: str, node: str = "knowledge-package") -> tuple[graph.DecisionNode, ...]:
    return tuple(sorted({
        graph.DecisionNode(r["key"], r["ordinal"], r["decision"], r["reviewer"], r["at"], r["accepted"], r["from"],
                           r["to"])
        for r in _rows(tx, typeql.read_decisions(package_id, node))
    }, key=lambda d: d.ordinal))


def _read_catalog(tx, package_id: str) -> graph.CatalogGraph | None:
    rows = _rows(tx, typeql.read_catalog(package_id))
    if not rows:
        return None
    c = rows[0]
    listings = sorted({graph.Listing(r["family"], r["stance"], r["key"], r["kind"])
                       for r in _rows(tx, typeql.read_listings(package_id))})
    confirmations = sorted({(r["family"], r["template"]) for r in _rows(tx, typeql.read_confirmations(package_id))})
    return graph.CatalogGraph(package_id, c["version"], c["state"], c["valid"], c["revision"], c["at"], tuple(listings),
                              tuple(confirmations), _decisions(tx, package_id, "family-catalog"))


def _read_package(tx, package_id: str) -> graph.PackageGraph | None:
    rows = _rows(tx, typeql.read_package(package_id))
    if not rows:
        return None
    p = rows[0]
    decisions = _decisions(tx, package_id)
    remediations = sorted({
        graph.Remediation(r["action"], r["incident"], r["outcome"])
        for r in _rows(tx, typeql.read_remediations(package_id))
    })
    grounding = sorted({r["evidence"] for r in _rows(tx, typeql.read_grounding(package_id))})
    return graph.PackageGraph(
        package_id, p["hash"], p["annotation"], p["state"], p["source"], p["valid"], p["revision"], p["family"],
        p["run"], tuple(grounding), decisions, tuple(remediations),
    )
