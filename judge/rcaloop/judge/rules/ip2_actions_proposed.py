"""At least one action is proposed."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("IP2", "actions_proposed", "check", __doc__, dimension="investigation_plan", points=6)
def RULE(f: Facts) -> Outcome:
    n = len(f.proposed)
    return Outcome(n >= 1, f"{n} proposed action(s)")
