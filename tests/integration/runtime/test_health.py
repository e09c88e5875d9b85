"""``/healthz`` and ``/readyz`` of a running host on real Redis: on the metrics port and on the API's port.

Ready means Redis answers, every group the host reads exists, Redis takes writes, each service's
store takes writes and no task ended; alive means no task ended.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from rcaloop.annotation.app import AnnotationSettings
from rcaloop.annotation.app import build as build_annotation
from rcaloop.contracts import RawResult, Stream
from rcaloop.shared import health, metrics
from rcaloop.shared.consumer import StreamWorker, Subscription
from rcaloop.shared.embedded import EmbeddedRedis
from rcaloop.shared.service import Service
from tests.conftest import running
from tests.reliability.conftest import _free_port


def _echo(service: str = "echo", checks=()) -> Service:
    return Service(name=service, subscriptions=[Subscription(Stream.RESULTS, RawResult, lambda r: [], group=service)],
                   readiness=list(checks))


@pytest.fixture(scope="module")
def metrics_port() -> int:
    port = _free_port()
    metrics.serve_metrics(port)
    return port


async def _get(port: int, path: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=15) as client:
        return await client.get(f"http://127.0.0.1:{port}{path}")


async def _ready(port: int) -> bool:
    return (await _get(port, "/readyz")).status_code == 200


async def test_a_running_host_is_ready_and_alive(settings_factory, metrics_port, wait):
    assert (await _get(metrics_port, "/readyz")).json()["status"] in ("starting", "not_ready", "ready")
    async with running([_echo()], settings_factory()):
        await wait(lambda: _ready(metrics_port), timeout=20)
        assert (await _get(metrics_port, "/readyz")).json() == {"status": "ready"}
        assert (await _get(metrics_port, "/healthz")).json() == {"status": "ok"}


async def test_a_group_that_is_missing_makes_a_host_not_ready(redis, prefix, settings_factory):
    """E.g. a Redis restored without its groups: the worker creates them again on its next read."""
    worker = StreamWorker(redis, _echo().subscriptions[0], settings_factory(), "echo")
    host = health.Host(redis, [worker])
    assert await host.problems() == {f"group:{Stream.RESULTS.key(prefix)}:echo": "missing"}
    await worker.ensure_group()
    assert await host.problems() == {}


async def test_a_service_store_that_refuses_writes_makes_the_host_not_ready(settings_factory, metrics_port, wait):
    refusing = {"now": True}

    async def store() -> str | None:
        return "the store refuses writes (ReadOnlyError)" if refusing["now"] else None

    async with running([_echo("echo", [store])], settings_factory()):
        async def says_so() -> bool:
            answer = await _get(metrics_port, "/readyz")
            return answer.status_code == 503 and answer.json()["problems"] == {
                "echo:store": "the store refuses writes (ReadOnlyError)"}

        await wait(says_so, timeout=20)
        assert (await _get(metrics_port, "/healthz")).status_code == 200, "not ready is not dead: no restart"
        refusing["now"] = False
        await wait(lambda: _ready(metrics_port), timeout=20)


async def test_redis_going_away_makes_the_host_not_ready_and_back_ready(tmp_path, prefix, settings_factory,
                                                                        metrics_port, wait):
    server = EmbeddedRedis(tmp_path / "redis", appendonly=False)
    url = server.start()
    settings = settings_factory(redis_url=url)
    try:
        async with running([_echo()], settings):
            await wait(lambda: _ready(metrics_port), timeout=20)
            server.stop()  # the last user: the server shuts down
            answer = await _get(metrics_port, "/readyz")
            assert answer.status_code == 503
            assert answer.json()["problems"]["redis"].startswith("unreachable")
            assert (await _get(metrics_port, "/healthz")).status_code == 200, "the worker retries: alive"
            server.start()
            await wait(lambda: _ready(metrics_port), timeout=30)
    finally:
        server.stop()


async def test_a_stuck_event_loop_is_not_ready(settings_factory, metrics_port, wait):
    async with running([_echo()], settings_factory()):
        await wait(lambda: _ready(metrics_port), timeout=20)
        url = f"http://127.0.0.1:{metrics_port}/readyz"
        asked = asyncio.get_running_loop().run_in_executor(None, lambda: httpx.get(url, timeout=30))
        time.sleep(8)  # block the host's loop, as a handler that blocks would: the probe's thread gets no answer
        answer = await asked
        assert answer.status_code == 503
        assert "did not answer" in answer.json()["problems"]["host"]
        await wait(lambda: _ready(metrics_port), timeout=20)


async def test_the_api_answers_health_and_readiness_without_a_token(settings_factory, wait):
    settings = settings_factory(AnnotationSettings, rcaloop_annotator_tokens="olga:annotator-token-Wq8Zr3Lm6Tp1")
    port = _free_port()
    async with running([build_annotation(settings)], settings, http_port=port):
        await wait(lambda: _ready(port), timeout=30)
        assert (await _get(port, "/readyz")).json() == {"status": "ready"}
        assert (await _get(port, "/healthz")).json() == {"status": "ok"}
        assert (await _get(port, "/api/v1/tasks")).status_code == 401, "the API itself still needs a token"
