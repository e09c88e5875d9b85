"""``rcaloop download`` / ``upload`` as a user runs them: a real process, a real SFTP server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.ingestion.sftp_server import SftpServer

ROOT = Path(__file__).resolve().parents[3]
RCALOOP = Path(sys.executable).with_name("rcaloop")


@pytest.fixture
def server(tmp_path):
    srv = SftpServer(tmp_path / "server").start()
    shutil.copytree(ROOT / "examples" / "jobs" / "1234567", srv.root / "srv" / "mlflow" / "1234567")
    yield srv
    srv.stop()


def _rcaloop(tmp_path, srv: SftpServer, *args: str) -> subprocess.CompletedProcess:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("JUMPBOX_", "RCALOOP_"))},
        "HOME": str(tmp_path / "home"),  # no ~/.ssh of the machine running the tests
        "JUMPBOX_URI": f"reviewer@127.0.0.1 -p {srv.port}",
        "JUMPBOX_ROOT": "/srv/mlflow",
        "JUMPBOX_KNOWN_HOSTS": str(srv.known_hosts),
        "JUMPBOX_IDENTITY_FILE": str(srv.client_key),
        "JUMPBOX_RETRIES": "0",
    }
    return subprocess.run([str(RCALOOP), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.slow  # one CLI start-up (the whole rcaloop CLI imports in ~5 s on 2 cores)
@pytest.mark.skipif(not RCALOOP.exists(), reason="the rcaloop entry point is not installed in this venv")
def test_download_in_a_shell(tmp_path, server):
    done = _rcaloop(tmp_path, server, "download", "--job-id", "1234567")
    assert done.returncode == 0, done.stderr
    job_dir = tmp_path / ".analysis" / "1234567"  # relative to the working directory, as the seed says
    assert "downloaded 1234567 to .analysis/1234567/" in done.stdout
    assert (job_dir / "step5_summary.json").read_bytes() == (
        ROOT / "examples/jobs/1234567/step5_summary.json").read_bytes()

    assert done.stderr == ""  # small files: no progress bar, no noise
