"""Every repair kind happens, is recorded (what, why, before → after) and shows in the output."""

from __future__ import annotations

from rcaloop.judge import core
from rcaloop.judge.steps import GUARD_TEXTS
from rcaloop.judge.config import HarnessConfig
from rcaloop.judge.repair import REPAIR_KINDS, UNVERIFIED
from tests.unit.harness.cases import all_cases, case


def _evaluate(name: str, **config):
    c = case(name)
    return core.evaluate(c.parsed, HarnessConfig(**config) if config else c.config)


def test_every_repair_kind_happens_somewhere_in_the_labelled_set():
    seen = {r.kind for c in all_cases() for r in core.evaluate(c.parsed, c.config).repairs}
    assert seen == set(REPAIR_KINDS)


def test_lower_confidence_is_recorded_and_applied_everywhere():
    v = _evaluate("overconfident-single-group")
    [r] = v.repairs
    assert (r.kind, r.target, r.before, r.after, r.attempt) == ("lower_confidence", "confidence", "high", "medium", 1)
    assert "log search" in r.reason
    assert v.repaired_diagnosis.root_cause.confidence == "medium"
    b = v.confidence_breakdown
    assert (b.stated_confidence, b.final_confidence, b.confidence_gate_passed, b.repairs) == ("high", "medium", True, 1)
    assert "lower_confidence" in v.repaired_report


def test_lower_confidence_rewrites_the_fields_line_of_a_skill_report():
    c = case("good-skill-text-checkout")
    data = c.parsed.model_dump(mode="json")
    data["artifacts"] = data["artifacts"][:1]  # the bot message only: one source group
    data["citations"] = data["citations"][:1]
    data["fields"]["confidence"] = "high"
    data["report_markdown"] = data["report_markdown"].replace("confidence: medium", "confidence: high")
    v = core.evaluate(type(c.parsed).model_validate(data))
    assert [r.kind for r in v.repairs] == ["lower_confidence"]
    assert "\nconfidence: medium\n" in v.repaired_report and "confidence: high" not in v.repaired_report


def test_fix_evidence_trace_corrects_the_path_and_keeps_the_claim():
    v = _evaluate("wrong-path-repaired")
    r = v.repairs[0]
    # one group left: the task is the symptom
    assert [x.kind for x in v.repairs] == ["fix_evidence_trace", "lower_confidence"]
    assert (r.target, r.before, r.after) == ("diagnosis.evidence[0].json_path", "timeline[2].event",
                                             "timeline[1].event")
    assert v.repaired_diagnosis.evidence[0].json_path == "timeline[1].event"
    root = next(c for c in v.claims if c.kind == "root_cause")
    assert root.status == "supported" and "E03" in root.supports


def test_drop_untraceable_claim_removes_it_from_the_diagnosis_and_marks_the_ledger():
    v = _evaluate("fabricated-extra-observation")
    r = v.repairs[0]
    assert r.kind == "drop_untraceable_claim" and r.target == "diagnosis.evidence[2]"
    assert r.before == "The bastion disk was full." and r.after is None
    assert "failed_tasks[3].error does not resolve" in r.reason
    assert len(v.repaired_diagnosis.evidence) == 2
    dropped = next(c for c in v.claims if c.origin == "diagnosis.evidence[2]")
    assert dropped.status == "dropped"
    assert v.verdict == "degraded"  # its high confidence, as written, rests on one source group


def test_mark_untraceable_root_cause_then_insufficient_evidence():
    v = _evaluate("fabricated-capture-evidence-id")
    mark = next(r for r in v.repairs if r.kind == "mark_untraceable_claim")
    assert mark.after == UNVERIFIED + mark.before
    assert v.repaired_diagnosis.root_cause.summary.startswith(UNVERIFIED)
    assert v.verdict == "insufficient_evidence"
    assert "E7" in v.hard_gates[1].detail and "E9" in v.hard_gates[1].detail


def test_guardrails_insert_check_impact_and_approval_before_the_mutating_step():
    v = _evaluate("destructive-kubectl-delete")
    guards = [r for r in v.repairs if r.kind != "lower_confidence"]
    assert [r.kind for r in guards] == ["add_read_only_check", "add_impact_rollback_note", "add_approval_step"]
    assert all(r.target == "recommendations[0]" and r.before.startswith("kubectl delete") for r in guards)
    actions = [r.action for r in v.repaired_diagnosis.recommendations]
    assert actions[:3] == list(GUARD_TEXTS) and actions[3].startswith("kubectl delete")
    # the operator sees a guarded copy, but the output as the agent wrote it was unsafe: never pass
    assert v.hard_gates[2].passed and v.verdict == "degraded"
    assert any("SF1" in r for r in v.reasons)


def test_guardrails_edit_the_report_lines_in_place():
    v = _evaluate("destructive-first-chat")
    lines = v.repaired_report.splitlines()
    restart = next(i for i, ln in enumerate(lines) if ln.strip() == "- restart all checkout-api pods now")
    assert lines[restart - 3 : restart] == [f"- {t}" for t in GUARD_TEXTS]
    assert v.repaired_report.count(GUARD_TEXTS[0]) == 1  # chat and recommendations name the same line


def test_partial_guard_adds_only_what_is_missing():
    v = _evaluate("destructive-partly-guarded")
    assert [r.kind for r in v.repairs if r.kind != "lower_confidence"] == [
        "add_impact_rollback_note", "add_approval_step"]


def test_a_gate_still_failing_after_three_attempts_gives_insufficient_evidence():
    v = _evaluate("repair-budget-exhausted")
    assert [r.attempt for r in v.repairs] == [1, 2, 3]
    assert [r.kind for r in v.repairs] == ["fix_evidence_trace", "drop_untraceable_claim", "lower_confidence"]
    assert v.verdict == "insufficient_evidence"
    assert [g.gate for g in v.hard_gates if not g.passed] == ["G3"]
    assert "insufficient evidence: G3" in v.repaired_report
    more = _evaluate("repair-budget-exhausted", max_repair_attempts=4)
    assert more.verdict != "insufficient_evidence" and more.repairs[-1].attempt == 4


def test_no_repair_when_attempts_are_zero():
    v = _evaluate("overconfident-single-group", max_repair_attempts=0)
    assert v.repairs == [] and v.verdict == "insufficient_evidence"


def test_score_only_failure_is_degraded():
    for name in ("thin-report-degraded", "low-confidence-vague", "overconfident-thin-degraded"):
        v = _evaluate(name)
        assert all(g.passed for g in v.hard_gates)
        assert v.score < v.pass_score and v.verdict == "degraded", name


def test_pass_score_comes_from_config():
    v = _evaluate("good-medium-one-group", pass_score=96)
    assert v.score == 95 and v.verdict == "degraded" and v.pass_score == 96


def test_disabled_harness_passes_through_unchecked():
    v = _evaluate("harness-disabled")
    assert v.verdict == "unchecked" and v.hard_gates == [] and v.repairs == []
    assert v.repaired_report == v.parsed.report_markdown
