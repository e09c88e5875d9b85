"""What agents publish (``rca.results``) and what ingestion passes on (``rca.ingested``)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rcaloop.contracts.common import Contract, Identifier, utcnow

ResultKind = Literal["skill_text", "step_files", "capture"]
"""The three shapes of RCA output: skill text, step files, post-harness captures."""

JOB_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
"""A job id is one plain path segment: it names ``.analysis/<job_id>/`` and
``/usr/local/mlflow/<job_id>/``, so it may never hold a separator or ``..``."""
_JOB_ID = re.compile(JOB_ID_PATTERN)
JobId = Annotated[str, StringConstraints(pattern=JOB_ID_PATTERN)]
"""A job id on the internal streams: ingestion has refused every other with its own code."""


def job_id_problem(job_id: object) -> str | None:
    """Why ``job_id`` is not a safe job id, or None when it is.

    The reason never repeats the value itself beyond a short, printable preview.
    """
    if not isinstance(job_id, str):
        return f"job_id must be a string, got {type(job_id).__name__}"
    if not job_id:
        return "job_id is empty"
    if ".." in job_id:
        return "job_id may not contain '..'"
    if "/" in job_id or "\\" in job_id:
        return "job_id may not contain path separators (it names one directory)"
    if not _JOB_ID.fullmatch(job_id):
        return "job_id must be 1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit"
    return None


class EvidenceArtifact(BaseModel):
    """One artifact an agent collected during its run (log line, event, file, metric).

    ``live`` is false for history from the knowledge graph: context only, never grounding.
    ``target_verified`` marks an observation checked on the alert's own target.
    """

    model_config = ConfigDict(extra="ignore")

    id: str | None = Field(default=None, description="E01, E02 … assigned by the harness; an agent's own id otherwise")
    source: str = Field(description="where it came from: step1, step3, step4, splunk, github, prometheus, chat, …")
    source_group: str | None = Field(default=None,
                                     description="independent source group; derived from source when absent")
    kind: str = "observation"
    title: str = ""
    text: str = ""
    source_file: str | None = None
    json_path: str | None = None
    value: Any = None
    live: bool = True
    target_verified: bool = False
    observed_at: datetime | None = None


class RawResult(Contract):
    """Raw agent output plus metadata, as published to ``rca.results``.

    ``content`` is the skill's text output (``skill_text``), a mapping of step-file
    name to its parsed JSON (``step_files``), or an ``AlertAnalysisResponse`` object
    (``capture``).
    """

    result_id: Identifier
    kind: ResultKind
    content: str | dict[str, Any]
    job_id: str | None = Field(default=None, max_length=200)
    producer: str = Field(default="unknown", max_length=200)
    submitted_at: datetime = Field(default_factory=utcnow)
    input_text: str | None = Field(default=None,
                                   description="the alert/log text the agent was given, with any context block")
    evidence: list[EvidenceArtifact] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)


class IngestedRecord(RawResult):
    """A validated, deduplicated raw record (``rca.ingested``)."""

    analysis_hash: Identifier
    job_id: JobId | None = None
    ingested_at: datetime = Field(default_factory=utcnow)
    size_bytes: int = 0
