"""Knowledge service settings (environment variables are the field names upper-cased)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr

from rcaloop.knowledge.case import DEFAULT_MIN_REVIEW_SCORE
from rcaloop.shared.settings import RuntimeSettings


class KnowledgeSettings(RuntimeSettings):
    typedb_address: str | None = Field(default=None, description="host:port of TypeDB; unset = embedded SQLite store")
    typedb_username: str = "admin"
    typedb_password: SecretStr = SecretStr("password")
    typedb_database: str = "rcaloop"
    rcaloop_reviewer_tokens: SecretStr | None = Field(
        default=None, description="name:token,… — bearer tokens allowed to decide on knowledge packages"
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


def reviewer_tokens(settings: KnowledgeSettings) -> dict[str, str]:
    """token → reviewer name; malformed entries are skipped (their text is never logged)."""
    raw = settings.rcaloop_reviewer_tokens.get_secret_value() if settings.rcaloop_reviewer_tokens else ""
    tokens: dict[str, str] = {}
    for item in raw.split(","):
        name, sep, token = item.strip().partition(":")
        if sep and name.strip() and token.strip():
            tokens[token.strip()] = name.strip()
    return tokens
