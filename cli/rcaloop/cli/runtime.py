"""Where the CLI finds Redis: ``REDIS_URL``, else the embedded server of ``rcaloop up``."""

from __future__ import annotations

from pathlib import Path

from rcaloop.shared.settings import RuntimeSettings


class NoRedis(RuntimeError):
    pass


def embedded_socket(settings: RuntimeSettings) -> Path:
    return (settings.rcaloop_data_dir / "redis" / "redis.sock").resolve()


def cli_redis_url(settings: RuntimeSettings) -> str:
    if settings.redis_url:
        return settings.redis_url.get_secret_value()
    sock = embedded_socket(settings)
    if sock.exists():
        return f"unix://{sock}"
    raise NoRedis("REDIS_URL is unset and no embedded Redis is running here: start `rcaloop up` or set REDIS_URL")
