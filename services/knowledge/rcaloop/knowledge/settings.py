"""Knowledge service settings (environment variables are the field names upper-cased)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr

from rcaloop.knowledge.case import DEFAULT_MIN_REVIEW_SCORE
from rcaloop.shared.settings import RuntimeSettings
from rcaloop.shared.tokens import Tokens


class KnowledgeSettings(RuntimeSettings):
    typedb_address: str | None = Field(default=None, description="host:port of TypeDB; unset = embedded SQLite store")
    typedb_username: str = "admin"
    typedb_password: SecretStr = SecretStr("password")
    typedb_database: str = "rcaloop"
    rcaloop_reviewer_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — bearer tokens allowed to reject knowledge packages (and read)"
    )
    rcaloop_lead_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — leads: also approve, shadow and activate packages"
    )
    rcaloop_reader_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — bearer tokens allowed to read packages, snapshot, metrics, dashboard"
    )
    rcaloop_knowledge_public_reads: bool = Field(
        default=False, description="serve the read routes and the dashboard without a token"
    )
    knowledge_min_review_score: int = Field(
        default=DEFAULT_MIN_REVIEW_SCORE, ge=0, le=5,
        description="a passed review scores every evaluation item at least this (0–5)",
    )

    @property
    def knowledge_dir(self) -> Path:
        return self.rcaloop_data_dir / "knowledge"

    @property
    def snapshot_path(self) -> Path:
        return self.knowledge_dir / "runtime_snapshot.json"

    @property
    def sqlite_path(self) -> Path:
        return self.knowledge_dir / "knowledge.sqlite3"


def knowledge_tokens(settings: KnowledgeSettings) -> tuple[Tokens, Tokens, Tokens]:
    """(reviewers, readers, leads); raises ``TokenConfigError`` naming a malformed or weak entry (never its token)."""

    def parse(value: SecretStr | None, setting: str) -> Tokens:
        return Tokens.parse(value.get_secret_value() if value else None, setting)

    return (parse(settings.rcaloop_reviewer_tokens, "RCALOOP_REVIEWER_TOKENS"),
            parse(settings.rcaloop_reader_tokens, "RCALOOP_READER_TOKENS"),
            parse(settings.rcaloop_lead_tokens, "RCALOOP_LEAD_TOKENS"))
