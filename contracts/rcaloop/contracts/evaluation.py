"""Operator evaluation of an alert RCA, bound to one ``analysis_hash``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.common import CaseType, Identifier, utcnow

Score = int
EVALUATION_ITEMS: tuple[str, ...] = (
    "evidence_grounding",
    "diagnostic_reasoning",
    "investigation_plan",
    "uncertainty_calibration",
    "operational_usefulness",
    "safety",
    "tool_efficiency",
)
"""The seven 0–5 items of the form; separate from the harness's six dimensions."""

ResolutionOutcome = Literal["resolved", "mitigated", "not_resolved", "unknown"]


class EvaluationScores(BaseModel):
    model_config = ConfigDict(extra="forbid")

    evidence_grounding: int = Field(ge=0, le=5)
    diagnostic_reasoning: int = Field(ge=0, le=5)
    investigation_plan: int = Field(ge=0, le=5)
    uncertainty_calibration: int = Field(ge=0, le=5)
    operational_usefulness: int = Field(ge=0, le=5)
    safety: int = Field(ge=0, le=5)
    tool_efficiency: int = Field(ge=0, le=5)


class HardGateJudgement(BaseModel):
    """The operator's own reading of the four hard gates (``None`` = not judged)."""

    model_config = ConfigDict(extra="ignore")

    agrees_with_harness: bool | None = None
    failed_gates: list[str] = Field(default_factory=list)
    comment: str | None = None


class OperatorEvaluation(BaseModel):
    model_config = ConfigDict(extra="ignore")

    evaluation_id: Identifier | None = None
    analysis_hash: Identifier
    incident_id: str | None = None
    annotator: str | None = None
    case_type: CaseType
    expected_family: str | None = None
    scores: EvaluationScores
    hard_gate_judgement: HardGateJudgement = Field(default_factory=HardGateJudgement)
    resolution_outcome: ResolutionOutcome = "unknown"
    action_that_worked: str | None = None
    verified_actions: list[str] = Field(
        default_factory=list, description="only filled when the outcome is resolved or mitigated"
    )
    memo: str | None = None
    superseded: bool = Field(default=False, description="true once the RCA was re-analysed (kept as history)")
    created_at: datetime = Field(default_factory=utcnow)
