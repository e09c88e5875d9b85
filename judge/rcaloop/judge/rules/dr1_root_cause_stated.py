"""The root cause is stated in at least six words."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.rules.base import Outcome, rule

MIN_ROOT_WORDS = 6


@rule("DR1", "root_cause_stated", "check", __doc__, dimension="diagnostic_reasoning", points=5)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    words = len(f.root.text.split()) if f.root else 0
    return Outcome(words >= MIN_ROOT_WORDS, f"root cause stated in {words} words (needs {MIN_ROOT_WORDS})")
