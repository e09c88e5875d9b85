"""``rcaloop ingest-check``: the service's rules, offline, on files."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from rcaloop.contracts import analysis_hash
from rcaloop.ingestion.cli import register
from rcaloop.shared.cli_deps import CliDeps

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "ingestion" / "raw_result_skill_text.json"


def _invoke(*args: str):
    app = typer.Typer()
    register(app, CliDeps(parse=lambda *a: None, evaluate=lambda *a: None))
    return CliRunner().invoke(app, ["ingest-check", *args])


def test_published_payload_is_accepted_with_its_hash():
    result = _invoke(str(FIXTURE), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    published = json.loads(FIXTURE.read_text())
    assert out["accepted"] is True and out["errors"] == []
    assert out["analysis_hash"] == analysis_hash(published["kind"], published["content"])


def test_job_directory_is_checked_as_submit_reads_it():
    result = _invoke(str(ROOT / "examples" / "jobs" / "1234567"))
    assert result.exit_code == 0 and "accepted job-1234567: analysis_hash" in result.stdout


def test_rejected_record_lists_codes_and_exits_1(tmp_path):
    bad = json.loads(FIXTURE.read_text()) | {"job_id": "../../etc", "kind": "capture"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    result = _invoke(str(path), "--json", "--max-bytes", "2048")
    assert result.exit_code == 1
    assert [e["code"] for e in json.loads(result.stdout)["errors"]] == ["invalid_job_id", "content_kind_mismatch"]


def test_unreadable_input_exits_2_without_traceback(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"result_id": "../x", "kind": "pdf", "content": ""}))
    result = _invoke(str(path))
    assert result.exit_code == 2 and "not a valid RawResult" in result.output and "Traceback" not in result.output
    assert _invoke(str(tmp_path / "missing.txt")).exit_code == 2


def test_max_bytes_must_be_positive():
    result = _invoke(str(FIXTURE), "--max-bytes", "0")
    assert result.exit_code == 2 and "--max-bytes" in result.output
