"""The root cause is supported by live evidence from two independent source groups, or by a confirmed signature."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("EG4", "independent_source_groups", "check", __doc__, dimension="evidence_grounding", points=5)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    ok = len(f.root_groups) >= 2 or bool(f.signature)
    return Outcome(ok, f"root-cause evidence groups: {', '.join(f.root_groups) or 'none'}")
