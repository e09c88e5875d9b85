"""Runtime settings from the environment; each service extends ``RuntimeSettings``."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class RuntimeSettings(BaseSettings):
    """Every service reads these. Env names are the field names upper-cased."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", populate_by_name=True)

    redis_url: SecretStr | None = Field(default=None,
                                        description="redis://, rediss:// (TLS) or unix://; may hold a password")
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
    stream_retention_s: float = Field(
        default=7 * 24 * 3600, ge=0, description="entries every group acknowledged are trimmed once older than this")
    stream_retention: dict[str, float] = Field(
        default_factory=dict, description='per-stream retention in seconds, JSON: {"rca.results": 3600}')
    consumer_idle_s: float = Field(
        default=3600, gt=0, description="a consumer with nothing pending that has not read for this long is removed")
    retention_interval_s: float = Field(default=60, gt=0,
                                        description="how often a worker trims and removes idle consumers")
    entry_budget_s: float = Field(
        default=30.0, gt=0,
        description="most seconds judging one entry may take (parser, harness: off the event loop); "
        "over it the entry is dead-lettered as time_budget_exceeded")
    secret_scan_budget_s: float = Field(
        default=5.0, gt=0, description="most seconds the secret scan of one entry or dead letter may take in the "
        "worker; over it the entry is dead-lettered as scan_budget_exceeded with its fields withheld")
    metrics_port: int | None = Field(default=None, description="Prometheus /metrics and /healthz port; unset = none")
    metrics_host: str = Field(default="127.0.0.1", description="address /metrics listens on (containers: 0.0.0.0)")
    http_port: int | None = Field(default=None,
                                  description="HTTP API port of services that have routes (annotation, knowledge)")
    http_host: str = Field(default="127.0.0.1", description="address the HTTP API listens on (containers: 0.0.0.0)")
    http_max_body_bytes: int = Field(default=1024 * 1024, ge=1024,
                                     description="larger request bodies are refused (413)")
    http_public_url: str | None = Field(
        default=None, description="the address browsers use (https://review.example.com): the one origin UI posts may "
        "come from, and https there makes session cookies Secure; unset = the request's own host and scheme")
    http_forwarded_allow_ips: str | None = Field(
        default=None,
        description="proxies (comma-separated IPs or *) whose X-Forwarded-Proto/-For are believed; unset = none")
    http_header_timeout_s: float = Field(default=10.0, gt=0, description="a request's head must arrive within this")
    http_body_timeout_s: float = Field(default=30.0, gt=0, description="a request's body must arrive within this")
    http_max_connections: int = Field(default=1000, ge=1,
                                      description="open connections beyond it are answered 503 and closed")
    http_docs: bool | None = Field(
        default=None, description="serve /docs and /openapi.json; unset = only when the API listens on loopback"
    )
    log_level: str = "INFO"
    log_format: str = Field(default="json", description="json | console")
    rcaloop_data_dir: Path = Field(default=Path("var"), description="embedded Redis, SQLite and knowledge files")

    @field_validator("redis_url", mode="before")
    @classmethod
    def _redis_url(cls, value):
        if value in ("", None):
            return None
        text = value.get_secret_value() if isinstance(value, SecretStr) else str(value)
        if problem := redis_url_problem(text):
            raise ValueError(problem)  # the message never quotes the URL: it may hold a password
        return value

    @field_validator("http_public_url", mode="before")
    @classmethod
    def _public_url(cls, value):
        if value in ("", None):
            return None
        parts = urlsplit(str(value).strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL naming a host (e.g. https://review.example.com)")
        return str(value).strip()

    @property
    def prefix(self) -> str:
        return self.rcaloop_stream_prefix


def settings_problems(exc: ValidationError) -> str:
    """A settings error in one line: each variable and what is wrong, never its value."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors()[:5])


REDIS_SCHEMES = ("redis", "rediss", "unix")


def redis_url_problem(url: str) -> str | None:
    """Why ``url`` is no Redis URL, in words that never quote it; None when it is one."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return "must be a URL such as redis://host:6379/0 (its port is not a number)"
    if parts.scheme not in REDIS_SCHEMES:
        return "must start with redis://, rediss:// (TLS) or unix:// (e.g. redis://127.0.0.1:6379/0)"
    if parts.scheme == "unix" and not parts.path:
        return "a unix:// URL needs the socket's path (unix:///path/to/redis.sock)"
    if parts.scheme != "unix" and not parts.hostname:
        return "must name a host (e.g. redis://127.0.0.1:6379/0)"
    if port == 0:
        return "port 0 is no Redis port"
    return None


_SECRET_PARAMS = ("pass", "pwd", "secret", "token", "auth", "key", "credential")


def redact_url(url: str) -> str:
    """The URL with any password replaced, safe to log: in the user part and in the query
    (``?password=``, ``?token=`` …)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        netloc = f"{parts.username or ''}:***@{host}"
    query = "&".join(
        f"{name}=***" if any(s in name.lower() for s in _SECRET_PARAMS) else f"{name}={value}" if sep else name
        for name, sep, value in (item.partition("=") for item in parts.query.split("&") if item)
    )
    if (netloc, query) == (parts.netloc, parts.query):
        return url
    return (f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))
