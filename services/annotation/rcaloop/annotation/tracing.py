"""Where an evidence item points: its ``source_file`` inside the job directory (pure).

A ``source_file`` is written as in the seed (``.analysis/<job_id>/step1_job_context.json``)
or relative to the job directory (``step1_job_context.json``). Anything that could leave
the job directory — absolute paths, ``..``, another job's directory, backslashes,
control characters — is refused before any file is looked up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from rcaloop.shared import jsonpath

ANALYSIS_DIR = ".analysis"
COLLECTED = ("step1_", "step3_", "step4_")
"""Evidence is what the run collected; step5 is the agent's own summary, never evidence."""
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


def evidence_problem(item: Mapping[str, Any], files: Mapping[str, Any], job_id: str | None) -> str | None:
    """Why an evidence item does not trace into a collected step file, or None when it does.

    Shown beside the agent's evidence in the walkthrough and the web UI, so a reviewer sees
    a broken citation while answering, not after; the validator's rules are the final word.
    """
    source_file, path = item.get("source_file"), item.get("json_path")
    if not isinstance(source_file, str) or not isinstance(path, str) or not path.strip():
        return "no source_file/json_path to trace"
    if jsonpath.names_nothing(path):
        return f"json_path {path.strip()!r} names no value (the whole file)"
    located = locate(source_file.strip(), job_id)
    if located.name is None:
        return f"source_file {located.reason}"
    if not located.name.split("/")[-1].startswith(COLLECTED):
        return f"{located.name} is not a collected step file (step1, step3, step4)"
    document = files.get(located.name)
    if not isinstance(document, dict | list):
        return f"{located.name} is not among the run's readable files"
    line = item.get("line_number")
    line = line if isinstance(line, int) and not isinstance(line, bool) else None
    trace = jsonpath.check(document, path, item.get("exact_value"), item.get("exact_quote"), line)
    return None if trace.ok else trace.detail
