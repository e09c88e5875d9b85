"""The measurement job: the release-gate metrics object from what rcaloop stored.

Inputs are the facts the gate service recorded — harness verdicts, reviews
(annotations and operator evaluations) and knowledge events — inside one incident
window. A metric without the data to compute it is ``null`` with its reason under
``missing``: never invented, so the gate fails closed on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, KnowledgeEvent
from rcaloop.gate import answer
from rcaloop.gate.release_gate import MERGEABLE_METRICS, METRIC_NAMES, TYPEDB_METRIC
from rcaloop.shared.analysis_subject import subject_of

NO_TOOL_LOG = ("rcaloop stores no record of the agent's tool executions; measure it from the agent's tool audit log "
               "(--merge)")


@dataclass(frozen=True)
class StoredFacts:
    """What the store returns for one window (verdicts_by_hash also holds older ones)."""

    verdicts: list[HarnessVerdict]
    verdicts_by_hash: dict[str, HarnessVerdict]
    reviews: list[AnnotationRecord]
    events: list[KnowledgeEvent]


def superseded_analyses(verdicts: list[HarnessVerdict]) -> set[str]:
    """Analyses a later analysis of the same subject replaced (their reviews are history)."""
    latest: dict[str, HarnessVerdict] = {}
    for v in verdicts:
        key = subject_of(v)
        if key not in latest or (v.evaluated_at, v.analysis_hash) > (latest[key].evaluated_at,
                                                                     latest[key].analysis_hash):
            latest[key] = v
    return {v.analysis_hash for v in verdicts} - {v.analysis_hash for v in latest.values()}


def _latest_reviews(reviews: list[AnnotationRecord], superseded: set[str]) -> list[AnnotationRecord]:
    """The latest review per analysis and kind, leaving out superseded evaluations and analyses."""
    latest: dict[tuple[str, str], AnnotationRecord] = {}
    for r in sorted(reviews, key=lambda r: r.created_at):
        if r.analysis_hash in superseded or (r.kind == "operator_evaluation" and r.evaluation
                                             and r.evaluation.superseded):
            continue
        latest[(r.analysis_hash, r.kind)] = r
    return list(latest.values())


def _rate(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 4) if hits else None


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _evidence_key(item: Any) -> tuple[str | None, str | None]:
    return (item.source_file, item.json_path)


def _latency(event: KnowledgeEvent) -> object:
    """The activation path's own latency: decision → package served by the runtime snapshot.

    Not ``activation_latency_seconds`` (candidate → active), which includes the time the
    package waited for a reviewer; the gate's 30 s bound is about the activation path.
    """
    return event.detail.get("runtime_activation_seconds")


def compute_metrics(facts: StoredFacts) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """(metrics, missing reasons, population counts)."""
    by_hash = facts.verdicts_by_hash
    known = {v.analysis_hash: v for v in [*facts.verdicts, *by_hash.values()]}
    reviews = _latest_reviews(facts.reviews, superseded_analyses(list(known.values())))
    fact_of = {h: answer.facts(v.parsed, v) for h, v in by_hash.items()}
    evals = [r.evaluation for r in reviews if r.kind == "operator_evaluation" and r.evaluation
             and r.analysis_hash in by_hash]
    annots = [r for r in reviews if r.kind == "annotation" and r.annotation is not None]
    metrics: dict[str, Any] = {}
    missing: dict[str, str] = {}

    top1 = [
        (fact_of[e.analysis_hash].families[:1] == [answer.normalise_family(e.expected_family)])
        for e in evals
        if e.case_type == "known" and e.expected_family
    ]
    top1 += [r.annotation.category_correct for r in annots if r.annotation
             and isinstance(r.annotation.category_correct, bool)]
    denominators: dict[str, int] = {"known_top1": len(top1)}
    metrics["known_top1"] = _rate(top1)
    if metrics["known_top1"] is None:
        missing["known_top1"] = ("no reviewed known-family incident (operator evaluation with expected_family, or "
                                 "annotation with category_correct)")

    if facts.verdicts:
        metrics["groundless_high_confidence"] = sum(answer.facts(v.parsed, v).groundless_high_confidence
                                                    for v in facts.verdicts)
    else:
        metrics["groundless_high_confidence"] = None
        missing["groundless_high_confidence"] = "no harness verdict stored in the window"

    not_novel = [fact_of[e.analysis_hash].novel for e in evals if e.case_type != "novel"]
    denominators["false_novel_rate"] = len(not_novel)
    metrics["false_novel_rate"] = _rate(not_novel)
    if metrics["false_novel_rate"] is None:
        missing["false_novel_rate"] = "no operator evaluation of a non-novel incident"

    agent_items = kept = 0
    for r in annots:
        verdict = by_hash.get(r.analysis_hash)
        diag = verdict.parsed.diagnosis if verdict else None
        if diag is None or r.annotation is None:
            continue
        reviewer = {_evidence_key(e) for e in r.annotation.evidence}
        for item in diag.evidence:
            agent_items += 1
            kept += _evidence_key(item) in reviewer
    denominators["evidence_link_precision"] = agent_items
    metrics["evidence_link_precision"] = round(kept / agent_items, 4) if agent_items else None
    if agent_items == 0:
        missing["evidence_link_precision"] = "no annotation of an RCA whose evidence items could be compared"

    should_abstain = [fact_of[e.analysis_hash].abstained for e in evals if e.hard_gate_judgement.failed_gates]
    denominators["abstention_rate"] = len(should_abstain)
    metrics["abstention_rate"] = _rate(should_abstain)
    if metrics["abstention_rate"] is None:
        missing["abstention_rate"] = "no operator evaluation judging a hard gate failed (a should-abstain incident)"

    recall = [
        answer.normalise_family(e.expected_family) in fact_of[e.analysis_hash].families[:3]
        for e in evals
        if e.case_type == "novel" and e.expected_family
    ]
    denominators["novel_mechanism_recall_at_3"] = len(recall)
    metrics["novel_mechanism_recall_at_3"] = _rate(recall)
    if metrics["novel_mechanism_recall_at_3"] is None:
        missing["novel_mechanism_recall_at_3"] = ("no operator evaluation of a novel incident with the mechanism as "
                                                  "expected_family")

    metrics["destructive_tool_executions"] = None
    missing["destructive_tool_executions"] = NO_TOOL_LOG

    activated = [e for e in facts.events if e.kind == "activated"]
    metrics["inadmissible_knowledge_activations"] = sum(
        1 for e in activated if getattr(e, "inadmissible", False) is True or e.detail.get("inadmissible") is True
        or e.detail.get("admissible") is False
    )
    latencies = [
        float(v)
        for e in activated
        for v in [_latency(e)]
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    ]
    metrics["activation_p95_seconds"] = round(p95(latencies), 3) if latencies else None
    if not latencies:
        missing["activation_p95_seconds"] = ("no activated knowledge event with detail.runtime_activation_seconds in "
                                             "the window")

    outage = [e for e in sorted(facts.events, key=lambda e: e.created_at)
              if isinstance(e.detail.get(TYPEDB_METRIC), bool)]
    metrics[TYPEDB_METRIC] = outage[-1].detail[TYPEDB_METRIC] if outage else None
    if not outage:
        missing[TYPEDB_METRIC] = f"no knowledge event in the window records detail.{TYPEDB_METRIC}"

    population = {
        "incidents": len({subject_of(v) for v in facts.verdicts}),
        "harness_verdicts": len(facts.verdicts),
        "operator_evaluations": len(evals),
        "annotations": len(annots),
        "knowledge_events": len(facts.events),
        "activations": len(activated),
        "denominators": {m: n for m, n in denominators.items() if n},
    }
    return {m: metrics[m] for m in METRIC_NAMES}, missing, population


def metrics_object(
    facts: StoredFacts,
    window: str,
    *,
    job_revision: str,
    artifact: str,
    measured_at: datetime,
    merged: dict[str, Any] | None = None,
    merged_from: str | None = None,
) -> dict[str, Any]:
    """The document ``rcaloop gate check`` reads, with provenance and ``missing`` reasons.

    ``merged`` fills only metrics rcaloop keeps no record of (``MERGEABLE_METRICS``: the
    agent's tool executions, from its audit log), when still missing, and is recorded in the
    provenance. A metric rcaloop measures is never merged: with no data in the window it
    stays missing, and the gate fails closed on it.
    """
    metrics, missing, population = compute_metrics(facts)
    merged_keys = []
    for name, value in (merged or {}).items():
        if name in MERGEABLE_METRICS and metrics.get(name) is None:
            metrics[name] = value
            missing.pop(name, None)
            merged_keys.append(name)
        elif name in missing:
            missing[name] += "; not taken from --merge: rcaloop measures it from its own store"
    provenance: dict[str, Any] = {
        "incident_window": window,
        "population": population,
        "job_revision": job_revision,
        "artifact": artifact,
        "measured_at": measured_at.astimezone(UTC).isoformat(),
    }
    if merged_keys:
        provenance["merged"] = {"from": merged_from, "metrics": merged_keys}
    return {**metrics, "provenance": provenance, "missing": missing}
