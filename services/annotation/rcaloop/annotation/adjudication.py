"""When the reviewers of one task disagree, and what the task's decided review is (pure).

A task reviewed by several reviewers (overlap of 2 or more) is decided on the judgements
that matter downstream — ``JUDGEMENTS``, per kind of task: for an annotation, whether the
agent's category is correct, which category it is, and whether the root-cause summary is
accurate; for an operator evaluation, the case type and the family, the hard-gate judgement,
and the outcome with the action that worked (what becomes a verified action).

* all reviews in and every judgement the same → **agreed**;
* they differ → **disputed**: the task goes to adjudication. One more reviewer who has not
  reviewed it may review it (the task reopens with one more slot), and then the judgements
  more than half of the reviewers gave are decided (**majority**); a lead may decide at any
  time (**adjudicated**), adopting one reviewer's review or writing the decided one.

The decided review of an agreed or majority task is the first submitted review of the
agreeing reviewers; an evaluation takes, item by item, the lowest score any of them gave.
Only the decided review promotes knowledge and feeds the gate; every reviewer's own review
stays in the store and in the export.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from rcaloop.contracts import Annotation, AnnotationRecord, OperatorEvaluation, ReviewDecision

Kind = Literal["annotation", "operator_evaluation"]
State = Literal["collecting", "agreed", "majority", "disputed", "adjudicated"]
DECIDED: frozenset[str] = frozenset({"agreed", "majority", "adjudicated"})
VERIFYING_OUTCOMES = ("resolved", "mitigated")


def _at(doc: dict[str, Any], path: str) -> Any:
    node: Any = doc
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _family(value: Any) -> Hashable:
    """``DNS-Resolution`` and ``dns resolution`` name one family."""
    if not isinstance(value, str):
        return None
    return re.sub(r"[\s\-/]+", "_", value.strip().casefold()).strip("_") or None


def _gates(value: Any) -> Hashable:
    return tuple(sorted(str(g).strip().casefold() for g in value)) if isinstance(value, list) else ()


def _action(doc: dict[str, Any]) -> Hashable:
    """The action that worked, where it becomes a verified action (the outcome resolved or mitigated)."""
    if doc.get("resolution_outcome") not in VERIFYING_OUTCOMES or not isinstance(doc.get("action_that_worked"), str):
        return None
    return " ".join(doc["action_that_worked"].casefold().split()) or None


@dataclass(frozen=True)
class Judgement:
    """One judgement reviewers of a task must agree on: its name and how it is read from a review."""

    name: str
    read: Callable[[dict[str, Any]], Hashable]


JUDGEMENTS: dict[str, tuple[Judgement, ...]] = {
    "annotation": (
        Judgement("category_correct", lambda d: d.get("category_correct")),
        Judgement("root_cause.category", lambda d: _family(_at(d, "root_cause.category"))),
        Judgement("summary_accurate", lambda d: d.get("summary_accurate")),
    ),
    "operator_evaluation": (
        Judgement("case_type", lambda d: d.get("case_type")),
        Judgement("expected_family", lambda d: _family(d.get("expected_family"))),
        Judgement("hard_gate_judgement.agrees_with_harness",
                  lambda d: _at(d, "hard_gate_judgement.agrees_with_harness")),
        Judgement("hard_gate_judgement.failed_gates", lambda d: _gates(_at(d, "hard_gate_judgement.failed_gates"))),
        Judgement("resolution_outcome", lambda d: d.get("resolution_outcome")),
        Judgement("action_that_worked", _action),
    ),
}
"""What reviewers of one task must agree on; also the fields whose agreement is reported."""


@dataclass(frozen=True)
class Review:
    """One reviewer's current review of a task (its latest revision)."""

    annotation_id: str
    annotator: str
    document: dict[str, Any]
    submitted_at: datetime
    revision: int = 1


@dataclass(frozen=True)
class Disagreement:
    judgement: str
    values: dict[str, Any]
    """Reviewer → the value they gave."""


@dataclass(frozen=True)
class Outcome:
    state: State
    disputed: tuple[Disagreement, ...] = ()
    basis: tuple[Review, ...] = ()
    """The reviews the decided judgements rest on (empty until decided)."""


def judgements(kind: str, document: dict[str, Any]) -> tuple[Hashable, ...]:
    return tuple(j.read(document) for j in JUDGEMENTS[kind])


def _listable(value: Hashable) -> Any:
    return list(value) if isinstance(value, tuple) else value


def disagreements(kind: str, reviews: list[Review]) -> tuple[Disagreement, ...]:
    found = []
    for j in JUDGEMENTS[kind]:
        values = {r.annotator: j.read(r.document) for r in reviews}
        if len(set(values.values())) > 1:
            found.append(Disagreement(j.name, {who: _listable(v) for who, v in values.items()}))
    return tuple(found)


def outcome(kind: str, reviews: list[Review], overlap: int) -> Outcome:
    """The task's outcome from its reviewers' current reviews (``overlap``: reviewers it asked for)."""
    if len(reviews) < overlap:
        return Outcome("collecting")
    ordered = sorted(reviews, key=lambda r: (r.submitted_at, r.annotation_id))
    groups: dict[tuple[Hashable, ...], list[Review]] = {}
    for r in ordered:
        groups.setdefault(judgements(kind, r.document), []).append(r)
    if len(groups) == 1:
        return Outcome("agreed", basis=tuple(ordered))
    largest = max(groups.values(), key=len)
    if len(reviews) > overlap and len(largest) * 2 > len(reviews):
        return Outcome("majority", disagreements(kind, ordered), tuple(largest))
    return Outcome("disputed", disagreements(kind, ordered))


def decided_document(kind: str, basis: list[Review] | tuple[Review, ...]) -> dict[str, Any]:
    """The decided review's document: the first of the agreeing reviews (an evaluation with the
    lowest score each item received from any of them)."""
    first = dict(basis[0].document)
    if kind == "operator_evaluation":
        scores = [r.document.get("scores") or {} for r in basis]
        first["scores"] = {item: min(s.get(item, 0) for s in scores) for item in scores[0]}
    return first


def final_id(task_id: str) -> str:
    """The decided review's id: one per task, revised when decided again."""
    return "final-" + hashlib.sha256(f"final\x1f{task_id}".encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Decided:
    """A task's decided review as the store keeps it."""

    task_id: str
    analysis_hash: str
    kind: str
    how: Literal["agreed", "majority", "adjudicated"]
    decided_by: str
    document: dict[str, Any]
    reviews: list[Review]
    disputed: list[str] = field(default_factory=list)
    comment: str | None = None
    revision: int = 1
    decided_at: datetime | None = None


def final_record(decided: Decided,
                 finalize: Callable[[OperatorEvaluation, str, str], OperatorEvaluation]) -> AnnotationRecord:
    """The ``AnnotationRecord`` published for a decided task (``finalize`` binds an evaluation
    to its analysis and decider, keeping only a confirmed action as verified)."""
    record_id = final_id(decided.task_id)
    decision = ReviewDecision(
        how=decided.how,
        decided_by=decided.decided_by,
        reviews=[r.annotation_id for r in decided.reviews],
        reviewers=[r.annotator for r in decided.reviews],
        disputed=decided.disputed,
        comment=decided.comment,
        **({"decided_at": decided.decided_at} if decided.decided_at else {}),
    )
    common: dict[str, Any] = dict(
        annotation_id=record_id, task_id=decided.task_id, analysis_hash=decided.analysis_hash,
        annotator=decided.decided_by, revision=decided.revision, decision=decision,
        **({"created_at": decided.decided_at} if decided.decided_at else {}),
    )
    if decided.kind == "annotation":
        return AnnotationRecord(kind="annotation", annotation=Annotation.model_validate(decided.document), **common)
    evaluation = OperatorEvaluation.model_validate({**decided.document, "analysis_hash": decided.analysis_hash})
    evaluation = finalize(evaluation, decided.analysis_hash, decided.decided_by)
    evaluation = evaluation.model_copy(update={"evaluation_id": record_id})
    return AnnotationRecord(kind="operator_evaluation", evaluation=evaluation, **common)


def agreeing_reviewers(basis: list[Review] | tuple[Review, ...]) -> str:
    return "+".join(sorted({r.annotator for r in basis}))
