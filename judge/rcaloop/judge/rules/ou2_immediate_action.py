"""An immediate step is given: a `Now` step, a high-priority recommendation or a section of steps."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.reading.places import Role
from rcaloop.judge.rules.base import Outcome, rule


@rule("OU2", "immediate_action", "check", __doc__, dimension="operational_usefulness", points=5)
def RULE(f: Facts) -> Outcome:
    p = f.draft.parsed
    now = bool(p.chat and p.chat.sections.now)
    high = any((r.priority or "").lower() in ("high", "critical", "p1") for r in f.draft.recommendations)
    section = any(a.role in (Role.ACTION, Role.CHECK) and a.origin.startswith("report") for a in f.actions)
    ok = now or high or section
    return Outcome(ok, "an immediate action is given" if ok else "no immediate action")
