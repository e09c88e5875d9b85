"""Reading RCA outputs from disk into ``RawResult`` (CLI, pollers, eval runner).

Three shapes: a job directory with ``step5_summary.json`` (step files), a
``.json`` capture (``AlertAnalysisResponse``), anything else as skill text output.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from rcaloop.contracts import RawResult

STEP_FILES = (
    "step5_summary.json",
    "step1_job_context.json",
    "step3_correlation.json",
    "step4_github_fetch_history.json",
)
"""The step files a job directory holds; all four are required for download/annotation."""
ANNOTATION_FILE = "annotation.json"
"""The reviewer's labels, written beside the step files (seed 000, step 3)."""
MAX_INPUT_BYTES = 4 * 1024 * 1024


class SourceError(ValueError):
    """The path cannot be read as an RCA output; the message says why."""


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from None


def read_step_files(job_dir: Path) -> dict[str, object]:
    """The step files present in a job directory, by file name (missing ones omitted)."""
    return {name: _read_json(job_dir / name) for name in STEP_FILES if (job_dir / name).is_file()}


def load_result(path: Path, *, result_id: str | None = None, producer: str = "rcaloop-cli") -> RawResult:
    path = Path(path)
    try:
        return _load_result(path, result_id, producer)
    except ValidationError as exc:  # e.g. a file name that is no valid result_id, a capture's non-string job_id
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
        raise SourceError(f"{path}: not a valid RawResult: {problems}") from None


def _load_result(path: Path, result_id: str | None, producer: str) -> RawResult:
    if not path.exists():
        raise SourceError(f"{path}: no such file or directory")
    if path.is_dir():
        if not (path / "step5_summary.json").is_file():
            raise SourceError(f"{path}: a job directory needs step5_summary.json")
        return RawResult(
            result_id=result_id or f"job-{path.name}",
            kind="step_files",
            content=read_step_files(path),
            job_id=path.name,
            producer=producer,
        )
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise SourceError(f"{path}: {size} bytes is over the {MAX_INPUT_BYTES} byte limit")
    if path.suffix == ".json":
        data = _read_json(path)
        if not isinstance(data, dict):
            raise SourceError(f"{path}: a capture must be a JSON object")
        return RawResult(
            result_id=result_id or str(data.get("result_id") or data.get("incident_id") or path.stem),
            kind="capture",
            content=data,
            job_id=data.get("job_id"),
            producer=producer,
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = path.read_bytes().decode("utf-8", "replace")
    return RawResult(result_id=result_id or path.stem, kind="skill_text", content=text, producer=producer)
