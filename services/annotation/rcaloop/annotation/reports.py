"""Export and agreement over the store: reads rows, hands them to the pure modules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rcaloop.annotation import agreement, export
from rcaloop.annotation.adjudication import JUDGEMENTS
from rcaloop.annotation.store import Store


def _item(row: dict[str, Any]) -> str:
    return row["task_id"] or row["analysis_hash"]


def _figures(rows: list[dict[str, Any]], kind: str) -> list[agreement.FieldAgreement]:
    return agreement.agreement(((r["task_id"], r["annotator"], r["review"]) for r in rows if r["kind"] == kind), kind)


async def agreement_report(store: Store, *, kind: str = "annotation",
                           batch: str | None = None) -> list[agreement.FieldAgreement]:
    """Agreement per judgement of ``kind`` over the tasks several reviewers review (one batch, or all)."""
    rows = [r for r in await store.review_batches() if batch in (None, r["batch"])]
    return _figures(rows, kind)


async def agreement_figures(store: Store, *, batch: str | None = None) -> dict[str, Any]:
    """What a lead reads: agreement per judgement and kind of task, over all batches and per batch
    (a batch: the tasks created on one UTC day)."""
    rows = [r for r in await store.review_batches() if batch in (None, r["batch"])]

    def kinds(part: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        return {kind: [f.as_dict() for f in _figures(part, kind)] for kind in JUDGEMENTS}

    batches = []
    for day in sorted({r["batch"] for r in rows}):
        part = [r for r in rows if r["batch"] == day]
        batches.append({"batch": day, "tasks": len({r["task_id"] for r in part}), "kinds": kinds(part)})
    overall = kinds(rows)
    return {"fields": overall["annotation"], "kinds": overall, "batches": batches}


async def export_records(
    store: Store, *, since: datetime | None = None, category: str | None = None, agreed_only: bool = False
) -> list[dict[str, Any]]:
    """Export records (``export.COLUMNS`` + ``annotation``), oldest first: every reviewer's own
    annotation, and the decided annotation of every task several reviewers reviewed.

    ``category`` filters on the human root-cause category; ``agreed_only`` keeps
    annotations of overlapping tasks whose annotators agree on every judgement.
    """
    every = await store.annotation_rows()
    triples = [(_item(r), r["annotator"], r["annotation"]) for r in every]
    agreed = agreement.agreed_items(triples)
    overlapping = {item for item, _, _ in triples if sum(1 for i, _, _ in triples if i == item) >= 2}
    rows = [(row, "review" if (row.get("overlap") or 1) >= 2 else "single") for row in every]
    harness = {r["analysis_hash"]: r.get("harness") for r in every}
    for outcome in await store.outcomes(state="decided", limit=10**6):
        if outcome["kind"] == "annotation":
            rows.append(({"annotation_id": outcome["decided_review_id"], "task_id": outcome["task_id"],
                          "analysis_hash": outcome["analysis_hash"], "annotator": outcome["decided_by"],
                          "revision": outcome["revision"], "annotation": outcome["decided_review"],
                          "harness": harness.get(outcome["analysis_hash"]),
                          "updated_at": datetime.fromisoformat(outcome["decided_at"])}, outcome["state"]))
    rows.sort(key=lambda pair: pair[0]["updated_at"])
    out = []
    for row, decision in rows:
        if since is not None and row["updated_at"] < since:
            continue
        doc = row["annotation"]
        if category and (doc.get("root_cause") or {}).get("category") != category:
            continue
        item = _item(row)
        is_agreed = (item in agreed) if item in overlapping else None
        if agreed_only and not is_agreed:
            continue
        rec = export.record(
            annotation_id=row["annotation_id"],
            task_id=row["task_id"],
            analysis_hash=row["analysis_hash"],
            annotator=row["annotator"],
            revision=row["revision"],
            annotation=doc,
            harness=row.get("harness"),
            agreed=is_agreed,
            decision=decision,
        )
        rec["annotation"] = doc
        out.append(rec)
    return out
