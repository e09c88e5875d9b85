"""The difficulty rubric of the annotation workflow: seven criteria, capped at 10."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_SCORE = 10


@dataclass(frozen=True)
class Criterion:
    key: str
    points: int
    text: str


CRITERIA: tuple[Criterion, ...] = (
    Criterion("cross_source_correlation", 3, "Requires cross-source correlation (AAP + Splunk + GitHub)"),
    Criterion("code_behavior", 2, "Requires understanding code behavior"),
    Criterion("generic_error", 2, "Error message is generic or misleading"),
    Criterion("variable_precedence", 1, "Requires variable precedence/override knowledge"),
    Criterion("domain_knowledge", 1, "Requires domain knowledge (K8s, Ansible, cloud APIs)"),
    Criterion("multiple_alternatives", 1, "Multiple plausible alternatives exist"),
    Criterion("timing_dependencies", 1, "Timing dependencies are critical"),
)
BY_KEY = {c.key: c for c in CRITERIA}


@dataclass(frozen=True)
class RubricResult:
    score: int
    difficulty: str
    justification: str
    criteria: tuple[str, ...]


def label_for(score: float) -> str:
    """0–3 easy, 4–6 medium, 7–10 hard."""
    if score <= 3:
        return "easy"
    if score <= 6:
        return "medium"
    return "hard"


def score(criteria: Iterable[str]) -> RubricResult:
    """Sum the points of the named criteria (unknown names raise ``KeyError``), capped at 10."""
    chosen = tuple(dict.fromkeys(criteria))
    for key in chosen:
        if key not in BY_KEY:
            raise KeyError(f"unknown rubric criterion {key!r}; known: {', '.join(BY_KEY)}")
    raw = sum(BY_KEY[k].points for k in chosen)
    total = min(raw, MAX_SCORE)
    parts = [f"{BY_KEY[k].text} (+{BY_KEY[k].points})" for k in chosen]
    capped = f" (sum {raw}, capped at {MAX_SCORE})" if raw > MAX_SCORE else ""
    justification = (", ".join(parts) + "." if parts else "No rubric criterion applies.") + f" Total: {total}{capped}."
    return RubricResult(total, label_for(total), justification, chosen)
