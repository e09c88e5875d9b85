"""A permanent fix is proposed: `Permanent fixes`, a recommendation with a file or of medium/low priority, or two
recommendations."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("OU3", "permanent_fix", "check", __doc__, dimension="operational_usefulness", points=5)
def RULE(f: Facts) -> Outcome:
    p = f.draft.parsed
    permanent = bool(p.chat and p.chat.sections.permanent_fixes)
    recs = f.draft.recommendations
    lasting = any(r.file or (r.priority or "").lower() in ("medium", "low") for r in recs)
    ok = permanent or lasting or len(recs) >= 2
    return Outcome(ok, "a permanent fix is proposed" if ok else "no permanent fix")
