"""``rcaloop parse FILE [--registry FILE] [--json]`` through the real CLI app."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rcaloop.cli.main import app
from tests.unit.parser.helpers import EXAMPLES, FIXTURES

runner = CliRunner()
REGISTRY = str(FIXTURES / "registry.json")


def test_json_output_uses_contract_field_names():
    result = runner.invoke(
        app, ["parse", str(EXAMPLES / "skill_outputs" / "checkout-5xx.txt"), "--registry", REGISTRY, "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {
        "outcome",
        "outcome_reason",
        "title",
        "report_markdown",
        "chat",
        "chat_rendered",
        "fields",
        "citations",
        "red_flags",
        "context",
        "errors",
        "warnings",
        "analysis_hash",
    } <= set(data)
    assert data["outcome"] == "report" and data["citations"][0]["href"] == "https://chat.example/m/1001"


def test_incomplete_output_still_exits_zero(tmp_path):
    result = runner.invoke(app, ["parse", str(EXAMPLES / "skill_outputs" / "disk-pressure-no-fields.txt"), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["outcome"] == "incomplete"


def test_job_directory_and_capture(tmp_path):
    for path in (EXAMPLES / "jobs" / "1234567", EXAMPLES / "captures" / "novel-dns-resolver.json"):
        result = runner.invoke(app, ["parse", str(path), "--json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["diagnosis"]["root_cause"]["summary"]


def test_readable_summary_without_json():
    result = runner.invoke(
        app, ["parse", str(EXAMPLES / "skill_outputs" / "payments-webhook-leak.txt"), "--registry", REGISTRY]
    )
    assert result.exit_code == 0
    assert "red flag RCA307" in result.stdout and "webhook-url (declared, history, line" in result.stdout
    assert "outcome: report" in result.stdout


def test_unreadable_input_exits_2_with_a_clear_message(tmp_path):
    missing = runner.invoke(app, ["parse", str(tmp_path / "nope.txt")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr and "Traceback" not in missing.output
    bad_json = tmp_path / "capture.json"
    bad_json.write_text("{oops")
    assert runner.invoke(app, ["parse", str(bad_json)]).exit_code == 2
    bad_registry = tmp_path / "registry.json"
    bad_registry.write_text('{"messages": {"m": {"author": "bot", "url": "javascript:alert(1)"}}}')
    result = runner.invoke(
        app, ["parse", str(EXAMPLES / "skill_outputs" / "checkout-5xx.txt"), "--registry", str(bad_registry)]
    )
    assert result.exit_code == 2 and "http(s) URL" in result.stderr


def test_file_that_is_no_valid_record_exits_2_with_one_line(tmp_path):
    """A file name that cannot be a ``result_id`` (a space) or a capture's non-string job_id: no traceback."""
    spaced = tmp_path / "my output.txt"
    spaced.write_text("TITLE: x\n")
    numeric_job = tmp_path / "capture.json"
    numeric_job.write_text('{"job_id": 1234567}')
    for command in ("parse", "harness", "ingest-check"):
        for path, field in ((spaced, "result_id"), (numeric_job, "job_id")):
            result = runner.invoke(app, [command, str(path)])
            assert result.exit_code == 2, (command, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), (command, result.exception)
            assert f"not a valid RawResult: {field}:" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_an_unreadable_confidence_is_a_report_with_a_null_confidence_in_every_shape(tmp_path):
    """``rcaloop parse FILE --json``: ``confidence: very-high`` (skill text), ``"certain"`` (step 5)
    and ``""`` (capture) are ignored — outcome report, ``fields.confidence`` null, warning RCA308."""
    import shutil

    text = tmp_path / "out.txt"
    text.write_text((EXAMPLES / "skill_outputs" / "checkout-5xx.txt").read_text().replace("confidence: high",
                                                                                          "confidence: very-high"))
    job = tmp_path / "1234567"
    shutil.copytree(EXAMPLES / "jobs" / "1234567", job)
    step5 = json.loads((job / "step5_summary.json").read_text())
    step5["root_cause"]["confidence"] = "certain"
    (job / "step5_summary.json").write_text(json.dumps(step5))
    capture = tmp_path / "capture.json"
    capture.write_text(json.dumps({**json.loads((EXAMPLES / "captures" / "checkout-db-pool.json").read_text()),
                                   "confidence": ""}))
    for path in (text, job, capture):
        result = runner.invoke(app, ["parse", str(path), "--json"])
        assert result.exit_code == 0, result.output
        parsed = json.loads(result.stdout)
        assert parsed["outcome"] == "report" and parsed["errors"] == [], (path.name, parsed["errors"])
        assert parsed["fields"]["confidence"] is None
        assert [w["code"] for w in parsed["warnings"]].count("RCA308") == 1, parsed["warnings"]
        assert not any(value in w["message"] for w in parsed["warnings"] for value in ("very-high", "certain"))
