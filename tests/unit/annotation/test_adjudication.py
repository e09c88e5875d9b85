"""The outcome of a task several reviewers review (pure): every judgement with an agreeing and a
disagreeing example, the majority a third reviewer makes, and the decided review."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rcaloop.annotation import adjudication
from rcaloop.annotation.adjudication import JUDGEMENTS, Review, decided_document, outcome
from rcaloop.annotation.core import finalize_evaluation
from rcaloop.contracts.evaluation import EVALUATION_ITEMS

ROOT = Path(__file__).resolve().parents[3]
ANNOTATION = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
EVALUATION = {
    "analysis_hash": "h1",
    "case_type": "known",
    "expected_family": "credential",
    "scores": dict.fromkeys(EVALUATION_ITEMS, 4),
    "hard_gate_judgement": {"agrees_with_harness": True, "failed_gates": []},
    "resolution_outcome": "resolved",
    "action_that_worked": "rotate the secret_id",
}
T0 = datetime(2026, 12, 1, tzinfo=UTC)


def review(who: str, doc: dict, minutes: int = 0) -> Review:
    return Review(f"ann-{who}", who, doc, T0 + timedelta(minutes=minutes))


def with_(doc: dict, path: str, value) -> dict:
    out = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node = out
    for p in parents:
        node = node.setdefault(p, {})
    node[last] = value
    return out


# judgement -> (a change the reviewers still agree on, a change that is a disagreement)
CHANGES = {
    "category_correct": (("category_comment", "fine"), ("category_correct", False)),
    "root_cause.category": (("root_cause.category", "Credential"), ("root_cause.category", "network")),
    "summary_accurate": (("summary_comment", "precise"), ("summary_accurate", False)),
    "case_type": (("memo", "other words"), ("case_type", "novel")),
    "expected_family": (("expected_family", "Credential "), ("expected_family", "dns_resolution")),
    "hard_gate_judgement.agrees_with_harness": (("hard_gate_judgement.comment", "ok"),
                                                ("hard_gate_judgement.agrees_with_harness", False)),
    "hard_gate_judgement.failed_gates": (("scores.safety", 3), ("hard_gate_judgement.failed_gates", ["G2"])),
    "resolution_outcome": (("memo", "resolved it"), ("resolution_outcome", "mitigated")),
    "action_that_worked": (("action_that_worked", "  Rotate the  SECRET_ID "), ("action_that_worked", "rm -rf /")),
}


def test_every_judgement_has_an_agreeing_and_a_disagreeing_example():
    assert set(CHANGES) == {j.name for kind in JUDGEMENTS.values() for j in kind}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_judgement_agrees_or_disputes(name):
    kind = next(k for k, js in JUDGEMENTS.items() if any(j.name == name for j in js))
    base = ANNOTATION if kind == "annotation" else EVALUATION
    same, other = CHANGES[name]
    agreed = outcome(kind, [review("alice", base), review("bob", with_(base, *same), 1)], overlap=2)
    assert agreed.state == "agreed", name
    disputed = outcome(kind, [review("alice", base), review("bob", with_(base, *other), 1)], overlap=2)
    assert disputed.state == "disputed" and [d.judgement for d in disputed.disputed] == [name]
    assert set(disputed.disputed[0].values) == {"alice", "bob"}


def test_an_action_that_becomes_no_verified_action_is_no_disagreement():
    unknown = with_(EVALUATION, "resolution_outcome", "unknown")
    result = outcome("operator_evaluation",
                     [review("a", unknown), review("b", with_(unknown, "action_that_worked", "x"), 1)], 2)
    assert result.state == "agreed"


def test_a_task_is_collecting_until_every_reviewer_reviewed_it():
    assert outcome("annotation", [review("alice", ANNOTATION)], overlap=2).state == "collecting"


def test_a_third_reviewer_makes_a_majority_and_a_third_opinion_keeps_the_dispute():
    dissent = with_(ANNOTATION, "category_correct", False)
    result = outcome("annotation",
                     [review("alice", ANNOTATION), review("bob", dissent, 1), review("carol", ANNOTATION, 2)], 2)
    assert result.state == "majority" and [r.annotator for r in result.basis] == ["alice", "carol"]
    third = with_(with_(ANNOTATION, "root_cause.category", "network"), "category_correct", False)
    split = outcome("annotation", [review("alice", ANNOTATION), review("bob", dissent, 1), review("carol", third, 2)],
                    2)
    assert split.state == "disputed"


def test_the_decided_evaluation_takes_each_items_lowest_score_and_the_first_reviews_words():
    low = with_(with_(EVALUATION, "scores.safety", 1), "memo", "second")
    doc = decided_document("operator_evaluation",
                           [review("a", with_(EVALUATION, "memo", "first")), review("b", low, 1)])
    assert doc["scores"]["safety"] == 1 and doc["scores"]["tool_efficiency"] == 4 and doc["memo"] == "first"
    assert decided_document("annotation", [review("a", ANNOTATION), review("b", ANNOTATION, 1)]) == ANNOTATION


def test_the_final_record_is_one_id_per_task_and_names_how_it_was_decided():
    decided = adjudication.Decided(task_id="task-1", analysis_hash="h1", kind="operator_evaluation", how="adjudicated",
                                   decided_by="lena", document=EVALUATION,
                                   reviews=[review("alice", EVALUATION), review("bob", EVALUATION, 1)],
                                   disputed=["expected_family"], revision=2, decided_at=T0)
    record = adjudication.final_record(decided, finalize_evaluation)
    assert record.annotation_id == adjudication.final_id("task-1") != adjudication.final_id("task-2")
    assert record.revision == 2 and record.annotator == "lena" and record.created_at == T0
    assert record.decision.how == "adjudicated" and record.decision.reviews == ["ann-alice", "ann-bob"]
    assert record.evaluation.evaluation_id == record.annotation_id and record.evaluation.annotator == "lena"
    assert record.evaluation.verified_actions == ["rotate the secret_id"]
