"""A proposed step verifies read-only (before any mutation in it)."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("IP1", "read_only_verification", "check", __doc__, dimension="investigation_plan", points=8)
def RULE(f: Facts) -> Outcome:
    steps = [a for a in f.proposed if a.reading.checked]
    return Outcome(bool(steps), f"read-only step: {steps[0].origin}" if steps else "no read-only verification step")
