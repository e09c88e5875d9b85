"""Filesystem adapter: job directories in, ``annotation.json`` out (seed layout).

The validation core never touches a file; this module reads what it needs
(``job_files``) and writes the seed's ``.analysis/<job_id>/annotation.json``.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC
from pathlib import Path
from typing import Any

from rcaloop.annotation.validation import NOT_AN_OBJECT, Unreadable, validate
from rcaloop.contracts import Annotation, Issue
from rcaloop.contracts.results import job_id_problem

ANNOTATION_FILE = "annotation.json"
DRAFT_FILE = ".annotation-draft.json"
MAX_FILE_BYTES = 16 * 1024 * 1024


class AnnotationFileError(ValueError):
    """The path cannot be read as an annotation or a job directory; the message says why."""


class NotJson(AnnotationFileError):
    """The file was read but is not JSON text: an invalid annotation, not an unreadable path."""


def check_job_id(job_id: str) -> str:
    """The job id, when it is one safe directory name (the rule ingestion and the jumpbox use)."""
    if problem := job_id_problem(job_id):
        raise AnnotationFileError(f"invalid job id: {problem}")
    return job_id


def job_files(job_dir: Path) -> dict[str, Any]:
    """Every ``*.json`` directly in the job directory except annotation.json, parsed."""
    files: dict[str, Any] = {}
    if not job_dir.is_dir():
        return files
    for path in sorted(job_dir.glob("*.json")):
        if path.name == ANNOTATION_FILE or not path.is_file():
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            files[path.name] = Unreadable(f"larger than {MAX_FILE_BYTES} bytes")
            continue
        try:
            files[path.name] = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            files[path.name] = Unreadable(f"not valid JSON ({type(exc).__name__})")
    return files


def has_step_files(job_dir: Path) -> bool:
    """Whether the directory holds a run's own files (``step*.json``), not just what a review wrote
    there (``annotation.json`` from the web UI or the API, the walkthrough's draft)."""
    return job_dir.is_dir() and any(p.is_file() for p in job_dir.glob("step*.json"))


def job_id_of(job_dir: Path, files: dict[str, Any]) -> str:
    """The job id the step files state (step5, then step1), else the directory's name."""
    for name in ("step5_summary.json", "step1_job_context.json"):
        data = files.get(name)
        if isinstance(data, dict) and isinstance(data.get("job_id"), str | int) and str(data["job_id"]):
            return str(data["job_id"])
    return job_dir.name


def read_json(path: Path) -> Any:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise AnnotationFileError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnnotationFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AnnotationFileError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise NotJson(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise NotJson(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None
    except OSError as exc:
        raise AnnotationFileError(f"{path}: cannot be read ({exc.strerror})") from None


def load_for_validation(path: Path, job_dir: Path | None = None) -> tuple[Any, dict[str, Any], str]:
    """(annotation document, job files, job id) for ``rcaloop annotation validate PATH``."""
    if not path.exists():
        raise AnnotationFileError(f"{path}: no such file or directory")
    if job_dir is not None and not job_dir.is_dir():
        raise AnnotationFileError(f"{job_dir}: no such directory (--job-dir)")
    if path.is_dir():
        job_dir = job_dir or path
        path = path / ANNOTATION_FILE
    else:
        job_dir = job_dir or path.parent
    document = read_json(path)
    files = job_files(job_dir)
    return document, files, job_id_of(job_dir, files)


def job_annotation_issues(job_dir: Path) -> list[Issue]:
    """The validation findings of ``<job_dir>/annotation.json`` (``rcaloop upload`` checks first).

    A missing file gives no finding here: the upload reports it with its own code.
    """
    path = job_dir / ANNOTATION_FILE
    if not path.is_file():
        return []
    try:
        document, found, job_id = load_for_validation(path, job_dir)
    except AnnotationFileError as exc:
        return [Issue(code=NOT_AN_OBJECT, message=str(exc), path="$")]
    return validate(document, found, job_id)


def annotation_json(annotation: Annotation) -> str:
    """The seed's exact format: its field order, every field present, ISO-8601 ``Z`` time."""
    data = annotation.model_dump(mode="json")
    at = annotation.annotated_at
    data["annotated_at"] = (at.astimezone(UTC) if at.tzinfo else at).strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_annotation(root: Path, annotation: Annotation) -> Path:
    """Atomically write ``<root>/<job_id>/annotation.json``; returns its path."""
    job_dir = root / check_job_id(annotation.job_id)
    job_dir.mkdir(parents=True, exist_ok=True)
    target = job_dir / ANNOTATION_FILE
    _atomic_write(target, annotation_json(annotation))
    return target


def _atomic_write(target: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_draft(path: Path, draft: dict[str, Any]) -> None:
    """The walkthrough's answers so far, replaced atomically after every question."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, json.dumps(draft, indent=2, ensure_ascii=False, default=str) + "\n")


def read_draft(path: Path, job_id: str) -> dict[str, Any] | None:
    """A saved draft of this job, or None; an unreadable one is an error (never silently dropped)."""
    if not path.exists():
        return None
    draft = read_json(path)
    if not isinstance(draft, dict) or draft.get("job_id") != job_id or not isinstance(draft.get("done"), dict):
        raise AnnotationFileError(f"{path}: not a draft of job {job_id}")
    return draft


def write_job_files(job_dir: Path, found: dict[str, Any]) -> None:
    """Lay a result's kept files out as a job directory (the offline layout the tools read)."""
    job_dir.mkdir(parents=True, exist_ok=True)
    for name, value in found.items():
        if isinstance(value, Unreadable) or "/" in name or name.startswith("."):
            continue
        text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False) + "\n"
        _atomic_write(job_dir / name, text)
