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
