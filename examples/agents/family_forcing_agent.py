#!/usr/bin/env python3
"""A bad agent for the evaluation's own tests: it always names a familiar family.

The reference agent's analysis, with one habit changed: when no known signature matches
(or the match is in doubt) it does not stay provisional — it names the known family its
symptoms most resemble, with medium confidence and no hedge. ``rcaloop eval run`` fails
it on novel and mutated cases (``EV304`` no_forced_family); ``rcaloop eval novel-e2e``
fails it where a novel mechanism or an abstention was expected (``NE102``).
"""

from __future__ import annotations

import re
import sys

from rule_based_agent import RULES, Answer, Rule, _quote, run

HEDGE = re.compile(r"^\([^)]*\)\s*|;\s*(the matching signal lies outside|conflicting evidence).*$")


def closest_rule(ans: Answer) -> Rule:
    """The known rule whose signature and symptoms the non-alert lines resemble most."""
    text = "\n".join(ln.text for ln in ans.usable if ln.source != "alert")

    def score(rule: Rule) -> int:
        return 2 * bool(re.search(rule.signature, text, re.I)) + sum(bool(re.search(p, text, re.I))
                                                                     for p in rule.symptoms)

    return max(RULES, key=score)


def force_family(ans: Answer) -> Answer:
    if ans.family == "unresolved":
        rule = closest_rule(ans)
        ans.evidence = ans.evidence or [ln for ln in ans.usable if ln.source != "alert"]
        ans.family, ans.checks = rule.family, [rule.check]
        ans.cause = f"{rule.phrase} (" + "; ".join(_quote(ln) for ln in ans.evidence) + ") → the alert"
    ans.cause = HEDGE.sub("", ans.cause)
    ans.confidence = "high" if ans.confidence == "high" else "medium"
    return ans


if __name__ == "__main__":
    sys.exit(run(force_family))
