"""The annotator skill drives rcaloop: its SKILL.md names real commands, and the original skill's
``scripts/cli.py`` entry point runs them unchanged."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from rcaloop.cli.main import app
from tests.helpers.plain_python import plain_env, plain_python

ROOT = Path(__file__).resolve().parents[3]
SKILL = ROOT / "skills" / "rca-annotator"


def test_skill_front_matter_and_every_command_it_names_exists():
    text = (SKILL / "SKILL.md").read_text()
    front = yaml.safe_load(text.split("---")[1])
    assert front["name"] == "rca-annotator" and front["description"] and front["allowed-tools"]
    commands = set(re.findall(r"^rcaloop ([a-z]+(?: [a-z]+)?) ", text, re.M))
    assert {"download", "annotate", "upload", "annotation validate"} <= commands
    for command in commands:
        result = CliRunner().invoke(app, [*command.split(), "--help"])
        assert result.exit_code == 0, (command, result.output)


def test_the_original_entry_point_runs_the_same_commands(tmp_path):
    root = tmp_path / ".analysis"
    shutil.copytree(ROOT / "examples" / "jobs" / "1234567", root / "1234567")
    shutil.copy(ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json", root / "1234567" / "annotation.json")
    env = {k: v for k, v in os.environ.items() if k not in ("JUMPBOX_URI", "DATABASE_URL")}
    env.update(RCALOOP_ANALYSIS_ROOT=str(root), RCALOOP_DATA_DIR=str(tmp_path / "data"))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"

    def cli(*args):
        return subprocess.run([sys.executable, str(SKILL / "scripts" / "cli.py"), *args], capture_output=True,
                              text=True, env=env, timeout=60)

    assert cli("download", "--job-id", "1234567").returncode == 0
    uploaded = cli("upload", "--job-id", "1234567")
    assert uploaded.returncode == 0 and "stays local" in uploaded.stdout
    doc = json.loads((root / "1234567" / "annotation.json").read_text())
    (root / "1234567" / "annotation.json").write_text(json.dumps({**doc, "difficulty_score": 5.0}))
    refused = cli("upload", "--job-id", "1234567")
    assert refused.returncode == 1 and "ANN140" in refused.stderr
    assert cli("nonsense").returncode == 2


def _keep_stream_job(data_dir: Path) -> None:
    """Job 1234567 as it arrives on the stream: the annotation service keeps its files in the store."""
    import asyncio

    from rcaloop.annotation.artifacts import artifacts_of
    from rcaloop.annotation.store import Store, database_url
    from rcaloop.contracts import IngestedRecord, analysis_hash
    from rcaloop.shared.sources import load_result

    raw = load_result(ROOT / "examples" / "jobs" / "1234567")
    record = IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))

    async def keep() -> None:
        store = Store(database_url(None, data_dir))
        try:
            await store.migrate()
            await store.add_artifacts(record.analysis_hash, record.job_id, artifacts_of(record))
        finally:
            await store.close()

    asyncio.run(keep())


def test_the_skill_runs_from_a_plain_python_for_a_stream_job_and_a_local_one(tmp_path):
    """``cd skills/rca-annotator && python scripts/cli.py download --job-id <id>`` with an interpreter
    that has nothing installed and no venv on PATH: the script runs the checkout's rcaloop. A job
    that arrived on the stream comes from the annotation store; a local job directory is checked."""
    python = plain_python()
    root, data = tmp_path / ".analysis", tmp_path / "data"
    env = plain_env(RCALOOP_ANALYSIS_ROOT=str(root), RCALOOP_DATA_DIR=str(data))
    bare = subprocess.run([python, "-c", "import rcaloop"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert bare.returncode != 0, "the plain interpreter must not have rcaloop"
    _keep_stream_job(data)
    shutil.copytree(ROOT / "examples" / "jobs" / "1234567", root / "7654321")

    def skill(*args: str, cwd: Path = SKILL) -> subprocess.CompletedProcess:
        return subprocess.run([python, str(SKILL / "scripts" / "cli.py"), *args], capture_output=True, text=True,
                              env=env, cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)

    streamed = skill("download", "--job-id", "1234567")
    assert streamed.returncode == 0, streamed.stdout + streamed.stderr
    assert "from the annotation store" in streamed.stdout
    assert json.loads((root / "1234567" / "step5_summary.json").read_text())["job_id"] == "1234567"
    local = skill("download", "--job-id", "7654321")
    assert local.returncode == 0 and "has the required files" in local.stdout, local.stdout + local.stderr
    missing = skill("download", "--job-id", "1111111")
    assert missing.returncode == 3 and "annotation store keeps no result of job 1111111" in missing.stderr

    answers = tmp_path / "answers.txt"  # named relative to where the user is
    shutil.copy(ROOT / "tests" / "fixtures" / "annotation" / "answers_1234567.txt", answers)
    annotated = skill("annotate", "--job-id", "1234567", "--answers", "answers.txt", cwd=tmp_path)
    assert annotated.returncode == 0, annotated.stdout + annotated.stderr
    assert json.loads((root / "1234567" / "annotation.json").read_text())["job_id"] == "1234567"
    uploaded = skill("upload", "--job-id", "1234567")
    assert uploaded.returncode == 0 and "stays local" in uploaded.stdout, uploaded.stdout + uploaded.stderr
