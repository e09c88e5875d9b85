"""What the lead's charts show, computed from plain rows (pure: no store, no HTTP, no SVG).

Each function takes the rows ``lead_reports`` reads from the store and returns the JSON the
lead API answers and the lead pages draw — one computation, so a chart and its table can
never disagree with the API:

* ``verdict_mix`` — harness verdicts per UTC day (``evaluated_at``): pass, degraded,
  insufficient_evidence;
* ``failing_rules`` — the harness rules that failed most often (verdicts in which a rule
  failed at least once), and per day;
* ``throughput`` — per day: tasks created, reviews submitted, tasks decided, and the backlog
  (tasks created so far that are not decided yet) at the end of the day;
* ``calibration`` — per agent output shape and stated confidence: how often the decided
  review found the agent's root cause right (a reliability diagram);
* ``reviewer_agreement`` — per reviewer: how often their judgements equal a co-reviewer's on
  the same task, overall and per batch.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable
from datetime import date, timedelta
from typing import Any

from rcaloop.annotation.adjudication import JUDGEMENTS

VERDICTS = ("pass", "degraded", "insufficient_evidence")
CONFIDENCE_LEVELS = ("low", "medium", "high")
NOMINAL = {"low": 0.3, "medium": 0.6, "high": 0.9}
"""The share right a calibrated agent would reach at each stated confidence (the diagram's reference)."""
MAX_DAYS = 90
TOP_RULES = 5


def day_range(days: Iterable[str], limit: int = MAX_DAYS) -> list[str]:
    """Every UTC day from the first to the last given (at most the last ``limit``), gaps filled."""
    known = sorted({d for d in days if d})
    if not known:
        return []
    first, last = date.fromisoformat(known[0]), date.fromisoformat(known[-1])
    first = max(first, last - timedelta(days=limit - 1))
    return [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]


def verdict_mix(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """``rows``: ``{day, verdict}`` per stored harness verdict."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        counts[r["day"]][r["verdict"] if r["verdict"] in VERDICTS else "other"] += 1
    days: list[dict[str, Any]] = []
    for day in day_range(counts):
        c = counts.get(day, Counter())
        days.append({"day": day, **{v: c[v] for v in VERDICTS}, "total": sum(c.values())})
    totals = {v: sum(d[v] for d in days) for v in VERDICTS}
    return {"verdicts": list(VERDICTS), "days": days, "totals": {**totals, "total": sum(d["total"] for d in days)}}


def failing_rules(rows: Iterable[dict[str, Any]], top: int = TOP_RULES) -> dict[str, Any]:
    """``rows``: ``{day, failed_rules}`` per stored verdict (the ids of the rules that failed in it)."""
    per_day: dict[str, Counter[str]] = defaultdict(Counter)
    verdicts: Counter[str] = Counter()
    overall: Counter[str] = Counter()
    for r in rows:
        verdicts[r["day"]] += 1
        for rule in sorted(set(r["failed_rules"])):
            per_day[r["day"]][rule] += 1
            overall[rule] += 1
    ranked = sorted(overall.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    rules = [rule for rule, _ in ranked]
    days = [{"day": day, "verdicts": verdicts.get(day, 0), "counts": {rule: per_day[day][rule] for rule in rules}}
            for day in day_range(verdicts)]
    return {"rules": [{"rule": rule, "verdicts": n} for rule, n in ranked], "days": days,
            "verdicts": sum(verdicts.values())}


def throughput(tasks: Iterable[dict[str, Any]], reviews: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """``tasks``: ``{task_id, created_day, decided_day|None}``; ``reviews``: ``{day}`` per review submitted."""
    tasks = list(tasks)
    created = Counter(t["created_day"] for t in tasks)
    decided = Counter(t["decided_day"] for t in tasks if t["decided_day"])
    submitted = Counter(r["day"] for r in reviews)
    days = []
    for day in day_range([*created, *decided, *submitted]):
        backlog = sum(1 for t in tasks
                      if t["created_day"] <= day and not (t["decided_day"] and t["decided_day"] <= day))
        days.append({"day": day, "created": created.get(day, 0), "reviews": submitted.get(day, 0),
                     "decided": decided.get(day, 0), "backlog": backlog})
    open_now = sum(1 for t in tasks if not t["decided_day"])
    return {"days": days, "backlog": open_now, "tasks": len(tasks)}


def _family(value: Any) -> Hashable:
    if not isinstance(value, str):
        return None
    return re.sub(r"[\s\-/]+", "_", value.strip().casefold()).strip("_") or None


def review_correct(kind: str, review: dict[str, Any], agent_family: str | None) -> bool | None:
    """Whether a decided review found the agent's root cause right: an annotation's
    ``category_correct``; an evaluation's ``expected_family`` equal to the agent's family
    (``None`` when the review does not say)."""
    if kind == "annotation":
        value = review.get("category_correct")
        return value if isinstance(value, bool) else None
    expected = _family(review.get("expected_family"))
    if expected is None or agent_family is None:
        return None
    return expected == _family(agent_family)


def calibration(items: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """``items``: ``{group, confidence, correct}`` per decided review of an analysis whose agent
    stated a confidence (``group``: the output's shape — skill_text, step_files, capture)."""
    cells: dict[str, dict[str, list[int]]] = defaultdict(lambda: {c: [0, 0] for c in CONFIDENCE_LEVELS})
    for item in items:
        if item["confidence"] not in CONFIDENCE_LEVELS or item["correct"] is None:
            continue
        cell = cells[item["group"]][item["confidence"]]
        cell[0] += 1
        cell[1] += bool(item["correct"])
    groups = []
    for group in sorted(cells):
        levels: list[dict[str, Any]] = []
        for level in CONFIDENCE_LEVELS:
            n, right = cells[group][level]
            levels.append({"confidence": level, "nominal": NOMINAL[level], "items": n, "correct": right,
                           "observed": round(right / n, 4) if n else None})
        groups.append({"group": group, "items": sum(lv["items"] for lv in levels), "levels": levels})
    return {"levels": list(CONFIDENCE_LEVELS), "nominal": NOMINAL, "groups": groups}


def _pairs_by_reviewer(rows: list[dict[str, Any]]) -> dict[str, list[int]]:
    """reviewer → [judgements compared with a co-reviewer, of them equal]."""
    by_task: dict[tuple[str, str], dict[str, tuple[Hashable, ...]]] = defaultdict(dict)
    for r in rows:
        by_task[(r["kind"], r["task_id"])][r["annotator"]] = tuple(j.read(r["review"]) for j in JUDGEMENTS[r["kind"]])
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for labels in by_task.values():
        names = sorted(labels)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for x, y in zip(labels[a], labels[b], strict=True):
                    if x is None or y is None:
                        continue
                    for who in (a, b):
                        out[who][0] += 1
                        out[who][1] += x == y
    return out


def _reviewer_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    pairs = _pairs_by_reviewer(rows)
    reviews = Counter(r["annotator"] for r in rows)
    tasks: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        tasks[r["annotator"]].add(r["task_id"])
    return [{"annotator": who, "reviews": reviews[who], "tasks": len(tasks[who]), "compared": pairs[who][0],
             "agreeing": pairs[who][1], "agreement": round(pairs[who][1] / pairs[who][0], 4) if pairs[who][0] else None}
            for who in sorted(reviews)]


def reviewer_agreement(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """``rows``: ``{task_id, annotator, kind, review, batch}`` per review of a task several reviewers
    review (``Store.review_batches``). Per reviewer: judgements compared with each co-reviewer of
    the same task, and the share that are equal; overall and per batch."""
    rows = list(rows)
    batches = [{"batch": b, "reviewers": _reviewer_table([r for r in rows if r["batch"] == b])}
               for b in sorted({r["batch"] for r in rows})]
    return {"reviewers": _reviewer_table(rows), "batches": batches}


# -- a disputed task's reviews, field by field -----------------------------------------------
MAX_SHOWN = 240


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…"
    if isinstance(value, list):
        if not value:
            return "(none)"
        if all(isinstance(v, dict) for v in value):
            names = [str(v.get("category") or v.get("action") or v.get("text") or v.get("json_path") or "item")
                     for v in value]
            roots = [f'{v.get("source_file")}#{v.get("json_path")}' for v in value if v.get("is_root_cause") is True]
            text = f"{len(value)}: " + "; ".join(names)
            return _shown(text + (f"; root cause: {roots[0]}" if roots else ""))
        return _shown(", ".join(str(v) for v in value))
    return _shown(str(value))


def _flat(doc: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if isinstance(value, dict) and value:
            for sub, inner in value.items():
                out[f"{key}.{sub}"] = inner
        else:
            out[key] = value
    return out


def side_by_side(kind: str, reviews: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per field of the reviews (``{annotation_id, annotator, review}``): the judgements
    the task is decided on first, then every other field in the order the reviews give them.
    ``differs`` compares judgements as the decision does (case and spacing aside), other fields
    as written."""
    flats = [_flat(r["review"] or {}) for r in reviews]
    judged = {j.name: j for j in JUDGEMENTS.get(kind, ())}
    order = list(judged)
    for flat in flats:
        order += [k for k in flat if k not in order]
    rows = []
    for name in order:
        values = [flat.get(name) for flat in flats]
        if name in judged:
            compared = [judged[name].read(r["review"] or {}) for r in reviews]
        else:
            compared = [repr(v) for v in values]
        rows.append({"field": name, "judgement": name in judged, "values": [_shown(v) for v in values],
                     "differs": len(set(compared)) > 1})
    return rows


def promotes(kind: str, review: dict[str, Any]) -> list[dict[str, str]]:
    """What a decided review carries downstream, judgement by judgement (what knowledge and the gate read)."""
    return [{"judgement": j.name, "value": _shown(_listed(j.read(review)))} for j in JUDGEMENTS.get(kind, ())]


def _listed(value: Hashable) -> Any:
    return list(value) if isinstance(value, tuple) else value
