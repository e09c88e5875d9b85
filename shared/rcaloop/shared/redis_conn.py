"""Redis connections from settings: ``redis://``, ``rediss://`` (TLS) and ``unix://``."""

from __future__ import annotations

import redis.asyncio as aioredis

from rcaloop.shared.settings import RuntimeSettings

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def redis_url(settings: RuntimeSettings) -> str:
    return settings.redis_url.get_secret_value() if settings.redis_url else DEFAULT_URL


def connect(url: str) -> aioredis.Redis:
    """A client that returns bytes (payloads may hold anything) with sane timeouts."""
    return aioredis.Redis.from_url(
        url,
        decode_responses=False,
        socket_connect_timeout=5,
        health_check_interval=15,
        retry_on_timeout=False,
    )
