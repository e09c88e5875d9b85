"""The ``KnowledgeStore`` protocol both stores implement (TypeDB and embedded SQLite).

Every write is keyed (run by ``analysis_hash``, review by annotation id, package by
package id) with insert-if-absent semantics — a review's later revision replaces it, an
earlier one changes nothing — so redelivered messages change nothing;
package updates are compare-and-set on the package's ``revision`` (bumped by every change).
Each write stores the graph of ``rcaloop.knowledge.graph`` beside the contract's JSON (kept
for display); the queries read the graph only, and both stores answer them alike.

Two failures are told apart: ``StoreUnavailable`` (the store can't be reached or refuses
every call: retry later, serve the cached snapshot) and ``StoreQueryError`` (the store
answered and refused one query: a defect or a schema mismatch, never an outage).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import CatalogPackage, KnowledgePackage, ProbeMetric
from rcaloop.knowledge.graph import CatalogGraph, PackageGraph, RunGraph
from rcaloop.knowledge.queries import ActionRow, CatalogRow, HypothesisFact, SimilarRow


class StoreError(RuntimeError):
    """The knowledge store failed a call; say where, never credentials."""


class StoreUnavailable(StoreError):
    """The knowledge store cannot be reached (TypeDB down, file unreadable)."""


class StoreQueryError(StoreError):
    """The store refused a query or write it was reachable for: a defect or a schema mismatch, not an outage."""


def revision(package: KnowledgePackage) -> int:
    return package.revision


@dataclass(frozen=True)
class IncidentFacts:
    """What the graph knows of one incident, for probe prioritisation (``queries.probe_plan``)."""

    incident_id: str
    observed_collectors: frozenset[str]
    observed_planes: frozenset[str]
    hypotheses: tuple[HypothesisFact, ...]
    catalog: tuple[CatalogRow, ...]


FAILURES_BEFORE_NOT_READY = 3


class WriteRecord:
    """Consecutive write failures: a store refusing every write is not ready, whatever a probe says."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures = 0
        self._last = ""

    def ok(self) -> None:
        with self._lock:
            self._failures, self._last = 0, ""

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            self._failures += 1
            self._last = str(exc)[:300]

    def problem(self) -> str | None:
        with self._lock:
            if self._failures >= FAILURES_BEFORE_NOT_READY:
                return f"the last {self._failures} writes failed; last error: {self._last}"
            return None


@runtime_checkable
class KnowledgeStore(Protocol):
    name: str
    writes: WriteRecord

    async def open(self) -> None:
        """Connect and create the schema if needed (idempotent)."""

    async def close(self) -> None: ...

    async def check_writable(self) -> None:
        """Commit a write that leaves nothing behind; raises when the store refuses writes."""

    # -- runs and reviews ----------------------------------------------------------------------
    async def put_verdict(self, verdict: HarnessVerdict) -> bool:
        """Store the run (its graph and the verdict) unless its ``analysis_hash`` exists; True when inserted."""

    async def put_verdicts(self, verdicts: list[HarnessVerdict]) -> list[bool]:
        """``put_verdict`` of each, in one write transaction (a worker's batch, one commit)."""

    async def get_verdict(self, analysis_hash: str) -> HarnessVerdict | None: ...

    async def latest_analysis(self, subject: str) -> str | None:
        """The ``analysis_hash`` of the latest stored run (by ``evaluated_at``) of this subject — the
        incident (``rcaloop.shared.analysis_subject``); ``None`` when none is stored."""

    async def put_review(self, review: AnnotationRecord) -> bool:
        """Store the review unless its annotation id is stored at this or a later revision;
        True when stored (new, or a later revision replacing an earlier one)."""

    async def reviews_for(self, analysis_hash: str) -> list[AnnotationRecord]: ...

    async def reviews_for_many(self, analysis_hashes: list[str]) -> dict[str, list[AnnotationRecord]]:
        """``reviews_for`` of each in one read: only the hashes that have reviews are keys."""

    # -- packages ------------------------------------------------------------------------------
    async def insert_package(self, package: KnowledgePackage) -> KnowledgePackage:
        """Insert unless the id exists; returns the stored package (the existing one if any)."""

    async def get_package(self, package_id: str) -> KnowledgePackage | None: ...

    async def list_packages(self, state: str | None = None) -> list[KnowledgePackage]: ...

    async def save_package(self, package: KnowledgePackage, expected_revision: int) -> bool:
        """Replace the package if its stored revision is still ``expected_revision``; new decisions join the graph."""

    # -- the family catalog ----------------------------------------------------------------------
    async def insert_catalog(self, package: CatalogPackage) -> CatalogPackage:
        """Insert a catalog package (its families, signatures and probes into the graph) unless its id
        exists; returns the stored package (the existing one if any)."""

    async def get_catalog(self, package_id: str) -> CatalogPackage | None: ...

    async def list_catalogs(self, state: str | None = None) -> list[CatalogPackage]: ...

    async def active_catalog(self) -> CatalogPackage | None:
        """The activated catalog package activated last; None when none is activated."""

    async def save_catalog(self, package: CatalogPackage, expected_revision: int) -> bool:
        """Replace the catalog package if its stored revision is still ``expected_revision``."""

    async def catalog_graph(self, package_id: str) -> CatalogGraph | None:
        """The catalog's state, listings, confirming probes and decisions read back from the graph."""

    # -- the graph as stored -----------------------------------------------------------------------
    async def run_graph(self, analysis_hash: str) -> RunGraph | None:
        """The run's nodes and relations read back from the graph (not from the stored JSON)."""

    async def package_graph(self, package_id: str) -> PackageGraph | None:
        """The package's state, relations and decision history read back from the graph."""

    # -- queries -------------------------------------------------------------------------------------
    async def probe_metrics(self) -> list[ProbeMetric]:
        """Per probe template, counted over approved trace-v3 case snapshots only."""

    async def incident_facts(self, incident_id: str) -> IncidentFacts | None:
        """Observed collectors and planes, hypotheses and the probe catalog; None for an unknown incident."""

    async def verified_actions(self, family: str) -> list[ActionRow]:
        """Actions that resolved or mitigated an incident of ``family`` (activated packages only)."""

    async def similar_incidents(self, incident_id: str) -> list[SimilarRow]:
        """Other incidents with an activated package sharing a family or the alert of ``incident_id``."""
