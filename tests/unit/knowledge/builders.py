"""Promotion cases built from the realistic fixtures in ``tests/fixtures/knowledge/``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

from rcaloop.contracts import AnnotationRecord, HarnessVerdict

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "knowledge"
_VERDICT = json.loads((FIXTURES / "verdict_with_trace_v3.json").read_text())
_EVALUATION = json.loads((FIXTURES / "operator_evaluation.json").read_text())

Edit = Callable[[dict], None]


def trace(data: dict) -> dict:
    return data["parsed"]["diagnosis"]["confidence_diagnostics"]["trace_v3"]


def root_claim(data: dict) -> dict:
    return next(c for c in data["claims"] if c["kind"] == "root_cause")


def no_ledger(data: dict) -> None:
    del data["parsed"]["diagnosis"]["confidence_diagnostics"]["trace_v3"]


def verdict(*edits: Edit, analysis_hash: str | None = None) -> HarnessVerdict:
    data = copy.deepcopy(_VERDICT)
    if analysis_hash:
        data["analysis_hash"] = data["parsed"]["analysis_hash"] = analysis_hash
    for edit in edits:
        edit(data)
    return HarnessVerdict.model_validate(data)


def evaluation(*edits: Edit, analysis_hash: str | None = None, annotation_id: str | None = None) -> AnnotationRecord:
    data = copy.deepcopy(_EVALUATION)
    if analysis_hash:
        data["analysis_hash"] = data["evaluation"]["analysis_hash"] = analysis_hash
    if annotation_id:
        data["annotation_id"] = annotation_id
    for edit in edits:
        edit(data)
    return AnnotationRecord.model_validate(data)


def annotation(category_correct: bool = True, analysis_hash: str | None = None) -> AnnotationRecord:
    """A CI-job annotation review confirming (or not) the agent's category."""
    return AnnotationRecord(
        annotation_id="an-1234567",
        analysis_hash=analysis_hash or _VERDICT["analysis_hash"],
        annotator="jo",
        kind="annotation",
        annotation={
            "job_id": "1234567",
            "category_correct": category_correct,
            "root_cause": {
                "category": "db_connection_pool_exhaustion",
                "summary": "pool exhausted",
                "confidence": "high",
            },
            "summary_accurate": True,
        },
    )
