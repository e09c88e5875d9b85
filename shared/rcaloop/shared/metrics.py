"""Prometheus metrics, one set per process, labelled by service and stream; and its health.

``serve_metrics`` answers ``/metrics`` and ``/healthz`` on ``METRICS_PORT``: the health is
503 (naming the task) from the moment a worker or background task of the process ended
on its own, until the host has drained and exited non-zero — the signal for a liveness
probe and for an operator, where a stalled consumer group would otherwise look healthy.
"""

from __future__ import annotations

import json
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import Counter, Gauge, Histogram, make_wsgi_app

PROCESSED = Counter("rcaloop_messages_processed", "Messages handled and acknowledged", ["service", "stream"])
FAILED = Counter("rcaloop_messages_failed", "Handler failures (the message stays pending for retry)", ["service", "stream"])
DEAD_LETTERED = Counter("rcaloop_messages_dead_lettered", "Messages moved to <stream>.dlq", ["service", "stream"])
DUPLICATES = Counter("rcaloop_messages_duplicate", "Redeliveries skipped by idempotency key", ["service", "stream"])
RECLAIMED = Counter("rcaloop_messages_reclaimed", "Messages reclaimed from dead consumers", ["service", "stream"])
TRIMMED_UNREAD = Gauge(
    "rcaloop_trimmed_unread",
    "Entries trimmed away before this group read them, at the last check (alert on > 0: STREAM_MAXLEN below the backlog)",
    ["service", "stream"],
)
LAG = Gauge("rcaloop_consumer_lag", "Entries not yet delivered to the group", ["service", "stream"])
PENDING = Gauge("rcaloop_consumer_pending", "Entries delivered but not acknowledged", ["service", "stream"])
HANDLER_SECONDS = Histogram(
    "rcaloop_handler_seconds",
    "Handler latency per message",
    ["service", "stream"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)

TASKS_ENDED = Gauge("rcaloop_tasks_ended", "Worker or background tasks of this process that ended on their own (alert on > 0)")

_ended: dict[str, str] = {}
_started: set[int] = set()


def task_ended(name: str, reason: str) -> None:
    """Record that a task stopped while it should run: ``/healthz`` answers 503 from now on."""
    _ended[name] = reason[:500]
    TASKS_ENDED.set(len(_ended))


def health() -> tuple[int, dict]:
    if _ended:
        return 503, {"status": "failing", "tasks_ended": dict(_ended)}
    return 200, {"status": "ok"}


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, *_args) -> None:  # scrapes and probes are not worth a log line
        pass


def _app(metrics_app):
    def app(environ, start_response):
        if environ.get("PATH_INFO") == "/healthz":
            status, body = health()
            start_response(f"{status} {'OK' if status == 200 else 'Service Unavailable'}",
                           [("Content-Type", "application/json")])
            return [json.dumps(body).encode()]
        return metrics_app(environ, start_response)

    return app


def serve_metrics(port: int | None, host: str = "127.0.0.1") -> None:
    """Expose /metrics and /healthz on ``host:port`` once per process (``METRICS_PORT``, ``METRICS_HOST``)."""
    if port is None or port in _started:
        return
    server = make_server(host, port, _app(make_wsgi_app()), _Server, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    _started.add(port)
