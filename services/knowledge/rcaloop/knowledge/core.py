"""Pure knowledge-promotion logic (walking-skeleton version)."""

from __future__ import annotations

from rcaloop.contracts import AnnotationRecord, KnowledgeEvent
from rcaloop.contracts.knowledge import Provenance


def candidate_for(record: AnnotationRecord) -> KnowledgeEvent | None:
    """A reviewed RCA whose diagnosis the reviewer confirmed becomes a candidate package."""
    if record.kind != "annotation" or record.annotation is None or not record.annotation.category_correct:
        return None
    root = next((e for e in record.annotation.evidence if e.is_root_cause), None)
    return KnowledgeEvent(
        event_id=f"candidate-{record.annotation_id}",
        kind="candidate",
        package_id=f"pkg-{record.analysis_hash[:16]}",
        analysis_hash=record.analysis_hash,
        family=record.annotation.root_cause.category,
        evidence_source="ledger",
        supporting_evidence_ids=[root.json_path] if root and root.json_path else [],
        provenance=Provenance(promotion_path="ledger", annotation_id=record.annotation_id, reviewer=record.annotator),
    )
