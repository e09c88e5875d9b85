"""Hosting services: the composition root for workers, hooks and HTTP routes.

A service module exposes ``build(settings) -> Service``. The same ``Service`` runs

* alone: ``python -m rcaloop.<name>`` (``run_main``), for deployment;
* under FastStream: ``faststream run rcaloop.<name>.app:app`` (``faststream_app``);
* all together in one process: ``rcaloop up`` (``run_services``).

The host supervises what it runs: a worker or background task that ends while it should
run (a bug — no entry can end a worker) is logged as ``task_ended``, turns ``/healthz`` to
503, and stops the host, which drains the rest and exits non-zero, so a supervisor
(Kubernetes, compose, systemd) restarts it instead of leaving a consumer group stalled
behind a process that looks alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError

from rcaloop.shared import health, metrics, secret_engine
from rcaloop.shared.consumer import StreamWorker, Subscription
from rcaloop.shared.logs import configure_logging, get_logger
from rcaloop.shared.redis_conn import connect, redis_url
from rcaloop.shared.settings import RuntimeSettings, redact_url, settings_problems

S = TypeVar("S", bound=RuntimeSettings)

Hook = Callable[[], Awaitable[None]]

_host_redis: ContextVar[Any] = ContextVar("rcaloop_host_redis", default=None)


def host_redis() -> Any:
    """The Redis client of the host running this service (inside hooks and background jobs).

    Background jobs (pollers) publish through it, so they reach the same Redis the
    workers use — also the embedded one ``rcaloop up`` starts, whose URL is in no setting.
    """
    return _host_redis.get()


@dataclass
class Service:
    name: str
    subscriptions: list[Subscription] = field(default_factory=list)
    on_startup: list[Hook] = field(default_factory=list)
    on_shutdown: list[Hook] = field(default_factory=list)
    http_router: Any = None  # a FastAPI APIRouter with full paths (/api/v1/…)
    http_guards: list[Any] = field(default_factory=list)  # rcaloop.shared.http_edge.Guard: who may call which prefix
    # called by browsers with a cookie: same-origin posts only
    http_browser_paths: list[str] = field(default_factory=list)
    background: list[Callable[[asyncio.Event], Coroutine[Any, Any, None]]] = field(default_factory=list)
    readiness: list[health.ReadinessCheck] = field(default_factory=list)  # why not ready (its store …), or None


class HostError(RuntimeError):
    """The host cannot start (a port in use) or a task of it ended: one line for the operator."""


async def run_services(
    services: list[Service],
    settings: RuntimeSettings,
    stop: asyncio.Event,
    *,
    url: str | None = None,
    http_port: int | None = None,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Run the services' workers until ``stop`` is set, then drain within the grace period.

    ``on_ready`` is called once everything has started (the port is bound, hooks ran).

    Raises ``HostError`` when the HTTP port cannot be bound (before anything starts) or
    when a task ended on its own (after the others drained).
    """
    url = url or redis_url(settings)
    log = get_logger("host")
    listener = _listen(settings.http_host, http_port) if http_port else None
    log.info("starting", services=[s.name for s in services], redis=redact_url(url))
    redis = connect(url)
    _host_redis.set(redis)
    await asyncio.to_thread(secret_engine.warm)  # every worker redacts dead letters and logs: no entry waits for it
    for svc in services:
        for hook in svc.on_startup:
            await hook()
    workers = [StreamWorker(redis, sub, settings, svc.name) for svc in services for sub in svc.subscriptions]
    state = health.Host(redis, workers, {f"{svc.name}:{getattr(check, '__name__', 'check')}": check
                                         for svc in services for check in svc.readiness})
    health.register(state)
    tasks = [asyncio.create_task(w.run(stop), name=f"{w.service}:{w.key}:{w.sub.group}") for w in workers]
    tasks += [asyncio.create_task(job(stop), name=f"{svc.name}:{getattr(job, '__name__', 'job')}")
              for svc in services for job in svc.background]
    server = _http_server(services, settings, listener, state) if listener else None
    if server:
        tasks.append(asyncio.create_task(server.serve(sockets=[listener]), name="http"))
    if on_ready:
        on_ready()
    ended: list[str] = []
    try:
        ended = await _supervise(tasks, stop, log)
    finally:
        stop.set()
        if server:
            server.should_exit = True
        done, pending = await asyncio.wait(tasks, timeout=settings.shutdown_grace_s)
        for task in pending:
            task.cancel()
        if pending:
            log.warning("grace_period_exceeded", cancelled=[t.get_name() for t in pending])
        for task in done:
            if not task.cancelled() and task.exception() and task.get_name() not in ended:
                log.error("task_failed", task=task.get_name(), error=repr(task.exception()))
        health.unregister(state)
        for svc in services:
            for hook in svc.on_shutdown:
                await hook()
        await redis.aclose()
        log.info("stopped")
    if ended:
        raise HostError(f"stopped because a task ended on its own: {', '.join(ended)} (see the task_ended log line)")


async def _supervise(tasks: list[asyncio.Task], stop: asyncio.Event, log) -> list[str]:
    """Wait for ``stop``; a task that ends first is a failure: logged, health set, host stopped."""
    stopping = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    # a task that returned because stop was set meanwhile did its job; one that raised did not
    ended = [t for t in done if t is not stopping and (not stop.is_set() or t.cancelled() or t.exception())]
    for task in ended:
        error = "cancelled" if task.cancelled() else repr(task.exception()) if task.exception() else "returned"
        health.task_ended(task.get_name(), error)
        log.error("task_ended", task=task.get_name(), error=error[:1000],
                  hint="the host stops and exits non-zero so it is restarted; the group's entries wait pending")
    return [t.get_name() for t in ended]


def _listen(host: str, port: int) -> socket.socket:
    """The API's listening socket, bound before anything starts: a busy port is one clear error."""
    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                    reuse_port=False, backlog=2048)
    except OSError as exc:
        raise HostError(f"cannot listen on {host}:{port}: {exc.strerror or exc} (is another rcaloop up running? "
                        "choose another port)") from None


def docs_enabled(settings: RuntimeSettings) -> bool:
    """``HTTP_DOCS``, or — when unset — whether the API listens on loopback only."""
    if settings.http_docs is not None:
        return settings.http_docs
    try:
        return ipaddress.ip_address(settings.http_host).is_loopback
    except ValueError:
        return settings.http_host == "localhost"


def http_app(services: list[Service], settings: RuntimeSettings | None = None, host: health.Host | None = None):
    """One FastAPI app for the services' routes, behind the shared edge (``http_edge``):
    parameter rule, authentication before the body, body limit, one error body; ``/healthz``
    and ``/readyz`` of ``host`` beside them (no token: probes hold none)."""
    from fastapi import FastAPI  # noqa: PLC0415 - only hosts with routes need it

    from rcaloop.shared.api_docs import install_api_docs  # noqa: PLC0415
    from rcaloop.shared.http_edge import EdgeMiddleware  # noqa: PLC0415
    from rcaloop.shared.http_errors import install_error_handlers  # noqa: PLC0415

    settings = settings or RuntimeSettings()
    docs = docs_enabled(settings)
    app = FastAPI(title="rcaloop", version="0.1.0", docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json" if docs else None)
    install_error_handlers(app)
    _install_probes(app, lambda: host)
    if docs:
        install_api_docs(app)
    for svc in services:
        if svc.http_router is not None:
            app.include_router(svc.http_router)
    app.add_middleware(EdgeMiddleware, guards=[g for svc in services for g in svc.http_guards],
                       max_body_bytes=settings.http_max_body_bytes,
                       browser_paths=[p for svc in services for p in svc.http_browser_paths],
                       public_url=settings.http_public_url)
    return app


def _install_probes(app, host: Callable[[], health.Host | None]) -> None:
    from fastapi.responses import JSONResponse  # noqa: PLC0415

    @app.get("/healthz", include_in_schema=False)
    async def healthz():
        status, body = health.liveness()
        return JSONResponse(body, status_code=status)

    @app.get("/readyz", include_in_schema=False)
    async def readyz():
        status, body = await health.readiness(host())
        return JSONResponse(body, status_code=status)


def _http_server(services: list[Service], settings: RuntimeSettings, listener: socket.socket, state: health.Host):
    import uvicorn  # noqa: PLC0415

    from rcaloop.shared.http_server import protocol  # noqa: PLC0415

    host, port = listener.getsockname()[:2]
    proxies = settings.http_forwarded_allow_ips
    config = uvicorn.Config(http_app(services, settings, state), host=host, port=port, log_level="warning",
                            lifespan="off", log_config=None,
                            http=protocol(settings.http_header_timeout_s, settings.http_body_timeout_s,
                                          settings.http_max_connections),
                            # X-Forwarded-Proto/-For are believed only from the proxies named: the scheme
                            # decides whether session cookies are Secure
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or "")
    class HostedServer(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """No handlers of its own: the host owns SIGTERM and SIGINT (stop, then drain)."""
            yield

    return HostedServer(config)


def install_stop_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)


GC_YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    """Garbage collection for a process that decodes messages all day (call once it has started).

    Each message becomes thousands of small objects; with Python's default thresholds the
    collector runs every 700 allocations and rescans every object the process holds (modules,
    schemas, the batch in hand), which cost as much CPU as decoding the verdicts itself.
    What exists at start-up is frozen (never scanned again) and the young generation is
    collected every 50,000 allocations: cycles are still collected, just not constantly.
    """
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def load_settings(settings_cls: type[S]) -> S:
    """The settings from the environment, or one line naming what is wrong and exit 2 (never
    a traceback, never the value: it may be a password)."""
    try:
        return settings_cls()
    except ValidationError as exc:
        print(f"error: configuration: {settings_problems(exc)}", file=sys.stderr)
        raise SystemExit(2) from None


def run_main(build: Callable[[S], Service], settings_cls: type[S]) -> None:
    """``python -m rcaloop.<name>``: one service, SIGTERM → graceful drain; exits 1 when a
    task ended on its own or the host could not start."""
    settings = load_settings(settings_cls)
    configure_logging("rcaloop", settings.log_level, settings.log_format)  # before build: its log lines too
    service = build(settings)
    try:
        metrics.serve_metrics(settings.metrics_port, settings.metrics_host)
    except metrics.MetricsPortError as exc:
        get_logger(service.name).error("host_failed", error=str(exc))
        raise SystemExit(1) from None

    async def main() -> None:
        stop = asyncio.Event()
        install_stop_signals(stop)
        await run_services([service], settings, stop, http_port=settings.http_port, on_ready=tune_gc)

    try:
        asyncio.run(main())
    except HostError as exc:
        get_logger(service.name).error("host_failed", error=str(exc))
        raise SystemExit(1) from None


def lazy_app(build: Callable[..., Service], settings_cls: type[RuntimeSettings]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that builds ``app`` (``faststream run rcaloop.<name>.app:app``)
    on first use, not at import: settings read at import would turn one bad environment
    variable into a traceback in every ``rcaloop`` command."""
    built: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:
        if name != "app":
            raise AttributeError(name)
        if "app" not in built:
            settings = load_settings(settings_cls)
            built["app"] = faststream_app(lambda: build(settings), settings)
        return built["app"]

    return __getattr__


def faststream_app(build: Callable[[], Service], settings: RuntimeSettings):
    """A FastStream application hosting the service (``faststream run module:app``).

    FastStream owns the process lifecycle; the stream I/O goes through
    ``StreamWorker`` because FastStream 0.7's Redis subscriber creates groups at ``$``,
    makes nack/reject no-ops and reads one message at a time.
    """
    from faststream import FastStream  # noqa: PLC0415
    from faststream.redis import RedisBroker  # noqa: PLC0415

    url = redis_url(settings)
    broker = RedisBroker(url) if not url.startswith("unix://") else RedisBroker()
    configure_logging("rcaloop", settings.log_level, settings.log_format)  # FastStream's own lines too
    app = FastStream(broker, logger=logging.getLogger("rcaloop.faststream"))
    state: dict[str, Any] = {}

    @app.after_startup
    async def _start() -> None:
        service = build()
        metrics.serve_metrics(settings.metrics_port, settings.metrics_host)
        state["stop"] = asyncio.Event()
        state["task"] = asyncio.create_task(
            run_services([service], settings, state["stop"], url=url, http_port=settings.http_port, on_ready=tune_gc)
        )
        state["task"].add_done_callback(_shut_down_when_failed)

    @app.on_shutdown
    async def _stop() -> None:
        if "stop" in state:
            state["stop"].set()
            try:
                await state["task"]
            except HostError as exc:  # a task ended on its own: the process exits non-zero
                get_logger("host").error("host_failed", error=str(exc))
                sys.stdout.flush()
                sys.stderr.flush()
                # The host has drained and closed everything; FastStream would turn an exit
                # raised here into a traceback of its task group, so the process ends now.
                os._exit(1)

    return app



def _shut_down_when_failed(task: asyncio.Task) -> None:
    """Under FastStream: a host that failed asks FastStream to shut down (``_stop`` then exits 1)."""
    if not task.cancelled() and isinstance(task.exception(), HostError):
        signal.raise_signal(signal.SIGTERM)
