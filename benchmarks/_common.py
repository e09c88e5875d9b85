"""Helpers shared by the broker and pipeline benchmarks: payloads, machine, processes, ids.

Benchmarks print figures; they never assert timings. Every run uses its own stream
prefix on the Redis of ``REDIS_URL`` (default 127.0.0.1:6379) and deletes its keys.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import redis

from rcaloop.contracts import RawResult, Stream
from rcaloop.shared.sources import load_result

REPO = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def client() -> redis.Redis:
    return redis.Redis.from_url(REDIS_URL)


def new_prefix(tag: str) -> str:
    return f"bench-{tag}-{uuid.uuid4().hex[:8]}:"


def cleanup(r: redis.Redis, prefix: str) -> None:
    keys = list(r.scan_iter(match=f"{prefix}*", count=5000))
    for i in range(0, len(keys), 5000):
        r.delete(*keys[i : i + 5000])


def machine(r: redis.Redis) -> str:
    cpu = "unknown CPU"
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {cpu} · {os.cpu_count()} cores · "
            f"Python {platform.python_version()} · Redis {r.info('server')['redis_version']} · "
            f"load average {os.getloadavg()[0]:.1f} (other work on the machine)")


def samples() -> list[RawResult]:
    """The bundled examples (skill outputs, step-file jobs, captures) as results."""
    root = REPO / "examples"
    paths = sorted((root / "skill_outputs").glob("*.txt")) + sorted((root / "captures").glob("*.json"))
    paths += sorted(p for p in (root / "jobs").iterdir() if p.is_dir())
    return [load_result(p) for p in paths]


def results(n: int, tag: str) -> list[RawResult]:
    """``n`` distinct results (own ``result_id`` and ``analysis_hash``) cycling through the samples."""
    base = samples()
    out = []
    for i in range(n):
        s = base[i % len(base)]
        if isinstance(s.content, str):
            content: str | dict = f"{s.content}\n<!-- bench {tag}-{i} -->\n"
        elif s.kind == "step_files":  # only *.json names at the top: mark the summary instead
            content = {**s.content,
                       "step5_summary.json": {**s.content["step5_summary.json"], "bench_run": f"{tag}-{i}"}}
        else:
            content = {**s.content, "bench_run": f"{tag}-{i}"}
        out.append(s.model_copy(update={"result_id": f"{tag}-{i}", "content": content}))
    return out


def id_ms(entry_id: bytes | str) -> int:
    """The millisecond timestamp Redis put in an entry id."""
    return int((entry_id.decode() if isinstance(entry_id, bytes) else entry_id).split("-", 1)[0])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


class Services:
    """Service processes (``python -m rcaloop.<name>``) on one prefix; stopped with SIGTERM."""

    def __init__(self, prefix: str, **env: str):
        self.prefix = prefix
        self.dir = Path(tempfile.mkdtemp(prefix="rcaloop-bench-"))
        self.env = {**os.environ, "REDIS_URL": REDIS_URL, "RCALOOP_STREAM_PREFIX": prefix,
                    "RCALOOP_DATA_DIR": str(self.dir / "data"), "LOG_LEVEL": "WARNING", **env}
        self.env.pop("METRICS_PORT", None)
        self.procs: list[subprocess.Popen] = []

    def start(self, name: str, consumer: str, **env: str) -> None:
        log = open(self.dir / f"{consumer}.log", "ab")
        self.procs.append(subprocess.Popen([sys.executable, "-m", f"rcaloop.{name}"], cwd=REPO,
                                           env={**self.env, "CONSUMER_NAME": consumer, **env},
                                           stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))

    def cpu_each(self) -> list[float]:
        """User + system CPU seconds each service process used so far (Linux ``/proc``)."""
        out, tick = [], os.sysconf("SC_CLK_TCK")
        for p in self.procs:
            with open(f"/proc/{p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out.append((int(fields[11]) + int(fields[12])) / tick)
        return out

    def cpu_seconds(self) -> float:
        return sum(self.cpu_each())

    def wait_ready(self, r: redis.Redis, streams_groups: list[tuple[Stream, str]], timeout: float = 60) -> None:
        """Until every group exists (the processes reached their read loop), plus a settle second."""
        deadline = time.monotonic() + timeout
        for stream, group in streams_groups:
            while True:
                try:
                    if any(g["name"].decode() == group for g in r.xinfo_groups(stream.key(self.prefix))):
                        break
                except redis.ResponseError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"services did not start; logs in {self.dir}")
                time.sleep(0.05)
        time.sleep(1.0)

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        self.procs.clear()

    def __enter__(self) -> Services:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.stop()
        if exc_type is None:  # keep the logs of a failed run
            shutil.rmtree(self.dir, ignore_errors=True)


def wait_len(r: redis.Redis, key: str, n: int, stall_s: float = 20) -> bool:
    """Until ``key`` holds ``n`` entries; False when it stops growing for ``stall_s``."""
    last, moved = -1, time.monotonic()
    while time.monotonic() - moved < stall_s:
        length = r.xlen(key)
        if length >= n:
            return True
        if length != last:
            last, moved = length, time.monotonic()
        time.sleep(0.05)
    return False


def evaluated_span(r: redis.Redis, prefix: str) -> tuple[int, float]:
    """(entries on rca.evaluated, seconds from the first to the last of them)."""
    key = Stream.EVALUATED.key(prefix)
    first, last = r.xrange(key, count=1), r.xrevrange(key, count=1)
    if not first:
        return 0, 0.0
    return r.xlen(key), (id_ms(last[0][0]) - id_ms(first[0][0])) / 1000


def print_rows(rows: list[tuple[str, str]]) -> None:
    """The run's figures as a two-column table."""
    width = max(len(k) for k, _ in rows)
    print()
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
