"""The working copy of one RCA that repairs edit and every check re-reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from rcaloop.contracts import ParsedRCA, Recommendation, TraceItem
from rcaloop.contracts.parsed import Claim, Diagnosis
from rcaloop.harness import actions, evidence
from rcaloop.harness.actions import Action

CONFIDENCES = ("low", "medium", "high")


def stated_confidence(parsed: ParsedRCA) -> str | None:
    """RCA_FIELDS' confidence, else the diagnosis's root-cause confidence."""
    if parsed.fields.confidence:
        return parsed.fields.confidence
    rc = parsed.diagnosis.root_cause if parsed.diagnosis else None
    value = (rc.confidence or "").strip().lower() if rc else ""
    return value if value in CONFIDENCES else None


@dataclass
class Draft:
    parsed: ParsedRCA
    evidence: list[evidence.Evidence]
    report: str
    confidence: str | None
    traces: list[TraceItem]
    agent_claims: list[Claim]
    recommendations: list[Recommendation]
    sequences: list[list[Action]]
    dropped_traces: dict[int, str] = field(default_factory=dict)
    dropped_agent_claims: dict[int, str] = field(default_factory=dict)
    root_marked: str | None = None

    @property
    def diagnosis(self) -> Diagnosis | None:
        return self.parsed.diagnosis

    @classmethod
    def start(cls, parsed: ParsedRCA) -> Draft:
        diag = parsed.diagnosis
        return cls(
            parsed=parsed,
            evidence=evidence.collect(parsed),
            report=parsed.report_markdown,
            confidence=stated_confidence(parsed),
            traces=[t.model_copy() for t in diag.evidence] if diag else [],
            agent_claims=[c.model_copy() for c in diag.claims] if diag else [],
            recommendations=[r.model_copy() for r in diag.recommendations] if diag else [],
            sequences=actions.sequences(parsed, diag),
        )

    def repaired_diagnosis(self) -> Diagnosis | None:
        diag = self.diagnosis
        if diag is None:
            return None
        update: dict = {
            "evidence": [t for i, t in enumerate(self.traces) if i not in self.dropped_traces],
            "claims": [c for i, c in enumerate(self.agent_claims) if i not in self.dropped_agent_claims],
            "recommendations": self.recommendations,
        }
        if diag.root_cause is not None:
            rc = diag.root_cause.model_copy()
            if rc.confidence is not None or self.confidence != stated_confidence(self.parsed):
                rc.confidence = self.confidence
            if self.root_marked and rc.summary:
                rc.summary = self.root_marked
            update["root_cause"] = rc
        return diag.model_copy(update=update)
