"""Hosting services: the composition root for workers, hooks and HTTP routes.

A service module exposes ``build(settings) -> Service``. The same ``Service`` runs

* alone: ``python -m rcaloop.<name>`` (``run_main``), for deployment;
* under FastStream: ``faststream run rcaloop.<name>.app:app`` (``faststream_app``);
* all together in one process: ``rcaloop up`` (``run_services``).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from rcaloop.shared.consumer import StreamWorker, Subscription
from rcaloop.shared.logs import configure_logging, get_logger
from rcaloop.shared.metrics import serve_metrics
from rcaloop.shared.redis_conn import connect, redis_url
from rcaloop.shared.settings import RuntimeSettings, redact_url

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
    background: list[Callable[[asyncio.Event], Awaitable[None]]] = field(default_factory=list)


async def run_services(
    services: list[Service],
    settings: RuntimeSettings,
    stop: asyncio.Event,
    *,
    url: str | None = None,
    http_port: int | None = None,
) -> None:
    """Run the services' workers until ``stop`` is set, then drain within the grace period."""
    url = url or redis_url(settings)
    log = get_logger("host")
    log.info("starting", services=[s.name for s in services], redis=redact_url(url))
    redis = connect(url)
    _host_redis.set(redis)
    for svc in services:
        for hook in svc.on_startup:
            await hook()
    workers = [StreamWorker(redis, sub, settings, svc.name) for svc in services for sub in svc.subscriptions]
    tasks = [asyncio.create_task(w.run(stop), name=f"{w.service}:{w.key}") for w in workers]
    tasks += [asyncio.create_task(job(stop)) for svc in services for job in svc.background]
    server = _http_server(services, http_port) if http_port else None
    if server:
        tasks.append(asyncio.create_task(server.serve(), name="http"))
    try:
        await stop.wait()
    finally:
        if server:
            server.should_exit = True
        done, pending = await asyncio.wait(tasks, timeout=settings.shutdown_grace_s)
        for task in pending:
            task.cancel()
        if pending:
            log.warning("grace_period_exceeded", cancelled=[t.get_name() for t in pending])
        for task in done:
            if not task.cancelled() and task.exception():
                log.error("task_failed", task=task.get_name(), error=repr(task.exception()))
        for svc in services:
            for hook in svc.on_shutdown:
                await hook()
        await redis.aclose()
        log.info("stopped")


def http_app(services: list[Service]):
    from fastapi import FastAPI  # noqa: PLC0415 - only hosts with routes need it

    from rcaloop.shared.api_docs import install_api_docs  # noqa: PLC0415
    from rcaloop.shared.http_errors import install_error_handlers  # noqa: PLC0415

    app = FastAPI(title="rcaloop", version="0.1.0", docs_url=None, redoc_url=None)
    install_error_handlers(app)
    install_api_docs(app)
    for svc in services:
        if svc.http_router is not None:
            app.include_router(svc.http_router)
    return app


def _http_server(services: list[Service], port: int):
    import uvicorn  # noqa: PLC0415

    config = uvicorn.Config(http_app(services), host="0.0.0.0", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # the host owns SIGTERM
    return server


def install_stop_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)


def run_main(build: Callable[[], Service], settings: RuntimeSettings, *, http_port: int | None = None) -> None:
    """``python -m rcaloop.<name>``: one service, SIGTERM → graceful drain."""
    service = build()
    configure_logging(service.name, settings.log_level, settings.log_format)
    serve_metrics(settings.metrics_port)

    async def main() -> None:
        stop = asyncio.Event()
        install_stop_signals(stop)
        await run_services([service], settings, stop, http_port=http_port or settings.http_port)

    asyncio.run(main())


def lazy_app(build: Callable[..., Service], settings_cls: type[RuntimeSettings]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that builds ``app`` (``faststream run rcaloop.<name>.app:app``)
    on first use, not at import: settings read at import would turn one bad environment
    variable into a traceback in every ``rcaloop`` command."""
    built: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:
        if name != "app":
            raise AttributeError(name)
        if "app" not in built:
            settings = settings_cls()
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
    app = FastStream(broker)
    state: dict[str, Any] = {}

    @app.after_startup
    async def _start() -> None:
        service = build()
        configure_logging(service.name, settings.log_level, settings.log_format)
        serve_metrics(settings.metrics_port)
        state["stop"] = asyncio.Event()
        state["task"] = asyncio.create_task(
            run_services([service], settings, state["stop"], url=url, http_port=settings.http_port)
        )

    @app.on_shutdown
    async def _stop() -> None:
        if "stop" in state:
            state["stop"].set()
            await state["task"]

    return app
