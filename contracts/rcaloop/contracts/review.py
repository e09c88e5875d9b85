"""A review task for annotation UIs (``review.tasks``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from rcaloop.contracts.common import Contract, Identifier, utcnow
from rcaloop.contracts.parsed import RedFlag
from rcaloop.contracts.results import JobId


class ReviewTask(Contract):
    task_id: Identifier
    analysis_hash: Identifier
    result_id: Identifier | None = None
    job_id: JobId | None = None
    kind: Literal["annotation", "operator_evaluation"] = Field(
        description="annotation for CI-job RCAs (step files / skill text), operator_evaluation for alert captures"
    )
    verdict: str
    score: float
    title: str | None = None
    overlap: int = Field(default=1, ge=1, description="how many annotators should review it")
    priority: int = Field(default=0, description="higher first; failing verdicts rank up, red flags rank first")
    red_flags: list[RedFlag] = Field(default_factory=list,
                                     description="what the reviewer must see first: type and where")
    created_at: datetime = Field(default_factory=utcnow)
