"""HTTP API (``/api/v1/knowledge/…``) and the server-rendered dashboard (``/knowledge``).

Thin adapters over ``KnowledgeWorkflow``. Who may call is decided at the shared edge
(``guards``), before a body is read: every route needs a bearer token — a lead's
(``RCALOOP_LEAD_TOKENS``), a reviewer's (``RCALOOP_REVIEWER_TOKENS``) or a reader's
(``RCALOOP_READER_TOKENS``) — unless ``RCALOOP_KNOWLEDGE_PUBLIC_READS`` opens the reads.
Approve, shadow and activate need a lead's token, reject a reviewer's (``core.DECISION_ROLES``);
every decision is recorded with the name its token gives. A token is never echoed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import TypeVar

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from rcaloop.contracts import KnowledgeEvent
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.knowledge import (
    CatalogPackage,
    Decision,
    KnowledgePackage,
    PackageState,
    ProbeMetric,
    RuntimeSnapshot,
)
from rcaloop.knowledge.core import may_decide
from rcaloop.knowledge.queries import ProbePlan, SimilarIncident, VerifiedAction
from rcaloop.knowledge.store import StoreError, StoreUnavailable
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow
from rcaloop.shared.http_edge import Guard, Principal, require
from rcaloop.shared.http_errors import api_error
from rcaloop.shared.tokens import Tokens

T = TypeVar("T")
DASHBOARD_STATES = ("candidate", "shadowed", "activated", "rejected")
"""``approved`` is an event, never a resting state: approve activates at once."""


class DecisionRequest(BaseModel):
    decision: Decision
    comment: str | None = Field(default=None, max_length=2000)


class DecisionResponse(BaseModel):
    package: KnowledgePackage
    events: list[KnowledgeEvent]


class CatalogResponse(BaseModel):
    package: CatalogPackage
    events: list[KnowledgeEvent]


class ActiveCatalog(BaseModel):
    """The catalog the harness judges with: the store's active one, else the bundled one."""

    package_id: str | None = None
    version: str
    source: str
    catalog: FamilyCatalog


def _unavailable(exc: StoreError) -> HTTPException:
    """503 while the store is unreachable; 500 when it refused a query (a defect, not an outage)."""
    if isinstance(exc, StoreUnavailable):
        return api_error(503, "KS503", str(exc))
    return api_error(500, "KS500", str(exc))


async def _from_store(answer: Awaitable[T]) -> T:
    """The store's answer, or its failure as the one error body (503 outage, 500 refused query)."""
    try:
        return await answer
    except StoreError as exc:
        raise _unavailable(exc) from None


async def _decided(answer: Awaitable[T]) -> T:
    """A decision's outcome, or why it was refused (its own code and status) or the store's failure."""
    try:
        return await _from_store(answer)
    except DecisionError as exc:
        raise api_error(exc.status, **exc.issue.model_dump(exclude_none=True)) from None


def _lead_for(decision: Decision, who: Principal) -> None:
    """Approve, shadow and activate need a lead's token; a reviewer's token may reject."""
    if not may_decide(decision, who.roles):
        raise api_error(403, "KA403", f"{decision} needs a lead's token (RCALOOP_LEAD_TOKENS); a reviewer's "
                        "token may reject")


PREFIXES = ("/api/v1/knowledge", "/knowledge")
READINESS = "/api/v1/knowledge/ready"


def guards(reviewers: Tokens, readers: Tokens, leads: Tokens | None = None, *,
           public_reads: bool = False) -> list[Guard]:
    """Who may call the knowledge routes: leads (every decision), reviewers (reject) and readers (read)."""
    leads = leads if leads is not None else Tokens({})

    async def authenticate(token: str) -> Principal | None:
        if not len(reviewers) and not len(readers) and not len(leads):
            raise api_error(503, "KA503", "no knowledge tokens are configured (RCALOOP_LEAD_TOKENS, "
                            "RCALOOP_REVIEWER_TOKENS, RCALOOP_READER_TOKENS)")
        if name := leads.identify(token):
            return Principal(name, frozenset({"lead", "reviewer", "reader"}))
        if name := reviewers.identify(token):
            return Principal(name, frozenset({"reviewer", "reader"}))
        if name := readers.identify(token):
            return Principal(name, frozenset({"reader"}))
        return None

    def public(method: str, path: str) -> bool:  # the readiness probe answers orchestrators, who hold no token
        return method in ("GET", "HEAD") and (public_reads or path == READINESS)

    return [Guard(prefix, authenticate, "a knowledge reviewer or reader token", public) for prefix in PREFIXES]


_reviewer = require("reviewer", code="KA403", message="deciding on a package needs a lead's or a reviewer's token "
                    "(RCALOOP_LEAD_TOKENS, RCALOOP_REVIEWER_TOKENS)")


def router(workflow: Callable[[], KnowledgeWorkflow]) -> APIRouter:
    """``workflow`` is a provider, so the store opens lazily on first use."""
    api = APIRouter()
    _package_routes(api, workflow)
    _catalog_routes(api, workflow)
    _query_routes(api, workflow)
    _operation_routes(api, workflow)
    return api


def _package_routes(api: APIRouter, workflow: Callable[[], KnowledgeWorkflow]) -> None:
    """Knowledge packages: list, one package, a decision on it."""

    @api.get("/api/v1/knowledge/packages", response_model=list[KnowledgePackage], tags=["knowledge"])
    async def list_packages(state: PackageState | None = Query(default=None)):
        try:
            return await workflow().packages(state)
        except StoreError as exc:
            raise _unavailable(exc) from None

    @api.get("/api/v1/knowledge/packages/{package_id}", response_model=KnowledgePackage, tags=["knowledge"])
    async def get_package(package_id: str):
        try:
            package = await workflow().package(package_id)
        except StoreError as exc:
            raise _unavailable(exc) from None
        if package is None:
            raise api_error(404, "KD404", f"no knowledge package {package_id!r}")
        return package

    @api.post("/api/v1/knowledge/packages/{package_id}/decisions", response_model=DecisionResponse,
              tags=["knowledge"])
    async def decide(package_id: str, body: DecisionRequest, who: Principal = Depends(_reviewer)):
        _lead_for(body.decision, who)
        package, events = await _decided(workflow().decide(package_id, body.decision, who.name, body.comment))
        return DecisionResponse(package=package, events=events)


def _catalog_routes(api: APIRouter, workflow: Callable[[], KnowledgeWorkflow]) -> None:
    """Family catalogs: the active one, the stored ones, a proposal, a decision on one."""

    @api.get("/api/v1/knowledge/catalog", response_model=ActiveCatalog, tags=["knowledge"])
    async def active_catalog():
        """The active family catalog (the bundled one while none is activated)."""
        catalog, package = await _from_store(workflow().active_catalog())
        return ActiveCatalog(package_id=package.package_id if package else None, version=catalog.version,
                             source="store" if package else "bundled", catalog=catalog)

    @api.get("/api/v1/knowledge/catalogs", response_model=list[CatalogPackage], tags=["knowledge"])
    async def list_catalogs(state: PackageState | None = Query(default=None)):
        return await _from_store(workflow().store.list_catalogs(state))

    @api.post("/api/v1/knowledge/catalogs", response_model=CatalogResponse, tags=["knowledge"])
    async def propose_catalog(body: FamilyCatalog, who: Principal = Depends(_reviewer)):
        """Propose a family catalog (a new version), with a lead's or a reviewer's token: stored as a candidate,
        decided like any package."""
        package, events = await _decided(workflow().propose_catalog(body, who.name))
        return CatalogResponse(package=package, events=events)

    @api.post("/api/v1/knowledge/catalogs/{package_id}/decisions", response_model=CatalogResponse, tags=["knowledge"])
    async def decide_catalog(package_id: str, body: DecisionRequest, who: Principal = Depends(_reviewer)):
        _lead_for(body.decision, who)
        package, events = await _decided(workflow().decide_catalog(package_id, body.decision, who.name,
                                                                   body.comment))
        return CatalogResponse(package=package, events=events)


def _query_routes(api: APIRouter, workflow: Callable[[], KnowledgeWorkflow]) -> None:
    """The knowledge graph's queries: probe metrics, probes to run next, verified actions, similar incidents."""

    @api.get("/api/v1/knowledge/probe-metrics", response_model=list[ProbeMetric], tags=["knowledge"])
    async def probe_metrics():
        return await _from_store(workflow().probe_metrics())

    @api.get("/api/v1/knowledge/probes", response_model=ProbePlan, tags=["knowledge"])
    async def probes(incident: str = Query(min_length=1, max_length=200, description="the open incident's id")):
        """The probes to run next for an open incident, best first, with the facts that ranked them."""
        plan = await _from_store(workflow().probe_plan(incident))
        if plan is None:
            raise api_error(404, "KQ404", f"no incident {incident!r} in the knowledge graph")
        return plan

    @api.get("/api/v1/knowledge/verified-actions", response_model=list[VerifiedAction], tags=["knowledge"])
    async def verified_actions(family: str = Query(min_length=1, max_length=200)):
        """Actions confirmed to have resolved or mitigated incidents of a family (activated packages only)."""
        return await _from_store(workflow().verified_actions(family))

    @api.get("/api/v1/knowledge/similar-incidents", response_model=list[SimilarIncident], tags=["knowledge"])
    async def similar_incidents(incident: str = Query(min_length=1, max_length=200)):
        """Past incidents sharing a family or the alert: history, context only, never current-run evidence."""
        return await _from_store(workflow().similar_incidents(incident))


def _operation_routes(api: APIRouter, workflow: Callable[[], KnowledgeWorkflow]) -> None:
    """Readiness, the runtime snapshot and the HTML dashboard."""

    @api.get(READINESS, tags=["knowledge"])
    async def ready():
        """200 while the store accepts writes; 503 with the reason while it refuses them."""
        problem = await workflow().readiness()
        if problem is not None:
            raise api_error(503, "KS503", f"not ready: {problem}")
        return {"ready": True, "store": workflow().store.name}

    @api.get("/api/v1/knowledge/snapshot", response_model=RuntimeSnapshot, tags=["knowledge"])
    async def snapshot():
        try:
            return await workflow().snapshot()
        except StoreError as exc:
            raise _unavailable(exc) from None

    @api.get("/knowledge", response_class=HTMLResponse, include_in_schema=False)
    async def dashboard():
        try:
            packages = await workflow().packages()
            metrics = await workflow().probe_metrics()
            catalogs = await workflow().store.list_catalogs()
        except StoreError as exc:
            return HTMLResponse(_page("<p class=err>knowledge store unavailable: " + escape(str(exc)) + "</p>"), 503)
        return HTMLResponse(render_dashboard(packages, metrics, catalogs))


def render_dashboard(
    packages: list[KnowledgePackage], metrics: list[ProbeMetric], catalogs: list[CatalogPackage] | None = None
) -> str:
    parts = ["<h1>Knowledge packages</h1>"]
    for state in DASHBOARD_STATES:
        rows = [p for p in packages if p.state == state]
        parts.append(f"<h2>{state} ({len(rows)})</h2>")
        if not rows:
            continue
        parts.append(
            "<table><tr><th>package</th><th>family</th><th>path</th><th>evidence</th>"
            "<th>probes</th><th>verified actions</th><th>issues</th></tr>"
        )
        for p in rows:
            cells = [
                p.package_id,
                p.family or "-",
                p.evidence_source,
                ", ".join(p.supporting_evidence_ids) or "-",
                ", ".join(p.probe_template_ids) or "-",
                "; ".join(p.verified_actions) or "-",
                "; ".join(f"{i.code} {i.message}" for i in p.issues) or "-",
            ]
            parts.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    parts.append("<h1>Probe metrics</h1><p>approved trace-v3 case snapshots only</p>")
    parts.append(
        "<table><tr><th>probe template</th><th>executions</th><th>supports</th><th>refutes</th>"
        "<th>contributions</th></tr>"
    )
    for m in metrics:
        cells = [m.probe_template_id, str(m.executions), str(m.supports), str(m.refutes), str(m.contributions)]
        parts.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    parts.append("</table>")
    parts.append("<h1>Family catalogs</h1><table><tr><th>package</th><th>version</th><th>state</th><th>families</th>"
                 "<th>added signatures</th><th>removed signatures</th></tr>")
    for c in catalogs or []:
        cells = [c.package_id, c.catalog.version, c.state, str(len(c.catalog.families)),
                 str(len(c.changes.added_signatures)), str(len(c.changes.removed_signatures))]
        parts.append("<tr>" + "".join(f"<td>{escape(x)}</td>" for x in cells) + "</tr>")
    parts.append("</table>")
    return _page("\n".join(parts))


def _page(body: str) -> str:
    return (
        "<!doctype html><html><head><meta charset=utf-8><title>rcaloop knowledge</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.err{color:#b00}</style>"
        f"</head><body>{body}</body></html>"
    )
