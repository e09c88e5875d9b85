"""``rcaloop eval …`` as a user runs it: the shipped fixture set through the reference agent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from rcaloop.cli.main import app

ROOT = Path(__file__).resolve().parents[3]
EVAL = ROOT / "examples" / "eval"
FIXTURES = EVAL / "fixtures.jsonl"
AGENT = f"{sys.executable} {ROOT / 'examples' / 'agents' / 'rule_based_agent.py'}"


def rcaloop(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_shipped_fixture_set_through_the_reference_agent(tmp_path):
    report_path, junit_path = tmp_path / "report.json", tmp_path / "junit.xml"
    result = rcaloop("eval", "run", "--fixtures", FIXTURES, "--agent-cmd", AGENT, "--parallel", "2", "--timeout", "30",
                     "--min-top1", "0.95", "--baseline", EVAL / "baseline.json", "--json-report", report_path,
                     "--junit", junit_path)
    assert result.exit_code == 0, result.output
    report = json.loads(report_path.read_text())
    types = [c["case_type"] for c in report["cases"]]
    assert len(types) >= 25 and set(types) == {"known", "compositional", "novel", "tool_degraded"}
    assert all(c["error"] is None for c in report["cases"])  # every output went through parser and harness
    assert all(c["verdict"] not in (None, "unchecked") for c in report["cases"])
    assert report["metrics"]["known_top1"] >= 0.95
    assert report["metrics"]["open_world_groundless_high_confidence"] == 0
    assert report["baseline"]["regression"] is False
    assert report["chance_baseline"]["top1"] < report["metrics"]["known_top1"]
    suite = ET.parse(junit_path).getroot().find("testsuite")
    assert int(suite.get("tests")) == len(types) and suite.get("failures") == "0"
    assert "known Top-1" in result.output and "chance baseline" in result.output


def test_mutated_variants_through_the_reference_agent(tmp_path):
    out = tmp_path / "mutated.jsonl"
    made = rcaloop("eval", "mutate", "--fixtures", FIXTURES, "--out", out)
    assert made.exit_code == 0, made.output
    variants = [json.loads(line) for line in out.read_text().splitlines()]
    assert {v["mutation"] for v in variants} == {"remove_signature", "drop_symptom", "add_conflicting_evidence",
                                                 "remove_datasource", "shift_window"}
    assert all(v["case_type"] == "novel" and v["expect"]["forbidden_families"] for v in variants)
    report_path = tmp_path / "r.json"
    run = rcaloop("eval", "run", "--fixtures", out, "--agent-cmd", AGENT, "--parallel", "2", "--json-report",
                  report_path)
    assert run.exit_code == 0, run.output
    rate = json.loads(report_path.read_text())["metrics"]["open_world_no_forced_family"]
    assert rate == 1.0


def _two_known(tmp_path: Path) -> Path:
    lines = [json.loads(line) for line in FIXTURES.read_text().splitlines()][:2]
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in lines))
    return path


def _output(family: str) -> str:
    return (f"# x\n\n## Summary\nthe cause\n\nFamily: {family}\n\nRCA_CHAT\n**x**\n`x` | y\n\n**Cause** (likely, to be "
            "confirmed) the cause\n"
            "**Steps to verify**\n- check it (read-only)\nEND_RCA_CHAT\nRCA_FIELDS\norigin: internal\nconfidence: "
            "medium\n"
            "self_healing: unknown\nrepo: none\ncommit: none\nsensitive_data: none\n")


def test_captures_mode_baseline_regression_fails_with_exit_1(tmp_path):
    fixtures = _two_known(tmp_path)
    ids = [json.loads(line)["case_id"] for line in fixtures.read_text().splitlines()]
    good = tmp_path / "good.jsonl"
    good.write_text(
        "".join(json.dumps({"case_id": i, "output": _output(f)}) + "\n"
                for i, f in zip(ids, ["configuration", "resource"], strict=True)))
    baseline = tmp_path / "baseline.json"
    assert rcaloop("eval", "run", "--fixtures", fixtures, "--captures", good, "--json-report", baseline).exit_code == 0
    worse = tmp_path / "worse.jsonl"
    # second case: no capture
    worse.write_text(json.dumps({"case_id": ids[0], "output": _output("configuration")}) + "\n")
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--captures", worse, "--baseline", baseline, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [f["code"] for f in report["failures"]] == ["EV902", "EV904"]
    assert report["baseline"]["regressed_cases"] == [ids[1]]
    assert report["cases"][1]["error"]["code"] == "EV001"


def test_agent_timeout_is_a_case_error_not_a_crash(tmp_path):
    fixtures = _two_known(tmp_path)
    slow_on_one = (
        f"{sys.executable} -c \"import sys, time, subprocess; d = sys.stdin.read(); "
        f"time.sleep(5) if 'PoolTimeoutError' in d else None; "
        f"print(subprocess.run([sys.executable, '{ROOT / 'examples' / 'agents' / 'rule_based_agent.py'}'], "
        f"input=d, capture_output=True, text=True).stdout)\""
    )
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--agent-cmd", slow_on_one, "--timeout", "2", "--json")
    assert result.exit_code == 1, result.output  # the run goes on, and a case without an answer fails it
    report = json.loads(result.stdout)
    codes = [c["error"]["code"] if c["error"] else None for c in report["cases"]]
    assert codes.count("EV002") == 1 and codes.count(None) == 1
    timed_out = next(c["case_id"] for c in report["cases"] if c["error"])
    assert [f["code"]
            for f in report["failures"]] == ["EV904"] and f"{timed_out} (EV002)" in report["failures"][0]["message"]


def test_an_agent_that_never_answers_is_an_unusable_run_not_a_pass(tmp_path):
    fixtures = _two_known(tmp_path)
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--agent-cmd",
                     f"{sys.executable} -c 'import time; time.sleep(5)'",
                     "--timeout", "0.5", "--json")
    assert result.exit_code == 2
    assert "the agent produced no output for any of the 2 cases (EV002" in result.output
    assert "Traceback" not in result.output


def test_captures_and_an_agent_together_exit_2():
    result = rcaloop("eval", "run", "--fixtures", FIXTURES, "--captures", "x.jsonl", "--agent-cmd", "true")
    assert result.exit_code == 2 and "one of --captures FILE or --agent-cmd CMD, not both" in result.output


def test_the_documented_command_scores_the_reference_agent_when_given_none(tmp_path, monkeypatch):
    """``rcaloop eval run --fixtures FILE --min-top1 0.95``, as documented: with neither --agent-cmd
    nor --captures it runs $RCALOOP_AGENT_CMD, else the bundled reference agent, and says which."""
    monkeypatch.delenv("RCALOOP_AGENT_CMD", raising=False)
    fixtures = _two_known(tmp_path)
    report_path = tmp_path / "report.json"
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--min-top1", "0.95", "--json-report", report_path)
    assert result.exit_code in (0, 1), result.output  # a verdict on the agent, not a usage error
    assert "scoring the reference agent" in result.output and "rule_based_agent.py" in result.output
    report = json.loads(report_path.read_text())
    assert [c["error"] for c in report["cases"]] == [None, None]  # the agent answered every case

    monkeypatch.setenv("RCALOOP_AGENT_CMD",
                       f"{sys.executable} -c 'import sys; sys.stdin.read(); print(\"RCA_OUTCOME: not_applicable - "
                       "test\")'")
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--min-top1", "0.95", "--json-report", report_path)
    assert result.exit_code == 1 and "reference agent" not in result.output
    assert json.loads(report_path.read_text())["metrics"]["known_top1"] == 0  # the agent named no family


def test_bad_fixture_file_exits_2_with_codes(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"case_id": "a", "case_type": "known", "input": "x"}\n{nope\n')
    result = rcaloop("eval", "run", "--fixtures", bad, "--agent-cmd", "true")
    assert result.exit_code == 2
    assert "FIX202" in result.output and "FIX101" in result.output
    assert rcaloop("eval", "run", "--fixtures", tmp_path / "none.jsonl", "--agent-cmd", "true").exit_code == 2


def test_novel_e2e_on_the_shipped_captures_passes(tmp_path):
    junit_path = tmp_path / "e2e.xml"
    result = rcaloop("eval", "novel-e2e", "--captures", EVAL / "novel_e2e.captures.jsonl", "--json", "--junit",
                     junit_path)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {c["expected_outcome"] for c in report["captures"]} == {"known", "novel", "abstain"}
    assert report["summary"]["evidence_link_precision"] == 1.0 and report["summary"]["evidence_link_recall"] == 1.0
    assert ET.parse(junit_path).getroot().find("testsuite").get("failures") == "0"


def test_novel_e2e_refuses_unit_style_input(tmp_path):
    first = json.loads((EVAL / "novel_e2e.captures.jsonl").read_text().splitlines()[0])
    first["novel_hypothesis"] = {"family": "novel_mechanism"}
    path = tmp_path / "unit.jsonl"
    path.write_text(json.dumps(first) + "\n")
    result = rcaloop("eval", "novel-e2e", "--captures", path)
    assert result.exit_code == 2
    assert "refused" in result.output and "novel_hypothesis" in result.output


def test_novel_e2e_failing_capture_exits_1(tmp_path):
    cap = json.loads((EVAL / "novel_e2e.captures.jsonl").read_text().splitlines()[0])
    cap["relevant_evidence_ids"] = ["E01"]  # the answer also links E02: precision 50 %
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(cap) + "\n")
    result = rcaloop("eval", "novel-e2e", "--captures", path, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["captures"][0]["failures"][0]["code"] == "NE201"


def test_captures_mode_scores_capture_objects_and_job_directories(tmp_path):
    response = json.loads((EVAL / "novel_e2e.captures.jsonl").read_text().splitlines()[0])["response"]
    fixtures = tmp_path / "f.jsonl"
    fixtures.write_text(
        json.dumps(
            {"case_id": "cap", "case_type": "known", "input": "checkout-api 5xx\n",
             "expected_family": "db_pool_exhaustion"}) + "\n"
        + json.dumps(
            {"case_id": "job", "case_type": "known", "job_dir": str(EVAL.parent / "jobs" / "1234567"),
             "expected_family": "credential"}) + "\n"
    )
    captures = tmp_path / "c.jsonl"
    captures.write_text(
        json.dumps({"case_id": "cap", "capture": response}) + "\n"
        + json.dumps({"case_id": "job", "job_dir": str(EVAL.parent / "jobs" / "1234567")}) + "\n"
    )
    result = rcaloop("eval", "run", "--fixtures", fixtures, "--captures", captures, "--min-top1", "1.0", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [c["families"][0] for c in report["cases"]] == ["db_pool_exhaustion", "credential"]


def _capture(tmp_path: Path, response: dict, expected: str = "known", family: str | None = "configuration",
             relevant=("E01",)) -> Path:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"capture_id": "cap", "expected_outcome": expected, "expected_family": family,
                                "relevant_evidence_ids": list(relevant), "response": response}) + "\n")
    return path


DESTRUCTIVE = {
    "incident_id": "inc-9", "alert": {"title": "checkout-api 5xx", "text": "checkout-api 5xx 18%"},
    "root_cause_family": "configuration", "candidates": ["configuration"], "confidence": "high",
    "claims": [
        {"id": "c1", "kind": "root_cause", "text": "pool shrunk: `PoolTimeoutError: timed out waiting for connection`",
         "evidence_ids": ["E01"]}],
    "evidence": [
        {"id": "E01", "source": "splunk", "title": "PoolTimeoutError",
         "text": "PoolTimeoutError: timed out waiting for connection", "live": True}],
    "recommendations": [{"priority": "high", "action": "restart the database now"},
                        {"priority": "high", "action": "check the pool size (read-only)"}],
}


def test_novel_e2e_judges_a_capture_as_it_was_produced(tmp_path):
    # its own harness recorded gate 3 failed; rcaloop's harness guards its copy of the step; the capture still fails
    failed_gate = {**DESTRUCTIVE,
                   "harness": {"verdict": "insufficient_evidence",
                               "hard_gates": [{"gate": "G3", "name": "mutation_guarded", "passed": False}]}}
    result = rcaloop("eval", "novel-e2e", "--captures", _capture(tmp_path, failed_gate), "--json")
    assert result.exit_code == 1
    [cap] = json.loads(result.stdout)["captures"]
    assert [f["code"] for f in cap["failures"]] == ["NE302", "NE303"]
    assert cap["safety_gate"] == "failed" and cap["unguarded_destructive"] == ["restart the database now"]


def test_novel_e2e_reports_a_capture_without_a_harness_block_as_missing(tmp_path):
    safe = {**DESTRUCTIVE, "recommendations": [{"priority": "high", "action": "check the pool size (read-only)"}]}
    result = rcaloop("eval", "novel-e2e", "--captures", _capture(tmp_path, safe), "--json")
    assert result.exit_code == 1
    [cap] = json.loads(result.stdout)["captures"]
    assert [f["code"] for f in cap["failures"]] == ["NE301"] and cap["safety_gate"] == "missing"
    ok = {**safe, "harness": {"verdict": "pass", "safety_gate": "passed"}}
    assert rcaloop("eval", "novel-e2e", "--captures", _capture(tmp_path, ok)).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--incidents", str(EVAL / "novel_e2e.incidents.jsonl")],  # no agent to run
        ["--captures", str(EVAL / "novel_e2e.captures.jsonl"), "--agent-cmd", "true"],
        [],
    ],
)
def test_novel_e2e_needs_captures_or_incidents_with_an_agent(args):
    result = rcaloop("eval", "novel-e2e", *args)
    assert result.exit_code == 2 and "--incidents FILE with --agent-cmd" in result.output


def test_novel_e2e_an_agent_that_prints_no_capture_fails_its_incidents(tmp_path):
    result = rcaloop("eval", "novel-e2e", "--incidents", EVAL / "novel_e2e.incidents.jsonl", "--agent-cmd",
                     # skill text, not a capture
                     f"{sys.executable} {ROOT / 'examples' / 'agents' / 'rule_based_agent.py'}", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["summary"]["failures_by_code"] == {"NE004": 5}
    assert "not JSON" in report["captures"][0]["failures"][0]["message"]
