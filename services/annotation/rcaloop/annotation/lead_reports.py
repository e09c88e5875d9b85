"""The lead's figures over the annotation store: reads rows, hands them to ``lead_figures``.

Only what the annotation service itself stores is read — harness verdicts (``rca.evaluated``),
review tasks, reviews and task outcomes. The agent's name and release (``producer``,
``metadata`` of the raw result) do not travel past ingestion into the verdict, so calibration
is grouped by the output's shape (``parsed.source_kind``), not per agent release.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa

from rcaloop.annotation import lead_figures
from rcaloop.annotation.adjudication import DECIDED
from rcaloop.annotation.store import Store
from rcaloop.annotation.tables import evaluations, review_tasks, stored_annotations, task_outcomes, verdicts


def _day(value: datetime | None) -> str | None:
    return value.date().isoformat() if value is not None else None


def stated_confidence(verdict: dict[str, Any]) -> str | None:
    """The confidence the agent stated (before any harness repair): the harness's reading of
    it, else the RCA_FIELDS value, else the diagnosis's."""
    parsed = verdict.get("parsed") or {}
    diagnosis = parsed.get("diagnosis") or {}
    for value in ((verdict.get("confidence_breakdown") or {}).get("stated_confidence"),
                  (parsed.get("fields") or {}).get("confidence"),
                  (diagnosis.get("root_cause") or {}).get("confidence")):
        if isinstance(value, str) and value.strip():
            return value.strip().casefold()
    return None


def agent_family(verdict: dict[str, Any]) -> str | None:
    diagnosis = (verdict.get("parsed") or {}).get("diagnosis") or {}
    candidates = diagnosis.get("candidates") or []
    family = diagnosis.get("family") or (candidates[0] if candidates else None)
    return family if isinstance(family, str) else None


def failed_rules(verdict: dict[str, Any]) -> list[str]:
    return sorted({f["rule"] for f in verdict.get("findings") or []
                   if isinstance(f, dict) and f.get("rule") and f.get("passed") is False})


async def _verdict_rows(store: Store) -> list[dict[str, Any]]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(verdicts.c.analysis_hash, verdicts.c.verdict, verdicts.c.evaluated_at)
                                   .order_by(verdicts.c.evaluated_at, verdicts.c.analysis_hash))).all()
    return [{"analysis_hash": r.analysis_hash, "day": _day(r.evaluated_at), "verdict": r.verdict} for r in rows]


async def verdict_mix(store: Store) -> dict[str, Any]:
    rows = await _verdict_rows(store)
    return lead_figures.verdict_mix({"day": r["day"], "verdict": r["verdict"].get("verdict")} for r in rows)


async def failing_rules(store: Store) -> dict[str, Any]:
    rows = await _verdict_rows(store)
    return lead_figures.failing_rules({"day": r["day"], "failed_rules": failed_rules(r["verdict"])} for r in rows)


async def _reviews(store: Store) -> list[dict[str, Any]]:
    """Every stored review (first submission time), annotations and evaluations."""
    out = []
    async with store.engine.connect() as conn:
        for table, id_col, doc_col, kind in (
            (stored_annotations, stored_annotations.c.annotation_id, stored_annotations.c.annotation, "annotation"),
            (evaluations, evaluations.c.evaluation_id, evaluations.c.evaluation, "operator_evaluation"),
        ):
            query = sa.select(id_col.label("id"), table.c.task_id, table.c.analysis_hash, table.c.annotator,
                              table.c.created_at, doc_col.label("doc")).order_by(table.c.created_at, id_col)
            out += [{"id": r.id, "task_id": r.task_id, "analysis_hash": r.analysis_hash, "kind": kind,
                     "annotator": r.annotator, "created_at": r.created_at, "doc": r.doc}
                    for r in (await conn.execute(query)).all()]
    return out


async def _tasks(store: Store) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Tasks with the overlap they asked for, and each task's outcome row."""
    async with store.engine.connect() as conn:
        tasks = (await conn.execute(sa.select(review_tasks.c.task_id, review_tasks.c.analysis_hash,
                                              review_tasks.c.kind, review_tasks.c.created_at,
                                              review_tasks.c.task))).all()
        outcomes = (await conn.execute(sa.select(task_outcomes.c.task_id, task_outcomes.c.state,
                                                 task_outcomes.c.document, task_outcomes.c.decided_at))).all()
    listed = [{"task_id": t.task_id, "analysis_hash": t.analysis_hash, "kind": t.kind, "created_at": t.created_at,
               "overlap": int((t.task or {}).get("overlap") or 1)} for t in tasks]
    return listed, {o.task_id: {"state": o.state, "document": o.document, "decided_at": o.decided_at}
                    for o in outcomes}


def _decided(tasks: list[dict[str, Any]], outcomes: dict[str, dict[str, Any]],
             reviews: list[dict[str, Any]]) -> dict[str, tuple[datetime, dict[str, Any]]]:
    """task_id → (when it was decided, its decided review): one reviewer's review for a task one
    reviewer decides, the outcome's decided review for a task several review."""
    first: dict[str, dict[str, Any]] = {}
    for r in reviews:  # oldest first
        if r["task_id"]:
            first.setdefault(r["task_id"], r)
    out = {}
    for t in tasks:
        outcome = outcomes.get(t["task_id"])
        if t["overlap"] >= 2:
            if outcome and outcome["state"] in DECIDED and outcome["decided_at"] is not None:
                out[t["task_id"]] = (outcome["decided_at"], outcome["document"] or {})
        elif (review := first.get(t["task_id"])) is not None:
            out[t["task_id"]] = (review["created_at"], review["doc"] or {})
    return out


async def throughput(store: Store) -> dict[str, Any]:
    tasks, outcomes = await _tasks(store)
    reviews = await _reviews(store)
    decided = _decided(tasks, outcomes, reviews)
    return lead_figures.throughput(
        [{"task_id": t["task_id"], "created_day": _day(t["created_at"]),
          "decided_day": _day(decided[t["task_id"]][0]) if t["task_id"] in decided else None} for t in tasks],
        [{"day": _day(r["created_at"])} for r in reviews if r["task_id"]],
    )


async def calibration(store: Store) -> dict[str, Any]:
    """Each decided review against the agent's stated confidence. An operator's own evaluation
    from the incident view (no task) counts for its analysis too."""
    tasks, outcomes = await _tasks(store)
    reviews = await _reviews(store)
    by_task = _decided(tasks, outcomes, reviews)
    decided = {t["analysis_hash"]: (t["kind"], by_task[t["task_id"]][1]) for t in tasks if t["task_id"] in by_task}
    for r in reviews:
        if r["task_id"] is None and r["kind"] == "operator_evaluation":
            decided.setdefault(r["analysis_hash"], (r["kind"], r["doc"]))
    items = []
    for row in await _verdict_rows(store):
        if (found := decided.get(row["analysis_hash"])) is None:
            continue
        kind, doc = found
        verdict = row["verdict"]
        items.append({"group": (verdict.get("parsed") or {}).get("source_kind") or "unknown",
                      "confidence": stated_confidence(verdict),
                      "correct": lead_figures.review_correct(kind, doc, agent_family(verdict))})
    return lead_figures.calibration(items)


async def reviewer_agreement(store: Store, *, batch: str | None = None) -> dict[str, Any]:
    rows = [r for r in await store.review_batches() if batch in (None, r["batch"])]
    return lead_figures.reviewer_agreement(rows)


async def summary(store: Store) -> dict[str, Any]:
    """The cockpit's counts: disputed tasks, the backlog (tasks not decided yet), reviews."""
    tasks, outcomes = await _tasks(store)
    reviews = await _reviews(store)
    decided = _decided(tasks, outcomes, reviews)
    return {
        "tasks": len(tasks),
        "disputed": sum(1 for o in outcomes.values() if o["state"] == "disputed"),
        "backlog": sum(1 for t in tasks if t["task_id"] not in decided),
        "decided": len(decided),
        "reviews": len(reviews),
        "verdicts": len(await _verdict_rows(store)),
    }
