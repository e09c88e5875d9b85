"""The README's first command on a machine without REDIS_URL: the embedded pipeline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_demo_runs_the_samples_through_the_whole_pipeline(tmp_path):
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}  # a clean machine
    env["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    env["RCALOOP_ANALYSIS_ROOT"] = str(tmp_path / ".analysis")
    rcaloop = Path(sys.executable).with_name("rcaloop")
    proc = subprocess.run(
        [str(rcaloop), "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "Traceback" not in out
    assert "embedded Redis" in out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    samples = len([p for p in (ROOT / "examples" / "jobs").iterdir() if p.is_dir()])
    samples += len(list((ROOT / "examples" / "skill_outputs").glob("*.txt")))
    samples += len(list((ROOT / "examples" / "captures").glob("*.json")))
    evaluated = int(rows["rca.evaluated"].split("│")[3])
    tasks = int(rows["review.tasks"].split("│")[3])
    assert evaluated == samples, out
    assert tasks == samples, out


def test_bad_configuration_is_one_line_and_starts_no_embedded_redis(tmp_path):
    """A bad environment variable: a one-line error (not an import-time traceback), no orphan redis-server."""
    base = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    base["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    rcaloop = Path(sys.executable).with_name("rcaloop")
    for extra, code, message in (
        ({"MAX_DELIVERIES": "many"}, 2, "error: configuration: MAX_DELIVERIES:"),
        ({"RCALOOP_ANNOTATOR_TOKENS": "alice"}, 1, "RCALOOP_ANNOTATOR_TOKENS entry 1 is not name:token"),
        ({"RCALOOP_ANNOTATOR_TOKENS": "alice:t1"}, 1, "RCALOOP_ANNOTATOR_TOKENS entry 1 (alice): the token is too weak"),
        ({"RCALOOP_REVIEWER_TOKENS": "mira:x"}, 1, "RCALOOP_REVIEWER_TOKENS entry 1 (mira): the token is too weak"),
        ({"REDIS_URL": "http://x"}, 2, "error: configuration: REDIS_URL: Value error, must start with redis://"),
        ({"REDIS_URL": "127.0.0.1:6380"}, 2, "error: configuration: REDIS_URL: Value error, must start with redis://"),
        ({"REDIS_URL": "redis://:hunter2@h:port/0"}, 2, "error: configuration: REDIS_URL: Value error, must be a URL"),
    ):
        proc = subprocess.run(
            [str(rcaloop), "up", "--http-port", "0", "--metrics-port", "0"], cwd=tmp_path, env=base | extra,
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
        assert proc.returncode == code, proc.stdout + proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "hunter2" not in proc.stdout + proc.stderr and "t1" not in proc.stderr.replace("entry 1", "")
        assert not (tmp_path / "var" / "redis" / "redis.sock").exists(), "the embedded Redis was left running"
    help_run = subprocess.run(
        [str(rcaloop), "--help"], env=base | {"MAX_DELIVERIES": "many"}, capture_output=True, text=True, timeout=60
    )
    assert help_run.returncode == 0 and "Traceback" not in help_run.stderr


def test_ctrl_c_drains_before_the_embedded_redis_stops(tmp_path):
    """Ctrl-C signals the whole foreground process group; the embedded redis-server must not die with it."""
    import signal
    import time

    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    env["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    rcaloop = Path(sys.executable).with_name("rcaloop")
    proc = subprocess.Popen(
        [str(rcaloop), "up", "--http-port", "0", "--metrics-port", "0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, start_new_session=True,  # a terminal's group
    )
    try:
        deadline = time.monotonic() + 60
        while "pipeline running" not in (line := proc.stdout.readline()):
            assert line and time.monotonic() < deadline, "rcaloop up did not start"
        time.sleep(1)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "stopped" in stderr and "Traceback" not in stderr
    assert "redis_unreachable" not in stderr, stderr
    sock = tmp_path / "var" / "redis" / "redis.sock"
    assert not sock.exists() or _socket_dead(sock), "the embedded Redis outlived rcaloop up"


def _socket_dead(path: Path) -> bool:
    import socket

    with socket.socket(socket.AF_UNIX) as s:
        try:
            s.connect(str(path))
        except OSError:
            return True
    return False
