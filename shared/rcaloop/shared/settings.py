"""Runtime settings from the environment; each service extends ``RuntimeSettings``."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class RuntimeSettings(BaseSettings):
    """Every service reads these. Env names are the field names upper-cased."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", populate_by_name=True)

    redis_url: SecretStr | None = Field(default=None, description="redis://, rediss:// (TLS) or unix://; may hold a password")
    rcaloop_stream_prefix: str = Field(default="", description="prefix for every stream key")
    consumer_name: str = Field(default_factory=default_consumer_name)
    max_deliveries: int = Field(default=5, ge=1, description="deliveries before a message is dead-lettered")
    claim_idle_ms: int = Field(default=30_000, ge=10, description="a pending message idle this long is reclaimed")
    claim_interval_ms: int = Field(default=5_000, ge=10, description="how often the reclaim loop runs")
    batch_size: int = Field(default=100, ge=1, le=10_000)
    block_ms: int = Field(default=500, ge=1)
    shutdown_grace_s: float = Field(default=10.0, gt=0)
    stream_maxlen: int = Field(default=100_000, ge=1000, description="approximate MAXLEN for every XADD")
    max_payload_bytes: int = Field(
        default=4 * 1024 * 1024, ge=1024, description="larger entries are dead-lettered unread (payload_too_large)"
    )
    idempotency_ttl_s: int = Field(default=7 * 24 * 3600, ge=60)
    metrics_port: int | None = Field(default=None, description="Prometheus /metrics port; unset = no HTTP endpoint")
    http_port: int | None = Field(default=None, description="HTTP API port of services that have routes (annotation, knowledge)")
    log_level: str = "INFO"
    log_format: str = Field(default="json", description="json | console")
    rcaloop_data_dir: Path = Field(default=Path("var"), description="embedded Redis, SQLite and knowledge files")

    @field_validator("redis_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value):
        return None if value in ("", None) else value

    @property
    def prefix(self) -> str:
        return self.rcaloop_stream_prefix


def redact_url(url: str) -> str:
    """The URL with any password replaced, safe to log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    user = parts.username or ""
    return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query, parts.fragment))
