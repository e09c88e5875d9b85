"""A high-confidence cause needs two independent live evidence items (different source groups) or a
confirmed signature. Only live evidence tied to the root cause counts, each source group once: the
alert or failure being explained adds none, a collector rcaloop does not recognise adds none, and
one piece of content shipped under two collectors is one group."""

from __future__ import annotations

from rcaloop.judge.facts import Facts, ids
from rcaloop.judge.rules.base import Outcome, rule


@rule("G1", "high_confidence_grounding", "gate", __doc__)
def RULE(f: Facts) -> Outcome:
    if f.confidence != "high":
        return Outcome(True, f"confidence is {f.confidence or 'not stated'}, not high")
    if f.signature:
        return Outcome(True, f"high confidence backed by a confirmed signature: {', '.join(f.signature)}")
    if len(f.root_groups) >= 2:
        return Outcome(True, f"high confidence backed by live evidence from {len(f.root_groups)} source groups: "
                             f"{ids(f.root_live)}")
    return Outcome(False, f"high confidence but the root cause has live evidence from {len(f.root_groups)} source "
                          f"group(s) ({ids(f.root_live)}); needs two independent groups or a confirmed signature")
