"""Where an evidence item points: its ``source_file`` inside the job directory (pure).

A ``source_file`` is written as in the seed (``.analysis/<job_id>/step1_job_context.json``)
or relative to the job directory (``step1_job_context.json``). Anything that could leave
the job directory — absolute paths, ``..``, another job's directory, backslashes,
control characters — is refused before any file is looked up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

ANALYSIS_DIR = ".analysis"
_UNSAFE = re.compile(r"[\x00-\x1f\x7f\\]")


@dataclass(frozen=True)
class Located:
    name: str | None
    """The file's path relative to the job directory, or None when refused."""
    reason: str = ""


def locate(source_file: str, job_id: str | None) -> Located:
    if _UNSAFE.search(source_file):
        return Located(None, "contains a backslash or control character")
    if source_file.startswith(("/", "~")):
        return Located(None, "is an absolute path")
    parts = [p for p in PurePosixPath(source_file).parts if p != "."]
    if ".." in parts:
        return Located(None, "contains '..'")
    if parts and parts[0] == ANALYSIS_DIR:
        if len(parts) < 3:
            return Located(None, f"names no file inside {ANALYSIS_DIR}/<job_id>/")
        if job_id is not None and parts[1] != job_id:
            return Located(None, f"points into job {parts[1]!r}, not {job_id!r}")
        parts = parts[2:]
    if not parts:
        return Located(None, "names no file")
    return Located("/".join(parts))


def seed_path(job_id: str, name: str) -> str:
    """The ``source_file`` spelling the seed uses: ``.analysis/<job_id>/<name>``."""
    return f"{ANALYSIS_DIR}/{job_id}/{name}"
