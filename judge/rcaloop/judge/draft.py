"""The working copy of one RCA that repairs edit and every check re-reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rcaloop.contracts import ParsedRCA, Recommendation, TraceItem
from rcaloop.contracts.parsed import Claim, Diagnosis
from rcaloop.judge import steps as actions, evidence, phrasing, report
from rcaloop.judge.steps import Action
from rcaloop.judge.actions import classify

CONFIDENCES = ("low", "medium", "high")
EARLY_EXITS = ("not_applicable", "insufficient_context")


def stated_confidence(parsed: ParsedRCA) -> str | None:
    """RCA_FIELDS' confidence, else the diagnosis's root-cause confidence."""
    if parsed.fields.confidence:
        return parsed.fields.confidence
    rc = parsed.diagnosis.root_cause if parsed.diagnosis else None
    value = (rc.confidence or "").strip().lower() if rc else ""
    return value if value in CONFIDENCES else None


NO_FAMILY = frozenset({"", "unknown", "undetermined", "unresolved", "novel", "none", "n/a"})


UNDETERMINED = re.compile(
    r"^\W*(?:unknown|undetermined|unclear|not (?:yet )?(?:determined|known|clear)|no (?:root )?cause|"
    r"cannot (?:yet )?(?:determine|tell)|inconclusive|unresolved)\b",
    re.I,
)
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
    if draft.parsed.source_kind == "skill_text" and summary and not undetermined(summary):
        return STATED_CAUSE
    return None


def _is_step(text: str) -> bool:
    """A line that proposes doing something (a change or a check), not a statement of fact."""
    step = classify(text)
    return bool(step.verb or step.read_only_before)


HEDGE = re.compile(r"\b(?:but|however|though|although|likely|probably|possibly|suspect\w*|perhaps|seems?|appears?)\b|[:;]", re.I)


def undetermined(cause: str) -> bool:
    """The whole statement says the cause is not known ("unknown for certain, but the image …" names one)."""
    return bool(UNDETERMINED.search(cause)) and not HEDGE.search(cause)


_LEAD = re.compile(r"^\W*(?:(?:so|and|but|then|just|however|therefore|also)\b[\s,]*)+", re.I)
_MISSING = re.compile(
    r"\b(?:no|not|missing|insufficient|unknown|undetermined|unclear|unavailable|inconclusive|without|lacking|"
    r"cannot|can't|unable|n/a|not applicable|out of scope|staging|not ours)\b",
    re.I,
)
_CONNECTIVE = re.compile(
    r":\s|\b(?:caused by|due to|because of|owing to|triggered by|driven by|resulting from|cause[sd]?\s*:)", re.I
)
_AFTER = re.compile(r"\s(?:after|following|from|since|by|via)\s", re.I)
_WHEN = re.compile(
    r"\b(?:utc|gmt|midnight|noon|morning|afternoon|evening|night|today|yesterday|hours?|minutes?|days?|weeks?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|start|started|began|onset|onwards?|alert|fired|firing|incident)\b",
    re.I,
)


def _names_cause(title: str, part: str) -> bool:
    """A title that attributes the symptom (``<symptom>: <cause>``, ``caused by``, ``due to``, or
    ``after`` / ``from`` something that is no time) names a cause unless what it attributes it to
    is what is missing or unknown."""
    if _MISSING.search(part) or phrasing.UNKNOWN.search(part):
        return False
    if _CONNECTIVE.search(title):
        return True
    return bool(_AFTER.search(title)) and bool(re.search(r"[A-Za-z]{4,}", _WHEN.sub("", part)))


_PROPOSAL = re.compile(r"\b(?:should|must|need(?:s)? to|have to|recommend\w*|suggest\w*|please|consider)\b|`", re.I)


def _proposes(clause: str) -> bool:
    """A clause that proposes a step (it opens with the verb or a command, or says one should): judged
    as an action, not as a cause. A clause that merely names a verb ("the reindex job locked …") is a statement."""
    text = _LEAD.sub("", clause)
    step = classify(text)
    if not step.verb:
        return False
    first = text.split(None, 1)[0].lower() if text.split() else ""
    if first.endswith(("ing", "ed")) and not _PROPOSAL.search(text):  # "causing the latency": a participle, no imperative
        return False
    return "command" in step.why or first == step.verb.split()[0].lower() or bool(_PROPOSAL.search(text))


def _states_cause(text: str) -> bool:
    """A clause of the text asserts a cause, and is not a step to take."""
    return any(not _proposes(c) for c in phrasing.cause_clauses(text))


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

    @property
    def diagnosis(self) -> Diagnosis | None:
        return self.parsed.diagnosis

    @classmethod
    def start(cls, parsed: ParsedRCA) -> Draft:
        diag = parsed.diagnosis
        sequences = actions.sequences(parsed)
        return cls(
            parsed=parsed,
            evidence=evidence.collect(parsed),
            report=parsed.report_markdown,
            confidence=stated_confidence(parsed),
            traces=[t.model_copy() for t in diag.evidence] if diag else [],
            agent_claims=[c.model_copy() for c in diag.claims] if diag else [],
            recommendations=[r.model_copy() for r in diag.recommendations] if diag else [],
            sequences=sequences,
            as_produced=[v for seq in sequences for v in actions.violations(seq)],
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
        named = named_family(self) is not None or bool(ranked) or bool(diag and diag.claims) or bool(self.reason_cause())
        proposed = any(_is_step(a.text) for seq in self.sequences for a in seq if not a.prohibition)
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
        section = report.section(p.report_markdown, "summary", "root cause", "cause").split("\n\n")[0].strip()
        for text in (p.outcome_reason or "", summary, section):
            if _states_cause(text):
                return text
        if p.title and p.title not in (p.alert_text or ""):  # a title that is the alert's states nothing of its own
            for part in phrasing.title_parts(p.title)[1]:
                if _states_cause(part) or _names_cause(p.title, part):
                    return p.title
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
