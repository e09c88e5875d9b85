"""The measurement job: metrics from stored facts; what it cannot compute stays missing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rcaloop.contracts import AnnotationRecord, KnowledgeEvent, OperatorEvaluation
from rcaloop.contracts.annotation import Annotation, TraceItem
from rcaloop.contracts.evaluation import EvaluationScores, HardGateJudgement
from rcaloop.contracts.knowledge import Provenance
from rcaloop.gate.intervals import WindowError, parse_window
from rcaloop.gate.measure import NO_TOOL_LOG, StoredFacts, compute_metrics, metrics_object, p95
from rcaloop.gate.release_gate import METRIC_NAMES, check_release_gate
from tests.unit.gate.builders import judged

SCORES = EvaluationScores(**{k: 3 for k in EvaluationScores.model_fields})


def evaluation(verdict, case_type="known", expected=None, failed_gates=(), n=1) -> AnnotationRecord:
    return AnnotationRecord(
        annotation_id=f"ann-{verdict.analysis_hash}-{n}", analysis_hash=verdict.analysis_hash, annotator="ops",
        kind="operator_evaluation",
        evaluation=OperatorEvaluation(analysis_hash=verdict.analysis_hash, case_type=case_type,
                                      expected_family=expected, scores=SCORES,
                                      hard_gate_judgement=HardGateJudgement(failed_gates=list(failed_gates))),
    )


def event(kind, i, **kw) -> KnowledgeEvent:
    return KnowledgeEvent(event_id=f"ev-{i}", kind=kind, package_id=f"p{i}", analysis_hash="h",
                          evidence_source="ledger",
                          provenance=Provenance(promotion_path="ledger"), **kw)


def facts(verdicts, reviews=(), events=()) -> StoredFacts:
    return StoredFacts(list(verdicts), {v.analysis_hash: v for v in verdicts}, list(reviews), list(events))


def test_nothing_stored_means_every_metric_missing_except_counts_over_known_streams():
    metrics, missing, population = compute_metrics(facts([]))
    assert set(metrics) == set(METRIC_NAMES)
    assert metrics["inadmissible_knowledge_activations"] == 0  # counted over the stored (empty) event stream
    assert {m for m, v in metrics.items() if v is None} == set(missing)
    assert missing["destructive_tool_executions"] == NO_TOOL_LOG
    assert population["harness_verdicts"] == 0


def test_known_top1_false_novel_abstention_and_recall_from_operator_evaluations():
    right = judged(family="configuration", cause="a")
    wrong = judged(family="network", cause="b")
    novel_answer = judged(family="novel_mechanism", cause="c", confidence="medium")
    abstained = judged(family=None, cause="d", outcome="insufficient_context", claim_evidence=())
    mech = judged(family="network", candidates=("dns_cache_poisoning",), cause="e", confidence="medium")
    reviews = [
        evaluation(right, expected="configuration"),
        evaluation(wrong, expected="configuration"),
        evaluation(novel_answer, case_type="compositional"),
        evaluation(abstained, case_type="tool_degraded", failed_gates=["G2"]),
        evaluation(mech, case_type="novel", expected="dns_cache_poisoning"),
    ]
    m, missing, _ = compute_metrics(facts([right, wrong, novel_answer, abstained, mech], reviews))
    assert m["known_top1"] == 0.5
    assert m["false_novel_rate"] == pytest.approx(1 / 4)
    assert m["abstention_rate"] == 1.0
    assert m["novel_mechanism_recall_at_3"] == 1.0
    assert "known_top1" not in missing


def test_a_harness_refusal_is_not_counted_as_the_agents_abstention():
    refused = judged(family="resource", cause="d", verdict="insufficient_evidence", final_confidence="medium")
    m, _, _ = compute_metrics(facts([refused], [evaluation(refused, case_type="tool_degraded", failed_gates=["G2"])]))
    assert m["abstention_rate"] == 0.0


def test_a_superseded_evaluation_is_history_only():
    v = judged(family="network")
    old = evaluation(v, expected="network", n=1)
    old.evaluation.superseded = True
    m, _, _ = compute_metrics(facts([v], [old]))
    assert m["known_top1"] is None


def test_reviews_of_a_superseded_analysis_are_history_only():
    first = judged(family="network", cause="first")
    again = judged(family="network", cause="second")
    first.result_id = again.result_id = "inc-7"
    again.evaluated_at = first.evaluated_at + timedelta(minutes=30)
    m, _, _ = compute_metrics(facts([first, again], [evaluation(first, expected="network")]))
    assert m["known_top1"] is None  # only the re-analysis is current, and it has no review yet
    m, _, _ = compute_metrics(facts([first, again], [evaluation(again, expected="network")]))
    assert m["known_top1"] == 1.0


def test_groundless_high_confidence_counted_from_verdicts():
    m, _, _ = compute_metrics(facts([judged(grounded=False, cause="x"), judged(grounded=True, cause="y")]))
    assert m["groundless_high_confidence"] == 1


def test_evidence_link_precision_from_ci_annotations():
    v = judged()
    v.parsed.diagnosis.evidence = [
        TraceItem(source_file="step3.json", json_path="timeline[1].event"),
        TraceItem(source_file="step1.json", json_path="failed_tasks[0].duration"),
    ]
    ann = AnnotationRecord(annotation_id="a1", analysis_hash=v.analysis_hash, annotator="r", kind="annotation",
                           annotation=Annotation(job_id="1", category_correct=True,
                                                 evidence=[
                                                     TraceItem(source_file="step3.json", json_path="timeline[1].event",
                                                               is_root_cause=True)]))
    m, _, _ = compute_metrics(facts([v], [ann]))
    assert m["evidence_link_precision"] == 0.5
    assert m["known_top1"] == 1.0


def test_knowledge_metrics_from_events():
    events = [event("activated", i, detail={"runtime_activation_seconds": float(i)}) for i in range(1, 21)]
    events.append(event("rejected", 99, inadmissible=True))  # a refused attempt is not an activation
    events.append(event("activated", 100, detail={"inadmissible": True, "runtime_activation_seconds": 2.0}))
    events.append(event("activated", 102, activation_latency_seconds=4000.0))  # reviewer wait: not the path
    events.append(event("shadowed", 101, detail={"typedb_outage_runtime_activation_success": True}))
    m, missing, population = compute_metrics(facts([], events=events))
    assert m["inadmissible_knowledge_activations"] == 1
    assert m["activation_p95_seconds"] == 19.0
    assert m["typedb_outage_runtime_activation_success"] is True
    assert population["activations"] == 22


def test_p95_nearest_rank():
    assert p95([5.0]) == 5.0
    assert p95([float(i) for i in range(1, 101)]) == 95.0


def test_metrics_object_carries_provenance_and_fails_the_gate_closed():
    doc = metrics_object(facts([judged()]), "2026-11-01/2026-11-30", job_revision="r1", artifact="out.json",
                         measured_at=datetime(2026, 12, 1, tzinfo=UTC))
    assert doc["provenance"]["incident_window"] == "2026-11-01/2026-11-30"
    assert doc["provenance"]["measured_at"].startswith("2026-12-01T00:00:00")
    import json

    result = check_release_gate(json.dumps(doc).encode())
    assert not result.passed
    assert {c.metric for c in result.checks if c.reason == "missing"} == set(doc["missing"])


def test_merge_fills_only_missing_metrics_and_is_recorded():
    doc = metrics_object(facts([judged(grounded=False)]), "2026-11-01/2026-11-30", job_revision="r", artifact="a",
                         measured_at=datetime.now(UTC),
                         merged={"destructive_tool_executions": 0, "groundless_high_confidence": 0},
                         merged_from="audit.json sha256:x")
    assert doc["destructive_tool_executions"] == 0
    assert doc["groundless_high_confidence"] == 1  # computed values are never overwritten
    assert doc["provenance"]["merged"] == {"from": "audit.json sha256:x", "metrics": ["destructive_tool_executions"]}


def test_window_parsing():
    now = datetime(2026, 12, 2, tzinfo=UTC)
    start, end = parse_window("2026-11-01/2026-11-30", now)
    assert start == datetime(2026, 11, 1, tzinfo=UTC) and end == datetime(2026, 12, 1, tzinfo=UTC)
    for bad, code in (("2026-11-01", "GATE203"), ("x/y", "GATE203"), ("2026-11-30/2026-11-01", "GATE204"),
                      ("2026-11-01/2026-12-02", "GATE205")):
        with pytest.raises(WindowError) as raised:
            parse_window(bad, now)
        assert raised.value.code == code


def _ci(verdict, kept: bool, correct: bool) -> AnnotationRecord:
    verdict.parsed.diagnosis.evidence = [TraceItem(source_file="step3.json", json_path="timeline[1].event")]
    kept_items = [
        TraceItem(source_file="step3.json", json_path="timeline[1].event", is_root_cause=True)] if kept else []
    return AnnotationRecord(annotation_id=f"a-{verdict.analysis_hash}", analysis_hash=verdict.analysis_hash,
                            annotator="r", kind="annotation",
                            annotation=Annotation(job_id="1", category_correct=correct, evidence=kept_items))


def _measured(metric, verdicts, reviews=(), events=()):
    return compute_metrics(facts(verdicts, reviews, events))[0][metric]


def test_each_measured_metric_moves_both_ways():
    v_ok, v_bad = judged(family="configuration", cause="ok"), judged(family="network", cause="bad")
    assert _measured("known_top1", [v_ok], [evaluation(v_ok, expected="configuration")]) == 1.0
    assert _measured("known_top1", [v_bad], [evaluation(v_bad, expected="configuration")]) == 0.0
    assert _measured("groundless_high_confidence", [judged(grounded=True)]) == 0
    assert _measured("groundless_high_confidence", [judged(grounded=False)]) == 1
    novel = judged(family="novel_mechanism", confidence="medium", cause="n")
    assert _measured("false_novel_rate", [v_ok], [evaluation(v_ok, case_type="compositional")]) == 0.0
    assert _measured("false_novel_rate", [novel], [evaluation(novel, case_type="compositional")]) == 1.0
    assert _measured("evidence_link_precision", [v_ok], [_ci(v_ok, kept=True, correct=True)]) == 1.0
    assert _measured("evidence_link_precision", [v_ok], [_ci(v_ok, kept=False, correct=True)]) == 0.0
    declined = judged(family=None, outcome="insufficient_context", cause="declined", claim_evidence=())
    assert _measured("abstention_rate", [declined], [evaluation(declined, failed_gates=["G2"])]) == 1.0
    assert _measured("abstention_rate", [v_ok], [evaluation(v_ok, failed_gates=["G2"])]) == 0.0
    mech = judged(family="network", candidates=("dns_cache_poisoning",), cause="m")
    assert _measured("novel_mechanism_recall_at_3", [mech],
                     [evaluation(mech, case_type="novel", expected="dns_cache_poisoning")]) == 1.0
    assert _measured("novel_mechanism_recall_at_3", [mech],
                     [evaluation(mech, case_type="novel", expected="clock_skew")]) == 0.0
    assert _measured("inadmissible_knowledge_activations", [], events=[event("activated", 1)]) == 0
    assert _measured("inadmissible_knowledge_activations", [], events=[event("activated", 1, inadmissible=True)]) == 1
    assert _measured("activation_p95_seconds", [],
                     events=[event("activated", 1, detail={"runtime_activation_seconds": 3.0})]) == 3.0
    assert _measured("activation_p95_seconds", [],
                     events=[event("activated", 1, detail={"runtime_activation_seconds": 45.0})]) == 45.0
    ok = event("activated", 1, detail={"typedb_outage_runtime_activation_success": True})
    down = event("activated", 2, detail={"typedb_outage_runtime_activation_success": False})
    assert _measured("typedb_outage_runtime_activation_success", [], events=[ok]) is True
    assert _measured("typedb_outage_runtime_activation_success", [], events=[ok, down]) is False
