"""Pure ingestion logic: turn a raw result into an ingested record."""

from __future__ import annotations

from rcaloop.contracts import IngestedRecord, RawResult, analysis_hash


def ingest(result: RawResult) -> IngestedRecord:
    content_hash = analysis_hash(result.kind, result.content)
    size = len(result.model_dump_json())
    return IngestedRecord(**result.model_dump(), analysis_hash=content_hash, size_bytes=size)
