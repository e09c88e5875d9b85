"""The root-cause claim links to live evidence of this run that agrees with it."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("EG2", "root_cause_supported", "check", __doc__, dimension="evidence_grounding", points=10)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    if f.root is None:
        return Outcome(False, "no root-cause claim")
    return Outcome(bool(f.root.supports), f"root cause supported by {', '.join(f.root.supports) or 'nothing live'}")
