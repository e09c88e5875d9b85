"""The labelled set: ≥ 30 diverse RCA outputs, each with the verdict a reviewer expects."""

from __future__ import annotations

import pytest

from rcaloop.judge import core
from tests.unit.harness.cases import all_cases

CASES = all_cases()


def test_the_set_is_large_and_diverse():
    assert len(CASES) >= 30
    labels = {c.label for c in CASES}
    assert {"good", "overconfident", "fabricated_evidence", "destructive_first", "generic_alert_family",
            "tool_degraded", "historical_only", "thin"} <= labels
    verdicts = {c.expected["verdict"] for c in CASES}
    assert verdicts == {"pass", "degraded", "insufficient_evidence", "unchecked"}
    assert {c.parsed.source_kind for c in CASES} == {"skill_text", "step_files", "capture"}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_expected_verdict_gates_and_repairs(case):
    verdict = core.evaluate(case.parsed, case.config)
    assert verdict.verdict == case.expected["verdict"], [g.detail for g in verdict.hard_gates if not g.passed]
    assert [g.gate for g in verdict.hard_gates if not g.passed] == case.expected["failed_gates"]
    assert [r.kind for r in verdict.repairs] == case.expected["repairs"]


def test_every_good_case_passes_without_failed_gate():
    for case in CASES:
        if case.label == "good":
            verdict = core.evaluate(case.parsed, case.config)
            assert verdict.verdict == "pass" and verdict.score >= 90, case.name
