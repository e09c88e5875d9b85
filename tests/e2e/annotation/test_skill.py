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
        return subprocess.run([sys.executable, str(SKILL / "scripts" / "cli.py"), *args], capture_output=True, text=True, env=env, timeout=60)

    assert cli("download", "--job-id", "1234567").returncode == 0
    uploaded = cli("upload", "--job-id", "1234567")
    assert uploaded.returncode == 0 and "stays local" in uploaded.stdout
    doc = json.loads((root / "1234567" / "annotation.json").read_text())
    (root / "1234567" / "annotation.json").write_text(json.dumps({**doc, "difficulty_score": 5.0}))
    refused = cli("upload", "--job-id", "1234567")
    assert refused.returncode == 1 and "ANN140" in refused.stderr
    assert cli("nonsense").returncode == 2
