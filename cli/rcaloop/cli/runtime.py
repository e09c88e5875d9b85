"""Where the CLI finds Redis: ``REDIS_URL``, else the embedded server of ``rcaloop up``."""

from __future__ import annotations

import shlex
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


def producer_hint(url: str, prefix: str = "", *, embedded: bool) -> list[str]:
    """How a plain producer reaches this Redis: the exact ``REDIS_URL`` and a ``redis-cli`` line.

    The embedded server listens on a unix socket only (no TCP port), readable by this user; a
    ``REDIS_URL`` set by the user may hold a password, so it is named, never printed.
    """
    from rcaloop.contracts import Stream  # noqa: PLC0415

    xadd = f"XADD {shlex.quote(Stream.RESULTS.key(prefix))} '*' payload \"$(cat result.json)\" producer my-agent"
    if embedded:
        sock = url.removeprefix("unix://")
        return [f"  producers: REDIS_URL={url}",
                f"  redis-cli -s {shlex.quote(sock)} {xadd}"]
    return ['  producers: the REDIS_URL you set', f'  redis-cli -u "$REDIS_URL" {xadd}']
