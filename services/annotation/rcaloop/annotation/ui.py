"""The reviewers' web UI, served by the annotation service (``/ui/``): thin routes over the store.

Server-rendered Jinja2 pages (autoescaped) with a little plain JavaScript and htmx, every
asset served from this package: nothing is loaded from another host. A reviewer signs in
with an annotator token and gets a session of its own (a random secret in an HttpOnly,
SameSite=Strict cookie — ``Secure`` and ``__Host-`` prefixed when the UI is served over
https — stored only as its digest, ended by signing out, by ``REVIEW_SESSION_IDLE_S`` unused,
``REVIEW_SESSION_MAX_S`` after sign-in, or by its token being revoked); the token itself never
sits in the browser. Changes (every POST and PUT) are accepted only from the UI's own origin
(the shared edge checks ``Origin`` and ``Sec-Fetch-Site``). The reviewer works the queue,
claims a task, answers the questions and submits; validation, storage and the outbox are
the same as the JSON API's (``submission``). Pages carry a strict Content-Security-Policy:
no inline script runs, so even text that escaped the escaping could not execute.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import jinja2
from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from rcaloop.annotation import core, lead_nav, submission, ui_view
from rcaloop.annotation.review_files import files_for
from rcaloop.annotation.store import Store, StoreError
from rcaloop.annotation.submission import ApiState
from rcaloop.contracts import HarnessVerdict, Issue, ReviewTask
from rcaloop.contracts.common import CATEGORIES
from rcaloop.contracts.parsed import Diagnosis
from rcaloop.shared.http_errors import api_error
from rcaloop.shared.wire import PayloadError, parse_json
from rcaloop.contracts.evaluation import EVALUATION_ITEMS

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
STATIC_FILES = {
    "app.css": "text/css",
    "review.js": "text/javascript",
    "incident.js": "text/javascript",
    "common.js": "text/javascript",
    "htmx.min.js": "text/javascript",
}
COOKIE = "rcaloop_session"
# the browser keeps it only if Secure, Path=/ and no Domain: no sibling can set it
SECURE_COOKIE = "__Host-rcaloop_session"
UI_HEADER = "x-rcaloop-ui"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # no-referrer would make the browser send "Origin: null" on our own posts
    "Cache-Control": "no-store",
}
MAX_FORM_BYTES = 8 * 1024
CASE_TYPES = ("known", "compositional", "novel", "tool_degraded")
OUTCOMES = ("resolved", "mitigated", "not_resolved", "unknown")
VERDICTS = ("pass", "degraded", "insufficient_evidence")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["red_flag"] = ui_view.red_flag
    env.globals["is_lead"] = lead_nav.is_lead
    return env


def _issues(issues: list[Issue]) -> list[dict[str, Any]]:
    return [i.model_dump(exclude={"line"}) for i in issues]


def to_login(note: str | None = None) -> RedirectResponse:
    target = "/ui/login" + (f"?note={quote(note)}" if note else "")
    return RedirectResponse(target, status_code=303)


def to_queue(note: str) -> RedirectResponse:
    return RedirectResponse("/ui/?note=" + quote(note), status_code=303)


def to_task(task_id: str) -> RedirectResponse:
    return RedirectResponse(f"/ui/tasks/{quote(task_id)}", status_code=303)


async def form(request: Request) -> dict[str, str]:
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        return {}
    parsed = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in parsed.items()}


async def json_body(request: Request) -> Any:
    """The body as JSON, read with the limits every stream entry meets (nesting, numbers,
    Unicode): anything else is a 400 in the one error body, never a 500."""
    try:
        return parse_json(await request.body())
    except PayloadError as exc:
        raise api_error(400, exc.code, f"the request body {str(exc).removeprefix('payload ')}") from None


def json_answer(status: int, content: Any) -> JSONResponse:
    return JSONResponse(content, status_code=status, headers={"Cache-Control": "no-store"})


def refused(exc: StoreError):
    return api_error(exc.status, exc.code, exc.message)


def verdict_view(verdict: HarnessVerdict) -> dict[str, Any]:
    maxima: dict[str, float] = {}
    for check in verdict.checks:
        maxima[check.dimension] = maxima.get(check.dimension, 0) + check.max_points
    return {
        "verdict": verdict,
        "dimensions": [(name, pts, maxima.get(name)) for name, pts in verdict.dimensions.items()],
        "breakdown": core.confidence_breakdown(verdict),
        "red_flags": [ui_view.red_flag(f) for f in verdict.parsed.model_dump(mode="json")["red_flags"]],
        "report_html": ui_view.render_markdown(
            verdict.parsed.report_markdown or verdict.parsed.chat_rendered, ui_view.resolved_links(verdict)
        ),
    }


class _Ui:
    """What the UI's route families share: the state, the page templates, the signed-in reviewer."""

    def __init__(self, state: ApiState) -> None:
        self.state = state
        self.env = _environment()

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(**context)
        return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)

    def secure(self, request: Request) -> bool:
        """Cookies are Secure when browsers reach the UI over https: the configured public URL
        says so, else the request's scheme (behind a proxy, believed only from HTTP_FORWARDED_ALLOW_IPS)."""
        public = self.state.settings.http_public_url
        return (public or str(request.url)).lower().startswith("https:")

    def cookie_name(self, request: Request) -> str:
        return SECURE_COOKIE if self.secure(request) else COOKIE

    async def reviewer(self, request: Request) -> str | None:
        who = await submission.session_identity(self.state, request.cookies.get(self.cookie_name(request)))
        lead_nav.ROLE.set(who.role if who else None)
        return who.name if who else None

    def store(self) -> Store:
        try:
            return self.state.opened()
        except StoreError as exc:
            raise refused(exc) from None

    async def caller(self, request: Request) -> str:
        """The reviewer behind a page's script call; the custom header keeps other sites out."""
        if request.headers.get(UI_HEADER) != "1":
            raise api_error(403, "forbidden", "UI calls carry X-Rcaloop-UI: 1")
        who = await self.reviewer(request)
        if who is None:
            raise api_error(401, "unauthorized", "sign in again")
        self.store()
        return who

    async def script_data(self, task: ReviewTask | None, who: str, lease: dict[str, Any] | None, **extra: Any) -> dict:
        """What a page's script reads: the task, the reviewer's draft and lease, and ``extra``."""
        return {
            "task_id": task.task_id if task else None,
            "draft": await self.store().draft(task.task_id, who) if task else None,
            "lease": lease,
            "lease_s": self.state.settings.review_lease_s,
            "server_now": self.store().clock(),  # the page measures its clock against the server's, which ends leases
            **extra,
        }

    async def loaded(self, task_id: str) -> tuple[ReviewTask, HarnessVerdict] | None:
        task = await self.store().task(task_id)
        found = await self.store().verdict(task.analysis_hash) if task else None
        return (task, found[0]) if task and found else None

    async def incident(
        self, analysis_hash: str, who: str, task: ReviewTask | None = None, lease: dict[str, Any] | None = None
    ):
        found = await self.store().verdict(analysis_hash)
        if found is None:
            return self.page("missing.html", status=404, who=who, what=f"analysis {analysis_hash}")
        verdict, subject = found
        latest = await self.store().latest_verdict(subject)
        view = core.incident_view(subject, analysis_hash, latest, await self.store().evaluations_for(subject))
        data = await self.script_data(task, who, lease, analysis_hash=analysis_hash)
        return self.page(
            "incident.html",
            who=who,
            task=task,
            lease=lease,
            view=view,
            data=data,
            items=EVALUATION_ITEMS,
            case_types=CASE_TYPES,
            outcomes=OUTCOMES,
            gates=[g.gate for g in verdict.hard_gates] or ["1", "2", "3", "4"],
            diagnosis=verdict.parsed.diagnosis,
            **verdict_view(verdict),
        )


def build_router(state: ApiState) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    ui = _Ui(state)
    _sign_in_routes(router, ui)
    _queue_routes(router, ui)
    _task_routes(router, ui)
    _incident_routes(router, ui)
    _static_routes(router)
    return router


def _sign_in_routes(router: APIRouter, ui: _Ui) -> None:
    """Sign in and out (and the redirects to the queue)."""

    @router.get("/")
    async def root() -> RedirectResponse:
        return RedirectResponse("/ui/", status_code=303)

    @router.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @router.get("/ui")
    async def ui_root() -> RedirectResponse:
        return RedirectResponse("/ui/", status_code=303)

    @router.get("/ui/login")
    async def login_page(request: Request, note: str | None = None):
        return ui.page("login.html", who=None, note=(note or "")[:200], error=None)

    @router.post("/ui/login")
    async def login(request: Request):
        token = (await form(request)).get("token", "").strip()
        ui.store()
        signed = await submission.sign_in(ui.state, token)
        if signed is None:
            return ui.page("login.html", status=401, who=None, note="", error="That token names no annotator.")
        response = RedirectResponse("/ui/", status_code=303)
        response.set_cookie(ui.cookie_name(request), signed[1], httponly=True, samesite="strict",
                            secure=ui.secure(request), path="/",
                            max_age=int(ui.state.settings.review_session_max_s))
        return response

    @router.post("/ui/logout")
    async def logout(request: Request) -> RedirectResponse:
        name = ui.cookie_name(request)
        if secret := request.cookies.get(name):
            await ui.store().end_session(secret)  # the cookie, if kept or copied, opens nothing any more
        response = to_login("Signed out.")
        response.delete_cookie(name, path="/", secure=ui.secure(request), httponly=True, samesite="strict")
        return response


def _queue_routes(router: APIRouter, ui: _Ui) -> None:
    """The queue: list, claim the next task or one task, leave a task."""

    @router.get("/ui/")
    async def queue(
        request: Request,
        kind: str = "",
        verdict: str = "",
        case_type: str = "",
        red_flags: str = "",
        q: str = "",
        note: str = "",
    ):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        params = request.query_params
        state_ = params.get("state", "")
        filters = {
            "kind": kind if kind in ("annotation", "operator_evaluation") else "",
            "verdict": verdict if verdict in VERDICTS else "",
            "case_type": case_type if case_type in CASE_TYPES else "",
            "state": state_ if state_ in ("open", "done") else "",
            "red_flags": red_flags if red_flags in ("yes", "no") else "",
            "q": q.strip()[:200],
        }
        rows = await ui.store().list_tasks(
            state=filters["state"] or None,
            kind=filters["kind"] or None,
            verdict=filters["verdict"] or None,
            case_type=filters["case_type"] or None,
            red_flags={"yes": True, "no": False}.get(filters["red_flags"]),
            search=filters["q"] or None,
            limit=200,
        )
        mine = {r["task"]["task_id"]: await ui.store().lease_of(r["task"]["task_id"], who) for r in rows}
        return ui.page(
            "queue.html",
            who=who,
            rows=rows,
            mine=mine,
            filters=filters,
            progress=await ui.store().progress(),
            verdicts=VERDICTS,
            case_types=CASE_TYPES,
            note=note[:200],
        )

    @router.post("/ui/claim")
    async def claim_next(request: Request):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        kind = (await form(request)).get("kind") or None
        lease = await ui.store().claim(
            who, ui.state.settings.review_lease_s, kind=kind if kind in ("annotation", "operator_evaluation") else None
        )
        return to_task(lease.task.task_id) if lease else to_queue("Nothing left to review.")

    @router.post("/ui/tasks/{task_id}/claim")
    async def claim_task(task_id: str, request: Request):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        try:
            await ui.store().claim_task(task_id, who, ui.state.settings.review_lease_s)
        except StoreError as exc:
            return to_queue(exc.message)
        return to_task(task_id)

    @router.post("/ui/tasks/{task_id}/release")
    async def release(task_id: str, request: Request):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        with contextlib.suppress(StoreError):  # already gone: leaving is still leaving
            await ui.store().release(task_id, who)
        return to_queue(f"Left task {task_id}; it is back in the queue.")


def _task_routes(router: APIRouter, ui: _Ui) -> None:
    """A task's page, its lease, draft and submission."""

    @router.get("/ui/tasks/{task_id}")
    async def task_page(task_id: str, request: Request):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        found = await ui.loaded(task_id)
        if found is None:
            return ui.page("missing.html", status=404, who=who, what=f"review task {task_id}")
        task, verdict = found
        lease = await ui.store().lease_of(task_id, who)
        if task.kind == "operator_evaluation":
            return await ui.incident(task.analysis_hash, who, task=task, lease=lease)
        agent = (verdict.parsed.diagnosis or Diagnosis()).model_dump(mode="json")
        job_id = task.job_id or ""
        run_files = await files_for(ui.store(), ui.state.settings.rcaloop_analysis_root, job_id or None,
                                    task.analysis_hash)
        checks = ui_view.evidence_checks(agent.get("evidence") or [], run_files, job_id or None)
        category = (agent.get("root_cause") or {}).get("category")
        data = await ui.script_data(
            task,
            who,
            lease,
            job_id=job_id,
            agent=agent,
            evidence_checks=checks,
            rubric=ui_view.rubric_data(),
            categories=list(CATEGORIES),
        )
        return ui.page(
            "task.html",
            who=who,
            task=task,
            agent=agent,
            checks=checks,
            category_valid=category in CATEGORIES,
            sources=ui_view.source_files(run_files, job_id),
            lease=lease,
            data=data,
            categories=CATEGORIES,
            rubric=ui_view.rubric_data()["criteria"],
            **verdict_view(verdict),
        )

    @router.post("/ui/tasks/{task_id}/extend")
    async def extend(task_id: str, request: Request, who: str = Depends(ui.caller)):
        try:
            expires = await ui.store().extend(task_id, who, ui.state.settings.review_lease_s)
        except StoreError as exc:
            raise refused(exc) from None
        return json_answer(200, {"task_id": task_id, "expires_at": expires})

    @router.put("/ui/tasks/{task_id}/draft")
    async def save_draft(task_id: str, request: Request, who: str = Depends(ui.caller)):
        body = await json_body(request)
        if not isinstance(body, dict):
            raise api_error(422, "invalid_draft", "a draft is a JSON object")
        if await ui.store().task(task_id) is None:
            raise api_error(404, "task_not_found", f"no review task {task_id!r}")
        await ui.store().save_draft(task_id, who, body)
        return Response(status_code=204)

    @router.post("/ui/tasks/{task_id}/annotation")
    async def submit(task_id: str, request: Request, who: str = Depends(ui.caller)):
        task = await ui.store().task(task_id)
        if task is None or task.kind != "annotation":
            raise api_error(404, "task_not_found", f"no annotation task {task_id!r}")
        try:
            record, _changed, issues = await submission.submit_annotation(
                ui.state, task, await json_body(request), who
            )
        except StoreError as exc:
            raise refused(exc) from None
        if record is None:  # a record exactly when there are no findings
            return json_answer(422, {"valid": False, "errors": _issues(issues)})
        await ui.store().drop_draft(task_id, who)
        return json_answer(200, {"valid": True, "annotation_id": record.annotation_id})


def _incident_routes(router: APIRouter, ui: _Ui) -> None:
    """The incident view and its evaluations."""

    @router.get("/ui/incidents/{analysis_hash}")
    async def incident_page(analysis_hash: str, request: Request):
        who = await ui.reviewer(request)
        if who is None:
            return to_login()
        return await ui.incident(analysis_hash, who)

    @router.post("/ui/incidents/{analysis_hash}/evaluation")
    async def evaluate(analysis_hash: str, request: Request, who: str = Depends(ui.caller)):
        """A leased task's evaluation, or one from the incident view: that needs a lease on the
        incident's task or an operator's token (the role comes from the token behind the session)."""
        identity = await submission.session_identity(ui.state, request.cookies.get(ui.cookie_name(request)))
        if identity is None:
            raise api_error(401, "unauthorized", "sign in again")
        body = await json_body(request)
        task_id = body.pop("task_id", None) if isinstance(body, dict) else None
        task = await ui.store().task(task_id) if isinstance(task_id, str) else None
        lease = await ui.store().lease_of(task.task_id, who) if task else None
        if task is not None and (task.analysis_hash != analysis_hash or (lease or {}).get("status") != "leased"):
            task = None  # no lease held: an evaluation from the incident view, bound to the analysis
        try:
            record, _changed, issues = await submission.submit_evaluation(
                ui.state, body, analysis_hash, identity, task.task_id if task else None
            )
        except StoreError as exc:
            raise refused(exc) from None
        if record is None:  # a record exactly when there are no findings
            return json_answer(422, {"valid": False, "errors": _issues(issues)})
        if task is not None:
            await ui.store().drop_draft(task.task_id, who)
        return json_answer(200, {"valid": True, "evaluation_id": record.annotation_id})


def _static_routes(router: APIRouter) -> None:
    """Static assets, served from the package (nothing from another host)."""

    @router.get("/ui/static/{name}")
    async def static(name: str):
        media = STATIC_FILES.get(name)
        if media is None:
            return json_answer(404, {"error": {"code": "not_found", "message": "no such asset"}})
        return FileResponse(STATIC / name, media_type=media, headers={"Cache-Control": "max-age=300"})
