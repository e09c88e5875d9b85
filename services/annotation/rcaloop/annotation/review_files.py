"""Where a review reads the run's files: kept with the analysis in the store, else on disk.

A result that arrived on the stream has its files in the store (``artifacts``); a job
annotated offline or fetched from the jumpbox has them in ``.analysis/<job_id>/``. The
API, the web UI and ``rcaloop annotate`` ask here, so all three see the same files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rcaloop.annotation import files
from rcaloop.annotation.store import Store


async def files_for(store: Store | None, root: Path, job_id: str | None, analysis_hash: str | None) -> dict[str, Any]:
    """The analysis's kept files; else the newest kept analysis of the job; else the job directory.

    Raises ``files.AnnotationFileError`` for a job id that is not one safe directory name.
    """
    if store is not None:
        if analysis_hash and (kept := await store.artifact_files(analysis_hash)):
            return kept
        if job_id and not analysis_hash and (latest := await store.latest_job_analysis(job_id)):
            return await store.artifact_files(latest)
    if not job_id:
        return {}
    return files.job_files(root / files.check_job_id(job_id))
