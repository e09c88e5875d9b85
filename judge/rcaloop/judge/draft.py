"""The working copy of one RCA that repairs edit and every check re-reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from rcaloop.contracts import ParsedRCA, Recommendation, TraceItem
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.parsed import Claim, Diagnosis
from rcaloop.judge import evidence, provenance
from rcaloop.judge import steps as actions
from rcaloop.judge.reading import causes, places
from rcaloop.judge.reading.places import Role
from rcaloop.judge.steps import Action

CONFIDENCES = ("low", "medium", "high")
EARLY_EXITS = ("not_applicable", "insufficient_context")


UNREADABLE_CONFIDENCE = "RCA308"
"""The parser's warning for a confidence that is not high, medium or low (it ignores the value)."""


def judged_confidence(parsed: ParsedRCA) -> str | None:
    """The confidence the output is held to: what it states, and the most it could claim (high) when what it
    wrote cannot be read (``confidence: certain``): an unreadable claim never earns less scrutiny."""
    stated = stated_confidence(parsed)
    if stated is None and any(w.code == UNREADABLE_CONFIDENCE for w in parsed.warnings):
        return "high"
    return stated


def stated_confidence(parsed: ParsedRCA) -> str | None:
    """RCA_FIELDS' confidence, else the diagnosis's root-cause confidence."""
    if parsed.fields.confidence:
        return parsed.fields.confidence
    rc = parsed.diagnosis.root_cause if parsed.diagnosis else None
    value = (rc.confidence or "").strip().lower() if rc else ""
    return value if value in CONFIDENCES else None


NO_FAMILY = frozenset({"", "unknown", "undetermined", "unresolved", "novel", "none", "n/a"})


STATED_CAUSE = "the cause it states"


def named_family(draft: Draft) -> str | None:
    """The specific root-cause family the output names: the capture's family, else its category;
    a skill report has neither, so a Cause it states (unless it says the cause is unknown) names one."""
    diag = draft.diagnosis
    if diag is None:
        return None
    for value in (diag.family, diag.root_cause.category if diag.root_cause else None):
        if value and value.strip().lower() not in NO_FAMILY:
            return value.strip()
    summary = diag.root_cause.summary if diag.root_cause else None
    if draft.parsed.source_kind == "skill_text" and summary and not causes.undetermined(summary):
        return STATED_CAUSE
    return None


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
    as_produced: list[actions.Violation] = field(default_factory=list)
    """Unguarded mutating steps as the agent wrote them (the safety checks judge these, not the repaired copy)."""
    confidence_lowered_for: set[str] = field(default_factory=set)
    """Reasons confidence was already lowered for (each lowers it once)."""
    provenance: provenance.Findings = field(default_factory=provenance.Findings)
    catalog: FamilyCatalog | None = None
    """The family catalog the root cause's signatures are read against (None: the bundled one)."""
    """What the run's items can show: those that support nothing, and copies of one observation."""

    @property
    def diagnosis(self) -> Diagnosis | None:
        return self.parsed.diagnosis

    @classmethod
    def start(cls, parsed: ParsedRCA, catalog: FamilyCatalog | None = None) -> Draft:
        diag = parsed.diagnosis
        sequences = actions.sequences(parsed)
        collected = evidence.collect(parsed)
        return cls(
            parsed=parsed,
            evidence=collected,
            provenance=provenance.read(parsed, collected),
            report=parsed.report_markdown,
            confidence=judged_confidence(parsed),
            traces=[t.model_copy() for t in diag.evidence] if diag else [],
            agent_claims=[c.model_copy() for c in diag.claims] if diag else [],
            recommendations=[r.model_copy() for r in diag.recommendations] if diag else [],
            sequences=sequences,
            as_produced=actions.all_violations(sequences),
            catalog=catalog,
        )

    @property
    def early_exit(self) -> bool:
        return self.parsed.outcome in EARLY_EXITS

    def claims_something(self) -> bool:
        """A named family or cause, a ranked candidate, a claim, a proposed action, or a confidence
        above low: something to judge.

        An early exit that claims nothing passes as it is; one that still names a family,
        ranks candidates, asserts claims, proposes an action or states medium/high confidence
        is judged like any report.
        """
        diag = self.diagnosis
        ranked = [c for c in (diag.candidates if diag else []) if c.strip().lower() not in NO_FAMILY]
        named = named_family(self) is not None or bool(ranked) or bool(diag
                                                                       and diag.claims) or bool(self.reason_cause())
        proposed = any(a.reading.verb or a.reading.checked for seq in self.sequences for a in seq
                       if not a.prohibition)
        return named or proposed or self.confidence in ("medium", "high")

    def reason_cause(self) -> str | None:
        """The early exit's reason, summary, Summary section or title when it goes on to state a
        cause ("logs are missing, but the secret_id expired, so …", "the reindex job is locking the
        orders table", "latency caused by the reindex job"): then that text is the root-cause
        statement to judge. A proposal to do something states no cause (it is judged as an action)."""
        if not self.early_exit:
            return None
        p, diag = self.parsed, self.diagnosis
        summary = diag.root_cause.summary if diag and diag.root_cause and diag.root_cause.summary else ""
        section = places.section_of(p.report_markdown, Role.SUMMARY, Role.CAUSE).split("\n\n")[0].strip()
        for text in (p.outcome_reason or "", summary, section):
            if causes.asserts_cause(text) and not causes.undetermined(text) and not causes.disclaims(text):
                return text  # "I cannot name a cause. … because CPU was low …" states a fact, not a cause
        if p.title and p.title not in (p.alert_text or "") and causes.title_states_cause(p.title):
            return p.title  # a title that is the alert's states nothing of its own
        return None

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
