"""Rollout stages staging → shadow → assist → authoritative (SPEC §7).

A promotion is a ``GateDecision`` (kind ``promotion``). Its conditions are small
named rules over the release-gate result of the artifact and what the store knows:
the stage order, a passing non-synthetic artifact, a *fresh* artifact (its hash never
used by an earlier promotion and measured after the last material knowledge change),
and for authoritative the TypeDB-outage activation check.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rcaloop.contracts import GateDecision, KnowledgeEvent
from rcaloop.gate.release_gate import METRIC_NAMES, TYPEDB_METRIC, GateResult

STAGES = ("staging", "shadow", "assist", "authoritative")
MATERIAL_CHANGES = ("approved", "activated")


def requires_gate_rerun(event: KnowledgeEvent) -> bool:
    """Any material knowledge-package change (approved / activated) re-runs the gate."""
    return event.kind in MATERIAL_CHANGES


def required_metrics(stage: str) -> tuple[str, ...]:
    """Every threshold blocks; the TypeDB-outage check blocks from authoritative on."""
    if stage == "authoritative":
        return METRIC_NAMES
    return tuple(m for m in METRIC_NAMES if m != TYPEDB_METRIC)


def parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        at = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class RolloutState:
    """What the store knows when a promotion is asked for."""

    current_stage: str | None = None
    used_artifacts: frozenset[str] = frozenset()
    last_material_change: datetime | None = None


@dataclass(frozen=True)
class Promotion:
    stage: str
    gate: GateResult
    measured_at: datetime | None
    state: RolloutState


@dataclass(frozen=True)
class PromotionRule:
    code: str
    name: str
    is_broken: Callable[[Promotion], str | None]


def _order(p: Promotion) -> str | None:
    if p.stage not in STAGES:
        return f"unknown stage {p.stage!r} (one of {', '.join(STAGES)})"
    want = STAGES[0] if p.state.current_stage is None else _next(p.state.current_stage)
    if p.stage != want:
        now = p.state.current_stage or "none"
        return f"cannot promote to {p.stage} from {now}: next stage is {want or 'none (already authoritative)'}"
    return None


def _next(stage: str) -> str | None:
    i = STAGES.index(stage)
    return STAGES[i + 1] if i + 1 < len(STAGES) else None


def _passing(p: Promotion) -> str | None:
    if p.gate.synthetic:
        return "the artifact is synthetic: never a release decision"
    if not p.gate.usable:
        return f"the artifact is unusable: {'; '.join(p.gate.reasons)}"
    required = required_metrics(p.stage)
    failing = [f"{c.metric}: {c.reason}" for c in p.gate.checks if c.metric in required and not c.passed]
    failing += [e.message for e in p.gate.errors]
    return f"the artifact does not pass the release gate ({'; '.join(failing)})" if failing else None


def _unused(p: Promotion) -> str | None:
    if p.gate.artifact_hash in p.state.used_artifacts:
        return f"artifact {p.gate.artifact_hash[:19]}… was already used for an earlier promotion; measure again"
    return None


def _after_change(p: Promotion) -> str | None:
    if p.measured_at is None:
        return "provenance.measured_at missing or not ISO-8601: freshness cannot be shown"
    change = p.state.last_material_change
    if change is not None and p.measured_at <= change:
        return f"measured at {p.measured_at.isoformat()}, before the last material knowledge change at {change.isoformat()}; re-run the gate"
    return None


def _typedb(p: Promotion) -> str | None:
    if p.stage != "authoritative":
        return None
    check = next((c for c in p.gate.checks if c.metric == TYPEDB_METRIC), None)
    return None if check and check.passed else "authoritative needs typedb_outage_runtime_activation_success: true"


PROMOTION_RULES: list[PromotionRule] = [
    PromotionRule("ROLL101", "stage_order", _order),
    PromotionRule("ROLL102", "passing_artifact", _passing),
    PromotionRule("ROLL103", "artifact_not_reused", _unused),
    PromotionRule("ROLL104", "measured_after_knowledge_change", _after_change),
    PromotionRule("ROLL105", "typedb_outage_check", _typedb),
]


def decide_promotion(p: Promotion, *, decided_by: str | None = None) -> GateDecision:
    reasons = [f"{r.code} {msg}" for r in PROMOTION_RULES if (msg := r.is_broken(p))]
    return GateDecision(
        decision_id=f"gd-{uuid.uuid4().hex[:16]}",
        kind="promotion",
        stage=p.stage if p.stage in STAGES else None,
        artifact_hash=p.gate.artifact_hash,
        passed=not reasons,
        synthetic=p.gate.synthetic,
        checks=p.gate.checks,
        reasons=reasons,
        provenance=p.gate.provenance,
        decided_by=decided_by,
    )


@dataclass(frozen=True)
class RolloutStatus:
    current_stage: str | None
    next_stage: str | None
    last_promotion: dict[str, Any] | None
    last_material_change: datetime | None
    needs_rerun: bool
    counts: dict[str, int] = field(default_factory=dict)


def status(promotions: list[GateDecision], last_material_change: datetime | None, counts: dict[str, int]) -> RolloutStatus:
    """Where the rollout stands; ``needs_rerun`` once knowledge changed after the last promotion."""
    passed = [d for d in promotions if d.passed]
    last = max(passed, key=lambda d: d.created_at) if passed else None
    current = last.stage if last else None
    measured = parse_time(last.provenance.get("measured_at")) if last else None
    anchor = measured or (last.created_at if last else None)
    needs = last_material_change is not None and (anchor is None or last_material_change >= anchor)
    return RolloutStatus(
        current_stage=current,
        next_stage=STAGES[0] if current is None else _next(current),
        last_promotion=last.model_dump(mode="json", include={"decision_id", "stage", "artifact_hash", "created_at", "provenance"}) if last else None,
        last_material_change=last_material_change,
        needs_rerun=needs,
        counts=counts,
    )
