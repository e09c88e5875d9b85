"""Prometheus metrics, one registry per process (its host), labelled by service and stream.

Runtime figures (messages, lag, pending, handler time, dead letters by code) come from the
worker; what the harness judged (verdicts, scores, failed hard gates, red flags) from the
harness's handler (``observe_verdict``). ``serve_metrics`` answers ``/metrics``, and
``/healthz`` and ``/readyz`` (``rcaloop.shared.health``), on ``METRICS_PORT``.
"""

from __future__ import annotations

import json
import threading
from socketserver import ThreadingMixIn
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import Counter, Gauge, Histogram, make_wsgi_app

if TYPE_CHECKING:
    from rcaloop.contracts import HarnessVerdict

PROCESSED = Counter("rcaloop_messages_processed", "Messages handled and acknowledged", ["service", "stream"])
FAILED = Counter("rcaloop_messages_failed", "Handler failures (the message stays pending for retry)",
                 ["service", "stream"])
DEAD_LETTERED = Counter(
    "rcaloop_messages_dead_lettered", "Messages moved to <stream>.dlq, by error code", ["service", "stream", "code"]
)
DUPLICATES = Counter("rcaloop_messages_duplicate", "Redeliveries skipped by idempotency key", ["service", "stream"])
RECLAIMED = Counter("rcaloop_messages_reclaimed", "Messages reclaimed from dead consumers", ["service", "stream"])
TRIMMED_UNREAD = Gauge(
    "rcaloop_trimmed_unread",
    "Entries trimmed away before this group read them, at the last check (alert on > 0: STREAM_MAXLEN below the "
    "backlog)",
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

TASKS_ENDED = Gauge("rcaloop_tasks_ended",
                    "Worker or background tasks of this process that ended on their own (alert on > 0)")

VERDICTS = Counter("rcaloop_verdicts", "Harness verdicts made, by verdict", ["verdict"])
SCORES = Histogram("rcaloop_verdict_score", "Harness scores (0-100) of the verdicts made",
                   buckets=(10, 20, 30, 40, 50, 60, 70, 80, 90, 100))
FAILED_GATES = Counter("rcaloop_hard_gates_failed", "Hard gates a verdict failed (after repairs), by gate", ["gate"])
RED_FLAGS = Counter("rcaloop_red_flags", "Red flags of the judged outputs, by finding code and declared/detected",
                    ["code", "source"])
FAMILY_CATALOG = Gauge("rcaloop_family_catalog", "The family catalog the harness judges with: 1 for the version in use",
                       ["version", "source"])
REPAIRS = Histogram("rcaloop_verdict_repairs", "Repairs the harness made per verdict", buckets=(0, 1, 2, 3, 5, 10, 20))


def observe_catalog(version: str, source: str) -> None:
    """The family catalog judged with now (``source``: ``bundled`` or the catalog package id); one series at a time."""
    FAMILY_CATALOG.clear()
    FAMILY_CATALOG.labels(version, source).set(1)


def observe_verdict(verdict: HarnessVerdict) -> None:
    """Count what the harness judged. Labels come from fixed vocabularies (verdicts, gate ids,
    finding codes), never from an agent's text, so the series stay few."""
    VERDICTS.labels(verdict.verdict).inc()
    SCORES.observe(verdict.score)
    REPAIRS.observe(len(verdict.repairs))
    for gate in verdict.hard_gates:
        if not gate.passed:
            FAILED_GATES.labels(gate.gate).inc()
    for flag in verdict.parsed.red_flags:
        RED_FLAGS.labels(flag.code, flag.source).inc()


class MetricsPortError(RuntimeError):
    """``METRICS_PORT`` cannot be bound: one line for the operator."""


_started: set[int] = set()


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, *_args) -> None:  # scrapes and probes are not worth a log line
        pass


def _app(metrics_app):
    from rcaloop.shared import health  # noqa: PLC0415 - health counts its ended tasks here

    probes = {"/healthz": health.liveness, "/readyz": health.readiness_from_thread}

    def app(environ, start_response):
        probe = probes.get(environ.get("PATH_INFO", ""))
        if probe is not None:
            status, body = probe()
            start_response(f"{status} {'OK' if status == 200 else 'Service Unavailable'}",
                           [("Content-Type", "application/json")])
            return [json.dumps(body).encode()]
        return metrics_app(environ, start_response)

    return app


def serve_metrics(port: int | None, host: str = "127.0.0.1") -> None:
    """Expose /metrics, /healthz and /readyz on ``host:port`` once per process (``METRICS_PORT``,
    ``METRICS_HOST``); a port that cannot be bound is ``MetricsPortError``."""
    if port is None or port in _started:
        return
    try:
        server = make_server(host, port, _app(make_wsgi_app()), _Server, handler_class=_Quiet)
    except OSError as exc:
        raise MetricsPortError(f"cannot serve metrics on {host}:{port}: {exc.strerror or exc} "
                               "(METRICS_PORT; is another rcaloop running?)") from None
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    _started.add(port)
