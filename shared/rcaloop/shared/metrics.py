"""Prometheus metrics, one set per process, labelled by service and stream."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

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

_started: set[int] = set()


def serve_metrics(port: int | None) -> None:
    """Expose /metrics on ``port`` once per process (``METRICS_PORT``)."""
    if port is None or port in _started:
        return
    start_http_server(port)
    _started.add(port)
