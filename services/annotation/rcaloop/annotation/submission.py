"""Identify, validate and store a reviewer's work: one path for the JSON API and the web UI.

Both front doors call these, so a reviewer in the browser and a script on the API meet the
same token rules, the same validation against the same files and the same store writes.
Findings come back as ``Issue`` lists; store refusals raise ``StoreError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from rcaloop.annotation import core, files, validation
from rcaloop.annotation.auth import Annotators
from rcaloop.annotation.review_files import files_for
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store, StoreError
from rcaloop.contracts import Annotation, AnnotationRecord, Issue, OperatorEvaluation, ReviewTask
from rcaloop.shared.jsonpath import render
from rcaloop.shared.logs import get_logger
from rcaloop.shared.tokens import digest

log = get_logger("annotation", component="submission")
MAX_TOKEN_CHARS = 256


@dataclass
class ApiState:
    settings: AnnotationSettings
    annotators: Annotators
    store: Store | None = None

    def opened(self) -> Store:
        """The store, once the service's startup hook opened it (the routes answer 503 before)."""
        if self.store is None:
            raise StoreError(503, "store_unavailable", "the annotation store is not open yet")
        return self.store


async def identify(state: ApiState, token: str | None) -> str | None:
    """The annotator a token names: configured tokens first, then tokens created in the store."""
    if not token:
        return None
    name = state.annotators.identify(token)
    if name is None and state.store is not None and len(token) <= MAX_TOKEN_CHARS:
        name = await state.store.token_annotator(token)
    return name


async def sign_in(state: ApiState, token: str | None) -> tuple[str, str] | None:
    """(annotator, session secret) for a valid token: the session is a secret of its own,
    never the token, so signing out (or its expiry) ends it without touching the token."""
    name = await identify(state, token)
    if name is None or not token:
        return None
    secret = await state.opened().open_session(name, digest(token).hex(), state.settings.review_session_max_s)
    return name, secret


async def session_annotator(state: ApiState, secret: str | None) -> str | None:
    """The annotator of a live session whose token still names them (a revoked or removed
    token ends every session opened with it)."""
    if not secret or len(secret) > MAX_TOKEN_CHARS or state.store is None:
        return None
    found = await state.store.session(secret, state.settings.review_session_idle_s)
    if found is None:
        return None
    name, token_sha256 = found
    current = state.annotators.identify_digest(bytes.fromhex(token_sha256)) or \
        await state.store.token_digest_annotator(token_sha256)
    if current != name:
        await state.store.end_session(secret)
        return None
    return name


async def validate_annotation(
    state: ApiState, document: Any, task: ReviewTask | None
) -> tuple[Annotation | None, list[Issue]]:
    """Validate against the files kept with the task's analysis (else the job directory)."""
    job_id = document.get("job_id") if isinstance(document, dict) else None
    task_job = task.job_id if task else None
    if task_job and isinstance(job_id, str) and job_id != task_job:
        return None, [Issue(code="ANN002", message=f"job_id {job_id!r} is not the task's {task_job!r}", path="job_id")]
    job_files: dict[str, Any] = {}
    if isinstance(job_id, str):
        try:
            job_files = await files_for(
                state.store, state.settings.rcaloop_analysis_root, job_id, task.analysis_hash if task else None
            )
        except files.AnnotationFileError as exc:
            return None, [Issue(code="ANN002", message=str(exc), path="job_id")]
    issues = validation.validate(document, job_files, job_id)
    if issues:
        return None, issues
    return Annotation.model_validate(document), []


def write_file(settings: AnnotationSettings, annotation: Annotation) -> None:
    """The seed's ``.analysis/<job_id>/annotation.json`` copy; the store holds the record."""
    try:
        files.write_annotation(settings.rcaloop_analysis_root, annotation)
    except OSError as exc:
        log.warning("annotation_file_not_written", job_id=annotation.job_id, error=type(exc).__name__)


async def submit_annotation(
    state: ApiState, task: ReviewTask, document: Any, who: str
) -> tuple[AnnotationRecord | None, bool, list[Issue]]:
    """(record, changed, findings) for a leased task; a lost lease raises before the body is judged."""
    await state.opened().require_lease(task.task_id, who)
    annotation, issues = await validate_annotation(state, document, task)
    if annotation is None:
        return None, False, issues
    record, changed = await state.opened().save_annotation(
        annotation, annotator=who, analysis_hash=task.analysis_hash, task_id=task.task_id
    )
    write_file(state.settings, annotation)
    return record, changed, []


def pydantic_issues(exc: ValidationError, code: str) -> list[Issue]:
    return [
        Issue(code=code, message=e["msg"], path=render([p for p in e["loc"] if isinstance(p, str | int)]) or "$")
        for e in exc.errors()
    ]


async def submit_evaluation(
    state: ApiState, document: Any, analysis_hash: str | None, who: str, task_id: str | None
) -> tuple[AnnotationRecord | None, bool, list[Issue]]:
    """(record, changed, findings): an operator evaluation bound to ``analysis_hash``."""
    if not isinstance(document, dict):
        return None, False, [Issue(code="EVL000", message="an evaluation must be a JSON object", path="$")]
    if analysis_hash is not None:
        if document.get("analysis_hash") not in (None, analysis_hash):
            issue = Issue(code="EVL002", message="analysis_hash is not the task's analysis", path="analysis_hash")
            return None, False, [issue]
        document = {**document, "analysis_hash": analysis_hash}
    try:
        evaluation = OperatorEvaluation.model_validate(document)
    except ValidationError as exc:
        return None, False, pydantic_issues(exc, "EVL001")
    if issues := core.evaluation_issues(evaluation):
        return None, False, issues
    record, changed = await state.opened().save_evaluation(
        evaluation, annotator=who, task_id=task_id, lease_required=task_id is not None
    )
    return record, changed, []
