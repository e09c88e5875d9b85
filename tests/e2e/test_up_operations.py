"""``rcaloop up`` as an operator meets it: the exact way a plain producer reaches its embedded Redis
(a unix socket, no TCP port), metrics served by default, health and readiness beside them."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis as redis_sync

from tests.reliability.conftest import _free_port

ROOT = Path(__file__).resolve().parents[2]
RCALOOP = str(Path(sys.executable).with_name("rcaloop"))


@pytest.mark.skipif(shutil.which("redis-cli") is None, reason="redis-cli is not installed")
def test_up_prints_how_a_plain_producer_reaches_it_and_that_line_works(tmp_path):
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    env |= {"RCALOOP_DATA_DIR": str(tmp_path / "var"), "LOG_LEVEL": "WARNING"}
    metrics_port = _free_port()
    proc = subprocess.Popen([RCALOOP, "up", "--http-port", "0", "--metrics-port", str(metrics_port)], env=env,
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL)
    printed: list[str] = []
    try:
        deadline = time.monotonic() + 90
        while "pipeline running" not in (line := proc.stdout.readline()):
            assert line and time.monotonic() < deadline, "rcaloop up did not start:\n" + "".join(printed)
            printed.append(line)
        text = "".join(printed)
        sock = (tmp_path / "var" / "redis" / "redis.sock").resolve()
        assert f"REDIS_URL=unix://{sock}" in text, text
        [cli_line] = [line.strip() for line in printed if line.strip().startswith("redis-cli ")]
        assert cli_line.startswith(f"redis-cli -s {sock} XADD rca.results '*' payload"), cli_line

        # the printed line, run as a producer would (result.json in the current directory)
        result = json.loads((ROOT / "tests/fixtures/ingestion/raw_result_skill_text.json").read_text())
        result["result_id"] = "plain-producer-1"
        (tmp_path / "result.json").write_text(json.dumps(result))
        run = subprocess.run(["bash", "-c", cli_line], cwd=tmp_path, capture_output=True, text=True, timeout=30)
        assert run.returncode == 0 and re.fullmatch(r"\d+-\d+\n", run.stdout), run.stdout + run.stderr

        client = redis_sync.Redis(unix_socket_path=str(sock))
        deadline = time.monotonic() + 60
        while not any(b"plain-producer-1" in f[b"payload"] for _i, f in client.xrange("rca.evaluated")):
            assert time.monotonic() < deadline, "the result did not reach rca.evaluated"
            time.sleep(0.3)
        client.close()

        base = f"http://127.0.0.1:{metrics_port}"
        assert httpx.get(f"{base}/healthz", timeout=10).json() == {"status": "ok"}
        ready = httpx.get(f"{base}/readyz", timeout=10)
        assert ready.status_code == 200, ready.text
        scraped = httpx.get(f"{base}/metrics", timeout=10).text
        assert re.search(r'^rcaloop_verdicts_total\{verdict="\w+"\} 1\.0$', scraped, re.M), "the verdict is counted"
        assert "rcaloop_verdict_score_bucket" in scraped and "rcaloop_messages_processed_total" in scraped
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert "Traceback" not in out, out


def test_a_busy_metrics_port_is_one_line_and_starts_nothing(tmp_path):
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    env["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    import socket  # noqa: PLC0415

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = subprocess.run([RCALOOP, "up", "--http-port", "0", "--metrics-port", str(port)], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"cannot serve metrics on 127.0.0.1:{port}" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert not (tmp_path / "var" / "redis" / "redis.sock").exists(), "an embedded Redis was started"
