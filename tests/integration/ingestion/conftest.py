"""Fixtures for the jumpbox tests: a live SFTP server holding one realistic job."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rcaloop.shared.jumpbox import JumpboxSettings
from tests.integration.ingestion.sftp_server import SftpServer

EXAMPLE_JOB = Path(__file__).resolve().parents[3] / "examples" / "jobs" / "1234567"
REMOTE_ROOT = "/usr/local/mlflow"


@pytest.fixture
def sftp(tmp_path):
    server = SftpServer(tmp_path / "server").start()
    jobs = server.root / REMOTE_ROOT.lstrip("/")
    jobs.mkdir(parents=True)
    shutil.copytree(EXAMPLE_JOB, jobs / "1234567")
    yield server
    server.stop()


@pytest.fixture
def remote_jobs(sftp) -> Path:
    """The jumpbox's /usr/local/mlflow as a local path (to arrange and inspect)."""
    return sftp.root / REMOTE_ROOT.lstrip("/")


@pytest.fixture
def jb_settings(sftp, tmp_path):
    def make(**overrides) -> JumpboxSettings:
        values = dict(
            jumpbox_uri=f"tester@127.0.0.1 -p {sftp.port}",
            jumpbox_root=REMOTE_ROOT,
            rcaloop_analysis_root=tmp_path / "local" / ".analysis",
            jumpbox_known_hosts=sftp.known_hosts,
            jumpbox_ssh_config=tmp_path / "no-ssh-config",
            jumpbox_identity_file=sftp.client_key,
            jumpbox_connect_timeout_s=5,
            jumpbox_retries=0,
            jumpbox_retry_backoff_s=0.05,
        )
        values.update(overrides)
        return JumpboxSettings(**values)

    return make
