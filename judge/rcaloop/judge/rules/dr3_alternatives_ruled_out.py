"""Each alternative says why it is wrong (``why_wrong``, contradicting evidence, or in its own words: ``ruled out: the
container is Running``); a capture's ranked list leads with the named family."""

from __future__ import annotations

from rcaloop.judge.facts import NO_CAUSE, Facts
from rcaloop.judge.reading import causes
from rcaloop.judge.rules.base import Outcome, rule


@rule("DR3", "alternatives_ruled_out", "check", __doc__, dimension="diagnostic_reasoning", points=5)
def RULE(f: Facts) -> Outcome:
    if f.no_cause:
        return Outcome(True, NO_CAUSE)
    diag = f.draft.diagnosis
    alts = diag.alternative_diagnoses if diag else []
    if not alts:
        ranked = bool(diag and len(diag.candidates) >= 2 and diag.family and diag.family == diag.candidates[0])
        return Outcome(ranked,
                       "ranked candidates with the named family first" if ranked else "no alternative ruled out")
    open_ = [a.category or a.summary or "?" for a in alts
             if not (a.why_wrong or a.contradicting_evidence or causes.gives_reason(a.summary or ""))]
    return Outcome(not open_, f"alternatives without a reason: {', '.join(open_)}" if open_
                   else "each alternative has a reason")
