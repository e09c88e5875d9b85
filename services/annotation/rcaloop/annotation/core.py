"""Pure annotation logic: review tasks from verdicts, ids, operator evaluations.

Validation rules live in ``validation``, the rubric in ``rubric``, agreement figures in
``agreement`` and the export schema in ``export`` — all pure like this module.
"""

from __future__ import annotations

import hashlib
from typing import Any

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, Issue, OperatorEvaluation, ReviewTask

VERIFYING_OUTCOMES = ("resolved", "mitigated")
VERDICT_PRIORITY = {"insufficient_evidence": 2, "degraded": 1}
"""Review order by verdict (higher first); a passing verdict is 0."""
RED_FLAG_PRIORITY = 3
"""Above every verdict: an output with a red flag (a secret found or declared) is reviewed first."""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]


def review_task_for(verdict: HarnessVerdict, overlap: int = 1) -> ReviewTask:
    """One task per analysis: CI jobs (step files) get the annotation, alert RCAs the operator form.

    Skill text outputs and captures carry no step files to trace evidence into, so they
    are alert RCAs for review purposes. Red flags put the task first and travel with it,
    so the reviewer sees each one's type and place before anything else.
    """
    flags = verdict.parsed.red_flags
    kind = "annotation" if verdict.parsed.source_kind == "step_files" else "operator_evaluation"
    return ReviewTask(
        task_id=f"task-{verdict.analysis_hash[:16]}",
        analysis_hash=verdict.analysis_hash,
        result_id=verdict.result_id,
        job_id=verdict.job_id or verdict.parsed.job_id,
        kind=kind,
        verdict=verdict.verdict,
        score=verdict.score,
        title=verdict.parsed.title,
        overlap=max(1, overlap),
        priority=RED_FLAG_PRIORITY if flags else VERDICT_PRIORITY.get(verdict.verdict, 0),
        red_flags=flags,
        created_at=verdict.evaluated_at,
    )


def annotation_id_for(analysis_hash: str, annotator: str) -> str:
    """Stable per (analysis, annotator): a resubmission revises, never duplicates."""
    return f"ann-{_digest('annotation', analysis_hash, annotator)}"


def evaluation_id_for(analysis_hash: str, annotator: str) -> str:
    return f"eval-{_digest('evaluation', analysis_hash, annotator)}"


def finalize_evaluation(evaluation: OperatorEvaluation, analysis_hash: str, annotator: str) -> OperatorEvaluation:
    """Bind the form to its analysis and annotator; only a resolved/mitigated action is verified.

    A recommendation alone proves nothing, so whatever the client sent as
    ``verified_actions`` is replaced by the action the operator confirmed worked.
    """
    verified = []
    action = (evaluation.action_that_worked or "").strip()
    if evaluation.resolution_outcome in VERIFYING_OUTCOMES and action:
        verified = [action]
    return evaluation.model_copy(
        update={
            "analysis_hash": analysis_hash,
            "annotator": annotator,
            "evaluation_id": evaluation_id_for(analysis_hash, annotator),
            "verified_actions": verified,
            "superseded": False,
        }
    )


def evaluation_issues(evaluation: OperatorEvaluation) -> list[Issue]:
    """Form checks beyond the field types (which pydantic enforces)."""
    issues = []
    if evaluation.resolution_outcome in VERIFYING_OUTCOMES and not (evaluation.action_that_worked or "").strip():
        issues.append(
            Issue(
                code="EVL101",
                message=f"resolution_outcome {evaluation.resolution_outcome!r} needs the action_that_worked",
                path="action_that_worked",
            )
        )
    return issues


def record_key(record: AnnotationRecord, revision: int) -> str:
    """The outbox key of one stored version: published exactly once."""
    return f"{record.annotation_id}:{revision}"


BREAKDOWN_FIELDS = (
    "ranker_deltas",
    "independent_source_groups",
    "confidence_gate_passed",
    "self_check_adjustment",
    "stated_confidence",
    "final_confidence",
    "root_cause_evidence",
    "refuted_by",
    "adjustments",
    "harness_score",
    "repairs",
)


EMPTY_MEANS_NONE = frozenset({"root_cause_evidence", "refuted_by", "adjustments"})
"""Harness fields whose absence means "none", not "not recorded"."""


def confidence_breakdown(verdict: HarnessVerdict) -> dict[str, Any]:
    """What the incident view shows above the form; fields an old run lacks are listed as missing.

    The harness's breakdown is preferred; the agent's own ``confidence_diagnostics``
    (captures) fill what the harness did not record.
    """
    harness = verdict.confidence_breakdown.model_dump(mode="json")
    diagnosis = verdict.parsed.diagnosis
    agent = (diagnosis.confidence_diagnostics if diagnosis else None) or {}
    shown: dict[str, Any] = {}
    for key in BREAKDOWN_FIELDS[:-2]:
        value = harness.get(key)
        if value in (None, [], {}):
            value = agent.get(key)
        if value not in (None, [], {}):
            shown[key] = value
    shown["harness_score"] = verdict.score
    shown["repairs"] = [r.model_dump(mode="json") for r in verdict.repairs]
    return {"fields": shown, "missing": [k for k in BREAKDOWN_FIELDS if k not in shown and k not in EMPTY_MEANS_NONE]}


def incident_view(
    subject: str, analysis_hash: str, latest: HarnessVerdict | None, evaluations: list[OperatorEvaluation]
) -> dict[str, Any]:
    """The latest run's harness result, its confidence breakdown, current and earlier evaluations.

    Evaluations are bound to ``analysis_hash``: those of an earlier run are history
    (``superseded``) and the latest run needs its own.
    """
    latest_hash = latest.analysis_hash if latest else analysis_hash
    marked = [e.model_copy(update={"superseded": e.analysis_hash != latest_hash}) for e in evaluations]
    current = [e.model_dump(mode="json") for e in marked if not e.superseded]
    history = [e.model_dump(mode="json") for e in marked if e.superseded]
    harness = None
    if latest is not None:
        harness = {
            "analysis_hash": latest.analysis_hash,
            "verdict": latest.verdict,
            "score": latest.score,
            "pass_score": latest.pass_score,
            "dimensions": latest.dimensions,
            "hard_gates": [g.model_dump(mode="json") for g in latest.hard_gates],
            "repairs": [r.model_dump(mode="json") for r in latest.repairs],
            "title": latest.parsed.title,
            "red_flags": [f.model_dump(mode="json") for f in latest.parsed.red_flags],
            "evaluated_at": latest.evaluated_at.isoformat(),
        }
    return {
        "subject": subject,
        "analysis_hash": analysis_hash,
        "latest_analysis_hash": latest_hash,
        "is_latest": analysis_hash == latest_hash,
        "harness": harness,
        "confidence_breakdown": confidence_breakdown(latest) if latest else None,
        "needs_evaluation": not current,
        "evaluations": current,
        "history": history,
    }
