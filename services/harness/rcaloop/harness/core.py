"""Pure harness logic (walking-skeleton version; the harness issue replaces it)."""

from __future__ import annotations

from rcaloop.contracts import HarnessVerdict, ParsedRCA


def evaluate(parsed: ParsedRCA) -> HarnessVerdict:
    return HarnessVerdict(
        analysis_hash=parsed.analysis_hash,
        result_id=parsed.result_id,
        job_id=parsed.job_id,
        verdict="unchecked",
        score=0.0,
        repaired_report=parsed.report_markdown,
        parsed=parsed,
    )
