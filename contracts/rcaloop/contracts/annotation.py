"""Human annotation of a CI-job RCA, exactly the seed's ``annotation.json`` format."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.common import Contract, Identifier, utcnow
from rcaloop.contracts.evaluation import OperatorEvaluation


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RootCause(_Loose):
    category: str | None = None
    summary: str | None = None
    confidence: str | None = None


class TraceItem(_Loose):
    """One evidence item with traceability into the step files."""

    source: str | None = None
    source_file: str | None = None
    json_path: str | None = None
    exact_value: Any = None
    exact_quote: str | None = None
    line_number: int | None = None
    github_path: str | None = None
    message: str | None = None
    confidence: str | None = None
    is_root_cause: bool = False


class Recommendation(_Loose):
    priority: str | None = None
    action: str
    file: str | None = None


class AlternativeDiagnosis(_Loose):
    category: str | None = None
    summary: str | None = None
    why_wrong: str | None = None
    plausibility: str | None = None
    supporting_evidence: list[str] = Field(default_factory=list)
    contradicting_evidence: list[str] = Field(default_factory=list)


class Annotation(_Loose):
    """``.analysis/<job_id>/annotation.json``; field order is the seed's."""

    job_id: str
    annotated_at: datetime = Field(default_factory=utcnow)
    category_correct: bool | None = None
    category_comment: str | None = None
    root_cause: RootCause = Field(default_factory=RootCause)
    summary_accurate: bool | None = None
    summary_comment: str | None = None
    evidence: list[TraceItem] = Field(default_factory=list)
    evidence_feedback: str | None = None
    difficulty: str | None = None
    difficulty_score: int | None = Field(default=None, description="0–10, a whole number")
    difficulty_justification: str | None = None
    difficulty_appropriate: bool | None = None
    difficulty_comment: str | None = None
    recommendations: list[Recommendation] = Field(default_factory=list)
    contributing_factors: list[str] = Field(default_factory=list)
    alternative_diagnoses: list[AlternativeDiagnosis] = Field(default_factory=list)


class ReviewDecision(BaseModel):
    """How the decided review of a task reviewed by several reviewers came about."""

    model_config = ConfigDict(extra="ignore")

    how: Literal["agreed", "majority", "adjudicated"] = Field(
        description="agreed: every reviewer gave the same judgement; majority: a third reviewer sided with one; "
        "adjudicated: a lead decided"
    )
    decided_by: str = Field(description="the lead who adjudicated, or the agreeing reviewers joined by '+'")
    reviews: list[Identifier] = Field(default_factory=list, description="every reviewer's review of the task")
    reviewers: list[str] = Field(default_factory=list)
    disputed: list[str] = Field(default_factory=list, description="the judgements the reviewers disagreed on")
    comment: str | None = None
    decided_at: datetime = Field(default_factory=utcnow)


class AnnotationRecord(Contract):
    """A stored review (``review.annotations``): an annotation or an operator evaluation.

    Only decided reviews are published: one reviewer's review of a task without overlap, an
    operator's evaluation, or — for a task several reviewers reviewed — the agreed or
    adjudicated review (``decision`` says how); each reviewer's own review of such a task
    stays in the annotation store.
    """

    annotation_id: Identifier
    task_id: Identifier | None = None
    analysis_hash: Identifier
    annotator: str
    kind: Literal["annotation", "operator_evaluation"]
    annotation: Annotation | None = None
    evaluation: OperatorEvaluation | None = None
    created_at: datetime = Field(default_factory=utcnow)
    revision: int = Field(
        default=1, ge=1,
        description="the stored version of this review: 1, then one more for every revision; consumers keep the "
        "highest",
    )
    decision: ReviewDecision | None = Field(
        default=None,
        description="how the decided review of an overlapping task came about (None: one reviewer decided)"
    )
