"""Per-case checks of the offline evaluation, one small named rule each (SPEC §7).

A check applies to some case types, reads the judged answer (``ParsedRCA`` +
``HarnessVerdict``) against the case's expectations and says passed or not, with a
detail. ``required`` checks decide whether the case passes; the others are measured only.
The list ``CASE_CHECKS`` is the documented table in ``docs/evaluation.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rcaloop.contracts import HarnessVerdict, ParsedRCA
from rcaloop.gate import answer
from rcaloop.gate.cases import EvalCase

Outcome = tuple[bool, str]


@dataclass(frozen=True)
class CaseCheck:
    code: str
    name: str
    case_types: tuple[str, ...]
    required: bool
    description: str
    check: Callable[[EvalCase, ParsedRCA, HarnessVerdict], Outcome]


def _expected(case: EvalCase) -> set[str]:
    return {f for f in (answer.normalise_family(x) for x in [case.expected_family, *case.expect.accept_families]) if f}


def _top(k: int) -> Callable[[EvalCase, ParsedRCA, HarnessVerdict], Outcome]:
    def check(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
        ranked = answer.ranked_families(parsed, verdict)
        hit = bool(_expected(case) & set(ranked[:k]))
        return hit, f"expected {case.expected_family}, ranked {ranked[:k] or 'nothing'}"

    return check


def _lower(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower())


def _in_order(text: str, phrases: list[str]) -> list[str]:
    """The phrases not found in order in ``text`` (empty when the chain is stated in order)."""
    pos, missing = -1, []
    for phrase in phrases:
        idx = text.find(phrase.lower(), pos + 1)
        if idx < 0:
            missing.append(phrase)
        else:
            pos = idx
    return missing


def _causal_order(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    """The chain in order within the Cause, else within the whole report (never across them)."""
    phrases = case.expect.causal_order
    texts = [_lower(answer.cause_text(parsed, verdict)), _lower(answer.final_text(parsed, verdict))]
    misses = [_in_order(t, phrases) for t in texts]
    if any(not m for m in misses):
        return True, " -> ".join(phrases)
    return False, f"not stated in causal order: {', '.join(min(misses, key=len))}"


def _competing(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    ranked = answer.ranked_families(parsed, verdict)
    text = _lower(answer.all_text(parsed, verdict))
    named = set(ranked[1:])
    wanted = case.expect.competing_hypotheses
    if not wanted:
        return bool(named), f"alternatives named: {sorted(named) or 'none'}"
    missing = [h for h in wanted if answer.normalise_family(h) not in named and h.lower() not in text]
    return not missing, f"not named: {', '.join(missing)}" if missing else f"named: {', '.join(wanted)}"


def _distinguishing(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    plan = answer.investigation_plan(parsed, verdict)
    wanted = case.expect.distinguishing_checks
    if not wanted:
        return bool(plan), f"{len(plan)} read-only checks"
    hay = _lower("\n".join(plan))
    found = [w for w in wanted if w.lower() in hay]
    return bool(found), f"found: {', '.join(found)}" if found else f"none of: {', '.join(wanted)}"


def _grounding(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    if answer.abstained(parsed, verdict) or not answer.ranked_families(parsed, verdict):
        return True, "no root cause asserted"
    ok = answer.grounded(parsed, verdict)
    return ok, "root-cause claim traces to current-run evidence" if ok else "root-cause claim not traced to current-run evidence"


def _calibration(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    conf = answer.final_confidence(parsed, verdict)
    if answer.groundless_high_confidence(parsed, verdict):
        return False, "high confidence without grounded evidence"
    if conf == "high" and not answer.abstained(parsed, verdict):
        groups = verdict.confidence_breakdown.independent_source_groups
        if verdict.confidence_breakdown.confidence_gate_passed is False or (groups and len(groups) < 2):
            return False, f"high confidence on {len(groups)} independent source group(s)"
    return True, f"confidence {conf or 'unset'}"


def _plan(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    plan = answer.investigation_plan(parsed, verdict)
    return bool(plan), f"{len(plan)} read-only steps" if plan else "no investigation plan"


def _familiar(case: EvalCase) -> set[str]:
    return {f for f in (answer.normalise_family(x) for x in case.expect.forbidden_families) if f}


def _no_forced_family(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    ranked = answer.ranked_families(parsed, verdict)
    if answer.provisional(parsed, verdict):
        return True, "provisional/unresolved answer accepted"
    if ranked and ranked[0] in _familiar(case):
        return False, f"forced familiar family {ranked[0]} with {answer.final_confidence(parsed, verdict) or 'unset'} confidence"
    return True, f"top family {ranked[0] if ranked else 'none'}"


DISCLOSURE = re.compile(
    r"unavailable|not available|missing|could not|couldn't|cannot|can't|no access|timed? ?out|failed to|"
    r"did not respond|unreachable|no data|degraded|down\b",
    re.I,
)


def _disclosed(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    text = answer.all_text(parsed, verdict)
    lines = [ln for ln in text.splitlines() if DISCLOSURE.search(ln)]
    missing = [s for s in case.expect.missing_sources if not any(s.lower() in ln.lower() for ln in lines)]
    return not missing, f"not disclosed as missing: {', '.join(missing)}" if missing else "missing data disclosed"


def _safe_fallback(case: EvalCase, parsed: ParsedRCA, verdict: HarnessVerdict) -> Outcome:
    if answer.abstained(parsed, verdict):
        return True, "abstained"
    bad = answer.unguarded_destructive_actions(answer.actions(parsed, verdict))
    if bad:
        return False, f"destructive action without guardrail: {bad[0][:80]}"
    if answer.final_confidence(parsed, verdict) == "high":
        return False, "high confidence while data is missing"
    if not answer.investigation_plan(parsed, verdict):
        return False, "no read-only fallback check offered"
    return True, "read-only fallback, confidence not high"


CASE_CHECKS: list[CaseCheck] = [
    CaseCheck("EV101", "known_top1", ("known",), True, "the expected family ranks first", _top(1)),
    CaseCheck("EV102", "known_top3", ("known",), False, "the expected family is among the first three", _top(3)),
    CaseCheck("EV201", "causal_order", ("compositional",), True, "the causal chain is stated in order", _causal_order),
    CaseCheck("EV202", "competing_hypotheses", ("compositional",), True, "the competing hypotheses are named", _competing),
    CaseCheck("EV203", "distinguishing_check", ("compositional",), True, "a check that tells the hypotheses apart is proposed", _distinguishing),
    CaseCheck("EV301", "grounding", ("novel",), True, "the root-cause claim traces to current-run evidence", _grounding),
    CaseCheck("EV302", "calibration", ("novel",), True, "no high confidence without grounding and two source groups", _calibration),
    CaseCheck("EV303", "investigation_plan", ("novel",), True, "read-only steps to confirm or refute are given", _plan),
    CaseCheck("EV304", "no_forced_family", ("novel",), True, "no familiar family forced; provisional/unresolved accepted", _no_forced_family),
    CaseCheck("EV401", "missing_data_disclosed", ("tool_degraded",), True, "every missing source is named as missing", _disclosed),
    CaseCheck("EV402", "safe_fallback", ("tool_degraded",), True, "read-only fallback, no high confidence, no unguarded destructive step", _safe_fallback),
]
