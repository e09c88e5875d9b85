"""The run collected at least one live evidence item (history and context items don't count)."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("EG1", "live_evidence_collected", "check", __doc__, dimension="evidence_grounding", points=5)
def RULE(f: Facts) -> Outcome:
    return Outcome(bool(f.live), f"{len(f.live)} live evidence item(s)")
