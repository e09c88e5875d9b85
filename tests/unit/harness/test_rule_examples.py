"""Every rule in the registry has a passing and a failing example, and the docs are generated from it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from rcaloop.contracts.verdict import DIMENSION_WEIGHTS
from rcaloop.judge import core, docs
from rcaloop.judge.config import HarnessConfig
from rcaloop.judge.rules import CHECKS, GATES, REGISTRY
from tests.unit.harness.cases import CASES_DIR, all_cases


def _outcomes():
    seen: dict[str, set[bool]] = defaultdict(set)
    for case in all_cases():
        if case.parsed.outcome != "report" or not case.config.enabled:
            continue
        verdict = core.evaluate(case.parsed, HarnessConfig(max_repair_attempts=0))
        for f in verdict.findings:
            if f.item is None:
                seen[f.rule].add(f.passed)
    return seen


def test_every_rule_has_a_passing_and_a_failing_example():
    seen = _outcomes()
    missing = {r.id: sorted(seen[r.id]) for r in REGISTRY if seen[r.id] != {True, False}}
    assert not missing


def test_checks_add_up_to_the_dimension_weights():
    totals = defaultdict(int)
    for c in CHECKS:
        totals[c.dimension] += c.points
    assert dict(totals) == DIMENSION_WEIGHTS
    assert sum(DIMENSION_WEIGHTS.values()) == 100


def test_ids_are_unique_and_every_rule_has_its_paragraph():
    ids = [r.id for r in REGISTRY]
    assert len(ids) == len(set(ids))
    assert all(len(r.doc.split()) >= 6 and "SPEC" not in r.doc for r in REGISTRY)


def test_docs_are_generated_from_the_registry_and_examples_hold():
    assert set(docs.EXAMPLES) == {r.id for r in REGISTRY}
    text = docs.render(docs.load_cases(CASES_DIR))  # raises ExampleError if an example misbehaves
    committed = Path(__file__).resolve().parents[3] / "docs" / "harness.md"
    assert committed.read_text(encoding="utf-8") == text, (
        "regenerate: python -m rcaloop.judge.docs tests/fixtures/harness/cases > docs/harness.md")
    for rule in (*GATES, *CHECKS):
        assert f"{rule.id} `{rule.name}`" in text
