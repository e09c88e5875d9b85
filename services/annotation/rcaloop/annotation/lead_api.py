"""The lead's figures as JSON (``/api/v1/review/…``, a lead's token): what the lead pages draw.

Thin routes over ``lead_reports``; the pages call the same functions, so a chart's numbers and
the API's are one computation. A reviewer's or operator's token gets 403 ``lead_required``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query

from rcaloop.annotation import lead_reports
from rcaloop.annotation.api import _store, lead
from rcaloop.annotation.submission import ApiState


def build_router(state: ApiState) -> APIRouter:
    router = APIRouter(prefix="/api/v1/review", tags=["annotation: lead"])

    @router.get("/lead/summary", summary="The lead's counts: disputed tasks, backlog, reviews (lead)")
    async def summary(who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.summary(_store(state))

    @router.get("/charts/verdicts", summary="Harness verdicts per UTC day (lead)")
    async def verdicts(who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.verdict_mix(_store(state))

    @router.get("/charts/failing-rules", summary="The harness rules that failed most often, per UTC day (lead)")
    async def failing_rules(who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.failing_rules(_store(state))

    @router.get("/charts/throughput", summary="Tasks created, reviews, tasks decided and the backlog per day (lead)")
    async def throughput(who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.throughput(_store(state))

    @router.get("/charts/calibration",
                summary="The agent's stated confidence against the decided reviews, per output shape (lead)")
    async def calibration(who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.calibration(_store(state))

    @router.get("/agreement/reviewers", summary="Per reviewer: agreement with co-reviewers, overall and per batch "
                "(lead)")
    async def reviewers(batch: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
                        who: str = Depends(lead)) -> dict[str, Any]:
        return await lead_reports.reviewer_agreement(_store(state), batch=batch)

    return router
