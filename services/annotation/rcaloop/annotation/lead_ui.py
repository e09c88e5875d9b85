"""The lead's cockpit in the web UI (``/ui/lead…``): adjudication, agreement, charts, export.

Thin routes over the store, ``submission.adjudicate`` (the API's decision path), ``reports``
and ``lead_reports`` (the figures the lead API answers), drawn by ``charts`` as SVG with a
table of the same numbers beside each chart. Every page needs a session whose token is a
lead's: signed out → the sign-in page; another role → 403 ``lead_required`` in the one error
body every rcaloop API and UI call answers.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse, Response

from rcaloop.annotation import charts, export, lead_figures, lead_nav, lead_reports, reports, submission
from rcaloop.annotation.adjudication import JUDGEMENTS
from rcaloop.annotation.store import StoreError
from rcaloop.annotation.submission import ApiState
from rcaloop.annotation.ui import SECURITY_HEADERS, _Ui, json_answer, to_login
from rcaloop.contracts import Issue
from rcaloop.contracts.common import CATEGORIES
from rcaloop.shared.http_errors import api_error
from rcaloop.shared.wire import PayloadError, parse_json

HERE = Path(__file__).resolve().parent
STATIC = {"lead.css": "text/css", "lead.js": "text/javascript"}
MAX_DECISION_BYTES = 512 * 1024
LEAD_REQUIRED = ("this needs a lead's token (RCALOOP_LEAD_TOKENS, or `rcaloop annotation token create NAME "
                 "--role lead`)")
STATES = ("disputed", "decided", "agreed", "majority", "adjudicated")


class _Lead:
    def __init__(self, state: ApiState) -> None:
        self.ui = _Ui(state)
        self.state = state

    async def lead(self, request: Request) -> str | RedirectResponse:
        """The signed-in lead, the sign-in page for nobody, 403 ``lead_required`` for any other role."""
        who = await submission.session_identity(self.state, request.cookies.get(self.ui.cookie_name(request)))
        lead_nav.ROLE.set(who.role if who else None)
        if who is None:
            return to_login()
        if not who.may("lead"):
            raise api_error(403, "lead_required", LEAD_REQUIRED)
        self.ui.store()
        return who.name

    def signed_in(self, handler: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """A page's handler behind ``lead``: it is called with ``who`` (and ``request`` when it names
        one) and FastAPI sees its other parameters; signed out → the sign-in page."""
        params = inspect.signature(handler).parameters
        wants_request = "request" in params

        @functools.wraps(handler)
        async def route(request: Request, **kwargs: Any) -> Any:
            who = await self.lead(request)
            if isinstance(who, RedirectResponse):
                return who
            return await handler(who=who, **({"request": request} if wants_request else {}), **kwargs)

        first = inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)
        route.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [first, *(p for name, p in params.items() if name not in ("request", "who"))])
        return route

    def page(self, name: str, status: int = 200, **context: Any):
        return self.ui.page(name, status=status, **context)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def _fig(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def build_router(state: ApiState) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    lead = _Lead(state)
    lead.ui.env.filters["pct"] = _pct
    lead.ui.env.filters["fig"] = _fig
    lead.ui.env.filters["tojson_attr"] = lambda v: json.dumps(v)
    _home_routes(router, lead)
    _adjudication_routes(router, lead)
    _figure_routes(router, lead)
    _export_routes(router, lead)
    return router


def _home_routes(router: APIRouter, lead: _Lead) -> None:
    @router.get("/ui/lead")
    @lead.signed_in
    async def home(who: str):
        return lead.page("lead_home.html", who=who, summary=await lead_reports.summary(lead.ui.store()))

    @router.get("/ui/lead/static/{name}")
    async def static(name: str):
        media = STATIC.get(name)
        if media is None:
            return json_answer(404, {"error": {"code": "not_found", "message": "no such asset"}})
        return FileResponse(HERE / "static" / name, media_type=media, headers={"Cache-Control": "max-age=300"})


async def _form(request: Request) -> dict[str, str]:
    body = await request.body()
    if len(body) > MAX_DECISION_BYTES:
        return {}
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}


def _adjudication_routes(router: APIRouter, lead: _Lead) -> None:
    @router.get("/ui/lead/adjudications")
    @lead.signed_in
    async def adjudications(who: str, state: str = "disputed"):
        state = state if state in (*STATES, "all") else "disputed"
        rows = await lead.ui.store().outcomes(state=None if state == "all" else state, limit=500)
        tasks = {r["task_id"]: await lead.ui.store().task(r["task_id"]) for r in rows}
        return lead.page("lead_adjudications.html", who=who, rows=rows, tasks=tasks, state=state, states=STATES)

    async def task_page(request: Request, who: str, task_id: str, *, status: int = 200, errors=None,
                        draft: str | None = None, comment: str = "", note: str = ""):
        outcome = await lead.ui.store().task_outcome(task_id)
        task = await lead.ui.store().task(task_id)
        if outcome is None or task is None:
            return lead.page("missing.html", status=404, who=who, what=f"disputed or decided task {task_id}")
        reviews = outcome["reviews"]
        found = await lead.ui.store().verdict(task.analysis_hash)
        return lead.page(
            "lead_adjudication.html", status=status, who=who, task=task, outcome=outcome, reviews=reviews,
            rows=lead_figures.side_by_side(outcome["kind"], reviews),
            promotes={r["annotation_id"]: lead_figures.promotes(outcome["kind"], r["review"]) for r in reviews},
            decided=lead_figures.promotes(outcome["kind"], outcome["decided_review"])
            if outcome["decided_review"] else None,
            judgements=[j.name for j in JUDGEMENTS[outcome["kind"]]],
            verdict=found[0] if found else None,
            draft=draft if draft is not None else json.dumps(
                outcome["decided_review"] or (reviews[0]["review"] if reviews else {}), indent=2, ensure_ascii=False),
            errors=errors or [], comment=comment, note=note[:300],
        )

    @router.get("/ui/lead/adjudications/{task_id}")
    @lead.signed_in
    async def adjudication(task_id: str, request: Request, who: str, note: str = ""):
        return await task_page(request, who, task_id, note=note)

    @router.post("/ui/lead/adjudications/{task_id}/decision")
    @lead.signed_in
    async def decide(task_id: str, request: Request, who: str):
        form = await _form(request)
        adopt, text, comment = form.get("adopt") or None, form.get("review"), (form.get("comment") or "")[:2000]
        task = await lead.ui.store().task(task_id)
        if task is None:
            return lead.page("missing.html", status=404, who=who, what=f"review task {task_id}")
        review = None
        if adopt is None:
            try:
                review = parse_json(text or "")
            except PayloadError as exc:
                issue = Issue(code="invalid_json", message=f"the decision is not JSON: {exc}", path="$")
                return await task_page(request, who, task_id, status=422, errors=[issue], draft=text, comment=comment)
        try:
            record, issues = await submission.adjudicate(lead.state, task, who, adopt=adopt, review=review,
                                                         comment=comment or None)
        except StoreError as exc:
            issue = Issue(code=exc.code, message=exc.message, path="$")
            return await task_page(request, who, task_id, status=exc.status, errors=[issue], draft=text,
                                   comment=comment)
        if record is None:
            return await task_page(request, who, task_id, status=422, errors=issues, draft=text, comment=comment)
        note = (f"Decided (revision {record.revision}): {record.annotation_id} is published on review.annotations "
                "and promotes.")
        return RedirectResponse(f"/ui/lead/adjudications/{quote(task_id)}?note={quote(note)}", status_code=303)


def _figure_routes(router: APIRouter, lead: _Lead) -> None:
    @router.get("/ui/lead/agreement")
    @lead.signed_in
    async def agreement(who: str):
        figures = await reports.agreement_figures(lead.ui.store())
        per_reviewer = await lead_reports.reviewer_agreement(lead.ui.store())
        trend = {}
        days = [b["batch"] for b in figures["batches"]]
        for kind in JUDGEMENTS:
            series = [(j.name, [next(f["observed_agreement"] for f in b["kinds"][kind] if f["field"] == j.name)
                                for b in figures["batches"]]) for j in JUDGEMENTS[kind]]
            trend[kind] = charts.lines(f"agreement-{kind}", f"Observed agreement per batch ({kind})", days, series,
                                       percent=True)
        return lead.page("lead_agreement.html", who=who, figures=figures, reviewers=per_reviewer, trend=trend)

    @router.get("/ui/lead/charts/harness")
    @lead.signed_in
    async def harness(who: str):
        mix = await lead_reports.verdict_mix(lead.ui.store())
        rules = await lead_reports.failing_rules(lead.ui.store())
        days = [d["day"] for d in mix["days"]]
        mix_chart = charts.stacked_bars("chart-verdicts", "Harness verdicts per day", days,
                                        [(v, [d[v] for d in mix["days"]]) for v in mix["verdicts"]])
        rule_days = [d["day"] for d in rules["days"]]
        rules_chart = charts.lines(
            "chart-rules", "Verdicts in which each top rule failed, per day", rule_days,
            [(r["rule"], [d["counts"][r["rule"]] for d in rules["days"]]) for r in rules["rules"]])
        return lead.page("lead_harness.html", who=who, mix=mix, rules=rules, mix_chart=mix_chart,
                         rules_chart=rules_chart)

    @router.get("/ui/lead/charts/throughput")
    @lead.signed_in
    async def throughput(who: str):
        data = await lead_reports.throughput(lead.ui.store())
        days = [d["day"] for d in data["days"]]
        chart = charts.lines("chart-throughput", "Review throughput and backlog per day", days,
                             [(name, [d[key] for d in data["days"]]) for key, name in (
                                 ("created", "tasks created"), ("reviews", "reviews submitted"),
                                 ("decided", "tasks decided"), ("backlog", "backlog"))])
        return lead.page("lead_throughput.html", who=who, data=data, chart=chart)

    @router.get("/ui/lead/charts/calibration")
    @lead.signed_in
    async def calibration(who: str):
        data = await lead_reports.calibration(lead.ui.store())
        diagrams = [charts.reliability(f"chart-calibration-{g['group']}", f"Calibration: {g['group']} outputs",
                                       g["levels"]) for g in data["groups"]]
        return lead.page("lead_calibration.html", who=who, data=data, diagrams=diagrams)


def _export_routes(router: APIRouter, lead: _Lead) -> None:
    @router.get("/ui/lead/export")
    @lead.signed_in
    async def export_page(who: str):
        records = await reports.export_records(lead.ui.store())
        counts: dict[str, int] = {}
        for r in records:
            counts[r["decision"]] = counts.get(r["decision"], 0) + 1
        return lead.page("lead_export.html", who=who, total=len(records), counts=counts, categories=CATEGORIES)

    @router.get("/ui/lead/export/download")
    @lead.signed_in
    async def download(who: str, format: str = "jsonl", since: str = "", category: str = "", agreed_only: str = ""):
        if format not in ("jsonl", "csv"):
            raise api_error(422, "invalid_parameter", "format is jsonl or csv")
        if category and category not in CATEGORIES:
            raise api_error(422, "invalid_parameter", f"category is one of {' | '.join(CATEGORIES)}")
        since_at = None
        if since:
            try:
                since_at = datetime.fromisoformat(since.replace("Z", "+00:00"))
            except ValueError:
                raise api_error(422, "invalid_parameter", "since is an ISO date or date-time") from None
            since_at = since_at if since_at.tzinfo else since_at.replace(tzinfo=UTC)
        records = await reports.export_records(lead.ui.store(), since=since_at, category=category or None,
                                               agreed_only=agreed_only in ("1", "true", "on", "yes"))
        name = f"annotations-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.{format}"
        media = "application/x-ndjson" if format == "jsonl" else "text/csv"
        return Response(export.render(records, format), media_type=f"{media}; charset=utf-8",
                        headers={**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'})
