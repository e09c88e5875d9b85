"""The jumpbox client against a real asyncssh SFTP server on 127.0.0.1 (host key verified)."""

from __future__ import annotations

import asyncio
import json
import os
import socket

import asyncssh
import pytest
import typer
from typer.testing import CliRunner

from rcaloop.ingestion.cli import register
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.jumpbox import Jumpbox, JumpboxError, download_job, upload_annotation
from tests.integration.ingestion.sftp_server import SftpServer

JOB = "1234567"
STEP_FILES = ["step1_job_context.json", "step3_correlation.json", "step4_github_fetch_history.json",
              "step5_summary.json"]
ANNOTATION = {"job_id": JOB, "category_correct": True,
              "root_cause": {"category": "credential", "summary": "s", "confidence": "high"}}


def _cli() -> typer.Typer:
    app = typer.Typer()
    register(app, CliDeps(parse=lambda *a: None, evaluate=lambda *a: None))
    return app


def _env(settings) -> dict[str, str]:
    """The settings as the environment variables a user would set."""
    env = {k.upper(): str(v) for k, v in settings.model_dump().items() if v is not None}
    return {**env, "JUMPBOX_URI": settings.jumpbox_uri or ""}


def run_cli(settings, *args: str):
    env = _env(settings)
    if not settings.jumpbox_uri:
        env["JUMPBOX_URI"] = ""
    return CliRunner().invoke(_cli(), list(args), env=env)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _leftovers(root):
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


# -- round trip ---------------------------------------------------------------------------


async def test_download_and_upload_round_trip(sftp, remote_jobs, jb_settings):
    settings = jb_settings()
    seen: dict[str, tuple[int, int]] = {}
    local = await download_job(JOB, settings, progress=lambda name, done, total: seen.__setitem__(name, (done, total)))

    assert local == settings.rcaloop_analysis_root / JOB
    assert sorted(p.name for p in local.iterdir()) == STEP_FILES
    for name in STEP_FILES:
        assert (local / name).read_bytes() == (remote_jobs / JOB / name).read_bytes()
    size = (remote_jobs / JOB / "step5_summary.json").stat().st_size
    assert seen["step5_summary.json"][0] == seen["step5_summary.json"][1] == size
    assert _leftovers(settings.rcaloop_analysis_root) == [JOB]  # no temp dir left behind

    (local / "annotation.json").write_text(json.dumps(ANNOTATION))
    remote_path = await upload_annotation(JOB, settings)
    assert remote_path == f"/usr/local/mlflow/{JOB}/annotation.json"
    assert json.loads((remote_jobs / JOB / "annotation.json").read_text()) == ANNOTATION
    assert (local / "annotation.json").is_file()  # the local copy is always kept

    revised = {**ANNOTATION, "category_correct": False}
    (local / "annotation.json").write_text(json.dumps(revised))
    await upload_annotation(JOB, settings)  # replaces the jumpbox's copy
    assert json.loads((remote_jobs / JOB / "annotation.json").read_text()) == revised
    assert not [p for p in (remote_jobs / JOB).iterdir() if ".part-" in p.name]


async def test_redownload_refreshes_step_files_but_keeps_the_local_annotation(sftp, remote_jobs, jb_settings):
    settings = jb_settings()
    local = await download_job(JOB, settings)
    (local / "annotation.json").write_text('{"job_id": "1234567", "summary_comment": "mine"}')
    (remote_jobs / JOB / "annotation.json").write_text(
        '{"job_id": "1234567", "summary_comment": "older, on the jumpbox"}')
    (remote_jobs / JOB / "step1_job_context.json").write_text('{"job_id": "1234567", "rerun": true}')

    await download_job(JOB, settings)

    assert json.loads((local / "step1_job_context.json").read_text()) == {"job_id": "1234567", "rerun": True}
    assert json.loads((local / "annotation.json").read_text())["summary_comment"] == "mine"
    assert _leftovers(settings.rcaloop_analysis_root) == [JOB]


async def test_list_jobs_names_finished_job_directories_only(sftp, remote_jobs, jb_settings):
    (remote_jobs / "7777777").mkdir()  # no step5 yet: still running
    (remote_jobs / "notes.txt").write_text("not a job")
    async with Jumpbox(jb_settings()) as jb:
        jobs = await jb.list_jobs()
    assert [j.job_id for j in jobs] == [JOB]
    assert jobs[0].step5_size == (remote_jobs / JOB / "step5_summary.json").stat().st_size


def test_cli_download_and_upload(sftp, remote_jobs, jb_settings):
    settings = jb_settings()
    result = run_cli(settings, "download", "--job-id", JOB)
    assert result.exit_code == 0, result.output
    assert f"downloaded {JOB} to {settings.rcaloop_analysis_root / JOB}/" in result.output

    (settings.rcaloop_analysis_root / JOB / "annotation.json").write_text(json.dumps(ANNOTATION))
    result = run_cli(settings, "upload", "--job-id", JOB)
    assert result.exit_code == 0, result.output
    assert f"uploaded annotation.json to /usr/local/mlflow/{JOB}/annotation.json (local copy kept)" in result.output
    assert (remote_jobs / JOB / "annotation.json").is_file()


def test_cli_without_jumpbox_uri_validates_local_files_only(sftp, jb_settings, tmp_path):
    settings = jb_settings(jumpbox_uri=None)
    result = run_cli(settings, "download", "--job-id", JOB)
    assert result.exit_code == 3
    assert "error[local_dir_missing]" in result.output and "does not exist" in result.output

    job_dir = settings.rcaloop_analysis_root / JOB
    job_dir.mkdir(parents=True)
    for name in ("step5_summary.json", "step1_job_context.json"):
        (job_dir / name).write_text("{}")
    result = run_cli(settings, "download", "--job-id", JOB)
    assert result.exit_code == 4
    assert "error[required_file_missing]" in result.output
    assert "step3_correlation.json, step4_github_fetch_history.json" in result.output

    for name in ("step3_correlation.json", "step4_github_fetch_history.json"):
        (job_dir / name).write_text("{}")
    assert run_cli(settings, "download", "--job-id", JOB).exit_code == 0
    (job_dir / "annotation.json").write_text(json.dumps(ANNOTATION))
    result = run_cli(settings, "upload", "--job-id", JOB)
    assert result.exit_code == 0 and "annotation.json stays local" in result.output
    assert sftp.connections == 0


# -- every error: message and exit code ------------------------------------------------------


def _expect(result, exit_code: int, code: str, *fragments: str) -> None:
    assert result.exit_code == exit_code, result.output
    assert f"error[{code}]:" in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    assert "Traceback" not in result.output


def test_remote_directory_missing(sftp, jb_settings):
    _expect(run_cli(jb_settings(), "download", "--job-id", "7654321"), 3, "remote_dir_missing",
            "/usr/local/mlflow/7654321/ does not exist")
    settings = jb_settings()
    job_dir = settings.rcaloop_analysis_root / "7654321"
    job_dir.mkdir(parents=True)
    (job_dir / "annotation.json").write_text("{}")
    _expect(run_cli(settings, "upload", "--job-id", "7654321"), 3, "remote_dir_missing",
            "/usr/local/mlflow/7654321/ does not exist")


def test_required_file_missing_names_it(sftp, remote_jobs, jb_settings):
    (remote_jobs / JOB / "step3_correlation.json").unlink()
    settings = jb_settings()
    _expect(run_cli(settings, "download", "--job-id", JOB), 4, "required_file_missing", "step3_correlation.json")
    assert not (settings.rcaloop_analysis_root / JOB).exists()


def test_invalid_remote_step_file(sftp, remote_jobs, jb_settings):
    (remote_jobs / JOB / "step4_github_fetch_history.json").write_text("<html>oops</html>")
    settings = jb_settings()
    _expect(run_cli(settings, "download", "--job-id", JOB), 4, "invalid_step_file",
            "step4_github_fetch_history.json is not a JSON object")
    assert _leftovers(settings.rcaloop_analysis_root) == []


def test_connection_refused(sftp, jb_settings):
    port = _free_port()
    _expect(run_cli(jb_settings(jumpbox_uri=f"tester@127.0.0.1 -p {port}"), "download", "--job-id", JOB), 5,
            "connection_refused", f"port {port} refused")


def test_auth_failure(sftp, jb_settings, tmp_path):
    stranger = tmp_path / "stranger_key"
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(stranger))
    stranger.chmod(0o600)
    _expect(run_cli(jb_settings(jumpbox_identity_file=stranger), "download", "--job-id", JOB), 6, "auth_failed",
            "authentication to tester@127.0.0.1")


def test_wrong_host_key_is_refused(sftp, jb_settings):
    sftp.write_known_hosts(asyncssh.generate_private_key("ssh-ed25519"))  # the key the jumpbox used to have
    settings = jb_settings()
    _expect(
        run_cli(settings, "download", "--job-id", JOB), 7, "host_key_mismatch", "does NOT match",
        f"ssh-keygen -R '[127.0.0.1]:{sftp.port}'"
    )
    assert not (settings.rcaloop_analysis_root / JOB).exists()


def test_unknown_host_is_refused_with_what_to_do(sftp, jb_settings):
    sftp.known_hosts.write_text(
        "other.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk5V7cZ8uYdJ7kWvQ9n7aZKx0oK1rXlH3B5fE2Zl1xq\n")
    _expect(
        run_cli(jb_settings(), "download", "--job-id", JOB), 7, "host_key_unknown", "is not in",
        f"ssh-keyscan -p {sftp.port} 127.0.0.1 >>"
    )


def test_missing_known_hosts_file_is_an_error_not_a_silent_accept(sftp, jb_settings, tmp_path):
    _expect(run_cli(jb_settings(jumpbox_known_hosts=tmp_path / "nope"), "download", "--job-id", JOB), 7,
            "known_hosts_missing", "always verified")
    assert sftp.connections == 0


@pytest.mark.parametrize("job_id", ["../../etc", "/etc", "..", "a/../../b", ".ssh"])
def test_bad_job_id_is_refused_before_any_connection(sftp, jb_settings, job_id):
    settings = jb_settings()
    _expect(run_cli(settings, "download", "--job-id", job_id), 2, "invalid_job_id")
    _expect(run_cli(settings, "upload", "--job-id", job_id), 2, "invalid_job_id")
    assert sftp.connections == 0
    assert not settings.rcaloop_analysis_root.exists()


def test_upload_checks_the_local_annotation_before_connecting(sftp, jb_settings):
    settings = jb_settings()
    _expect(run_cli(settings, "upload", "--job-id", JOB), 4, "required_file_missing", "annotation.json not found")
    job_dir = settings.rcaloop_analysis_root / JOB
    job_dir.mkdir(parents=True)
    (job_dir / "annotation.json").write_text("{half written")
    _expect(run_cli(settings, "upload", "--job-id", JOB), 2, "invalid_annotation", "not valid JSON")
    assert sftp.connections == 0


def test_invalid_jumpbox_uri(sftp, jb_settings):
    _expect(run_cli(jb_settings(jumpbox_uri="tester@127.0.0.1 -o StrictHostKeyChecking=no"), "download", "--job-id",
                    JOB), 2, "invalid_jumpbox_uri")


# -- interrupted transfers and retries -----------------------------------------------------


async def test_dropped_connection_mid_file_leaves_no_complete_looking_directory(sftp, remote_jobs, jb_settings):
    (remote_jobs / JOB / "zz_console.log").write_bytes(os.urandom(3 * 1024 * 1024))
    sftp.behaviour.target, sftp.behaviour.abort_after = b"zz_console.log", 512 * 1024
    settings = jb_settings()
    with pytest.raises(JumpboxError) as info:
        await download_job(JOB, settings)
    assert info.value.code == "connection_lost" and info.value.exit_code == 5
    assert _leftovers(settings.rcaloop_analysis_root) == []  # neither <job_id>/ nor a partial temp dir


async def test_failed_redownload_leaves_the_previous_copy_intact(sftp, remote_jobs, jb_settings):
    settings = jb_settings()
    local = await download_job(JOB, settings)
    before = {p.name: p.read_bytes() for p in local.iterdir()}
    (remote_jobs / JOB / "zz_console.log").write_bytes(os.urandom(1024 * 1024))
    sftp.behaviour.target, sftp.behaviour.abort_after = b"zz_console.log", 64 * 1024
    with pytest.raises(JumpboxError):
        await download_job(JOB, settings)
    assert {p.name: p.read_bytes() for p in local.iterdir()} == before
    assert _leftovers(settings.rcaloop_analysis_root) == [JOB]


async def test_cancelled_download_cleans_up(sftp, remote_jobs, jb_settings):
    (remote_jobs / JOB / "zz_console.log").write_bytes(b"x" * 100_000)
    sftp.behaviour.target, sftp.behaviour.hang = b"zz_console.log", True
    settings = jb_settings()
    task = asyncio.create_task(download_job(JOB, settings))
    await asyncio.to_thread(sftp.behaviour.hung.wait, 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _leftovers(settings.rcaloop_analysis_root) == []


async def test_transient_refusal_is_retried_until_the_jumpbox_is_up(tmp_path, jb_settings, sftp):
    port = _free_port()
    late = SftpServer(tmp_path / "late")
    late.port = port
    late.write_known_hosts()  # the user trusts the jumpbox already; it is just not up yet
    (late.root / "usr/local/mlflow").mkdir(parents=True)
    (late.root / "usr/local/mlflow/42").mkdir()
    for name in STEP_FILES:
        (late.root / "usr/local/mlflow/42" / name).write_text("{}")
    settings = jb_settings(
        jumpbox_uri=f"tester@127.0.0.1 -p {port}",
        jumpbox_retries=4,
        jumpbox_retry_backoff_s=0.2,
        jumpbox_known_hosts=late.known_hosts,
        jumpbox_identity_file=late.client_key,
    )
    task = asyncio.create_task(download_job("42", settings))
    await asyncio.sleep(0.3)  # the first attempt(s) are refused
    await asyncio.to_thread(late.start, port)
    try:
        path = await asyncio.wait_for(task, 10)
    finally:
        late.stop()
    assert sorted(p.name for p in path.iterdir()) == STEP_FILES


async def test_retries_are_bounded(jb_settings, sftp):
    settings = jb_settings(jumpbox_uri=f"tester@127.0.0.1 -p {_free_port()}", jumpbox_retries=2,
                           jumpbox_retry_backoff_s=0.05)
    started = asyncio.get_running_loop().time()
    with pytest.raises(JumpboxError) as info:
        await download_job(JOB, settings)
    assert info.value.code == "connection_refused"
    assert asyncio.get_running_loop().time() - started < 2


async def test_silent_server_times_out(jb_settings, sftp):
    """A port that accepts TCP but never speaks SSH: connection_timeout, not a hang."""
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        settings = jb_settings(jumpbox_uri=f"tester@127.0.0.1 -p {port}", jumpbox_connect_timeout_s=0.3)
        with pytest.raises(JumpboxError) as info:
            await download_job(JOB, settings)
    finally:
        server.close()
    assert info.value.code == "connection_timeout" and info.value.exit_code == 5
    assert "did not answer within 0.3 s" in info.value.message


def test_missing_client_key_is_an_auth_error(sftp, jb_settings, tmp_path):
    _expect(run_cli(jb_settings(jumpbox_identity_file=tmp_path / "no_key"), "download", "--job-id", JOB), 6,
            "auth_failed", "does not exist")
    assert sftp.connections == 0


async def test_host_alias_port_user_and_key_come_from_the_ssh_config(sftp, jb_settings, tmp_path):
    config = tmp_path / "ssh_config"
    config.write_text(
        f"Host jumpbox\n  HostName 127.0.0.1\n  Port {sftp.port}\n  User tester\n  IdentityFile {sftp.client_key}\n"
    )
    settings = jb_settings(jumpbox_uri="jumpbox", jumpbox_ssh_config=config, jumpbox_identity_file=None)
    local = await download_job(JOB, settings)
    assert sorted(p.name for p in local.iterdir()) == STEP_FILES


def test_cli_shows_progress_for_large_files_and_keeps_stdout_clean(sftp, remote_jobs, jb_settings):
    (remote_jobs / JOB / "console.log").write_bytes(os.urandom(2 * 1024 * 1024))
    settings = jb_settings()
    result = CliRunner().invoke(_cli(), ["download", "--job-id", JOB], env=_env(settings))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"downloaded {JOB} to {settings.rcaloop_analysis_root / JOB}/"
    assert (settings.rcaloop_analysis_root / JOB / "console.log").stat().st_size == 2 * 1024 * 1024
