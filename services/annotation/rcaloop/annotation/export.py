"""Dataset export records (pure): the agent's diagnosis, the harness verdict, the human labels.

``COLUMNS`` is the stable schema (``EXPORT_SCHEMA_VERSION``), documented in
``docs/annotation.md``: CSV has exactly these columns (lists joined with ``|``); JSONL
has these keys plus ``annotation``, the full seed-format document. ``decision`` says what a
record is: a reviewer's own review that decides its task alone (``single``), one reviewer's
review of a task several review (``review``), or that task's decided review (``agreed``,
``majority``, ``adjudicated``).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

EXPORT_SCHEMA_VERSION = 2

COLUMNS: tuple[str, ...] = (
    "export_schema",
    "annotation_id",
    "task_id",
    "analysis_hash",
    "job_id",
    "annotator",
    "annotated_at",
    "revision",
    "agent_category",
    "agent_summary",
    "agent_confidence",
    "agent_difficulty",
    "agent_difficulty_score",
    "agent_evidence_count",
    "agent_alternative_categories",
    "harness_verdict",
    "harness_score",
    "harness_failed_gates",
    "harness_repairs",
    "human_category_correct",
    "human_category",
    "human_summary",
    "human_confidence",
    "human_summary_accurate",
    "human_evidence_count",
    "human_root_cause_evidence",
    "human_difficulty",
    "human_difficulty_score",
    "human_difficulty_appropriate",
    "human_alternative_categories",
    "agreed",
    "decision",
)
DECIDING = frozenset({"single", "agreed", "majority", "adjudicated"})
"""The ``decision`` values of a record that decides its task (what ``annotation.json`` holds)."""


def _alt_categories(alternatives: Any) -> list[str]:
    return [c for a in alternatives or [] if isinstance(a, dict) and (c := a.get("category"))]


def record(
    *,
    annotation_id: str,
    task_id: str | None,
    analysis_hash: str,
    annotator: str,
    revision: int,
    annotation: dict[str, Any],
    harness: dict[str, Any] | None,
    agreed: bool | None,
    decision: str = "single",
) -> dict[str, Any]:
    harness = harness or {}
    parsed = harness.get("parsed") or {}
    diagnosis = parsed.get("diagnosis") or {}
    agent_rc = diagnosis.get("root_cause") or {}
    human_rc = annotation.get("root_cause") or {}
    evidence = annotation.get("evidence") or []
    root_evidence = next((e for e in evidence if isinstance(e, dict) and e.get("is_root_cause") is True), {})
    out = {
        "export_schema": EXPORT_SCHEMA_VERSION,
        "annotation_id": annotation_id,
        "task_id": task_id,
        "analysis_hash": analysis_hash,
        "job_id": annotation.get("job_id"),
        "annotator": annotator,
        "annotated_at": annotation.get("annotated_at"),
        "revision": revision,
        "agent_category": agent_rc.get("category"),
        "agent_summary": agent_rc.get("summary"),
        "agent_confidence": agent_rc.get("confidence"),
        "agent_difficulty": diagnosis.get("difficulty"),
        "agent_difficulty_score": diagnosis.get("difficulty_score"),
        "agent_evidence_count": len(diagnosis.get("evidence") or []) if diagnosis else None,
        "agent_alternative_categories": _alt_categories(diagnosis.get("alternative_diagnoses")),
        "harness_verdict": harness.get("verdict"),
        "harness_score": harness.get("score"),
        "harness_failed_gates": [g.get("gate") for g in harness.get("hard_gates") or [] if not g.get("passed")],
        "harness_repairs": len(harness.get("repairs") or []) if harness else None,
        "human_category_correct": annotation.get("category_correct"),
        "human_category": human_rc.get("category"),
        "human_summary": human_rc.get("summary"),
        "human_confidence": human_rc.get("confidence"),
        "human_summary_accurate": annotation.get("summary_accurate"),
        "human_evidence_count": len(evidence),
        "human_root_cause_evidence": (
            f"{root_evidence.get('source_file')}#{root_evidence.get('json_path')}" if root_evidence else None
        ),
        "human_difficulty": annotation.get("difficulty"),
        "human_difficulty_score": annotation.get("difficulty_score"),
        "human_difficulty_appropriate": annotation.get("difficulty_appropriate"),
        "human_alternative_categories": _alt_categories(annotation.get("alternative_diagnoses")),
        "agreed": agreed,
        "decision": decision,
    }
    return out


def csv_row(rec: dict[str, Any]) -> list[str]:
    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list):
            return "|".join(str(v) for v in value)
        return str(value)

    return [cell(rec.get(c)) for c in COLUMNS]


def render(records: list[dict[str, Any]], fmt: str) -> str:
    """The export as text: JSONL (one record per line, with ``annotation``) or CSV (``COLUMNS``)."""
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in records)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in records:
        writer.writerow(csv_row(r))
    return buf.getvalue()
