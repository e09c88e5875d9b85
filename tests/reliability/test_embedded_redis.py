"""The embedded Redis under concurrent commands: one server per data directory, shared,
never started twice on one socket and AOF, never left behind by a command that failed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis as redis_sync

from tests.reliability.conftest import _free_port
from tests.reliability.flow import wait_until

RCALOOP = str(Path(sys.executable).with_name("rcaloop"))


def _env(data: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}  # no REDIS_URL
    return env | {"RCALOOP_DATA_DIR": str(data), "RCALOOP_ANALYSIS_ROOT": str(data / ".analysis")}


def servers(data: Path) -> list[int]:
    """Pids of redis-server processes serving ``data``'s socket."""
    sock = str((data / "redis" / "redis.sock").resolve())
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = (entry / "stat").read_text().split()[2]
            except OSError:
                continue
            if "redis-server" in cmdline and sock in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


def _up(data: Path, port: int, started: list) -> subprocess.Popen:
    proc = subprocess.Popen([RCALOOP, "up", "--http-port", str(port), "--metrics-port", "0"], env=_env(data),
                            cwd=data.parent, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    started.append(proc)
    deadline = time.monotonic() + 60
    while "pipeline running" not in (line := proc.stdout.readline()):
        assert line and time.monotonic() < deadline, "rcaloop up did not start"
    return proc


def _run(data: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([RCALOOP, *args], env=_env(data), cwd=data.parent, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    return out


@pytest.fixture
def dirs(tmp_path):
    """The test's data directories; whatever they leave running is killed afterwards."""
    made: list[Path] = []

    def make(name: str) -> Path:
        made.append(tmp_path / name)
        return made[-1]

    yield make
    for d in made:
        for pid in servers(d):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def ups():
    started: list[subprocess.Popen] = []

    yield lambda data, port: _up(data, port, started)
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_demo_while_up_runs_shares_its_redis_and_leaves_it_running(dirs, ups):
    data = dirs("var")
    up = ups(data, _free_port())
    [server] = servers(data)
    demo = _run(data, "demo")
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "shared with another rcaloop command" in " ".join(demo.stdout.split())
    assert servers(data) == [server], "a second redis-server, or the first one stopped"
    client = redis_sync.Redis(unix_socket_path=str(data / "redis" / "redis.sock"))
    assert client.ping() and client.xlen("rca.evaluated") > 0, "up's Redis is reachable after demo left"
    client.close()
    status = _run(data, "status", timeout=60)
    assert status.returncode == 0 and "rca.results" in status.stdout
    assert up.poll() is None
    out = _stop(up)
    assert "Traceback" not in out and "redis_unreachable" not in out, out
    wait_until(lambda: servers(data) == [], 60, "the last user stops the server")


def test_a_second_up_on_a_busy_port_fails_in_one_line_and_orphans_nothing(dirs, ups):
    data, other = dirs("var"), dirs("other")
    port = _free_port()
    first = ups(data, port)
    [server] = servers(data)
    for d in (data, other):  # the same data directory (its Redis shared), and one of its own
        second = _run(d, "up", "--http-port", str(port), "--metrics-port", "0", timeout=60)
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr
        assert "Traceback" not in second.stdout + second.stderr
        assert len(second.stderr.strip().splitlines()) == 1, second.stderr
    assert servers(data) == [server] and servers(other) == [], "a redis-server was left behind"
    assert first.poll() is None
    _stop(first)
    wait_until(lambda: servers(data) == [], 60, "the server stops with the last user")


def test_a_server_left_by_a_killed_up_is_taken_over_never_started_twice(dirs, ups):
    data = dirs("var")
    up = ups(data, _free_port())
    [server] = servers(data)
    up.kill()  # kill -9: nothing is cleaned up
    up.wait(10)
    assert servers(data) == [server], "the server keeps the data (AOF) for the next command"
    demo = _run(data, "demo")
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "shared with another rcaloop command" in " ".join(demo.stdout.split())  # the same server, taken over
    wait_until(lambda: servers(data) == [], 60, "demo, its last user, stops it")
