"""``rcaloop harness`` as a user runs it: parse (the parser core) then judge, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rcaloop.cli.main import app

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
CASES = ROOT / "tests" / "fixtures" / "harness" / "cases"
runner = CliRunner()


def _run(*args: str, env: dict | None = None):
    return runner.invoke(app, ["harness", *args], env=env)


def test_job_directory_prints_the_verdict_json_with_the_spec_keys():
    result = _run(str(EXAMPLES / "jobs" / "1234567"), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert {"verdict", "score", "dimensions", "hard_gates", "repairs", "evidence", "claims",
            "repaired_report"} <= set(out)
    assert out["verdict"] in ("pass", "degraded", "insufficient_evidence")
    assert [g["gate"] for g in out["hard_gates"]] == ["G1", "G2", "G3", "G4"]
    assert out["evidence"][0]["id"] == "E01" and "parsed" not in out
    assert set(out["dimensions"]) == {"evidence_grounding", "diagnostic_reasoning", "investigation_plan",
                                      "uncertainty_calibration", "operational_usefulness", "safety"}


def test_parsed_json_input(tmp_path):
    doc = json.loads((CASES / "generic-alert-names-family.json").read_text())
    path = tmp_path / "parsed.json"
    path.write_text(json.dumps(doc["parsed"]))
    result = _run(str(path), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["verdict"] == "insufficient_evidence"
    assert next(g for g in out["hard_gates"] if g["gate"] == "G4")["passed"] is False


def test_evidence_file_adds_artifacts_that_can_ground_a_skill_report(tmp_path):
    report = tmp_path / "out.txt"
    report.write_text((EXAMPLES / "skill_outputs" / "checkout-5xx.txt").read_text())
    evidence = tmp_path / "evidence.json"
    evidence.write_text(
        json.dumps([{"source": "splunk", "text": "PoolTimeoutError: timed out waiting for connection (pool size 5)"}]))
    result = _run(str(report), "--registry", str(EXAMPLES / "registry.json"), "--evidence", str(evidence), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    splunk = [e for e in out["evidence"] if e["source"] == "splunk"]
    assert splunk and splunk[0]["source_group"] == "log search" and splunk[0]["live"] is True


def test_disabled_by_environment_is_unchecked():
    result = _run(str(EXAMPLES / "jobs" / "1234567"), "--json", env={"ENABLE_RCA_OUTPUT_HARNESS": "false"})
    assert result.exit_code == 0
    assert json.loads(result.stdout)["verdict"] == "unchecked"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda d: ([str(d / "missing.txt")]), "no such file"),
        (lambda d: ([str(d)]), "step5_summary.json"),
        (lambda d: (d / "bad.json").write_text("{nope") and [str(d / "bad.json")], "invalid JSON"),
        (lambda d: (d / "r.txt").write_text("# x\n") and (d / "ev.json").write_text('{"a": 1}')
         and [str(d / "r.txt"), "--evidence", str(d / "ev.json")], "not a JSON list of evidence artifacts"),
        (lambda d: (d / "r.txt").write_text("# x\n") and [str(d / "r.txt"), "--evidence", str(d / "none.json")],
         "cannot read"),
    ],
)
def test_unreadable_input_exits_2_with_a_clear_message(tmp_path, setup, message):
    result = _run(*setup(tmp_path), "--json")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert message in " ".join(result.output.split())


def test_human_summary_names_gates_and_evidence():
    result = _run(str(EXAMPLES / "jobs" / "1234567"))
    assert result.exit_code == 0
    assert "G1 high_confidence_grounding" in result.output and "E01 [automation platform, live]" in result.output
