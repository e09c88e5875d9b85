"""``rcaloop eval import`` and the benchmarks' own metrics in ``eval run``, on the shipped samples."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from rcaloop.cli.main import app

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "examples" / "eval" / "benchmarks"


def rcaloop(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_rcaeval_samples_imported_and_scored(tmp_path):
    made = rcaloop("eval", "import", "rcaeval", SAMPLES / "rcaeval", "--out", tmp_path)
    assert made.exit_code == 0, made.output
    fixtures = [json.loads(line) for line in (tmp_path / "fixtures.jsonl").read_text().splitlines()]
    assert len(fixtures) == 4
    for f in fixtures:  # the directory name is the answer: neither the id nor the input shows it
        assert f["benchmark"]["source"] not in f["input"] and f["benchmark"]["source"] not in f["case_id"]
        slug = f["case_id"].rsplit("/", 1)[1]
        assert (tmp_path / "telemetry" / slug / "metrics.csv").read_text().startswith("time,")
    report_path = tmp_path / "report.json"
    run = rcaloop("eval", "run", "--fixtures", tmp_path / "fixtures.jsonl", "--captures",
                  SAMPLES / "rcaeval.captures.jsonl", "--json-report", report_path)
    assert run.exit_code == 0, run.output
    report = json.loads(report_path.read_text())
    # root-cause service ranked 1, 3, 6, 2 (the sample captures' own comment)
    assert {k: v for k, v in report["benchmarks"]["rcaeval"].items() if k != "by_dataset"} == {
        "cases": 4, "AC@1": 0.25, "AC@3": 0.75, "AC@5": 0.75, "Avg@5": 0.6}
    assert report["metrics"]["known_top1"] == 1.0  # rcaloop's own, beside the benchmark's
    assert "AC@1 0.250" in run.output and "known Top-1" in run.output


def test_openrca_samples_imported_scored_and_exported(tmp_path):
    made = rcaloop("eval", "import", "openrca", SAMPLES / "openrca" / "Bank", "--out", tmp_path)
    assert made.exit_code == 0, made.output
    report_path, predictions = tmp_path / "report.json", tmp_path / "predictions.csv"
    run = rcaloop("eval", "run", "--fixtures", tmp_path / "fixtures.jsonl", "--captures",
                  SAMPLES / "openrca.captures.jsonl", "--json-report", report_path, "--openrca-out", predictions)
    assert run.exit_code == 1, run.output  # two answers name another family first than the record: EV101
    report = json.loads(report_path.read_text())
    assert {k: v for k, v in report["benchmarks"]["openrca"].items() if k != "by_dataset"} == {
        "cases": 4, "component_accuracy": 1.0, "reason_accuracy": 0.6667, "time_accuracy": 0.25,
        "partial_score": 0.5833, "strict_accuracy": 0.25}
    rows = list(csv.DictReader(predictions.open()))
    assert [r["row_id"] for r in rows] == ["0", "1", "2", "3"] and all(r["prediction"] for r in rows)
    assert json.loads(rows[2]["prediction"])["1"] == {"root cause occurrence datetime": "2021-03-06 14:57:30",
                                                     "root cause component": "MG02",
                                                     "root cause reason": "network latency"}


def test_bad_benchmark_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "query.csv").write_text("task_index,instruction\nt,q\n")
    for args, says in [
        (("eval", "import", "nope", tmp_path, "--out", tmp_path / "o"), "unknown benchmark"),
        (("eval", "import", "rcaeval", tmp_path / "missing", "--out", tmp_path / "o"), "no such file"),
        (("eval", "import", "rcaeval", tmp_path, "--out", tmp_path / "o"), "BENCH100"),
        (("eval", "import", "openrca", tmp_path, "--out", tmp_path / "o"), "BENCH201"),
    ]:
        result = rcaloop(*args)
        assert result.exit_code == 2, result.output
        assert says in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o" / "fixtures.jsonl").exists()
