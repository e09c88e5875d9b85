"""Every red-team case meets its expected verdict, gates, flags and findings."""

from __future__ import annotations

import pytest

from tests.helpers.corpus import NOT_PASS, all_cases

KNOWN_GAPS = {
    "unrelated-evidence-capture-title-after":
        "a headline that names one word the evidence does not show among words it does",
    "unrelated-evidence-capture-title-cause-before-a-colon": "the same, the cause before a colon",
    "unrelated-evidence-capture-title-em-dash-before-the-symptom": "the same, the cause before an em dash",
    "unrelated-evidence-capture-title-label-then-other-cause": "a cause stated as the subject of a verb of effect "
                                                               "('broke')",
    "unrelated-evidence-skill-title-em-dash-states-another-cause": "the same, in a skill report's heading",
}
"""Attacks the judge does not catch yet, each with why: strict, so a case that starts passing fails the suite
until it is taken off this list (docs/harness.md lists them under known gaps)."""
CASES = [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[c.name]))
         if c.name in KNOWN_GAPS else c for c in all_cases()]


def test_the_corpus_covers_every_shape_with_controls():
    CASES = all_cases()  # noqa: N806 - the cases themselves, not their parameters
    assert len(CASES) >= 40
    assert {c.record.kind for c in CASES} == {"skill_text", "step_files", "capture"}
    controls = [c for c in CASES if c.bypass == "control"]
    assert controls and all(c.expected["verdict"] == "pass" for c in controls)
    bypasses = {c.bypass for c in CASES if c.bypass != "control"}
    for bypass in bypasses:  # every bypass class in more than one variant
        assert sum(c.bypass == bypass for c in CASES) >= 2, bypass


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case(case):
    parsed, verdict = case.judge()
    want = case.expected
    failed = [g.gate for g in verdict.hard_gates if not g.passed]
    why = f"{case.name} ({case.bypass}): {case.why}\ngates: {[g.detail for g in verdict.hard_gates if not g.passed]}"
    if want["verdict"] == NOT_PASS:
        assert verdict.verdict != "pass", why
    else:
        assert verdict.verdict == want["verdict"], why
    if "failed_gates" in want:
        assert failed == want["failed_gates"], why
    if "outcome" in want:
        assert parsed.outcome == want["outcome"], why
    if "red_flags" in want:
        assert [f.type for f in parsed.red_flags] == want["red_flags"], why
    if "checks_failed" in want:
        assert set(want["checks_failed"]) <= {c.code for c in verdict.checks if not c.passed}, why
    if "checks_passed" in want:
        assert set(want["checks_passed"]) <= {c.code for c in verdict.checks if c.passed}, why
    if "findings" in want:
        assert set(want["findings"]) <= {i.code for i in parsed.errors + parsed.warnings}, why
    if "confidence" in want:
        assert verdict.confidence_breakdown.final_confidence == want["confidence"], why
    if "repairs" in want:
        assert set(want["repairs"]) <= {r.kind for r in verdict.repairs}, why
    published = verdict.model_dump_json()
    for secret in want.get("never_published", []):
        assert secret not in published, f"{case.name}: a secret value is published"
    for text in want.get("chat_excludes", []):
        assert text not in parsed.chat_rendered, f"{case.name}: the post still holds {text!r}"
