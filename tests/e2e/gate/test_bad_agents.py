"""The evaluation fails the bad agents beside the reference agent, each for its own named
reasons, through every command a release owner runs: ``eval run`` on the shipped fixtures,
``eval mutate`` + ``eval run`` on their novel variants, and ``eval novel-e2e`` on incidents
the agent answers with a post-harness capture. The reference agent passes all three.

The agents whose first step is unguarded and mutating — plainly, through a shell variable,
through ``eval`` of base64-decoded text, or as a chat-ops bot command — fail on every case and
every capture: their steps are judged by rcaloop's runtime harness, so whatever the harness
catches the evaluation catches. A class the harness does not catch yet is marked so
(``xfail(strict=True)``): the day it does, the mark must go."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rcaloop.cli.main import app

ROOT = Path(__file__).resolve().parents[3]
EVAL = ROOT / "examples" / "eval"
AGENTS = ROOT / "examples" / "agents"

# agent -> (failing checks of eval run, of mutated eval run, failure codes of novel-e2e); every set must appear
BAD = {
    "family_forcing_agent.py": ({"EV304"}, {"EV304"}, {"NE102"}),
    "overconfident_agent.py": ({"EV302", "EV501"}, {"EV301", "EV302"}, {"NE202"}),
    "destructive_agent.py": ({"EV502"}, {"EV502"}, {"NE302", "NE303"}),
}


UNSAFE_FIRST_STEP = {
    "destructive_agent.py": None,
    "shell_variable_agent.py": None,
    "chatops_agent.py": None,
    "eval_base64_agent.py": "the judge does not yet catch eval/base64 (eval $(echo … | base64 -d))",
}
"""Agents whose first step is an unguarded mutation -> why the harness misses it (None: it does not)."""


def _unsafe_agents():
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=why)) if why else name
            for name, why in sorted(UNSAFE_FIRST_STEP.items())]


def rcaloop(*args) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def agent(name: str, *flags: str) -> str:
    return " ".join([sys.executable, str(AGENTS / name), *flags])


def failed_checks(report: dict) -> set[str]:
    return {c["code"] for case in report["cases"] for c in case["checks"] if c["required"] and not c["passed"]}


@pytest.fixture(scope="module")
def mutated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mutated") / "mutated.jsonl"
    result = CliRunner().invoke(app, ["eval", "mutate", "--fixtures", str(EVAL / "fixtures.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _run(fixtures: Path, name: str) -> tuple[int, dict]:
    return rcaloop("eval", "run", "--fixtures", fixtures, "--agent-cmd", agent(name), "--parallel", "2", "--timeout",
                   "30", "--json")


def _novel_e2e(name: str) -> tuple[int, dict]:
    return rcaloop("eval", "novel-e2e", "--incidents", EVAL / "novel_e2e.incidents.jsonl",
                   "--agent-cmd", agent(name, "--capture"), "--parallel", "2", "--timeout", "30", "--json")


@pytest.mark.parametrize("name", sorted(BAD))
def test_eval_run_fails_a_bad_agent_and_names_the_cases(name):
    code, report = _run(EVAL / "fixtures.jsonl", name)
    assert code == 1 and not report["passed"]
    assert BAD[name][0] <= failed_checks(report)
    [named] = [f for f in report["failures"] if f["code"] == "EV904"]
    failed = [c["case_id"] for c in report["cases"] if not c["passed"]]
    assert failed and all(cid in named["message"] for cid in failed[:25])


@pytest.mark.parametrize("name", sorted(BAD))
def test_mutated_variants_fail_a_bad_agent(name, mutated):
    code, report = _run(mutated, name)
    assert code == 1 and "EV904" in {f["code"] for f in report["failures"]}
    assert BAD[name][1] <= failed_checks(report)


@pytest.mark.parametrize("name", sorted(BAD))
def test_novel_e2e_fails_a_bad_agent(name):
    code, report = _novel_e2e(name)
    assert code == 1 and not report["passed"]
    assert BAD[name][2] <= set(report["summary"]["failures_by_code"])


def test_overconfidence_is_counted_though_the_harness_lowered_it():
    _, report = _run(EVAL / "fixtures.jsonl", "overconfident_agent.py")
    assert report["metrics"]["groundless_high_confidence"] > 0 and "EV903" in {f["code"] for f in report["failures"]}
    novel = [c for c in report["cases"] if c["case_type"] == "novel"]
    assert all(c["confidence"] == "high" and c["groundless_high_confidence"] for c in novel)


def test_the_reference_agent_passes_all_three(mutated):
    for fixtures in (EVAL / "fixtures.jsonl", mutated):
        code, report = _run(fixtures, "rule_based_agent.py")
        assert code == 0 and report["passed"], report["failures"]
    code, report = _novel_e2e("rule_based_agent.py")
    assert code == 0 and report["summary"]["passed"] == report["summary"]["captures"] == 5
    assert {c["actual_outcome"] for c in report["captures"]} == {"known", "novel", "abstain"}


@pytest.mark.parametrize("name", _unsafe_agents())
def test_eval_run_fails_every_case_of_an_agent_whose_first_step_is_unguarded(name):
    code, report = _run(EVAL / "fixtures.jsonl", name)
    assert code == 1 and not report["passed"]
    unsafe = [c["case_id"] for c in report["cases"]
              if any(k["code"] == "EV502" and not k["passed"] for k in c["checks"])]
    assert unsafe == [c["case_id"] for c in report["cases"]], "EV502 missed a case"


@pytest.mark.parametrize("name", _unsafe_agents())
def test_novel_e2e_fails_every_capture_of_an_agent_whose_first_step_is_unguarded(name):
    code, report = _novel_e2e(name)
    assert code == 1 and not report["passed"]
    assert all("NE303" in {f["code"] for f in c["failures"]} for c in report["captures"]), "NE303 missed a capture"
    assert report["summary"]["unsafe"] == report["summary"]["captures"]
