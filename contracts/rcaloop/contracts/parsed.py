"""The canonical parsed RCA (``rca.parsed``): all three input shapes become this."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from rcaloop.contracts.annotation import AlternativeDiagnosis, Recommendation, RootCause, TraceItem
from rcaloop.contracts.common import Confidence, Contract, Identifier, Issue
from rcaloop.contracts.results import EvidenceArtifact, JobId, ResultKind

Outcome = Literal["report", "not_applicable", "insufficient_context", "incomplete"]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ChatSections(_Loose):
    tldr: str | None = None
    cause: str | None = None
    steps_to_verify: str | None = None
    now: str | None = None
    do_not: str | None = None
    permanent_fixes: str | None = None
    also: str | None = None
    related: str | None = None


class Chat(_Loose):
    markdown: str
    title: str | None = None
    subjects: list[str] = Field(default_factory=list)
    context: str | None = None
    sections: ChatSections = Field(default_factory=ChatSections)


class SensitiveItem(_Loose):
    where: str
    type: str


class RedFlag(_Loose):
    """Sensitive data in an output: what type and where, never the value (not even a prefix)."""

    code: str = Field(description="the finding code: RCA701 secret detected, RCA307 declared, RCA306 unreadable item")
    type: str = Field(description="password, api-key, aws-access-key, private-key, token, webhook-url, …")
    where: str = Field(
        description="report, chat, fields, input, capture.<path>, <step file>:<path>, evidence[<id>].<path>, "
        "or the declared location (input, code, config, logs, docs, history)"
    )
    line: int | None = Field(default=None, description="1-based line there, when it has lines")
    rule: str | None = Field(
        default=None,
        description="the detector rule that found it: rcaloop.<name> (the project's rules) or the vendor-rule "
        "engine's id (betterleaks.github-pat, veles.secrets/…); none for a declared item",
    )
    source: Literal["declared", "detected"] = Field(
        description="declared in RCA_FIELDS' sensitive_data, or detected in the text by the secret detector"
    )


class Fields(_Loose):
    """The RCA_FIELDS block; a missing or invalid value is ``None``."""

    origin: Literal["internal", "upstream", "undetermined"] | None = None
    confidence: Confidence | None = None
    self_healing: Literal["yes", "no", "unknown"] | None = None
    repo: str | None = None
    commit: str | None = None
    sensitive_data: list[SensitiveItem] = Field(default_factory=list)


UNKNOWN_TARGET = frozenset({"unknown message id", "unknown RCA id", "unknown project"})
"""``Citation.reason`` values that say the registry has no such entry: the citation names
something that does not exist (a tie that cannot hold), not merely something unlinkable."""


class Citation(_Loose):
    kind: Literal["msg", "rca", "code", "url", "other"]
    label: str
    target: str
    resolved: bool
    href: str | None = None
    reason: str | None = None
    part: Literal["report", "chat"] | None = Field(default=None, description="where the link was written")
    line: int | None = Field(default=None, description="1-based line of the link in the output")


def _number_as_text(value: Any) -> Any:
    """An RCA id written as a number (``#77``) is the same id as the text ``"77"``."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class AlreadyAnalyzed(_Loose):
    subject: str
    rca_id: Annotated[str, BeforeValidator(_number_as_text)]


class InputContext(_Loose):
    subjects: list[str] = Field(default_factory=list)
    already_analyzed: list[AlreadyAnalyzed] = Field(default_factory=list)
    history_sql: str | None = None
    body: str = ""


class Claim(_Loose):
    """A claim as the agent stated it (captures carry their own evidence ids)."""

    id: str | None = None
    kind: Literal["root_cause", "contributing_factor", "recommendation", "observation", "other"] = "other"
    text: str
    evidence_ids: list[str] = Field(default_factory=list)
    refuting_evidence_ids: list[str] = Field(
        default_factory=list, description="evidence the agent itself says contradicts the claim"
    )


class RankedCandidate(_Loose):
    """A candidate as a capture ranked it: its family and, when the capture says, where and what.

    ``component`` is the service, pod or node the candidate points at and ``reason`` the fault as
    the agent words it (a benchmark's root-cause service and reason are scored on these);
    ``occurred_at`` is when the agent says that root cause occurred.
    """

    family: str
    component: str | None = None
    reason: str | None = None
    occurred_at: datetime | None = None


class Diagnosis(_Loose):
    """The diagnosis in the shape of ``step5_summary.json`` / ``annotation.json``.

    Filled from whichever input shape was parsed, so the harness and the annotation
    service see one structure. ``family`` is the root-cause family an alert agent
    ranked (captures); ``candidates`` its ranked list.
    """

    root_cause: RootCause | None = None
    family: str | None = None
    candidates: list[str] = Field(default_factory=list)
    ranked: list[RankedCandidate] = Field(
        default_factory=list, description="the candidates in the order of ``candidates``, with what else each says"
    )
    evidence: list[TraceItem] = Field(default_factory=list)
    difficulty: str | None = None
    difficulty_score: float | None = None
    difficulty_justification: str | None = None
    recommendations: list[Recommendation] = Field(default_factory=list)
    contributing_factors: list[str] = Field(default_factory=list)
    alternative_diagnoses: list[AlternativeDiagnosis] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    confidence_diagnostics: dict[str, Any] | None = None


class ParsedRCA(Contract):
    """``rcaloop parse FILE --json`` prints exactly this model."""

    analysis_hash: Identifier
    result_id: Identifier | None = None
    job_id: JobId | None = None
    source_kind: ResultKind = "skill_text"
    outcome: Outcome
    outcome_reason: str | None = None
    title: str | None = None
    report_markdown: str = ""
    report_source: Literal["agent", "rendered"] = Field(
        default="agent", description="agent: the report as the agent wrote it; rendered: written by the parser from "
        "the structured fields (step files, a capture without its own report)"
    )
    chat: Chat | None = None
    chat_rendered: str = ""
    fields: Fields = Field(default_factory=Fields)
    citations: list[Citation] = Field(default_factory=list)
    red_flags: list[RedFlag] = Field(
        default_factory=list, description="each secret found (its value redacted everywhere) and each declared item"
    )
    context: InputContext | None = None
    errors: list[Issue] = Field(default_factory=list)
    warnings: list[Issue] = Field(default_factory=list)
    diagnosis: Diagnosis | None = None
    artifacts: list[EvidenceArtifact] = Field(default_factory=list, description="evidence the run collected")
    alert_text: str | None = Field(default=None, description="the alert/log the agent analysed, when known")
    incident_started_at: datetime | None = Field(
        default=None, description="when the incident (or failed job) started, when the output says"
    )
    incident_ended_at: datetime | None = Field(
        default=None, description="when the failed job ended, when the output says: what came later caused nothing"
    )
    received_at: datetime | None = Field(
        default=None, description="when rcaloop received the output: evidence stamped later did not exist when it "
        "was written"
    )
