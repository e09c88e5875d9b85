"""HTTP API for annotation UIs (``/api/v1/...``): queue, leases, submissions, incident view,
adjudication and agreement.

Thin routes over the store and the pure validators. Every route needs a bearer token
naming a reviewer (``RCALOOP_ANNOTATOR_TOKENS``, ``RCALOOP_OPERATOR_TOKENS``,
``RCALOOP_LEAD_TOKENS`` or one made with ``rcaloop annotation token create``), checked at the
shared edge (``guard``) before a body is read; the token's role decides the rest (``auth``):
an evaluation outside a leased task needs an operator, adjudication and agreement a lead.
Invalid reviews are refused with 422 and every finding ``{code, message, path}``; store
refusals carry their own status and code (403 another annotator's record or no lease, 404
unknown task, 409 no active lease or nothing to adjudicate), in the one error body.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from rcaloop.annotation import core, rubric
from rcaloop.annotation.auth import Identity
from rcaloop.annotation.reports import agreement_figures
from rcaloop.annotation import submission
from rcaloop.annotation.submission import ApiState
from rcaloop.annotation.store import Store, StoreError
from rcaloop.contracts import Issue, ReviewTask
from rcaloop.contracts.common import CaseType, Identifier
from rcaloop.shared.http_edge import Guard, Principal, parameter_problem, require
from rcaloop.shared.http_errors import api_error
from rcaloop.shared.logs import get_logger

_bearer = HTTPBearer(auto_error=False, description="an annotator token from RCALOOP_ANNOTATOR_TOKENS")
log = get_logger("annotation", component="api")


class LeaseOut(BaseModel):
    task: ReviewTask
    annotator: str
    lease_id: str
    expires_at: float


TaskKind = Literal["annotation", "operator_evaluation"]
"""``ReviewTask.kind``: a filter naming anything else is a 422, not an empty queue."""


class ClaimIn(BaseModel):
    kind: TaskKind | None = None


class RubricIn(BaseModel):
    criteria: list[str]


class DecisionIn(BaseModel):
    """A lead's decision on a disputed task: adopt one reviewer's review, or give the decided review."""

    adopt: Identifier | None = Field(default=None, description="the id of the reviewer's review to adopt")
    review: dict[str, Any] | None = Field(default=None, description="the decided annotation.json or evaluation")
    comment: str | None = Field(default=None, max_length=2000)


def _refusal(status: int, issues: list[Issue]) -> JSONResponse:
    return JSONResponse(
        status_code=status, content={"valid": False, "errors": [i.model_dump(exclude={"line"}) for i in issues]}
    )


def _store_error(exc: StoreError) -> HTTPException:
    return api_error(exc.status, exc.code, exc.message)


def guard(state: ApiState) -> Guard:
    """Every ``/api/v1`` route needs an annotator: checked at the shared edge, before a body is read."""

    async def authenticate(token: str) -> Principal | None:
        who = await submission.identify(state, token)
        return Principal(who.name, who.grants) if who else None

    return Guard("/api/v1", authenticate, "a valid annotator bearer token")


_annotator = require("annotator")
_lead = require("lead", code="lead_required", message="this needs a lead's token (RCALOOP_LEAD_TOKENS, or `rcaloop "
                "annotation token create NAME --role lead`)")


def _identity(principal: Principal) -> Identity:
    role = next((r for r in ("lead", "operator") if r in principal.roles), "reviewer")
    return Identity(principal.name, role)


def _store(state: ApiState) -> Store:
    """The open store; until the tables exist the routes answer 503."""
    try:
        return state.opened()
    except StoreError as exc:
        raise _store_error(exc) from None


async def annotator(request: Request, _creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str:
    """The annotator the edge authenticated (``_bearer`` only declares the scheme in the API docs)."""
    return _annotator(request).name


async def caller(request: Request, _creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> Identity:
    """The authenticated reviewer with the role bound to their token."""
    return _identity(_annotator(request))


async def lead(request: Request, _creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str:
    return _lead(request).name


async def _task(state: ApiState, task_id: str, kind: str | None = None) -> ReviewTask:
    task = await _store(state).task(task_id)
    if task is None:
        raise api_error(404, "task_not_found", f"no review task {task_id!r}")
    if kind and task.kind != kind:
        raise api_error(409, "wrong_task_kind", f"task {task_id!r} asks for an {task.kind}, not an {kind}")
    return task


async def _evaluation(state: ApiState, document: Any, analysis_hash: str | None, who: Identity, task_id: str | None):
    if isinstance(document, dict):  # ids reach the store's queries: the edge's rule holds here too
        for key in ("analysis_hash", "incident_id"):
            if isinstance(value := document.get(key), str) and (problem := parameter_problem(value)):
                raise api_error(400, "invalid_parameter", f"body field {key} {problem}; ids are printable text")
    try:
        record, changed, issues = await submission.submit_evaluation(state, document, analysis_hash, who, task_id)
    except StoreError as exc:
        raise _store_error(exc) from None
    if record is None:  # a record exactly when there are no findings
        return _refusal(422, issues)
    return JSONResponse(status_code=201 if changed else 200, content=record.model_dump(mode="json"))


def build_router(state: ApiState) -> APIRouter:
    router = APIRouter(prefix="/api/v1", tags=["annotation"])
    _queue_routes(router, state)
    _submission_routes(router, state)
    _lead_routes(router, state)
    _tool_routes(router, state)
    return router


def _queue_routes(router: APIRouter, state: ApiState) -> None:
    """The review queue and its leases: list, one task, claim, extend, release."""

    @router.get("/review/tasks", summary="List/filter the review queue")
    async def list_tasks(
        who: str = Depends(annotator),
        state_: str | None = Query(None, alias="state", pattern="^(open|done)$"),
        kind: TaskKind | None = None,
        verdict: str | None = None,
        job_id: str | None = None,
        case_type: CaseType | None = None,
        red_flags: bool | None = None,
        limit: int = Query(100, ge=1, le=1000),
        offset: int = Query(0, ge=0, le=2**31 - 1),
    ) -> list[dict[str, Any]]:
        return await _store(state).list_tasks(
            state=state_,
            kind=kind,
            verdict=verdict,
            job_id=job_id,
            case_type=case_type,
            red_flags=red_flags,
            limit=limit,
            offset=offset,
        )

    @router.get("/review/tasks/{task_id}", summary="One review task")
    async def get_task(task_id: str, who: str = Depends(annotator)) -> ReviewTask:
        return await _task(state, task_id)

    @router.post(
        "/review/tasks/claim",
        summary="Lease the next task (204 when the queue is empty)",
        response_model=LeaseOut,
        responses={204: {"description": "nothing to review"}},
    )
    async def claim(body: ClaimIn | None = None, who: str = Depends(annotator)):
        lease = await _store(state).claim(who, state.settings.review_lease_s, kind=body.kind if body else None)
        if lease is None:
            return Response(status_code=204)
        return LeaseOut(task=lease.task, annotator=who, lease_id=lease.lease_id, expires_at=lease.expires_at)

    @router.post("/review/tasks/{task_id}/extend", summary="Extend your lease")
    async def extend(task_id: str, who: str = Depends(annotator)):
        try:
            expires_at = await _store(state).extend(task_id, who, state.settings.review_lease_s)
            return {"task_id": task_id, "expires_at": expires_at}
        except StoreError as exc:
            raise _store_error(exc) from None

    @router.post("/review/tasks/{task_id}/release", status_code=204, summary="Give the task back to the queue")
    async def release(task_id: str, who: str = Depends(annotator)):
        try:
            await _store(state).release(task_id, who)
        except StoreError as exc:
            raise _store_error(exc) from None
        return Response(status_code=204)


def _submission_routes(router: APIRouter, state: ApiState) -> None:
    """Reviews: an annotation for a leased task or revised, an operator evaluation, the incident view."""

    @router.post(
        "/review/tasks/{task_id}/annotation", summary="Submit your annotation (annotation.json) for a leased task"
    )
    async def submit_annotation(task_id: str, document: Any = Body(...), who: str = Depends(annotator)):
        task = await _task(state, task_id, "annotation")
        try:  # a lost lease is the answer before any finding about the body
            record, changed, issues = await submission.submit_annotation(state, task, document, who)
        except StoreError as exc:
            raise _store_error(exc) from None
        if record is None:  # a record exactly when there are no findings
            return _refusal(422, issues)
        return JSONResponse(status_code=201 if changed else 200, content=record.model_dump(mode="json"))

    @router.put("/annotations/{annotation_id}", summary="Revise your own stored annotation")
    async def revise_annotation(annotation_id: str, document: Any = Body(...), who: str = Depends(annotator)):
        owner = await _store(state).annotation_owner(annotation_id)
        if owner is None:
            raise api_error(404, "annotation_not_found", f"no annotation {annotation_id!r}")
        if owner[0] != who:
            raise api_error(403, "not_your_annotation", f"annotation {annotation_id!r} belongs to another annotator")
        task = await _store(state).task(owner[2]) if owner[2] else None
        annotation, issues = await submission.validate_annotation(state, document, task)
        if annotation is None:
            return _refusal(422, issues)
        try:
            record, changed = await _store(state).save_annotation(
                annotation,
                annotator=who,
                analysis_hash=owner[1],
                task_id=owner[2],
                annotation_id=annotation_id,
                lease_required=False,
            )
            await submission.write_decided(state, owner[2], annotation)
        except StoreError as exc:
            raise _store_error(exc) from None
        return JSONResponse(status_code=200, content=record.model_dump(mode="json"))

    @router.post("/review/tasks/{task_id}/evaluation", summary="Submit your operator evaluation for a leased task")
    async def submit_task_evaluation(task_id: str, document: Any = Body(...), who: Identity = Depends(caller)):
        task = await _task(state, task_id, "operator_evaluation")
        try:
            await _store(state).require_lease(task_id, who.name)
        except StoreError as exc:
            raise _store_error(exc) from None
        return await _evaluation(state, document, task.analysis_hash, who, task_id)

    @router.post(
        "/evaluations",
        summary="Submit an operator evaluation from the incident view (bound to analysis_hash): it counts for the "
        "incident's review task when you hold a lease on it; without one it needs an operator or lead token",
    )
    async def submit_evaluation(document: Any = Body(...), who: Identity = Depends(caller)):
        return await _evaluation(state, document, None, who, None)

    @router.get(
        "/incidents/{analysis_hash}", summary="Incident view: latest harness result, confidence breakdown, evaluations"
    )
    async def incident(analysis_hash: str, who: str = Depends(annotator)):
        found = await _store(state).verdict(analysis_hash)
        if found is None:
            raise api_error(404, "analysis_not_found", f"no analysis {analysis_hash!r}")
        _, subject = found
        latest = await _store(state).latest_verdict(subject)
        evaluations = await _store(state).evaluations_for(subject)
        return core.incident_view(subject, analysis_hash, latest, evaluations)


def _lead_routes(router: APIRouter, state: ApiState) -> None:
    """A lead's routes: agreement, disputed and decided tasks, decisions."""

    @router.get("/review/agreement", summary="Inter-annotator agreement per judgement, overall and per batch (lead)")
    async def agreement(batch: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$",
                                                    description="one batch: the UTC day its tasks were created"),
                        who: str = Depends(lead)):
        return await agreement_figures(_store(state), batch=batch)

    @router.get("/adjudications", summary="Tasks whose reviewers disagreed, or decided (lead)")
    async def adjudications(
        state_: str | None = Query(None, alias="state", pattern="^(disputed|decided|agreed|majority|adjudicated)$"),
        limit: int = Query(100, ge=1, le=1000),
        offset: int = Query(0, ge=0, le=2**31 - 1),
        who: str = Depends(lead),
    ) -> list[dict[str, Any]]:
        return await _store(state).outcomes(state=state_, limit=limit, offset=offset)

    @router.get("/adjudications/{task_id}", summary="One task's outcome with every reviewer's review (lead)")
    async def adjudication(task_id: str, who: str = Depends(lead)) -> dict[str, Any]:
        found = await _store(state).task_outcome(task_id)
        if found is None:
            raise api_error(404, "no_outcome", f"task {task_id!r} has no outcome: it is not reviewed by several "
                            "reviewers, or they have not all reviewed it")
        return found

    @router.post("/adjudications/{task_id}/decision",
                 summary="Decide a disputed task: adopt a review or give one (lead)")
    async def decide(task_id: str, body: DecisionIn, who: str = Depends(lead)):
        if (body.adopt is None) == (body.review is None):
            raise api_error(422, "invalid_decision",
                            "give exactly one of adopt (a review's id) and review (the decided review)")
        task = await _task(state, task_id)
        try:
            record, issues = await submission.adjudicate(state, task, who, adopt=body.adopt, review=body.review,
                                                         comment=body.comment)
        except StoreError as exc:
            raise _store_error(exc) from None
        if record is None:
            return _refusal(422, issues)
        return JSONResponse(status_code=200, content=record.model_dump(mode="json"))


def _tool_routes(router: APIRouter, state: ApiState) -> None:
    """Validation and the difficulty rubric."""

    @router.post("/annotation/validate", summary="Validate an annotation.json against its job's step files")
    async def validate(document: Any = Body(...), who: str = Depends(annotator)):
        _annotation, issues = await submission.validate_annotation(state, document, None)
        return {"valid": not issues, "errors": [i.model_dump(exclude={"line"}) for i in issues]}

    @router.get("/annotation/rubric", summary="The difficulty rubric's criteria")
    async def rubric_criteria(who: str = Depends(annotator)):
        return {"criteria": [c.__dict__ for c in rubric.CRITERIA], "max_score": rubric.MAX_SCORE}

    @router.post("/annotation/rubric", summary="Score criteria with the difficulty rubric")
    async def rubric_score(body: RubricIn, who: str = Depends(annotator)):
        try:
            result = rubric.score(body.criteria)
        except KeyError as exc:
            return _refusal(422, [Issue(code="RUB001", message=str(exc.args[0]), path="criteria")])
        return {
            "difficulty": result.difficulty,
            "difficulty_score": result.score,
            "difficulty_justification": result.justification,
            "criteria": list(result.criteria),
        }
