"""The judge's rules, one module each, collected in ``REGISTRY``: the list is the specification.

Each rule has an id, the paragraph a user reads (its module's docstring), and the function that
judges the facts read once from an output. ``docs/harness.md`` is generated from this list, the
verdict names every rule that fired and the items it fired on, and a test makes sure each rule has
cases in the labelled corpora where it fires and where it holds.
"""

from __future__ import annotations

from rcaloop.contracts.verdict import DIMENSION_WEIGHTS, CheckResult, Finding, GateResult
from rcaloop.judge.facts import Facts
from rcaloop.judge.rules import (
    dr1_root_cause_stated,
    dr2_alternatives_considered,
    dr3_alternatives_ruled_out,
    dr4_causal_chain,
    eg1_live_evidence,
    eg2_root_cause_supported,
    eg3_no_fabricated_evidence,
    eg4_independent_source_groups,
    g1_high_confidence,
    g2_root_cause_traced,
    g3_mutation_guarded,
    g4_generic_alert_family,
    ip1_read_only_verification,
    ip2_actions_proposed,
    ip3_actions_specific,
    ou1_summary_present,
    ou2_immediate_action,
    ou3_permanent_fix,
    sf1_mutations_guarded,
    sf2_no_red_flag,
    uc1_confidence_stated,
    uc2_confidence_matches_evidence,
    uc3_missing_data_acknowledged,
)
from rcaloop.judge.rules.base import Hit, Outcome, Rule

REGISTRY: tuple[Rule, ...] = (
    g1_high_confidence.RULE,
    g2_root_cause_traced.RULE,
    g3_mutation_guarded.RULE,
    g4_generic_alert_family.RULE,
    eg1_live_evidence.RULE,
    eg2_root_cause_supported.RULE,
    eg3_no_fabricated_evidence.RULE,
    eg4_independent_source_groups.RULE,
    dr1_root_cause_stated.RULE,
    dr2_alternatives_considered.RULE,
    dr3_alternatives_ruled_out.RULE,
    dr4_causal_chain.RULE,
    ip1_read_only_verification.RULE,
    ip2_actions_proposed.RULE,
    ip3_actions_specific.RULE,
    uc1_confidence_stated.RULE,
    uc2_confidence_matches_evidence.RULE,
    uc3_missing_data_acknowledged.RULE,
    ou1_summary_present.RULE,
    ou2_immediate_action.RULE,
    ou3_permanent_fix.RULE,
    sf1_mutations_guarded.RULE,
    sf2_no_red_flag.RULE,
)
GATES: tuple[Rule, ...] = tuple(r for r in REGISTRY if r.kind == "gate")
CHECKS: tuple[Rule, ...] = tuple(r for r in REGISTRY if r.kind == "check")
BY_ID: dict[str, Rule] = {r.id: r for r in REGISTRY}

assert len(BY_ID) == len(REGISTRY), "rule ids are unique"
assert {d: sum(c.points for c in CHECKS if c.dimension == d) for d in DIMENSION_WEIGHTS} == DIMENSION_WEIGHTS

ALWAYS_JUDGED = frozenset({"SF1", "SF2"})
"""Rules an early exit that claims nothing is judged on too: what it still contains can be unsafe or leak."""


Outcomes = dict[str, Outcome]


def judge(f: Facts, *, only: frozenset[str] | None = None, reason: str = "") -> Outcomes:
    """Every rule's outcome, by id; with ``only``, the other rules do not apply and hold (``reason``)."""
    return {r.id: r.judge(f) if only is None or r.id in only else Outcome(True, reason) for r in REGISTRY}


def gate_results(outcomes: Outcomes) -> list[GateResult]:
    return [GateResult(gate=g.id, name=g.name, passed=outcomes[g.id].passed, detail=outcomes[g.id].detail)
            for g in GATES]


def check_results(outcomes: Outcomes) -> list[CheckResult]:
    out = []
    for c in CHECKS:
        o = outcomes[c.id]
        out.append(CheckResult(code=c.id, dimension=c.dimension or "", name=c.name, passed=o.passed,
                               points=float(c.points) if o.passed else 0.0, max_points=float(c.points),
                               detail=o.detail))
    return out


def dimensions(checks: list[CheckResult]) -> tuple[dict[str, float], float]:
    dims = dict.fromkeys(DIMENSION_WEIGHTS, 0.0)
    for c in checks:
        dims[c.dimension] += c.points
    return dims, float(sum(dims.values()))


def findings(outcomes: Outcomes) -> list[Finding]:
    """One finding per rule, then one per item each failing rule fired on (in registry order)."""
    out: list[Finding] = []
    for r in REGISTRY:
        o = outcomes[r.id]
        out.append(Finding(rule=r.id, name=r.name, passed=o.passed, detail=o.detail))
        if not o.passed:
            out += [Finding(rule=r.id, name=r.name, passed=False, item=h.item, detail=h.detail) for h in o.hits]
    return out


def broken_as_written(outcomes: Outcomes) -> list[Rule]:
    """Rules held as the agent wrote the output that it breaks (the verdict is then never ``pass``)."""
    return [r for r in REGISTRY if r.as_written and not outcomes[r.id].passed]


__all__ = ["ALWAYS_JUDGED", "BY_ID", "CHECKS", "GATES", "REGISTRY", "Hit", "Outcome", "Rule", "check_results",
           "broken_as_written", "dimensions", "findings", "gate_results", "judge"]
