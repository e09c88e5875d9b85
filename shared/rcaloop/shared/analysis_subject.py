"""What a re-analysis shares with the run it replaces: its subject.

Reviews are bound to one ``analysis_hash``; when the same subject is analysed again, the
latest analysis (by ``evaluated_at``) is current and the reviews of earlier ones are
history. The annotation service (which review is current) and the knowledge service
(superseded reviews never promote) must agree on the subject, so it is defined once here.
"""

from __future__ import annotations

from rcaloop.contracts import HarnessVerdict


def subject_of(verdict: HarnessVerdict) -> str:
    """The CI job, else the result/incident id, else the analysis itself."""
    return verdict.job_id or verdict.result_id or verdict.parsed.job_id or verdict.analysis_hash
