"""Annotation service settings (environment names are the field names upper-cased)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr

from rcaloop.annotation.store import database_url
from rcaloop.shared.settings import RuntimeSettings


class AnnotationSettings(RuntimeSettings):
    database_url: SecretStr | None = Field(
        default=None, description="PostgreSQL URL; unset = SQLite file in the data dir"
    )
    rcaloop_db_schema: str | None = Field(default=None, description="PostgreSQL schema (search_path) for the store")
    rcaloop_analysis_root: Path = Field(
        default=Path(".analysis"), description="where <job_id>/annotation.json is written"
    )
    rcaloop_annotator_tokens: SecretStr | None = Field(default=None, description="name:token,… — reviewers' tokens")
    rcaloop_operator_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — operators: also evaluate any incident without a lease")
    rcaloop_lead_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — leads: also adjudicate disputed tasks and read agreement")
    review_lease_s: float = Field(default=900.0, gt=0, description="lease length of a claimed review task")
    review_session_idle_s: float = Field(default=7200.0, gt=0, description="a UI session unused this long ends")
    review_session_max_s: float = Field(default=43200.0, gt=0, description="a UI session ends this long after sign-in")
    review_draft_retention_s: float = Field(default=30 * 86400, gt=0,
                                            description="drafts untouched this long are deleted")
    annotation_outbox_retention_s: float = Field(
        default=7 * 86400, gt=0, description="outbox rows are deleted this long after they were published")
    review_overlap: int = Field(default=1, ge=1, le=10, description="annotators per review task")
    outbox_interval_ms: int = Field(default=200, ge=10)
    review_artifact_max_bytes: int = Field(
        default=4 * 1024 * 1024, ge=1024,
        description="largest file of a result kept for review (step file, text, capture)"
    )
    review_artifacts_max_total_bytes: int = Field(
        default=16 * 1024 * 1024, ge=1024, description="most bytes of one result's files kept for review"
    )
    jumpbox_uri: str | None = Field(default=None, description="user@host -p 2222; unset = local .analysis/ only")

    def store_url(self) -> str:
        return database_url(self.database_url.get_secret_value() if self.database_url else None, self.rcaloop_data_dir)
