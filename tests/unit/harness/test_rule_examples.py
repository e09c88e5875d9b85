"""Every rule in the rule lists has a passing and a failing example in the labelled set."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from rcaloop.contracts.verdict import DIMENSION_WEIGHTS
from rcaloop.judge import core, docs
from rcaloop.judge.config import HarnessConfig
from rcaloop.judge.gates import GATES
from rcaloop.judge.rubric import CHECKS
from tests.unit.harness.cases import CASES_DIR, all_cases


def _outcomes():
    seen: dict[str, set[bool]] = defaultdict(set)
    for case in all_cases():
        if case.parsed.outcome != "report" or not case.config.enabled:
            continue
        verdict = core.evaluate(case.parsed, HarnessConfig(max_repair_attempts=0))
        for g in verdict.hard_gates:
            seen[g.gate].add(g.passed)
        for c in verdict.checks:
            seen[c.code].add(c.passed)
    return seen


def test_every_gate_and_check_has_a_passing_and_a_failing_example():
    seen = _outcomes()
    codes = [g.code for g in GATES] + [c.code for c in CHECKS]
    missing = {code: sorted(seen[code]) for code in codes if seen[code] != {True, False}}
    assert not missing


def test_checks_add_up_to_the_dimension_weights():
    totals = defaultdict(int)
    for c in CHECKS:
        totals[c.dimension] += c.points
    assert dict(totals) == DIMENSION_WEIGHTS
    assert sum(DIMENSION_WEIGHTS.values()) == 100


def test_codes_are_unique():
    codes = [g.code for g in GATES] + [c.code for c in CHECKS]
    assert len(codes) == len(set(codes))


def test_docs_are_generated_from_the_rule_lists_and_examples_hold():
    assert set(docs.EXAMPLES) == {g.code for g in GATES} | {c.code for c in CHECKS}
    text = docs.render(docs.load_cases(CASES_DIR))  # raises ExampleError if an example misbehaves
    committed = Path(__file__).resolve().parents[3] / "docs" / "harness.md"
    assert committed.read_text(encoding="utf-8") == text, "regenerate: python -m rcaloop.judge.docs tests/fixtures/harness/cases > docs/harness.md"
    for rule in (*GATES, *CHECKS):
        assert f"{rule.code} `{rule.name}`" in text
