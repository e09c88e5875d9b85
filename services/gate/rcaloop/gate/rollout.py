"""Rollout stages staging → shadow → assist → authoritative.

A promotion is a ``GateDecision`` (kind ``promotion``). Its conditions are small named
rules over the release-gate result of the artifact and what the store knows: the stage
order; an artifact that passes every gate (at every stage); a *fresh* artifact — new
content (canonical content hash never used before), a new measurement (measured after
the previous promotion's) taken after the last material knowledge change, of the stage's
own output (its incident window starts at or after the previous promotion); before assist,
the shadow artifact compared with the staging one; for authoritative the TypeDB-outage
activation check.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeGuard

from rcaloop.contracts import GateDecision
from rcaloop.contracts.common import utcnow
from rcaloop.gate.intervals import WindowError, parse_instant, window_bounds
from rcaloop.gate.release_gate import THRESHOLDS, TYPEDB_METRIC, GateResult

if TYPE_CHECKING:
    from rcaloop.contracts import KnowledgeEvent

STAGES = ("staging", "shadow", "assist", "authoritative")
MATERIAL_CHANGES = ("approved", "activated")
"""Event kinds that change what the agent reads at run time; so does a ``rejected`` event
whose package was active (``detail.from_state == "activated"``)."""
COMPARED_KINDS = ("rate", "count")
"""The metrics compared between shadow and staging: the agent's output quality."""


def requires_gate_rerun(event: KnowledgeEvent) -> bool:
    """A material knowledge change re-runs the gate: an approval or activation, or the
    rejection of an active package (it leaves the runtime snapshot)."""
    return event.kind in MATERIAL_CHANGES or (event.kind == "rejected"
                                              and event.detail.get("from_state") == "activated")


def measured_at(decision_or_gate: GateDecision | GateResult) -> datetime | None:
    return parse_instant(decision_or_gate.provenance.get("measured_at"))


def promoted_measurement(decision: GateDecision) -> datetime:
    """When a promotion's artifact was measured — never later than the decision itself."""
    measured = measured_at(decision)
    return min(measured, decision.created_at) if measured else decision.created_at


@dataclass(frozen=True)
class RolloutState:
    """What the store and the gate settings say when a promotion is asked for."""

    current_stage: str | None = None
    used_artifacts: frozenset[str] = frozenset()
    last_material_change: datetime | None = None
    last_measured_at: datetime | None = None
    last_promoted_at: datetime | None = None
    staging: GateDecision | None = None
    shadow_max_regression: float = 0.0


def state_of(promotions: list[GateDecision], last_material_change: datetime | None,
             shadow_max_regression: float = 0.0) -> RolloutState:
    """The rollout state from the recorded promotions (refused ones are audit trail only)."""
    passed = sorted((d for d in promotions if d.passed), key=lambda d: d.created_at)
    last = passed[-1] if passed else None
    return RolloutState(
        current_stage=last.stage if last else None,
        used_artifacts=frozenset(d.artifact_hash for d in passed),
        last_material_change=last_material_change,
        last_measured_at=promoted_measurement(last) if last else None,
        last_promoted_at=last.created_at if last else None,
        staging=next((d for d in reversed(passed) if d.stage == "staging"), None),
        shadow_max_regression=shadow_max_regression,
    )


@dataclass(frozen=True)
class Promotion:
    stage: str
    gate: GateResult
    state: RolloutState

    @property
    def measured_at(self) -> datetime | None:
        return measured_at(self.gate)


@dataclass(frozen=True)
class PromotionRule:
    code: str
    name: str
    is_broken: Callable[[Promotion], str | None]


def _next(stage: str) -> str | None:
    i = STAGES.index(stage)
    return STAGES[i + 1] if i + 1 < len(STAGES) else None


def _order(p: Promotion) -> str | None:
    if p.stage not in STAGES:
        return f"unknown stage {p.stage!r} (one of {', '.join(STAGES)})"
    want = STAGES[0] if p.state.current_stage is None else _next(p.state.current_stage)
    if p.stage != want:
        now = p.state.current_stage or "none"
        return f"cannot promote to {p.stage} from {now}: next stage is {want or 'none (already authoritative)'}"
    return None


def _passing(p: Promotion) -> str | None:
    if p.gate.synthetic:
        return "the artifact is synthetic: never a release decision"
    if not p.gate.usable:
        return f"the artifact is unusable: {'; '.join(p.gate.reasons)}"
    return f"the artifact does not pass the release gate ({'; '.join(p.gate.reasons)})" if p.gate.reasons else None


def _unused(p: Promotion) -> str | None:
    if p.gate.artifact_hash in p.state.used_artifacts:
        return (f"artifact {p.gate.artifact_hash[:19]}… (same content) was already used for an earlier promotion; "
                "measure again")
    return None


def _after_change(p: Promotion) -> str | None:
    if p.measured_at is None:
        return "provenance.measured_at missing or not ISO-8601: freshness cannot be shown"
    change = p.state.last_material_change
    if change is not None and p.measured_at <= change:
        return (f"measured at {p.measured_at.isoformat()}, before the last material knowledge change at "
                f"{change.isoformat()}; re-run the gate")
    return None


def _new_measurement(p: Promotion) -> str | None:
    last = p.state.last_measured_at
    if p.measured_at is not None and last is not None and p.measured_at <= last:
        return (f"measured at {p.measured_at.isoformat()}, not after the previous promotion's measurement "
                f"({last.isoformat()}); each stage needs a new measurement")
    return None


def _own_window(p: Promotion) -> str | None:
    """The artifact measures the stage being left: incidents from its promotion on, not earlier ones."""
    previous = p.state.last_promoted_at
    if previous is None:
        return None
    try:
        start, _ = window_bounds(p.gate.provenance.get("incident_window"))
    except WindowError:
        return "provenance.incident_window is not an ISO-8601 window: what the artifact measured cannot be shown"
    if start < previous:
        return (f"the incident window starts {start.isoformat()}, before the promotion to {p.state.current_stage} at "
                f"{previous.isoformat()}: measure the incidents the agent answered at {p.state.current_stage}")
    return None


def compare_with_staging(gate: GateResult, staging: GateDecision, max_regression: float) -> dict[str, Any]:
    """Each output-quality metric of this artifact against the staging one.

    A rate may fall (or, for a rate that must stay low, rise) by at most ``max_regression``;
    a count may never rise. ``regressed`` lists the metrics that moved further.
    """
    before = {c.metric: c.value for c in staging.checks}
    now = {c.metric: c.value for c in gate.checks}
    deltas: dict[str, Any] = {}
    regressed: list[str] = []
    for rule in THRESHOLDS:
        if rule.kind not in COMPARED_KINDS:
            continue
        old, new = before.get(rule.metric), now.get(rule.metric)
        if not (_number(old) and _number(new)):
            regressed.append(rule.metric)
            deltas[rule.metric] = {"staging": old, "shadow": new, "delta": None}
            continue
        worse_by = (old - new) if rule.op == ">=" else (new - old)  # higher is better only for ">=" rules
        allowed = max_regression if rule.kind == "rate" else 0
        deltas[rule.metric] = {"staging": old, "shadow": new, "delta": round(new - old, 6)}
        if worse_by > allowed + 1e-12:
            regressed.append(rule.metric)
    return {
        "stage": "staging",
        "artifact_hash": staging.artifact_hash,
        "job_revision": staging.provenance.get("job_revision"),
        "max_regression": max_regression,
        "deltas": deltas,
        "regressed": regressed,
    }


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _shadow_vs_staging(p: Promotion) -> str | None:
    if p.stage != "assist":
        return None
    staging = p.state.staging
    if staging is None:
        return "no staging promotion is recorded to compare the shadow artifact with"
    rev, staging_rev = p.gate.provenance.get("job_revision"), staging.provenance.get("job_revision")
    if rev != staging_rev:
        return (f"the shadow artifact was measured by job_revision {rev!r}, staging by {staging_rev!r}; compare like "
                "with like (same measurement)")
    comparison = compare_with_staging(p.gate, staging, p.state.shadow_max_regression)
    if comparison["regressed"]:
        return f"the shadow artifact is worse than staging on {', '.join(comparison['regressed'])}"
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
    PromotionRule("ROLL106", "new_measurement", _new_measurement),
    PromotionRule("ROLL107", "shadow_compared_with_staging", _shadow_vs_staging),
    PromotionRule("ROLL108", "window_after_previous_promotion", _own_window),
]


def decide_promotion(p: Promotion, *, decided_by: str | None = None,
                     decided_at: datetime | None = None) -> GateDecision:
    """The promotion's decision (``decided_at``: now unless given), refused with every broken rule's reason."""
    reasons = [f"{r.code} {msg}" for r in PROMOTION_RULES if (msg := r.is_broken(p))]
    comparison = None
    if p.stage == "assist" and p.state.staging is not None and p.gate.usable:
        comparison = compare_with_staging(p.gate, p.state.staging, p.state.shadow_max_regression)
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
        comparison=comparison,
        decided_by=decided_by,
        created_at=decided_at or utcnow(),
    )


@dataclass(frozen=True)
class RolloutStatus:
    current_stage: str | None
    next_stage: str | None
    last_promotion: dict[str, Any] | None
    last_material_change: datetime | None
    needs_rerun: bool
    counts: dict[str, int] = field(default_factory=dict)


def status(promotions: list[GateDecision], last_material_change: datetime | None,
           counts: dict[str, int]) -> RolloutStatus:
    """Where the rollout stands; ``needs_rerun`` once knowledge changed after the last promotion."""
    passed = [d for d in promotions if d.passed]
    last = max(passed, key=lambda d: d.created_at) if passed else None
    current = last.stage if last else None
    anchor = promoted_measurement(last) if last else None
    needs = last_material_change is not None and (anchor is None or last_material_change >= anchor)
    return RolloutStatus(
        current_stage=current,
        next_stage=STAGES[0] if current is None else _next(current),
        last_promotion=last.model_dump(mode="json",
                                       include={"decision_id", "stage", "artifact_hash", "created_at", "provenance"})
                                       if last else None,
        last_material_change=last_material_change,
        needs_rerun=needs,
        counts=counts,
    )
