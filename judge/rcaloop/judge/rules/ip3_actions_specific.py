"""At least half of the proposed actions name their target (a `code span`, a path, a file or an identifier)."""

from __future__ import annotations

import re
from functools import lru_cache

from rcaloop.judge.actions import MAX_ACTION_CHARS
from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule

SPECIFIC = re.compile(r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b\w+[._]\w+|\b[a-z]+-[a-z0-9-]*\d", re.I)


@lru_cache(maxsize=4096)
def _specific(text: str) -> bool:
    return SPECIFIC.search(text[:MAX_ACTION_CHARS]) is not None


@rule("IP3", "actions_specific", "check", __doc__, dimension="investigation_plan", points=6)
def RULE(f: Facts) -> Outcome:
    proposed = f.proposed
    files = {r.action for r in f.draft.recommendations if r.file}
    vague = [a.origin for a in proposed if a.text not in files and not _specific(a.text)]
    ok = bool(proposed) and 2 * len(vague) <= len(proposed)
    named = len(proposed) - len(vague)
    return Outcome(ok, f"{named} of {len(proposed)} action(s) name a target" + (f"; vague: {', '.join(vague)}"
                                                                                 if vague else ""))
