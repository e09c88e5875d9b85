"""Services as real processes for the fault tests: start, wait until consuming, signal, read logs.

Each process is ``python -m rcaloop.<name>`` (or a test module) with its settings in the
environment, its JSON log lines captured in a file, so a test can check what the
service said (``redis_unreachable``, ``grace_period_exceeded`` …) after the fact.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis as redis_sync

from rcaloop.contracts import Stream

REPO = Path(__file__).resolve().parents[2]

# The subscription each service reads first: used to see that a process is consuming.
PRIMARY = {
    "ingestion": (Stream.RESULTS, "ingestion"),
    "parser": (Stream.INGESTED, "parser"),
    "harness": (Stream.PARSED, "harness"),
    "annotation": (Stream.EVALUATED, "annotation"),
    "knowledge": (Stream.REVIEW_ANNOTATIONS, "knowledge"),
    "gate": (Stream.KNOWLEDGE_EVENTS, "gate"),
}
FAST = {  # fast reclaim, short blocking reads, short grace: faults resolve in seconds
    "CLAIM_IDLE_MS": "1000",
    "CLAIM_INTERVAL_MS": "300",
    "BLOCK_MS": "100",
    "MAX_DELIVERIES": "3",
    "SHUTDOWN_GRACE_S": "5",
    "LOG_FORMAT": "json",
    "LOG_LEVEL": "INFO",
}


@dataclass
class ServiceProc:
    name: str
    consumer: str
    proc: subprocess.Popen
    log_path: Path
    exit_seconds: float | None = field(default=None)  # set by a test that stops it

    def logs(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def events(self) -> list[str]:
        """The ``event`` of every JSON log line (non-JSON lines are ignored)."""
        out = []
        for line in self.logs().splitlines():
            try:
                out.append(json.loads(line).get("event", ""))
            except (json.JSONDecodeError, AttributeError):
                continue
        return out

    def kill(self) -> None:
        """``kill -9``: no cleanup, no ack, whatever it holds stays pending."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


class Procs:
    """Starts service processes against one Redis and prefix; kills leftovers at the end."""

    def __init__(self, redis_url: str, prefix: str, workdir: Path, **env: str):
        self.redis_url = redis_url
        self.prefix = prefix
        self.workdir = workdir
        self.env = {**FAST, **env}
        self.running: list[ServiceProc] = []

    def start(self, name: str, *, module: str | None = None, consumer: str | None = None, wait: bool = True,
              **env: str) -> ServiceProc:
        consumer = consumer or f"{name}-{len(self.running)}"
        data_dir = self.workdir / "data"
        data_dir.mkdir(parents=True, exist_ok=True)
        full_env = {k: v for k, v in os.environ.items() if k not in ("METRICS_PORT", "PYTEST_CURRENT_TEST")}
        full_env.update(self.env)
        full_env.update(
            REDIS_URL=self.redis_url,
            RCALOOP_STREAM_PREFIX=self.prefix,
            CONSUMER_NAME=consumer,
            RCALOOP_DATA_DIR=str(data_dir),
            PYTHONUNBUFFERED="1",
        )
        full_env.update(env)
        log_path = self.workdir / f"{consumer}.log"
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", module or f"rcaloop.{name}"],
                cwd=REPO,
                env=full_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        sp = ServiceProc(name, consumer, proc, log_path)
        self.running.append(sp)
        if wait:
            self.wait_consuming(sp)
        return sp

    def wait_consuming(self, sp: ServiceProc, timeout: float = 90) -> None:
        """Until the process's consumer group exists and the process is alive.

        (Redis 7 lists a consumer only once a read returned something, so the group is
        the earliest sign; the group starts at id 0, so nothing published is missed.)
        """
        stream, group = PRIMARY.get(sp.name, (Stream.RESULTS, sp.name))
        client = redis_sync.Redis.from_url(self.redis_url)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if sp.proc.poll() is not None:
                    raise AssertionError(f"{sp.consumer} exited with {sp.proc.returncode}:\n{sp.logs()[-3000:]}")
                try:
                    groups = {g["name"].decode() for g in client.xinfo_groups(stream.key(self.prefix))}
                except redis_sync.ResponseError:
                    groups = set()
                if group in groups:
                    return
                time.sleep(0.05)
        finally:
            client.close()
        raise AssertionError(f"{sp.consumer} did not start consuming within {timeout} s:\n{sp.logs()[-3000:]}")

    def stop_all(self) -> None:
        for sp in self.running:
            if sp.proc.poll() is None:
                sp.proc.kill()
                sp.proc.wait(10)
