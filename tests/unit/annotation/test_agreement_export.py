"""Agreement figures against hand-computed values; the export record schema."""

from __future__ import annotations

import pytest

from rcaloop.annotation import agreement, export
from rcaloop.annotation.core import (
    RED_FLAG_PRIORITY,
    VERDICT_PRIORITY,
    finalize_evaluation,
    incident_view,
    review_task_for,
)
from rcaloop.contracts import HarnessVerdict, OperatorEvaluation, ParsedRCA, RedFlag
from rcaloop.contracts.evaluation import EVALUATION_ITEMS


def _ratings(a: list, b: list) -> list:
    return [(f"i{n}", "alice", x) for n, x in enumerate(a)] + [(f"i{n}", "bob", y) for n, y in enumerate(b)]


def test_perfect_agreement():
    result = agreement.field_agreement("f", _ratings(list("aabb"), list("aabb")))
    assert (result.observed_agreement, result.cohen_kappa, result.krippendorff_alpha) == (1.0, 1.0, 1.0)


def test_partial_agreement_matches_hand_computation():
    # p_o = .75, p_e = .5*.25 + .5*.75 = .5 -> kappa .5; alpha = 1 - (2/8) / (30/56) = .5333
    result = agreement.field_agreement("f", _ratings(list("aabb"), list("abbb")))
    assert result.observed_agreement == 0.75
    assert result.cohen_kappa == pytest.approx(0.5)
    assert result.krippendorff_alpha == pytest.approx(1 - 0.25 / (30 / 56), abs=1e-4)


def test_three_annotators_get_alpha_but_no_kappa_and_singletons_are_ignored():
    ratings = [
        ("i1", "a", "x"),
        ("i1", "b", "x"),
        ("i1", "c", "y"),
        ("i2", "a", "y"),
        ("i2", "b", "y"),
        ("i3", "a", "x"),
    ]  # i3 has one label: not an overlapping item
    result = agreement.field_agreement("f", ratings)
    assert result.items == 2 and result.annotators == 3 and result.cohen_kappa is None
    assert result.krippendorff_alpha is not None and result.krippendorff_alpha < 1


def test_no_variation_is_undefined_not_a_crash():
    result = agreement.field_agreement("f", _ratings(["x", "x"], ["x", "x"]))
    assert result.observed_agreement == 1.0 and result.cohen_kappa is None and result.krippendorff_alpha is None


def test_agreed_items_need_two_matching_annotations():
    doc = {"category_correct": True, "root_cause": {"category": "credential"}}
    other = {"category_correct": True, "root_cause": {"category": "network"}}
    rows = [("t1", "a", doc), ("t1", "b", doc), ("t2", "a", doc), ("t2", "b", other), ("t3", "a", doc)]
    assert agreement.agreed_items(rows) == {"t1"}


def test_export_record_has_exactly_the_documented_columns():
    harness = {
        "verdict": "degraded",
        "score": 61.0,
        "hard_gates": [{"gate": "g1", "passed": False}, {"gate": "g2", "passed": True}],
        "repairs": [{}],
        "parsed": {"diagnosis": {"root_cause": {"category": "network", "summary": "s"}}},
    }
    annotation = {
        "job_id": "1",
        "category_correct": False,
        "root_cause": {"category": "credential"},
        "evidence": [{"source_file": "f.json", "json_path": "a", "is_root_cause": True}],
    }
    rec = export.record(
        annotation_id="ann-1",
        task_id="t",
        analysis_hash="h",
        annotator="alice",
        revision=1,
        annotation=annotation,
        harness=harness,
        agreed=None,
    )
    assert tuple(rec) == export.COLUMNS
    assert (rec["agent_category"], rec["human_category"]) == ("network", "credential")
    assert rec["harness_failed_gates"] == ["g1"] and rec["human_root_cause_evidence"] == "f.json#a"
    assert export.csv_row(rec)[export.COLUMNS.index("human_category_correct")] == "false"


def test_only_resolved_or_mitigated_actions_become_verified():
    scores = dict.fromkeys(EVALUATION_ITEMS, 3)
    form = OperatorEvaluation(
        analysis_hash="x",
        case_type="known",
        scores=scores,
        resolution_outcome="not_resolved",
        action_that_worked="restart",
        verified_actions=["restart"],
    )
    assert finalize_evaluation(form, "h", "olga").verified_actions == []
    done = form.model_copy(update={"resolution_outcome": "mitigated"})
    bound = finalize_evaluation(done, "h", "olga")
    assert bound.verified_actions == ["restart"] and bound.analysis_hash == "h" and bound.annotator == "olga"


def test_review_task_kind_and_priority_follow_the_verdict():
    parsed = ParsedRCA(analysis_hash="h" * 64, outcome="report", source_kind="capture")
    v = HarnessVerdict(analysis_hash="h" * 64, verdict="insufficient_evidence", score=10, parsed=parsed)
    task = review_task_for(v, overlap=2)
    assert (task.kind, task.priority, task.overlap) == ("operator_evaluation", 2, 2)


@pytest.mark.parametrize("verdict", ["pass", "degraded", "insufficient_evidence"])
def test_any_red_flag_puts_the_task_first_with_its_flags(verdict):
    flag = RedFlag(code="RCA701", type="api-key", where="chat", line=12, source="detected")
    parsed = ParsedRCA(analysis_hash="h" * 64, outcome="report", red_flags=[flag])
    v = HarnessVerdict(analysis_hash="h" * 64, verdict=verdict, score=90, parsed=parsed)
    task = review_task_for(v)
    assert task.priority == RED_FLAG_PRIORITY > max(VERDICT_PRIORITY.values())
    assert task.red_flags == [flag]
    view = incident_view("s", v.analysis_hash, v, [])
    assert view["harness"]["red_flags"] == [
        {"code": "RCA701", "type": "api-key", "where": "chat", "line": 12, "rule": None,
                                             "source": "detected"}]
