"""What a review needs from the run itself: the ingested result's files, kept with the task (pure).

A result published on ``rca.results`` carries its step files (or skill text, or capture) in
the record; no ``.analysis/<job_id>/`` exists on the annotation host. The service keeps each
file as a content-addressed blob (its SHA-256), bounded in size, so validation, the
walkthrough and the web UI read the same files the agent wrote. ``.analysis/<job_id>/`` on
disk stays the offline and jumpbox path; both give ``files``: name → parsed JSON (or text),
with ``Unreadable`` for what was not kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from rcaloop.annotation.validation import Unreadable
from rcaloop.contracts.results import IngestedRecord

DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_TOTAL_BYTES = 16 * 1024 * 1024
NAME_LIMIT = 128
_SINGLE = {"skill_text": "output.txt", "capture": "capture.json"}


@dataclass(frozen=True)
class Artifact:
    name: str
    media: str
    """``json`` (body is JSON text) or ``text``."""
    size: int
    sha256: str | None
    """None when the file was not kept; ``note`` says why."""
    body: str | None = None
    note: str | None = None


def _named(name: str) -> str | None:
    """A plain file name (no directories, no control characters), ``.json`` added to a bare step name."""
    if not isinstance(name, str) or not name or len(name) > NAME_LIMIT - 5 or name.startswith("."):
        return None
    if any(c in name for c in "/\\") or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return None
    return name if "." in name else f"{name}.json"


def artifacts_of(
    record: IngestedRecord,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES,
) -> list[Artifact]:
    """The record's files as artifacts: step files by name, skill text as ``output.txt``, a capture
    as ``capture.json``. A file over ``max_file_bytes``, or past ``max_total_bytes`` for the whole
    record, is listed but not kept."""
    if record.kind == "step_files" and isinstance(record.content, dict):
        raw = [(named, "json", json.dumps(v, ensure_ascii=False))
               for n, v in record.content.items() if (named := _named(n))]
    elif isinstance(record.content, str):
        raw = [(_SINGLE.get(record.kind, "output.txt"), "text", record.content)]
    else:
        raw = [(_SINGLE.get(record.kind, "capture.json"), "json", json.dumps(record.content, ensure_ascii=False))]
    out, total = [], 0
    for name, media, body in sorted(raw):
        data = body.encode()
        size = len(data)
        if size > max_file_bytes:
            out.append(Artifact(name, media, size, None, note=f"larger than {max_file_bytes} bytes: not kept"))
            continue
        if total + size > max_total_bytes:
            out.append(
                Artifact(name, media, size, None, note=f"the result's files pass {max_total_bytes} bytes: not kept"))
            continue
        if "\x00" in body:  # PostgreSQL text cannot hold it; kept nowhere, so every backend keeps the same
            out.append(Artifact(name, media, size, None, note="holds NUL characters: not kept"))
            continue
        total += size
        out.append(Artifact(name, media, size, hashlib.sha256(data).hexdigest(), body))
    return out


def loaded(media: str, body: str | None, note: str | None) -> Any:
    """One stored artifact as validation reads it: parsed JSON, text, or ``Unreadable``."""
    if body is None:
        return Unreadable(note or "not kept")
    if media == "text":
        return body
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        return Unreadable("not valid JSON")
