"""Where the CLI finds Redis: ``REDIS_URL``, else the data directory's embedded server."""

from __future__ import annotations

import shlex
from pathlib import Path

from rcaloop.shared.settings import RuntimeSettings


def embedded_socket(settings: RuntimeSettings) -> Path:
    from rcaloop.shared.embedded import embedded_dir  # noqa: PLC0415

    return embedded_dir(settings.rcaloop_data_dir) / "redis.sock"


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


def with_redis(work):
    """Run ``await work(redis, settings)`` against the deployment's Redis (``REDIS_URL``, else the
    data directory's embedded server, started for the command when ``rcaloop up`` is not running);
    an unreachable Redis is one line and exit 2."""
    import asyncio  # noqa: PLC0415

    from redis.exceptions import ConnectionError as RedisConnectionError  # noqa: PLC0415

    from rcaloop.shared.cli_output import fail  # noqa: PLC0415
    from rcaloop.shared.embedded import EmbeddedRedisError, command_redis  # noqa: PLC0415
    from rcaloop.shared.redis_conn import connect  # noqa: PLC0415

    settings = RuntimeSettings()
    url = settings.redis_url.get_secret_value() if settings.redis_url else None

    async def main(address: str):
        redis = connect(address)
        try:
            return await work(redis, settings)
        finally:
            await redis.aclose()

    try:
        with command_redis(url, settings.rcaloop_data_dir) as address:
            return asyncio.run(main(address))
    except EmbeddedRedisError as exc:
        fail(str(exc))
    except (OSError, RedisConnectionError) as exc:
        fail(f"cannot reach Redis: {type(exc).__name__}")
