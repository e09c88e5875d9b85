"""Release-gate decisions (``gate.decisions``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.common import Contract, Identifier, utcnow

Stage = Literal["staging", "shadow", "assist", "authoritative"]


class MetricCheck(BaseModel):
    model_config = ConfigDict(extra="ignore")

    metric: str
    value: Any = None
    threshold: str
    passed: bool
    reason: str | None = None


class GateDecision(Contract):
    decision_id: Identifier
    kind: Literal["check", "promotion"]
    stage: Stage | None = None
    artifact_hash: Identifier
    passed: bool
    synthetic: bool = False
    checks: list[MetricCheck] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    provenance: dict[str, Any] = Field(default_factory=dict)
    comparison: dict[str, Any] | None = Field(
        default=None,
        description="promotion to assist: the shadow artifact compared with the staging one (stage, artifact_hash, "
                    "deltas, regressed)",
    )
    decided_by: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
