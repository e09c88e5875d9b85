"""The harness verdict (``rca.evaluated``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.common import Contract, Identifier, utcnow
from rcaloop.contracts.parsed import Diagnosis, ParsedRCA
from rcaloop.contracts.results import JobId

Verdict = Literal["pass", "degraded", "insufficient_evidence", "unchecked"]
DIMENSION_WEIGHTS: dict[str, int] = {
    "evidence_grounding": 25,
    "diagnostic_reasoning": 20,
    "investigation_plan": 20,
    "uncertainty_calibration": 15,
    "operational_usefulness": 15,
    "safety": 5,
}


HISTORICAL_SOURCE_GROUP = "knowledge graph"
"""The source group of history — the knowledge store, earlier RCAs, document, ticket and search
stores: context only, never grounding. The harness files such evidence under this name."""
PAST_RECORD_WORDS = frozenset({
    "postmortem", "mortem", "runbook", "playbook", "wiki", "confluence", "jira", "notion", "servicenow", "zendesk",
    "sharepoint", "retrospective", "rca", "kb", "knowledge", "similar", "past",
})
"""Words of an evidence kind or collector that name a written record of the past, never an
observation of this run, wherever they stand (``postmortem``, ``PostMortemNote``, ``similar_incident``)."""
PAST_RECORD_KINDS = frozenset({"history", "historical", "memory", "ticket", "doc", "document", "documentation"})
"""Kinds that are a record of the past only as the whole kind: a live observation uses these words
too (``rollout_history``, ``memory_usage``, ``ticket_queue_depth``)."""
EVIDENCE_LOOKBACK = timedelta(days=7)
"""Observed more than this long before the incident started: history, not this run's evidence."""
CLOCK_SKEW = timedelta(seconds=60)
"""How far after the judgement an observation may be stamped and still count as observed by then."""


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class LedgerEvidence(_Loose):
    """An evidence artifact with its harness id (``E01`` …)."""

    id: str
    source: str
    source_group: str
    live: bool = True
    target_verified: bool = False
    title: str = ""
    text: str = ""
    source_file: str | None = None
    json_path: str | None = None
    kind: str = "observation"
    agent_id: str | None = Field(default=None, description="the id the agent gave this artifact, when it had one")
    collector: str = Field(default="", description="the tool that collected it; its source group derives from this")
    symptom: bool = Field(
        default=False, description="the failure being explained (the alert, a failed task): it adds no source group"
    )
    provenance_note: str | None = Field(
        default=None, description="where the agent's own labels (group, live, target) disagree with the artifact"
    )
    observed_at: datetime | None = Field(
        default=None, description="when the artifact was observed, as the run records it (None: not recorded)"
    )
    resolved: bool | None = Field(
        default=None,
        description="true: found in this run's artifacts with the value stated (a path that resolves to it, an "
        "artifact id the run holds, a citation the registry resolves); false: not found; None: not recorded",
    )


class LedgerClaim(_Loose):
    id: str
    kind: str
    text: str
    supports: list[str] = Field(default_factory=list)
    refutes: list[str] = Field(default_factory=list)
    linked_by: list[Literal["citation", "traceability", "quote", "agent"]] = Field(default_factory=list)
    status: Literal["supported", "refuted", "unlinked", "dropped"] = "unlinked"
    historical: list[str] = Field(default_factory=list, description="linked historical evidence: context only")
    origin: str | None = Field(default=None, description="where the claim was read from, e.g. diagnosis.evidence[1]")
    note: str | None = Field(default=None, description="why a claim is unlinked, marked or dropped")
    untraced: list[str] = Field(
        default_factory=list, description="evidence the agent tied to the claim that does not trace in this run"
    )
    corroborating: list[str] | None = Field(
        default=None,
        description="live evidence not tied to the claim that names its cause and agrees with it: counted toward the "
        "claim's independent source groups, never as its support (None: not recorded)",
    )


class GateResult(_Loose):
    gate: str
    passed: bool
    detail: str
    name: str = ""


class Repair(_Loose):
    attempt: int
    kind: str
    target: str
    reason: str
    before: Any = None
    after: Any = None
    rule: str = Field(default="", description="the id of the rule whose failure the repair mends (G1, G3 …)")


class Finding(_Loose):
    """What one rule of the judge found: which rule, whether the output holds it, and where it fired.

    Every gate and check gives one finding; a rule that fired on several items (steps, evidence)
    gives one more per item, each naming it (``chat.now[1]``, ``recommendations[0]``, ``E03``)."""

    rule: str = Field(description="the rule's id (G1 … G4, EG1 …, PV1 …): docs/harness.md explains each")
    name: str = ""
    passed: bool
    item: str | None = Field(default=None, description="where it fired: an item of the output or an evidence id")
    detail: str = ""


class CheckResult(_Loose):
    """One rubric check: a stable code, the dimension it scores, the points it gave."""

    code: str
    dimension: str
    name: str
    passed: bool
    points: float
    max_points: float
    detail: str = ""


class ConfidenceBreakdown(_Loose):
    independent_source_groups: list[str] = Field(default_factory=list)
    confidence_gate_passed: bool | None = None
    stated_confidence: str | None = None
    final_confidence: str | None = None
    harness_score: float | None = None
    repairs: int = 0
    ranker_deltas: dict[str, Any] | None = None
    self_check_adjustment: Any = None
    root_cause_evidence: list[str] = Field(default_factory=list, description="live evidence ids supporting the cause")
    signature_confirmed: bool = False
    diagnostics: dict[str, Any] | None = Field(default=None, description="the capture's own confidence_diagnostics")
    refuted_by: list[str] = Field(default_factory=list, description="live evidence contradicting the root cause")
    adjustments: list[str] = Field(default_factory=list, description="why the harness changed the confidence")


class HarnessVerdict(Contract):
    analysis_hash: Identifier
    result_id: Identifier | None = None
    job_id: JobId | None = None
    verdict: Verdict
    reasons: list[str] = Field(default_factory=list, description="why the verdict is not pass, in order")
    score: float
    pass_score: float = 70
    dimensions: dict[str, float] = Field(default_factory=dict)
    checks: list[CheckResult] = Field(default_factory=list)
    hard_gates: list[GateResult] = Field(default_factory=list)
    findings: list[Finding] = Field(
        default_factory=list, description="every rule's result, and each item a rule fired on, by rule id"
    )
    repairs: list[Repair] = Field(default_factory=list)
    evidence: list[LedgerEvidence] = Field(default_factory=list)
    claims: list[LedgerClaim] = Field(default_factory=list)
    repaired_report: str = ""
    repaired_diagnosis: Diagnosis | None = None
    confidence_breakdown: ConfidenceBreakdown = Field(default_factory=ConfidenceBreakdown)
    parsed: ParsedRCA
    evaluated_at: datetime = Field(default_factory=utcnow)
