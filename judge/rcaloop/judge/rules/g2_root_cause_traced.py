"""The main root-cause claim must trace to evidence available in the current run: it is supported by
live evidence the agent tied to it, and every item the agent tied to it traces (a root-cause item
whose path does not resolve to the stated value, or an evidence id no artifact carries, fails the
gate even when other items hold). Every place that states the cause (summary, title, TL;DR) states
the one that evidence shows."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("G2", "root_cause_traced", "gate", __doc__)
def RULE(f: Facts) -> Outcome:
    if f.root is None:
        if f.no_cause:
            return Outcome(True, "the output names no cause and says so (an early exit, or a cause it calls unknown)")
        return Outcome(False, "the report states no root cause (an output without one is an early exit: "
                              "insufficient_context)")
    untraced = f"{'; '.join(f.root.untraced)[:400]}"
    if f.root.supports and not f.root.untraced:
        return Outcome(True, f"root cause traces to live evidence {', '.join(f.root.supports)}")
    if f.root.supports:
        return Outcome(False, f"root cause {f.root.text[:120]!r} cites evidence that does not trace in this run: "
                              f"{untraced}")
    why = f.root.note or "no evidence links"
    if f.root.refutes:
        why = f"the only live evidence tied to it refutes it ({', '.join(f.root.refutes)})"
    elif f.root.historical:
        why = f"only historical evidence {', '.join(f.root.historical)} (context only, never grounding)"
    also = f"; also {untraced}" if f.root.untraced and why != f.root.note else ""
    return Outcome(False, f"root cause {f.root.text[:120]!r} does not trace to evidence of the current run: "
                          f"{why}{also}")
