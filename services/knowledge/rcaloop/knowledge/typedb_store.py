"""The TypeDB knowledge store (``TYPEDB_ADDRESS`` set): typedb-driver 3.x, TypeQL 3.

The driver is synchronous, so every call runs in a worker thread. Writes retry on
isolation conflicts (two writers committing the same key). Packages are entities linked
to their family and to the probe templates they executed, so the agent can query the
graph; each node also holds its contract JSON (base64, so no TypeQL escaping is needed)
which is what this adapter reads back.

NOT verified against a live server on the development machines (see docs/knowledge.md).
"""

from __future__ import annotations

import asyncio
import base64
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import KnowledgePackage
from rcaloop.knowledge.store import StoreUnavailable, evaluated_stamp, revision
from rcaloop.shared.analysis_subject import subject_of

T = TypeVar("T")

SCHEMA = """
define
  attribute package-id, value string;
  attribute analysis-hash, value string;
  attribute annotation-id, value string;
  attribute package-state, value string;
  attribute revision, value integer;
  attribute body, value string;
  attribute family-name, value string;
  attribute probe-template-id, value string;
  attribute probe-outcome, value string;
  attribute evidence-source, value string;
  attribute subject-key, value string;
  attribute evaluated-at, value string;
  entity knowledge-package,
    owns package-id @key, owns analysis-hash, owns annotation-id, owns package-state,
    owns revision, owns evidence-source, owns body,
    plays classification:package, plays probe-execution:package;
  entity harness-verdict, owns analysis-hash @key, owns body, owns subject-key, owns evaluated-at;
  entity review, owns annotation-id @key, owns analysis-hash, owns body;
  entity family, owns family-name @key, plays classification:family;
  entity probe-template, owns probe-template-id @key, plays probe-execution:template;
  relation classification, relates package, relates family;
  relation probe-execution, relates package, relates template, owns probe-outcome;
"""

CONFLICT_MARKERS = ("conflict", "isolation", "serializ")
MAX_COMMIT_ATTEMPTS = 5


def lit(value: str) -> str:
    """A TypeQL string literal; control characters are dropped, quotes and backslashes escaped."""
    clean = "".join(ch for ch in value if ch >= " ")
    return '"' + clean.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _unb64(text: str) -> str:
    return base64.b64decode(text).decode()


def is_conflict(exc: BaseException) -> bool:
    return any(m in str(exc).casefold() for m in CONFLICT_MARKERS)


class TypeDBKnowledgeStore:
    name = "typedb"

    def __init__(
        self, address: str, username: str, password: str, database: str = "rcaloop", *, timeout_ms: int = 5000
    ):
        self.address = address
        self.database = database
        self._username = username
        self._password = password
        self._timeout_ms = timeout_ms
        self._driver: Any = None
        self._lock = threading.Lock()

    # -- connection ------------------------------------------------------------------------
    def _connect(self) -> Any:
        from typedb.driver import Credentials, DriverOptions, DriverTlsConfig, TransactionType, TypeDB  # noqa: PLC0415

        with self._lock:
            if self._driver is not None and self._driver.is_open():
                return self._driver
            try:
                options = DriverOptions(DriverTlsConfig.disabled(), request_timeout_millis=self._timeout_ms)
                driver = TypeDB.driver(self.address, Credentials(self._username, self._password), options)
                if not driver.databases.contains(self.database):
                    driver.databases.create(self.database)
                with driver.transaction(self.database, TransactionType.SCHEMA) as tx:
                    tx.query(SCHEMA).resolve()
                    tx.commit()
            except Exception as exc:  # noqa: BLE001 - the driver raises its own and native errors
                raise StoreUnavailable(
                    f"TypeDB at {self.address}: {type(exc).__name__}: {_safe(exc, self._password)}"
                ) from None
            self._driver = driver
            return driver

    async def open(self) -> None:
        await asyncio.to_thread(self._connect)

    async def close(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            await asyncio.to_thread(driver.close)

    def _read(self, query: str) -> list[dict[str, str | int | None]]:
        from typedb.driver import TransactionType  # noqa: PLC0415

        driver = self._connect()
        try:
            with driver.transaction(self.database, TransactionType.READ) as tx:
                return [_row(r) for r in tx.query(query).resolve().as_concept_rows()]
        except Exception as exc:  # noqa: BLE001
            raise self._failed(exc) from None

    def _failed(self, exc: BaseException) -> StoreUnavailable:
        """Drop the driver (the next call reconnects) and say what failed, without the password."""
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                driver.close()
            except Exception:  # noqa: BLE001, S110 - already broken
                pass
        return StoreUnavailable(f"TypeDB at {self.address}: {type(exc).__name__}: {_safe(exc, self._password)}")

    def _write(self, work: Callable[[Any], T]) -> T:
        """Run ``work(tx)`` in a write transaction and commit; retry on isolation conflicts."""
        from typedb.driver import TransactionType  # noqa: PLC0415

        driver = self._connect()
        for attempt in range(1, MAX_COMMIT_ATTEMPTS + 1):
            try:
                with driver.transaction(self.database, TransactionType.WRITE) as tx:
                    result = work(tx)
                    tx.commit()
                    return result
            except Exception as exc:  # noqa: BLE001
                if is_conflict(exc) and attempt < MAX_COMMIT_ATTEMPTS:
                    time.sleep(0.05 * attempt)
                    continue
                raise self._failed(exc) from None
        raise AssertionError("unreachable")

    # -- verdicts and reviews ----------------------------------------------------------------
    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        key = lit(verdict.analysis_hash)

        def work(tx) -> bool:
            if _rows(tx, f"match $v isa harness-verdict, has analysis-hash {key};"):
                return False
            body = lit(_b64(verdict.model_dump_json()))
            tx.query(
                f"insert $v isa harness-verdict, has analysis-hash {key}, has body {body}, "
                f"has subject-key {lit(subject_of(verdict))}, has evaluated-at {lit(evaluated_stamp(verdict))};"
            ).resolve()
            return True

        return await asyncio.to_thread(self._write, work)

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None:
        rows = await asyncio.to_thread(
            self._read, f"match $v isa harness-verdict, has analysis-hash {lit(analysis_hash)}, has body $b; select $b;"
        )
        return HarnessVerdict.model_validate_json(_unb64(rows[0]["b"])) if rows else None

    async def latest_analysis(self, subject: str) -> str | None:
        rows = await asyncio.to_thread(
            self._read,
            f"match $v isa harness-verdict, has subject-key {lit(subject)}, has analysis-hash $h, has evaluated-at $t; select $h, $t;",
        )
        latest = max(((str(r["t"]), str(r["h"])) for r in rows), default=None)
        return latest[1] if latest else None

    async def put_review(self, review: AnnotationRecord) -> bool:
        key = lit(review.annotation_id)

        def work(tx) -> bool:
            if _rows(tx, f"match $r isa review, has annotation-id {key};"):
                return False
            tx.query(
                f"insert $r isa review, has annotation-id {key}, has analysis-hash {lit(review.analysis_hash)}, "
                f"has body {lit(_b64(review.model_dump_json()))};"
            ).resolve()
            return True

        return await asyncio.to_thread(self._write, work)

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]:
        rows = await asyncio.to_thread(
            self._read, f"match $r isa review, has analysis-hash {lit(analysis_hash)}, has body $b; select $b;"
        )
        reviews = [AnnotationRecord.model_validate_json(_unb64(r["b"])) for r in rows]
        return sorted(reviews, key=lambda r: r.annotation_id)

    # -- packages ------------------------------------------------------------------------------
    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        key = lit(package.package_id)

        def work(tx) -> None:
            if _rows(tx, f"match $p isa knowledge-package, has package-id {key};"):
                return
            tx.query(
                f"insert $p isa knowledge-package, has package-id {key}, "
                f"has analysis-hash {lit(package.analysis_hash)}, "
                f"has annotation-id {lit(package.annotation_id)}, has package-state {lit(package.state)}, "
                f"has revision {revision(package)}, has evidence-source {lit(package.evidence_source)}, "
                f"has body {lit(_b64(package.model_dump_json()))};"
            ).resolve()
            if package.family:
                _ensure(tx, "family", "family-name", package.family)
                tx.query(
                    f"match $p isa knowledge-package, has package-id {key}; "
                    f"$f isa family, has family-name {lit(package.family)};"
                    " insert $c isa classification, links (package: $p, family: $f);"
                ).resolve()
            for run in package.probe_executions:
                _ensure(tx, "probe-template", "probe-template-id", run.probe_template_id)
                tx.query(
                    f"match $p isa knowledge-package, has package-id {key}; "
                    f"$t isa probe-template, has probe-template-id {lit(run.probe_template_id)};"
                    " insert $e isa probe-execution, links (package: $p, template: $t), "
                    f"has probe-outcome {lit(run.outcome)};"
                ).resolve()

        await asyncio.to_thread(self._write, work)
        stored = await self.get_package(package.package_id)
        if stored is None:
            raise StoreUnavailable(f"TypeDB at {self.address}: package {package.package_id} not readable after insert")
        return stored

    async def get_package(self, package_id: str) -> KnowledgePackage | None:
        rows = await asyncio.to_thread(
            self._read, f"match $p isa knowledge-package, has package-id {lit(package_id)}, has body $b; select $b;"
        )
        return KnowledgePackage.model_validate_json(_unb64(rows[0]["b"])) if rows else None

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]:
        where = f", has package-state {lit(state)}" if state else ""
        rows = await asyncio.to_thread(self._read, f"match $p isa knowledge-package{where}, has body $b; select $b;")
        return sorted((KnowledgePackage.model_validate_json(_unb64(r["b"])) for r in rows), key=lambda p: p.package_id)

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        key = lit(package.package_id)

        def work(tx) -> bool:
            if not _rows(
                tx, f"match $p isa knowledge-package, has package-id {key}, has revision {expected_revision};"
            ):
                return False
            tx.query(
                f"match $p isa knowledge-package, has package-id {key}; "
                f"update $p has package-state {lit(package.state)}; $p has revision {revision(package)}; "
                f"$p has body {lit(_b64(package.model_dump_json()))};"
            ).resolve()
            return True

        return await asyncio.to_thread(self._write, work)


def _rows(tx, query: str) -> list:
    return list(tx.query(query).resolve().as_concept_rows())


def _ensure(tx, entity: str, attribute: str, value: str) -> None:
    if not _rows(tx, f"match $x isa {entity}, has {attribute} {lit(value)};"):
        tx.query(f"insert $x isa {entity}, has {attribute} {lit(value)};").resolve()


def _row(row) -> dict[str, str | int | None]:
    out: dict[str, str | int | None] = {}
    for name in row.column_names():
        concept = row.get(name)
        if concept is None:
            out[name] = None
        elif concept.is_attribute() or concept.is_value():
            value = concept.try_get_string()
            out[name] = value if value is not None else concept.try_get_integer()
    return out


def _safe(exc: BaseException, secret: str) -> str:
    text = str(exc)[:300]
    return text.replace(secret, "***") if secret else text
