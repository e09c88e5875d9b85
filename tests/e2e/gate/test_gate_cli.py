"""``rcaloop gate …`` as a user runs it: exit codes 0/1/2, tables, JSON, JUnit, measurement."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from rcaloop.cli.main import app
from rcaloop.contracts import AnnotationRecord
from rcaloop.contracts.evaluation import EvaluationScores, OperatorEvaluation
from rcaloop.gate.store import GateStore
from tests.unit.gate.builders import judged

EVAL = Path(__file__).resolve().parents[3] / "examples" / "eval"
PASS, FAIL = EVAL / "release_gate.synthetic.pass.json", EVAL / "release_gate.synthetic.fail.json"


def rcaloop(*args, env=None):
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def test_shipped_synthetic_files_are_marked_and_refused_without_the_flag():
    for path in (PASS, FAIL):
        assert json.loads(path.read_text())["synthetic"] is True
        result = rcaloop("gate", "check", path)
        assert result.exit_code == 2 and "GATE003" in result.output and "synthetic" in result.output


def test_synthetic_pass_and_fail_with_the_flag():
    ok = rcaloop("gate", "check", PASS, "--allow-synthetic")
    assert ok.exit_code == 0 and "PASS" in ok.output and "SYNTHETIC" in ok.output
    bad = rcaloop("gate", "check", FAIL, "--allow-synthetic", "--json")
    assert bad.exit_code == 1
    table = json.loads(bad.stdout)
    assert [c["passed"] for c in table["checks"]] == [False] * 10
    assert {c["metric"]: c["threshold"] for c in table["checks"]}["activation_p95_seconds"] == "< 30"
    assert table["synthetic"] is True and table["artifact_hash"].startswith("sha256:")


def test_junit_has_one_testcase_per_metric(tmp_path):
    junit = tmp_path / "gate.xml"
    assert rcaloop("gate", "check", FAIL, "--allow-synthetic", "--junit", junit).exit_code == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "10" and suite.get("failures") == "10"


def test_bad_json_exits_2_without_a_traceback(tmp_path):
    bad = tmp_path / "m.json"
    bad.write_text('{"known_top1": 0.97,')
    proc = subprocess.run([str(Path(sys.executable).parent / "rcaloop"), "gate", "check", str(bad)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert "GATE001" in proc.stderr and "not JSON" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("name", ["missing.json", "."])
def test_unreadable_metrics_path_exits_2(tmp_path, name):
    result = rcaloop("gate", "check", tmp_path / name)
    assert result.exit_code == 2 and "error" in result.output


def _real(doc: dict) -> dict:
    """The synthetic pass file as a real measurement would state it (the provenance says nothing synthetic)."""
    del doc["synthetic"]
    doc["provenance"].update(job_revision="measure@4f2c9e1", artifact="s3://gate/m.json")
    doc["provenance"]["population"].pop("synthetic_incidents")
    return doc


def test_missing_provenance_fails_with_exit_1(tmp_path):
    doc = _real(json.loads(PASS.read_text()))
    del doc["provenance"]["population"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    result = rcaloop("gate", "check", path)
    assert result.exit_code == 1 and "GATE202" in result.output and "population" in result.output


def test_measure_writes_a_metrics_object_the_gate_fails_closed_on(tmp_path):
    env = {"RCALOOP_DATA_DIR": str(tmp_path / "data"), "RCALOOP_JOB_REVISION": "measure@test"}
    store = GateStore(tmp_path / "data" / "gate.db")
    verdict = judged()
    store.record_verdict(verdict)
    scores = EvaluationScores(**{k: 4 for k in EvaluationScores.model_fields})
    store.record_review(
        AnnotationRecord(annotation_id="a1", analysis_hash=verdict.analysis_hash, annotator="ops",
                         kind="operator_evaluation",
                                         evaluation=OperatorEvaluation(analysis_hash=verdict.analysis_hash,
                                                                       case_type="known",
                                                                       expected_family="configuration", scores=scores)))
    store.close()
    now = datetime.now(UTC)
    window = f"{(now - timedelta(days=1)).date()}/{now.isoformat()}"  # a window that has closed
    out = tmp_path / "metrics.json"
    result = rcaloop("gate", "measure", "--window", window, "--out", out, env=env)
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["known_top1"] == 1.0 and doc["groundless_high_confidence"] == 0
    assert doc["provenance"]["job_revision"] == "measure@test"
    assert doc["provenance"]["population"]["harness_verdicts"] == 1
    assert doc["destructive_tool_executions"] is None and "destructive_tool_executions" in doc["missing"]
    check = rcaloop("gate", "check", out, "--json")
    assert check.exit_code == 1
    missing = {c["metric"] for c in json.loads(check.stdout)["checks"] if c["reason"] == "missing"}
    assert missing == set(doc["missing"])
    assert rcaloop("gate", "measure", "--window", "yesterday", env=env).exit_code == 2
    future = rcaloop("gate", "measure", "--window", f"{now.date()}/{(now + timedelta(days=2)).date()}", env=env)
    assert future.exit_code == 2 and "ends in the future" in future.output


def test_status_on_an_empty_store(tmp_path):
    result = rcaloop("gate", "status", "--json", env={"RCALOOP_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["current_stage"] is None and doc["next_stage"] == "staging" and doc["needs_rerun"] is False


def test_promote_refuses_synthetic_and_unknown_stage(tmp_path):
    env = {"RCALOOP_DATA_DIR": str(tmp_path)}
    synthetic = rcaloop("gate", "promote", "staging", "--artifact", PASS, "--no-publish", env=env)
    assert synthetic.exit_code == 1 and "ROLL102" in synthetic.output
    assert rcaloop("gate", "promote", "production", "--artifact", PASS, "--no-publish", env=env).exit_code == 2


def test_the_synthetic_file_without_its_flag_is_refused_as_synthetic(tmp_path):
    doc = json.loads(PASS.read_text())
    del doc["synthetic"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    result = rcaloop("gate", "check", path)
    assert result.exit_code == 2 and "GATE007" in result.output
    assert rcaloop("gate", "check", path, "--allow-synthetic").exit_code == 0


def test_gate_schema_prints_the_schema_the_files_follow(tmp_path):
    import jsonschema

    result = rcaloop("gate", "schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(PASS.read_text()), schema)
    jsonschema.validate(json.loads(FAIL.read_text()), schema)
    bad = json.loads(PASS.read_text()) | {"known_top1": "0.99"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_the_minimum_population_is_an_option_and_a_setting(tmp_path):
    doc = _real(json.loads(PASS.read_text()))
    doc["provenance"]["population"]["incidents"] = 200
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    assert rcaloop("gate", "check", path).exit_code == 0
    refused = rcaloop("gate", "check", path, "--min-population", "500", "--json")
    assert refused.exit_code == 1 and [e["code"] for e in json.loads(refused.stdout)["errors"]] == ["GATE211"]
    assert rcaloop("gate", "check", path, env={"GATE_MIN_POPULATION": "500"}).exit_code == 1
