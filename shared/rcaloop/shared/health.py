"""Liveness and readiness of a service host: the one answer behind every ``/healthz`` and ``/readyz``.

* ``/healthz`` — alive: 200 until a worker, background job or the API server of the process ended
  on its own (a bug: no entry can end a worker), then 503 naming it, until the host has drained
  and exited non-zero. A liveness probe restarts the process; nothing else should.
* ``/readyz`` — ready to do its work: Redis answers, every consumer group the host reads exists,
  Redis takes writes, each service's store takes writes (its own check), and no task ended. A
  readiness probe takes the pod out of rotation (and holds a rollout) while it is 503; the host
  keeps retrying on its own, so nothing needs a restart for it.

Both are served on the metrics port (``METRICS_PORT``, a thread of its own: it asks the host's
event loop, so a loop that is stuck answers 503 too) and, for services with an API, on the API's
port beside it (no token: probes hold none).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from rcaloop.shared import metrics
from rcaloop.shared.wire import as_text

ReadinessCheck = Callable[[], Awaitable[str | None]]
"""A service's own readiness: why it is not ready (its store refuses writes …), or None."""

CHECK_TIMEOUT_S = 4.0
"""How long one readiness answer may take: longer counts as not ready (a stuck loop, a hung store)."""

_ended: dict[str, str] = {}
_lock = threading.Lock()


def task_ended(name: str, reason: str) -> None:
    """Record that a task stopped while it should run: ``/healthz`` answers 503 from now on."""
    with _lock:
        _ended[name] = reason[:500]
        metrics.TASKS_ENDED.set(len(_ended))


def forget_ended(name: str) -> None:
    """Forget an ended task (a test that made one end on purpose)."""
    with _lock:
        _ended.pop(name, None)
        metrics.TASKS_ENDED.set(len(_ended))


def liveness() -> tuple[int, dict]:
    with _lock:
        if _ended:
            return 503, {"status": "failing", "tasks_ended": dict(_ended)}
    return 200, {"status": "ok"}


@dataclass
class Host:
    """What one running host is made of, for its readiness: registered by ``run_services``."""

    redis: Any
    workers: list[Any]  # StreamWorker
    checks: dict[str, ReadinessCheck] = field(default_factory=dict)
    loop: asyncio.AbstractEventLoop | None = None

    async def problems(self) -> dict[str, str]:
        """Why the host is not ready, by what failed; empty when it is."""
        problems: dict[str, str] = {}
        with _lock:
            problems |= {f"task:{name}": f"ended: {why}" for name, why in _ended.items()}
        try:
            await self.redis.ping()
            problems |= await self._groups()
        except (RedisError, OSError) as exc:
            problems["redis"] = f"unreachable ({type(exc).__name__})"
        for worker in self.workers:
            if worker.refusing_writes:
                problems[f"redis:{worker.key}"] = f"refuses writes ({worker.refusing_writes})"
        for name, check in self.checks.items():
            try:
                why = await check()
            except Exception as exc:  # noqa: BLE001 - a check that fails says not ready, never a 500
                why = f"check failed ({type(exc).__name__}: {str(exc)[:200]})"
            if why:
                problems[name] = why
        return problems

    async def _groups(self) -> dict[str, str]:
        """Every group the host's workers read from exists (after a Redis that restarted empty
        the workers create them again; until then the host is not ready)."""
        pipe = self.redis.pipeline(transaction=False)
        keys = sorted({w.key for w in self.workers})
        for key in keys:
            pipe.xinfo_groups(key)
        answers = await pipe.execute(raise_on_error=False)
        present = {key: ({as_text(g["name"]) for g in a} if isinstance(a, list) else set())
                   for key, a in zip(keys, answers, strict=True)}
        return {f"group:{w.key}:{w.sub.group}": "missing" for w in self.workers if w.sub.group not in present[w.key]}


_hosts: list[Host] = []


def register(host: Host) -> None:
    host.loop = asyncio.get_running_loop()
    with _lock:
        _hosts.append(host)


def unregister(host: Host) -> None:
    with _lock:
        if host in _hosts:
            _hosts.remove(host)


def _answer(problems: dict[str, str] | None) -> tuple[int, dict]:
    if problems is None:
        return 503, {"status": "starting", "problems": {"host": "not running yet"}}
    if problems:
        return 503, {"status": "not_ready", "problems": problems}
    return 200, {"status": "ready"}


async def readiness(host: Host | None) -> tuple[int, dict]:
    """The host's readiness, asked from its own event loop (the API's ``/readyz``)."""
    if host is None:
        return _answer(None)
    try:
        return _answer(await asyncio.wait_for(host.problems(), CHECK_TIMEOUT_S))
    except TimeoutError:
        return _answer({"host": f"no answer within {CHECK_TIMEOUT_S:g} s"})


def readiness_from_thread() -> tuple[int, dict]:
    """Every host of the process, asked from another thread (the metrics port's ``/readyz``):
    a host whose event loop does not answer in time is not ready."""
    with _lock:
        hosts = list(_hosts)
    if not hosts:
        return _answer(None)
    problems: dict[str, str] = {}
    for host in hosts:
        assert host.loop is not None  # set before the host is listed
        future = asyncio.run_coroutine_threadsafe(host.problems(), host.loop)
        try:
            problems |= future.result(timeout=CHECK_TIMEOUT_S)
        except TimeoutError:
            future.cancel()
            problems["host"] = f"its event loop did not answer within {CHECK_TIMEOUT_S:g} s"
        except RuntimeError as exc:  # the loop closed meanwhile
            problems["host"] = f"stopped ({exc})"
    return _answer(problems)
