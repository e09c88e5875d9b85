"""Contributing factors or a timeline connect the cause to the failure."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.reading import places
from rcaloop.judge.reading.places import Role
from rcaloop.judge.rules.base import Outcome, rule


@rule("DR4", "causal_chain", "check", __doc__, dimension="diagnostic_reasoning", points=5)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    diag = f.draft.diagnosis
    factors = len(diag.contributing_factors) if diag else 0
    timeline = bool(places.section_of(f.draft.parsed.report_markdown, Role.TIMELINE))
    return Outcome(factors >= 1 or timeline, f"{factors} contributing factor(s), timeline section: {timeline}")
