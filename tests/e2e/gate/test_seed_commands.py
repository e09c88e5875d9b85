"""The evaluation commands of the agent repository rcaloop grew out of, run as its docs write them:
from the repository root, with a Python that has nothing installed (``eval/`` hands them to
``./run`` and so to the checkout's rcaloop)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers.plain_python import plain_env, plain_python

ROOT = Path(__file__).resolve().parents[3]


def _seed(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = plain_env(RCALOOP_DATA_DIR=str(tmp_path / "data"), COLUMNS="160")
    env.pop("RCALOOP_AGENT_CMD", None)
    return subprocess.run([plain_python(), "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


def test_run_eval_scores_the_shipped_fixtures_with_the_reference_agent(tmp_path):
    done = _seed("eval.run_eval", "--fixtures", "eval/fixtures.jsonl", "--min-top1", "0.95",
                 "--json-report", str(tmp_path / "report.json"), tmp_path=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr  # a verdict on the agent, not a usage error
    assert "scoring the reference agent" in done.stderr and "offline evaluation by case type" in done.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report["cases"]) == 26 and all(c["error"] is None for c in report["cases"])
    assert report["passed"] == (done.returncode == 0)


def test_run_novel_incident_e2e_eval_scores_the_shipped_captures(tmp_path):
    done = _seed("eval.run_novel_incident_e2e_eval", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4/4 passed" in done.stdout


def test_check_release_gate_checks_one_metrics_file(tmp_path):
    synthetic = json.loads((ROOT / "examples" / "eval" / "release_gate.synthetic.pass.json").read_text())
    measured = {k: v for k, v in synthetic.items() if k not in ("synthetic", "_comment")}
    population = {k: v for k, v in synthetic["provenance"]["population"].items() if k != "synthetic_incidents"}
    measured["provenance"] = {**synthetic["provenance"], "population": population, "job_revision": "measure-7",
                              "artifact": "s3://metrics/2026-11-15.json"}
    (tmp_path / "metrics.json").write_text(json.dumps(measured))
    passed = _seed("eval.check_release_gate", str(tmp_path / "metrics.json"), tmp_path=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    (tmp_path / "metrics.json").write_text(json.dumps({**measured, "known_top1": 0.9}))
    failed = _seed("eval.check_release_gate", str(tmp_path / "metrics.json"), tmp_path=tmp_path)
    assert failed.returncode == 1 and "known_top1" in failed.stdout + failed.stderr
    refused = _seed("eval.check_release_gate", "examples/eval/release_gate.synthetic.pass.json", tmp_path=tmp_path)
    assert refused.returncode == 2 and "synthetic" in refused.stdout + refused.stderr
