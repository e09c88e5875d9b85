"""Knowledge promotion (``knowledge.events``): events, packages, trace-v3 ledger.

A *package* is what a passed review promotes: the diagnosed family, the evidence that
grounds it, the probes that produced that evidence and the operator-verified actions.
Its ``state`` moves candidate → (approved →) activated, or → shadowed → activated, or
→ rejected; every move is a ``KnowledgeEvent``. The *runtime snapshot* is the set of
activated packages the agent reads at run time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.common import Contract, Identifier, Issue, utcnow

PackageState = Literal["candidate", "approved", "shadowed", "activated", "rejected"]
EvidenceSource = Literal["ledger", "harness_claim"]
Decision = Literal["approve", "shadow", "activate", "reject"]
TimeRelation = Literal["before_incident", "during_incident", "after_incident", "unknown"]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Provenance(BaseModel):
    model_config = ConfigDict(extra="allow")

    promotion_path: EvidenceSource
    annotation_id: str | None = None
    reviewer: str | None = None
    annotation_revision: int | None = Field(default=None,
                                            description="the review's revision the package was built from")
    review_decision: str | None = Field(
        default=None,
        description="how the review was decided when several reviewers reviewed it: agreed, majority, adjudicated"
    )


# -- trace-v3 ledger ----------------------------------------------------------------------
class TraceObservation(_Loose):
    """One observation and its time relation to the incident.

    Evidence collected after the incident started is kept (``after_incident``) but is
    never presented as observed before the cause.
    """

    evidence_id: str
    source_group: str | None = None
    collector: str | None = None
    plane: str | None = Field(default=None, description="telemetry plane: logs, metrics, traces, events, config, …")
    time_relation: TimeRelation = "unknown"
    observed_at: datetime | None = None


class TraceHypothesis(_Loose):
    """A hypothesis with the source groups that support and refute it."""

    id: str
    family: str | None = None
    is_root_cause: bool = False
    supporting_source_groups: list[str] = Field(default_factory=list)
    refuting_source_groups: list[str] = Field(default_factory=list)
    supporting_evidence_ids: list[str] = Field(default_factory=list)


class ProbeExecution(_Loose):
    """One run of a probe template during the investigation, linked to a hypothesis."""

    probe_template_id: str
    hypothesis_id: str | None = None
    collector: str | None = None
    evidence_ids: list[str] = Field(default_factory=list)
    outcome: Literal["supports", "refutes", "inconclusive"] = "inconclusive"


class TraceLedger(_Loose):
    """The trace-v3 ledger of one investigation (``confidence_diagnostics.trace_v3``)."""

    version: str = "trace-v3"
    incident_started_at: datetime | None = None
    observations: list[TraceObservation] = Field(default_factory=list)
    hypotheses: list[TraceHypothesis] = Field(default_factory=list)
    probe_executions: list[ProbeExecution] = Field(default_factory=list)


# -- events -------------------------------------------------------------------------------
class KnowledgeEvent(Contract):
    """A package's move: a case package (``kp-…``, promoted from a review of one analysis) or a
    family-catalog package (``kc-…``, whose events carry no analysis, evidence source or provenance)."""

    event_id: Identifier
    kind: PackageState
    package_id: Identifier
    analysis_hash: Identifier | None = Field(default=None, description="the analysis a case package was promoted from")
    family: str | None = None
    evidence_source: EvidenceSource | None = Field(default=None, description="a case package's promotion path")
    supporting_evidence_ids: list[str] = Field(default_factory=list)
    probe_template_ids: list[str] = Field(default_factory=list)
    verified_actions: list[str] = Field(default_factory=list)
    provenance: Provenance | None = Field(default=None, description="a case package's provenance")
    catalog: FamilyCatalog | None = Field(
        default=None,
        description="on an event that changes the active family catalog: the catalog active from then on (the "
        "harness judges with it)",
    )
    detail: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=utcnow)
    decision: Decision | None = Field(default=None, description="the reviewer decision behind it; null for candidates")
    activation_latency_seconds: float | None = Field(
        default=None, description="on activated events: seconds from candidate to active"
    )
    inadmissible: bool = Field(
        default=False,
        description=(
            "the activation attempt concerned a package that failed validation; such attempts are refused "
            "(kind rejected), so an activated event never carries true"
        ),
    )
    issues: list[Issue] = Field(default_factory=list, description="why a promotion or activation was refused")


# -- packages -----------------------------------------------------------------------------
class PackageDecision(_Loose):
    """One reviewer decision (or a refused one) in a package's history."""

    decision: Decision
    reviewer: str
    at: datetime = Field(default_factory=utcnow)
    accepted: bool = True
    from_state: PackageState
    to_state: PackageState
    comment: str | None = None
    issues: list[Issue] = Field(default_factory=list)


class KnowledgePackage(_Loose):
    package_id: str
    analysis_hash: str
    annotation_id: str
    state: PackageState = "candidate"
    valid: bool = Field(description="every promotion rule of its path passed; only valid packages can be activated")
    issues: list[Issue] = Field(default_factory=list, description="why the promotion was refused (empty when valid)")
    family: str | None = None
    evidence_source: EvidenceSource
    supporting_evidence_ids: list[str] = Field(default_factory=list)
    probe_template_ids: list[str] = Field(default_factory=list)
    probe_executions: list[ProbeExecution] = Field(default_factory=list)
    observations: list[TraceObservation] = Field(default_factory=list)
    verified_actions: list[str] = Field(default_factory=list)
    summary: str | None = None
    provenance: Provenance
    created_by: str = Field(default="", description="the message that created it (idempotent re-emit on redelivery)")
    candidate_at: datetime = Field(default_factory=utcnow)
    activated_at: datetime | None = None
    updated_at: datetime = Field(default_factory=utcnow)
    history: list[PackageDecision] = Field(default_factory=list)
    revision: int = Field(default=0, description="bumped by every stored change; the compare-and-set key")
    outbox: list[KnowledgeEvent] = Field(
        default_factory=list,
        description="decision events stored but not yet confirmed published (re-sent until they are)",
    )


class CatalogChanges(_Loose):
    """What a proposed catalog changes against the catalog active when it was proposed."""

    against: str | None = Field(default=None, description="the version compared with")
    added_families: list[str] = Field(default_factory=list)
    removed_families: list[str] = Field(default_factory=list)
    added_signatures: list[str] = Field(default_factory=list, description="family/stance/signature key")
    removed_signatures: list[str] = Field(default_factory=list, description="family/stance/signature key")


class CatalogPackage(_Loose):
    """A family catalog as a knowledge package: proposed, then approved, shadowed, activated or rejected
    like a case package. The newest activated catalog is the active one."""

    package_id: str = Field(description="kc-<version>")
    catalog: FamilyCatalog
    state: PackageState = "candidate"
    valid: bool = True
    issues: list[Issue] = Field(default_factory=list)
    changes: CatalogChanges = Field(default_factory=CatalogChanges)
    proposed_by: str = ""
    candidate_at: datetime = Field(default_factory=utcnow)
    activated_at: datetime | None = None
    updated_at: datetime = Field(default_factory=utcnow)
    history: list[PackageDecision] = Field(default_factory=list)
    revision: int = Field(default=0, description="bumped by every stored change; the compare-and-set key")
    outbox: list[KnowledgeEvent] = Field(default_factory=list)


class RuntimeSnapshot(_Loose):
    """What the agent reads at run time: the activated packages only, and the active family catalog."""

    generated_at: datetime = Field(default_factory=utcnow)
    source: Literal["store", "cache"] = "store"
    stale: bool = Field(default=False, description="served from the local cache because the store is unreachable")
    packages: list[KnowledgePackage] = Field(default_factory=list)
    catalog: FamilyCatalog | None = Field(default=None, description="the active family catalog")
    catalog_package_id: str | None = Field(
        default=None, description="the catalog package it comes from; null for the bundled catalog (none activated)")


class ProbeMetric(_Loose):
    probe_template_id: str
    executions: int = 0
    supports: int = 0
    refutes: int = 0
    contributions: int = Field(default=0, description="executions whose evidence grounds the package's final diagnosis")
