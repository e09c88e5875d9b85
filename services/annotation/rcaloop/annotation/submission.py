"""Identify, validate and store a reviewer's work: one path for the JSON API and the web UI.

Both front doors call these, so a reviewer in the browser and a script on the API meet the
same token rules, the same validation against the same files and the same store writes.
Findings come back as ``Issue`` lists; store refusals raise ``StoreError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from rcaloop.annotation import core, files, validation
from rcaloop.annotation.auth import Annotators, Identity
from rcaloop.annotation.review_files import files_for
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store, StoreError
from rcaloop.contracts import Annotation, AnnotationRecord, Issue, OperatorEvaluation, ReviewTask
from rcaloop.shared.jsonpath import render
from rcaloop.shared.logs import get_logger
from rcaloop.shared.tokens import Tokens, digest

log = get_logger("annotation", component="submission")
MAX_TOKEN_CHARS = 256


@dataclass
class ApiState:
    settings: AnnotationSettings
    annotators: Annotators
    """Reviewers' tokens from the settings."""
    store: Store | None = None
    operators: Tokens = field(default_factory=lambda: Tokens({}))
    leads: Tokens = field(default_factory=lambda: Tokens({}))

    def configured(self, probe: bytes) -> Identity | None:
        """Whom a token (by its digest) names in the settings, with its role (the highest it is listed under)."""
        for role, tokens in (("lead", self.leads), ("operator", self.operators), ("reviewer", self.annotators)):
            if name := tokens.identify_digest(probe):
                return Identity(name, role)
        return None

    def opened(self) -> Store:
        """The store, once the service's startup hook opened it (the routes answer 503 before)."""
        if self.store is None:
            raise StoreError(503, "store_unavailable", "the annotation store is not open yet")
        return self.store


async def _identity(state: ApiState, token_sha256: str) -> Identity | None:
    """Whom a token names, with its role: the settings' tokens first, then the store's."""
    found = state.configured(bytes.fromhex(token_sha256))
    if found is None and state.store is not None:
        stored = await state.store.token_digest_identity(token_sha256)
        found = Identity(*stored) if stored else None
    return found


async def identify(state: ApiState, token: str | None) -> Identity | None:
    """The reviewer a token names, with the role bound to that token."""
    if not token or len(token) > MAX_TOKEN_CHARS:
        return None
    return await _identity(state, digest(token).hex())


async def sign_in(state: ApiState, token: str | None) -> tuple[str, str] | None:
    """(annotator, session secret) for a valid token: the session is a secret of its own,
    never the token, so signing out (or its expiry) ends it without touching the token."""
    who = await identify(state, token)
    if who is None or not token:
        return None
    secret = await state.opened().open_session(who.name, digest(token).hex(), state.settings.review_session_max_s)
    return who.name, secret


async def session_identity(state: ApiState, secret: str | None) -> Identity | None:
    """The reviewer of a live session whose token still names them, with that token's role now
    (a revoked or removed token ends every session opened with it)."""
    if not secret or len(secret) > MAX_TOKEN_CHARS or state.store is None:
        return None
    found = await state.store.session(secret, state.settings.review_session_idle_s)
    if found is None:
        return None
    name, token_sha256 = found
    current = await _identity(state, token_sha256)
    if current is None or current.name != name:
        await state.store.end_session(secret)
        return None
    return current


async def session_annotator(state: ApiState, secret: str | None) -> str | None:
    who = await session_identity(state, secret)
    return who.name if who else None


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


async def write_decided(state: ApiState, task_id: str | None, own: Annotation) -> None:
    """``annotation.json`` holds the task's decided review: the reviewer's own when one reviewer
    decides the task, the agreed or adjudicated one when several review it (nothing while they
    disagree: the last reviewer's file never wins)."""
    task = await state.opened().task(task_id) if task_id else None
    if task is None or task.overlap < 2:
        write_file(state.settings, own)
    elif (decided := await state.opened().decided_document(task.task_id)) is not None:
        write_file(state.settings, Annotation.model_validate(decided))


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
    await write_decided(state, task.task_id, annotation)
    return record, changed, []


def pydantic_issues(exc: ValidationError, code: str) -> list[Issue]:
    return [
        Issue(code=code, message=e["msg"], path=render([p for p in e["loc"] if isinstance(p, str | int)]) or "$")
        for e in exc.errors()
    ]


async def evaluating_task(state: ApiState, analysis_hash: str, who: Identity) -> str | None:
    """The task an evaluation from the incident view counts for: the incident's review task when
    ``who`` holds a lease on it; ``None`` for an operator's own evaluation (no lease needed).
    Anyone else may not evaluate the incident (403 ``lease_required``)."""
    task = await state.opened().task_for_analysis(analysis_hash)
    if task is not None and task.kind == "operator_evaluation":
        lease = await state.opened().lease_of(task.task_id, who.name)
        if lease is not None and lease["status"] in ("leased", "submitted"):
            return task.task_id
    if who.may("operator"):
        return None
    raise StoreError(403, "lease_required", "evaluating an incident needs a lease on its review task, or an operator "
                     "or lead token")


async def submit_evaluation(
    state: ApiState, document: Any, analysis_hash: str | None, who: Identity | str, task_id: str | None
) -> tuple[AnnotationRecord | None, bool, list[Issue]]:
    """(record, changed, findings): an operator evaluation bound to ``analysis_hash``.

    With a task (a leased task's form) it is that task's review. Without one (the incident
    view, ``POST /api/v1/evaluations``) it counts for the incident's task when ``who`` holds a
    lease on it, is an operator's own evaluation otherwise, and is refused (``lease_required``)
    for a reviewer who holds no lease.
    """
    who = who if isinstance(who, Identity) else Identity(who)
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
    if task_id is None:
        task_id = await evaluating_task(state, evaluation.analysis_hash, who)
    if issues := core.evaluation_issues(evaluation):
        return None, False, issues
    record, changed = await state.opened().save_evaluation(
        evaluation, annotator=who.name, task_id=task_id, lease_required=task_id is not None
    )
    return record, changed, []


async def adjudicate(
    state: ApiState, task: ReviewTask, lead: str, *, adopt: str | None, review: Any, comment: str | None
) -> tuple[AnnotationRecord | None, list[Issue]]:
    """A lead's decision on a task: adopt one reviewer's review, or give the decided review
    (validated as any review of the task is). The decided annotation becomes ``annotation.json``."""
    document = None
    if review is not None:
        if task.kind == "annotation":
            annotation, issues = await validate_annotation(state, review, task)
            if annotation is None:
                return None, issues
            document = annotation.model_dump(mode="json")
        else:
            if not isinstance(review, dict):
                return None, [Issue(code="EVL000", message="an evaluation must be a JSON object", path="review")]
            try:
                evaluation = OperatorEvaluation.model_validate({**review, "analysis_hash": task.analysis_hash})
            except ValidationError as exc:
                return None, pydantic_issues(exc, "EVL001")
            if issues := core.evaluation_issues(evaluation):
                return None, issues
            document = evaluation.model_dump(mode="json")
    record = await state.opened().adjudicate(task.task_id, lead, document=document, adopt=adopt, comment=comment)
    if record.annotation is not None:
        write_file(state.settings, record.annotation)
    return record, []
