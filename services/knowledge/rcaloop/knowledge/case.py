"""The promotion case: one review paired with its harness verdict (pure).

Everything the promotion rules look at is derived here once, so each rule stays a
one-line question about a ``PromotionCase``. What the store knows beyond the pair — a
later re-analysis of the same subject — and the settings (the review score floor) come
in as plain fields.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import ValidationError

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import TraceHypothesis, TraceLedger, TraceObservation
from rcaloop.contracts.parsed import Diagnosis
from rcaloop.contracts.results import EvidenceArtifact
from rcaloop.contracts.verdict import CLOCK_SKEW, EVIDENCE_LOOKBACK, LedgerClaim, LedgerEvidence

VERIFIED_OUTCOMES = ("resolved", "mitigated")
DEFAULT_MIN_REVIEW_SCORE = 3
"""Every item of an operator evaluation must score at least this (0–5) for the review to pass."""
CANONICAL_EVIDENCE_ID = re.compile(r"^E\d{2,}$")
"""Harness-assigned evidence ids (``E01`` …); agent-chosen ids are not canonical."""


def normalize_family(family: str | None) -> str | None:
    """``DNS-Resolution`` and ``dns resolution`` name the same family."""
    if family is None:
        return None
    text = re.sub(r"[\s\-/]+", "_", family.strip().casefold()).strip("_")
    return text or None


@dataclass(frozen=True)
class PromotionCase:
    review: AnnotationRecord
    verdict: HarnessVerdict
    ledger: TraceLedger | None
    ledger_error: str | None = None
    min_review_score: int = DEFAULT_MIN_REVIEW_SCORE
    superseded_by: str | None = None
    """The analysis_hash of a later analysis of the same subject, when there is one."""

    @property
    def ledger_present(self) -> bool:
        """The capture exported a trace-v3 ledger (readable or not): then the ledger path decides."""
        return self.ledger is not None or self.ledger_error is not None

    # -- families --------------------------------------------------------------------
    @property
    def diagnosis(self) -> Diagnosis | None:
        return self.verdict.repaired_diagnosis or self.verdict.parsed.diagnosis

    @property
    def claim_family(self) -> str | None:
        """The family the harness's root-cause claim names (after its repairs)."""
        for diagnosis in (self.verdict.repaired_diagnosis, self.verdict.parsed.diagnosis):
            if diagnosis is None:
                continue
            family = diagnosis.family or (diagnosis.root_cause.category if diagnosis.root_cause else None)
            if family:
                return normalize_family(family)
        return None

    @property
    def reviewer_family(self) -> str | None:
        if self.review.evaluation is not None:
            return normalize_family(self.review.evaluation.expected_family)
        if self.review.annotation is not None:
            return normalize_family(self.review.annotation.root_cause.category)
        return None

    @property
    def snapshot_family(self) -> str | None:
        """The family of the reviewed case snapshot: the reviewer's, else the one captured."""
        if self.reviewer_family:
            return self.reviewer_family
        parsed = self.verdict.parsed.diagnosis
        if parsed is None:
            return None
        return normalize_family(parsed.family or (parsed.root_cause.category if parsed.root_cause else None))

    # -- harness claim ledger ----------------------------------------------------------
    @property
    def root_claim(self) -> LedgerClaim | None:
        return next((c for c in self.verdict.claims if c.kind == "root_cause"), None)

    @property
    def evidence_ids(self) -> set[str]:
        return {e.id for e in self.verdict.evidence}

    @property
    def run_evidence(self) -> dict[str, LedgerEvidence]:
        """The run's evidence by every id it is known by: the harness id (``E01`` …) and the
        id the agent gave the artifact (a ledger names the agent's ids)."""
        by_id = {e.agent_id: e for e in self.verdict.evidence if e.agent_id}
        return by_id | {e.id: e for e in self.verdict.evidence}

    # -- the root-cause claim's tied evidence, as the run shows it ---------------------------
    @property
    def tied(self) -> list[tuple[str, LedgerEvidence | None]]:
        """Each evidence id the root-cause claim rests on — its support, and the evidence the
        harness counted as corroborating it — with the run's item (None: no such item)."""
        claim = self.root_claim
        ids = [*claim.supports, *(claim.corroborating or [])] if claim else []
        by_id = {e.id: e for e in self.verdict.evidence}
        return [(i, by_id.get(i)) for i in dict.fromkeys(ids)]

    def artifact_of(self, item: LedgerEvidence) -> EvidenceArtifact | None:
        """The run's artifact the item was read from, if the run holds it: by the agent's id, or —
        for an artifact the agent gave no id — by its collector and text."""
        artifacts = self.verdict.parsed.artifacts
        if item.agent_id:
            return next((a for a in artifacts if a.id == item.agent_id), None)
        said = item.text.strip()
        return next((a for a in artifacts if not a.id and a.source == item.source and said
                     and (a.text or "").strip().startswith(said[:200])), None)

    def item_observed_at(self, item: LedgerEvidence) -> datetime | None:
        """When the item was observed: the verdict's record, else its artifact's."""
        artifact = self.artifact_of(item)
        return _utc(item.observed_at or (artifact.observed_at if artifact else None))

    @property
    def window(self) -> tuple[datetime | None, datetime]:
        """The incident window evidence must lie in: from ``EVIDENCE_LOOKBACK`` before the incident
        started (open when the run states no start) to the judgement (``CLOCK_SKEW`` allowed)."""
        start, judged = self.incident_started_at, self.verdict.evaluated_at
        judged = judged if judged.tzinfo else judged.replace(tzinfo=UTC)
        return (start - EVIDENCE_LOOKBACK if start else None), judged + CLOCK_SKEW

    @property
    def final_confidence(self) -> str | None:
        """The confidence the verdict passed the diagnosis at (after the harness's repairs)."""
        stated = self.verdict.confidence_breakdown.final_confidence
        root = self.diagnosis.root_cause if self.diagnosis else None
        return (stated or (root.confidence if root else None) or "").strip().lower() or None

    # -- times: the run's own, else the ledger's ------------------------------------------
    @property
    def incident_started_at(self) -> datetime | None:
        """When the incident started: the time the run's output states, else the ledger's."""
        return _utc(self.verdict.parsed.incident_started_at
                    or (self.ledger.incident_started_at if self.ledger else None))

    def observed_at(self, observation: TraceObservation) -> datetime | None:
        """When the evidence was observed: its artifact's time in the run (found by the
        agent's id or the harness id's artifact), else the time the ledger gives it."""
        known = self.run_evidence.get(observation.evidence_id)
        ids = {observation.evidence_id, *([known.agent_id] if known and known.agent_id else [])}
        artifact = next((a for a in self.verdict.parsed.artifacts if a.id in ids and a.observed_at), None)
        return _utc(artifact.observed_at if artifact else observation.observed_at)

    # -- trace-v3 ledger -------------------------------------------------------------
    @property
    def root_hypotheses(self) -> list[TraceHypothesis]:
        return [h for h in (self.ledger.hypotheses if self.ledger else []) if h.is_root_cause]

    @property
    def root_hypothesis(self) -> TraceHypothesis | None:
        roots = self.root_hypotheses
        return roots[0] if len(roots) == 1 else None

    @property
    def verified_actions(self) -> list[str]:
        """Only actions an operator confirmed resolved or mitigated; a recommendation proves nothing."""
        evaluation = self.review.evaluation
        if evaluation is None or evaluation.resolution_outcome not in VERIFIED_OUTCOMES:
            return []
        actions = [
            *evaluation.verified_actions,
            *([evaluation.action_that_worked] if evaluation.action_that_worked else []),
        ]
        return list(dict.fromkeys(a.strip() for a in actions if a and a.strip()))


def content_key(item: LedgerEvidence) -> str:
    """What an item says, as one key: its traceability (file and path) when it has both, else its
    text (or title) with case, spacing and invisible characters set aside. Two items with one key
    are one observation, whatever collector each is filed under."""
    if item.source_file and item.json_path:
        return f"{item.source_file}#{item.json_path}"
    text = unicodedata.normalize("NFKC", item.text or item.title)
    return " ".join("".join(c for c in text if unicodedata.category(c) != "Cf").casefold().split())


def _utc(at: datetime | None) -> datetime | None:
    """A time without a zone is UTC (so any two times compare)."""
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def trace_ledger(verdict: HarnessVerdict) -> tuple[TraceLedger | None, str | None]:
    """The trace-v3 ledger the agent exported (``confidence_diagnostics.trace_v3``), if any."""
    diagnostics = verdict.parsed.diagnosis.confidence_diagnostics if verdict.parsed.diagnosis else None
    raw = (diagnostics or {}).get("trace_v3")
    if raw is None:
        return None, None
    if not isinstance(raw, dict):
        return None, "confidence_diagnostics.trace_v3 is not an object"
    try:
        return TraceLedger.model_validate(raw), None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return None, f"confidence_diagnostics.trace_v3.{where}: {first['msg']}"


def case_for(
    review: AnnotationRecord,
    verdict: HarnessVerdict,
    *,
    min_review_score: int = DEFAULT_MIN_REVIEW_SCORE,
    superseded_by: str | None = None,
) -> PromotionCase:
    ledger, error = trace_ledger(verdict)
    return PromotionCase(
        review=review, verdict=verdict, ledger=ledger, ledger_error=error,
        min_review_score=min_review_score, superseded_by=superseded_by,
    )
