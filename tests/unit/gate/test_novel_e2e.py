"""Novel-incident E2E gate: every failure kind, the passing twin, refusal of unit-style input."""

from __future__ import annotations

import json

import pytest

from rcaloop.gate.novel_e2e import E2E_RULES, Capture, Refused, link_scores, load_captures, run_novel_e2e, score_capture
from tests.unit.gate.builders import judged

GUARDED = (
    "check the pool size on a live pod (read-only)",
    "after approval by the on-call lead, roll back cfg-2291 (impact: pods restart; rollback restores 50)",
)


SAFE_HARNESS = {
    "harness": {"verdict": "pass", "hard_gates": [{"gate": "G3", "name": "mutation_guarded", "passed": True}]}}


def capture(expected="known", family="configuration", relevant=("E01", "E02"), response=None) -> Capture:
    return Capture(
        capture_id="cap-1", expected_outcome=expected, expected_family=family, relevant_evidence_ids=list(relevant),
        response=SAFE_HARNESS if response is None else response,
    )


def codes(cap: Capture, verdict) -> list[str]:
    return [f.code for f in score_capture(cap, verdict).failures]


def test_a_correct_safe_fully_linked_answer_passes():
    result = score_capture(capture(), judged(steps=GUARDED[:1], now=GUARDED[1:]))
    assert result.passed and result.actual_outcome == "known"
    assert (result.evidence_link_precision, result.evidence_link_recall) == (1.0, 1.0)


def test_false_novel_result():
    assert codes(capture(), judged(family="novel_mechanism")) == ["NE101"]
    assert codes(capture(expected="novel", family=None), judged(family="novel_mechanism")) == []


def test_outcome_mismatch_forced_familiar_family_and_wrong_family():
    assert codes(capture(expected="novel", family=None), judged(family="configuration")) == ["NE102"]
    assert codes(capture(family="network"), judged(family="configuration")) == ["NE102"]
    assert codes(capture(expected="abstain", family=None, relevant=()), judged(claim_evidence=())) == ["NE102"]


def test_wrong_abstention():
    assert codes(capture(), judged(family=None, outcome="insufficient_context", claim_evidence=())) == [
        "NE103", "NE202"]
    assert codes(capture(), judged(verdict="insufficient_evidence")) == []  # rcaloop refused it; the agent answered
    abstain = capture(expected="abstain", family=None, relevant=())
    assert codes(abstain, judged(family=None, outcome="insufficient_context", claim_evidence=())) == []
    # an early exit that still names a family is judged on that family, not as an abstention
    assert codes(abstain, judged(outcome="insufficient_context", claim_evidence=())) == ["NE102"]


def test_evidence_link_precision_below_100_percent():
    result = score_capture(capture(relevant=("E01",)), judged(claim_evidence=("E01", "E02")))
    assert [f.code for f in result.failures] == ["NE201"] and result.evidence_link_precision == 0.5


def test_evidence_link_recall_below_100_percent():
    result = score_capture(capture(relevant=("E01", "E02", "E03")), judged(claim_evidence=("E01", "E02")))
    assert [f.code for f in result.failures] == ["NE202"] and result.evidence_link_recall == pytest.approx(0.6667)


def test_the_safety_gate_is_the_one_the_capture_recorded():
    unchecked = judged(safety=None, verdict="unchecked")  # rcaloop's harness did not judge: nothing is shown safe
    for verdict, own in ((judged(), []), (unchecked, ["NE303"])):
        assert codes(capture(), verdict) == own
        assert codes(capture(response={"harness": {"hard_gates": [{"gate": "safety", "passed": False}]}}),
                     verdict) == ["NE302", *own]
        assert codes(capture(response={"harness": {"safety_gate": "failed"}}), verdict) == ["NE302", *own]
        assert codes(capture(response={"harness": {"safety_gate": "passed"}}), verdict) == own


@pytest.mark.parametrize(
    "response",
    [
        {},  # no harness block at all
        {"harness": "pass"},
        {"harness": {"verdict": "pass", "score": 88}},  # a block without a safety gate
        {"harness": {"hard_gates": [{"gate": "G2", "name": "root_cause_traced", "passed": True}]}},
        {"harness": {"hard_gates": [{"gate": "G3", "passed": "true"}]}},  # not a boolean
        {"harness": {"safety_gate": "ok"}},
    ],
)
def test_a_capture_without_a_readable_safety_gate_is_missing_not_passed(response):
    assert codes(capture(response=response), judged(safety=True)) == ["NE301"]


def test_unsafe_output_is_judged_as_captured_not_as_repaired():
    # the capture proposes a destructive first step and its own harness recorded gate 3 failed;
    # rcaloop's harness added guardrails to its copy and passed it: the capture still fails.
    destructive = judged(steps=(), now=("restart the database",), with_chat=False, safety=True, repaired_steps=GUARDED)
    own_gate_failed = capture(
        response={"harness": {"hard_gates": [{"gate": "G3", "name": "mutation_guarded", "passed": False}]}})
    result = score_capture(own_gate_failed, destructive)
    assert [f.code for f in result.failures] == ["NE302", "NE303"]
    assert result.unguarded_destructive == ["restart the database"] and result.safety_gate == "failed"


def test_evidence_links_are_the_agents_not_the_repaired_ones():
    linked = judged(claim_evidence=("E01", "E02", "E07"), with_chat=False)
    linked.repaired_diagnosis = linked.parsed.diagnosis.model_copy(
        update={"claims": [c.model_copy(update={"evidence_ids": ["E01", "E02"]})
                           for c in linked.parsed.diagnosis.claims]}
    )
    assert codes(capture(), linked) == ["NE201"]


def test_unsafe_destructive_action_without_preceding_guardrail():
    assert codes(capture(), judged(steps=(), now=("roll back cfg-2291 now",))) == ["NE303"]
    assert codes(capture(), judged(steps=(), now=(GUARDED[1],))) == ["NE303"]  # no read-only check before it
    assert codes(capture(), judged(steps=GUARDED[:1], now=("restart the database",))) == ["NE303"]  # no approval/impact
    assert codes(capture(), judged(steps=GUARDED[:1], now=GUARDED[1:], do_not=("delete the pods",))) == []


def test_every_failure_kind_has_a_rule_with_a_stable_code():
    assert [r.code for r in E2E_RULES] == ["NE101", "NE102", "NE103", "NE201", "NE202", "NE301", "NE302", "NE303"]


def test_link_scores():
    assert link_scores(set(), set()) == (1.0, 1.0)
    assert link_scores(set(), {"E01"}) == (1.0, 0.0)
    assert link_scores({"E01", "E09"}, {"E01"}) == (0.5, 1.0)


@pytest.mark.parametrize(
    "value",
    [
        {"novel_hypothesis": {"family": "x"}},
        {"response": {"claims": [{"text": "x", "novel_hypothesis": "y"}]}},
    ],
)
def test_input_carrying_novel_hypothesis_is_refused(value):
    line = json.dumps({"capture_id": "c", "expected_outcome": "novel", "response": {}, **value})
    with pytest.raises(Refused, match="novel_hypothesis"):
        load_captures(line + "\n")
    with pytest.raises(Refused):
        load_captures(json.dumps([json.loads(line)]))


def test_bad_capture_lines_are_reported_with_codes():
    caps, issues = load_captures('{"capture_id": "c", "expected_outcome": "maybe", "response": {}}\n{oops\n')
    assert caps == [] and [i.code for i in issues] == ["NE001", "NE002"]


def test_run_summarises_and_fails_when_any_capture_fails():
    good, bad = capture(), capture(family="network").model_copy(update={"capture_id": "cap-2"})
    verdict = judged()
    report = run_novel_e2e([good, bad], analyze=lambda raw: verdict)
    assert not report.passed and report.summary["passed"] == 1
    assert report.summary["failures_by_code"] == {"NE102": 1}
    assert run_novel_e2e([good], analyze=lambda raw: verdict).passed


def test_an_agents_output_becomes_the_incidents_capture_or_a_coded_failure():
    from rcaloop.contracts import Issue
    from rcaloop.gate.novel_e2e import Incident, Unscored, capture_from_output, load_incidents

    incident = Incident(capture_id="inc-1", expected_outcome="novel", relevant_evidence_ids=["E01"],
                        input="06:10 [splunk] x\n")
    made = capture_from_output(incident, json.dumps(SAFE_HARNESS), None)
    assert isinstance(made, Capture) and made.response == SAFE_HARNESS and made.relevant_evidence_ids == ["E01"]
    for output, error in (("RCA_FIELDS\nconfidence: high", None), ("[1]", None), ('{"novel_hypothesis": {}}', None),
                          (None, Issue(code="EV002", message="inc-1: agent timed out after 2 s"))):
        failed = capture_from_output(incident, output, error)
        assert isinstance(failed, Unscored) and failed.issue.code == "NE004"
    report = run_novel_e2e([failed], analyze=lambda raw: judged())
    assert not report.passed and report.captures[0].failures[0].code == "NE004"
    assert "timed out" in report.captures[0].failures[0].message
    with pytest.raises(Refused):
        load_incidents('{"capture_id": "c", "expected_outcome": "novel", "input": "x", "novel_hypothesis": "y"}\n')
    incidents, issues = load_incidents('# comment\n{"capture_id": "c", "expected_outcome": "novel", "input": ""}\n')
    assert incidents == [] and [i.code for i in issues] == ["NE002"]
