"""Pure parsing logic (walking-skeleton version; the parser issue replaces it)."""

from __future__ import annotations

from rcaloop.contracts import IngestedRecord, ParsedRCA


def parse_record(record: IngestedRecord) -> ParsedRCA:
    text = record.content if isinstance(record.content, str) else ""
    title = next((ln.lstrip("# ").strip() for ln in text.splitlines() if ln.startswith("# ")), None)
    return ParsedRCA(
        analysis_hash=record.analysis_hash,
        result_id=record.result_id,
        job_id=record.job_id,
        source_kind=record.kind,
        outcome="report",
        title=title,
        report_markdown=text,
    )
