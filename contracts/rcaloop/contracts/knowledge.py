"""Knowledge promotion events (``knowledge.events``, SPEC §7)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.common import Contract, utcnow

PackageState = Literal["candidate", "approved", "shadowed", "activated", "rejected"]


class Provenance(BaseModel):
    model_config = ConfigDict(extra="allow")

    promotion_path: Literal["ledger", "harness_claim"]
    annotation_id: str | None = None
    reviewer: str | None = None


class KnowledgeEvent(Contract):
    event_id: str
    kind: PackageState
    package_id: str
    analysis_hash: str
    family: str | None = None
    evidence_source: Literal["ledger", "harness_claim"]
    supporting_evidence_ids: list[str] = Field(default_factory=list)
    probe_template_ids: list[str] = Field(default_factory=list)
    verified_actions: list[str] = Field(default_factory=list)
    provenance: Provenance
    detail: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=utcnow)
