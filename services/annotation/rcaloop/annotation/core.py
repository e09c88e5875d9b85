"""Pure annotation logic (walking-skeleton version; the annotation issue extends it)."""

from __future__ import annotations

from rcaloop.contracts import HarnessVerdict, ReviewTask


def review_task_for(verdict: HarnessVerdict) -> ReviewTask:
    kind = "operator_evaluation" if verdict.parsed.source_kind == "capture" else "annotation"
    return ReviewTask(
        task_id=f"task-{verdict.analysis_hash[:16]}",
        analysis_hash=verdict.analysis_hash,
        result_id=verdict.result_id,
        job_id=verdict.job_id,
        kind=kind,
        verdict=verdict.verdict,
        score=verdict.score,
        title=verdict.parsed.title,
        priority=0 if verdict.verdict == "pass" else 1,
    )
