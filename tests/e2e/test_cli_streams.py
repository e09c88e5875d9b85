"""``rcaloop submit`` and ``rcaloop status`` against a real Redis."""

from __future__ import annotations

from pathlib import Path

import redis as redis_lib
from typer.testing import CliRunner

from rcaloop.cli.main import app
from rcaloop.contracts import Stream

ROOT = Path(__file__).resolve().parents[2]


def _env(redis_url: str, prefix: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "RCALOOP_STREAM_PREFIX": prefix}


def test_submit_publishes_each_path_and_status_counts_them(redis_url, prefix):
    runner = CliRunner()
    paths = [str(ROOT / "examples" / "jobs" / "1234567"), str(ROOT / "examples" / "skill_outputs" / "checkout-5xx.txt")]
    result = runner.invoke(app, ["submit", *paths], env=_env(redis_url, prefix))
    assert result.exit_code == 0, result.output
    assert "submitted job-1234567" in result.output
    client = redis_lib.Redis.from_url(redis_url)
    try:
        assert client.xlen(Stream.RESULTS.key(prefix)) == 2
        status = runner.invoke(app, ["status"], env=_env(redis_url, prefix))
    finally:
        client.delete(Stream.RESULTS.key(prefix))
        client.close()
    assert status.exit_code == 0, status.output
    row = next(line for line in status.output.splitlines() if f"{prefix}rca.results" in line)
    assert row.split("│")[3].strip() == "2"


def test_submit_refuses_a_missing_path_with_a_clear_error(redis_url, prefix):
    result = CliRunner().invoke(app, ["submit", "/nonexistent/result.txt"], env=_env(redis_url, prefix))
    assert result.exit_code == 2
    assert "no such file or directory" in result.output
    assert "Traceback" not in result.output


def test_without_redis_url_a_command_uses_the_data_directorys_embedded_redis(tmp_path):
    """No REDIS_URL and no ``rcaloop up``: ``submit`` and ``status`` start the data directory's
    embedded Redis for the command and stop it after; its AOF keeps what ``submit`` published."""
    env = {"REDIS_URL": "", "RCALOOP_DATA_DIR": str(tmp_path), "RCALOOP_STREAM_PREFIX": ""}
    submitted = CliRunner().invoke(app, ["submit", str(ROOT / "examples" / "jobs" / "1234567")], env=env)
    assert submitted.exit_code == 0 and "submitted job-1234567" in submitted.output, submitted.output
    status = CliRunner().invoke(app, ["status"], env={**env, "COLUMNS": "200"})
    assert status.exit_code == 0, status.output
    row = next(line for line in status.output.splitlines() if line.startswith("│ rca.results"))
    assert row.split("│")[3].strip() == "1", status.output  # its length: the submitted result survived the restart
    sock = tmp_path / "redis" / "redis.sock"
    assert not sock.exists(), "the embedded Redis was left running"


def test_status_with_unreachable_redis_fails_cleanly(prefix):
    result = CliRunner().invoke(app, ["status"],
                                env={"REDIS_URL": "redis://127.0.0.1:1/0", "RCALOOP_STREAM_PREFIX": prefix})
    assert result.exit_code == 2
    assert "cannot reach Redis" in result.output


def test_status_shows_entries_trimmed_before_a_group_read_them(redis_url, prefix):
    client = redis_lib.Redis.from_url(redis_url)
    key = Stream.RESULTS.key(prefix)
    try:
        client.xadd(key, {"payload": "{}"})
        client.xgroup_create(key, "ingestion", id="0")
        client.xreadgroup("ingestion", "c1", {key: ">"})  # the group read 1 …
        for _ in range(25):  # … then 25 more arrive and the stream keeps 5
            client.xadd(key, {"payload": "{}"}, maxlen=5, approximate=False)
        status = CliRunner().invoke(app, ["status"], env={**_env(redis_url, prefix), "COLUMNS": "200"})
    finally:
        client.delete(key)
        client.close()
    assert status.exit_code == 0, status.output
    header = next(line for line in status.output.splitlines() if "trimmed unread" in line)
    row = next(line for line in status.output.splitlines() if f"{prefix}rca.results" in line)
    assert header and row.split("│")[-2].strip() == "20"
    assert "raise STREAM_MAXLEN" in status.output
