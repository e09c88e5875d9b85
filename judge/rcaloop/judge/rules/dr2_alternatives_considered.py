"""At least one alternative diagnosis is considered, or two candidates are ranked."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("DR2", "alternatives_considered", "check", __doc__, dimension="diagnostic_reasoning", points=5)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    diag = f.draft.diagnosis
    alts = len(diag.alternative_diagnoses) if diag else 0
    cands = len(diag.candidates) if diag else 0
    return Outcome(alts >= 1 or cands >= 2, f"{alts} alternative diagnoses, {cands} ranked candidates")
