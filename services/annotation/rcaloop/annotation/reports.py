"""Export and agreement over the store: reads rows, hands them to the pure modules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rcaloop.annotation import agreement, export
from rcaloop.annotation.store import Store


def _item(row: dict[str, Any]) -> str:
    return row["task_id"] or row["analysis_hash"]


async def agreement_report(store: Store) -> list[agreement.FieldAgreement]:
    rows = await store.annotation_rows()
    return agreement.agreement((_item(r), r["annotator"], r["annotation"]) for r in rows)


async def export_records(
    store: Store, *, since: datetime | None = None, category: str | None = None, agreed_only: bool = False
) -> list[dict[str, Any]]:
    """Export records (``export.COLUMNS`` + ``annotation``), oldest first.

    ``category`` filters on the human root-cause category; ``agreed_only`` keeps
    annotations of overlapping tasks whose annotators agree on every agreement field.
    """
    every = await store.annotation_rows()
    triples = [(_item(r), r["annotator"], r["annotation"]) for r in every]
    agreed = agreement.agreed_items(triples)
    overlapping = {item for item, _, _ in triples if sum(1 for i, _, _ in triples if i == item) >= 2}
    out = []
    for row in every:
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
        )
        rec["annotation"] = doc
        out.append(rec)
    return out
