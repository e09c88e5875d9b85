"""The promotion case: one passed review paired with its harness verdict (pure).

Everything the promotion rules look at is derived here once, so each rule stays a
one-line question about a ``PromotionCase``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import ValidationError

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import TraceHypothesis, TraceLedger
from rcaloop.contracts.parsed import Diagnosis
from rcaloop.contracts.verdict import LedgerClaim

VERIFIED_OUTCOMES = ("resolved", "mitigated")
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


def case_for(review: AnnotationRecord, verdict: HarnessVerdict) -> PromotionCase:
    ledger, error = trace_ledger(verdict)
    return PromotionCase(review=review, verdict=verdict, ledger=ledger, ledger_error=error)
