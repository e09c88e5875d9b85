"""A title and a TL;DR or summary an operator reads first."""

from __future__ import annotations

from rcaloop.judge.facts import Facts, summary_present
from rcaloop.judge.rules.base import Outcome, rule


@rule("OU1", "summary_present", "check", __doc__, dimension="operational_usefulness", points=5)
def RULE(f: Facts) -> Outcome:
    ok = bool(f.draft.parsed.title) and summary_present(f.draft)
    return Outcome(ok, "title and summary present" if ok else "title or TL;DR/summary missing")
