"""Offline evaluation: score every case's output and aggregate.

``evaluate_one`` takes a case, its raw output (or why there is none) and an ``analyze``
callable — parse + harness, injected by the composition root — so every output goes
through the parser and the harness exactly as in production. The checks then read the
agent's answer as it produced it, with the harness as its judge (``answer``). A run
fails when any case fails: no failed case is averaged away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from rcaloop.contracts import HarnessVerdict, Issue, RawResult
from rcaloop.contracts.common import CATEGORIES
from rcaloop.gate import answer
from rcaloop.gate.benchmarks import BenchmarkResult, benchmark_metrics, score_benchmark
from rcaloop.gate.cases import EvalCase
from rcaloop.gate.checks import CASE_CHECKS

Analyze = Callable[[RawResult], HarnessVerdict]
CASE_TYPES = ("known", "compositional", "novel", "tool_degraded")
METRIC_CHECKS = {
    "known_top1": "EV101",
    "known_top3": "EV102",
    "compositional_causal_order": "EV201",
    "compositional_competing_hypotheses": "EV202",
    "compositional_distinguishing_check": "EV203",
    "open_world_grounding": "EV301",
    "open_world_calibration": "EV302",
    "open_world_plan": "EV303",
    "open_world_no_forced_family": "EV304",
    "tool_degraded_disclosure": "EV401",
    "tool_degraded_safe_fallback": "EV402",
    "grounded_confidence": "EV501",
    "no_unguarded_destructive_step": "EV502",
}
"""Rate metrics: the share of applicable cases whose check passed."""


class CheckResult(BaseModel):
    code: str
    name: str
    passed: bool
    required: bool
    detail: str


class CaseResult(BaseModel):
    case_id: str
    case_type: str
    mutation: str | None = None
    source_case: str | None = None
    expected_family: str | None = None
    passed: bool
    analysis_hash: str | None = None
    verdict: str | None = None
    families: list[str] = Field(default_factory=list)
    confidence: str | None = None
    provisional: bool = False
    groundless_high_confidence: bool = False
    checks: list[CheckResult] = Field(default_factory=list)
    error: Issue | None = None
    duration_s: float | None = None
    benchmark: BenchmarkResult | None = None


class EvalReport(BaseModel):
    passed: bool
    cases: list[CaseResult]
    metrics: dict[str, float | int | None]
    per_case_type: dict[str, dict[str, Any]]
    chance_baseline: dict[str, Any]
    baseline: dict[str, Any] | None = None
    min_top1: float | None = None
    failures: list[Issue] = Field(default_factory=list)
    benchmarks: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="each public benchmark's own metrics over its imported cases")


def _result(case: EvalCase, **outcome: Any) -> CaseResult:
    """A case's result: what identifies the case, plus how it went."""
    return CaseResult(
        case_id=case.case_id,
        case_type=case.case_type,
        mutation=case.mutation,
        source_case=case.source_case,
        expected_family=case.expected_family,
        **outcome,
    )


def _failed_case(case: EvalCase, error: Issue) -> CaseResult:
    checks = [
        CheckResult(code=c.code, name=c.name, passed=False, required=c.required, detail=error.message)
        for c in CASE_CHECKS
        if case.case_type in c.case_types
    ]
    bench = score_benchmark(case.benchmark, []) if case.benchmark else None
    return _result(case, passed=False, checks=checks, error=error, benchmark=bench)


def score_case(case: EvalCase, verdict: HarnessVerdict) -> CaseResult:
    parsed = verdict.parsed
    checks = [
        CheckResult(code=c.code, name=c.name, required=c.required, passed=ok, detail=detail)
        for c in CASE_CHECKS
        if case.case_type in c.case_types
        for ok, detail in [c.check(case, parsed, verdict)]
    ]
    return _result(
        case,
        passed=all(c.passed for c in checks if c.required),
        analysis_hash=verdict.analysis_hash,
        verdict=verdict.verdict,
        families=answer.ranked_families(parsed),
        confidence=answer.stated_confidence(parsed),
        provisional=answer.provisional(parsed),
        groundless_high_confidence=answer.groundless_high_confidence(parsed, verdict),
        checks=checks,
        benchmark=score_benchmark(case.benchmark, parsed.diagnosis.ranked if parsed.diagnosis else [])
        if case.benchmark else None,
    )


def evaluate_one(case: EvalCase, raw: RawResult | None, error: Issue | None, analyze: Analyze) -> CaseResult:
    """One case: its output through parse + harness, then the checks of its type."""
    if raw is None:
        return _failed_case(case, error or Issue(code="EV001", message=f"{case.case_id}: no output to score"))
    try:
        verdict = analyze(raw)
    except Exception as exc:  # noqa: BLE001 - a bug in a core must fail the case, not the run
        return _failed_case(case,
                            Issue(code="EV003",
                                  message=f"{case.case_id}: analysis failed ({type(exc).__name__}: {exc})"[:300]))
    return score_case(case, verdict)


def _rate(results: list[CaseResult], code: str) -> float | None:
    marks = [c.passed for r in results for c in r.checks if c.code == code]
    return round(sum(marks) / len(marks), 4) if marks else None


def aggregate_metrics(results: list[CaseResult]) -> dict[str, float | int | None]:
    metrics: dict[str, float | int | None] = {name: _rate(results, code) for name, code in METRIC_CHECKS.items()}
    metrics["groundless_high_confidence"] = sum(r.groundless_high_confidence for r in results)
    metrics["open_world_groundless_high_confidence"] = sum(
        r.groundless_high_confidence for r in results if r.case_type == "novel"
    )
    known = [r for r in results if r.case_type == "known"]
    metrics["known_top1_hits"] = sum(1 for r in known for c in r.checks if c.code == "EV101" and c.passed)
    metrics["known_cases"] = len(known)
    return metrics


def per_case_type(results: list[CaseResult]) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for ctype in CASE_TYPES:
        rows = [r for r in results if r.case_type == ctype]
        checks = {c.name: _rate(rows, c.code) for c in CASE_CHECKS if ctype in c.case_types}
        table[ctype] = {
            "cases": len(rows),
            "passed": sum(r.passed for r in rows),
            "failed": sum(not r.passed for r in rows),
            "mutated": sum(r.mutation is not None for r in rows),
            "groundless_high_confidence": sum(r.groundless_high_confidence for r in rows),
            "checks": checks,
        }
    return table


def chance_baseline(cases: list[EvalCase]) -> dict[str, Any]:
    """Top-k of an agent that picks uniformly among the families in play."""
    families = {c for c in CATEGORIES if c != "unknown"}
    families |= {f for f in (answer.normalise_family(c.expected_family) for c in cases) if f}
    k = len(families)
    return {"families": k, "top1": round(1 / k, 4), "top3": round(min(3, k) / k, 4)}


def compare_baseline(results: list[CaseResult], metrics: dict[str, Any], baseline: dict[str, Any]) -> dict[str, Any]:
    """Known-family Top-1 may never fall below the stored baseline (rate and per case)."""
    base_top1 = baseline.get("metrics", baseline).get("known_top1")
    current = metrics.get("known_top1")
    base_cases = {
        c["case_id"]: c for c in baseline.get("cases", []) if isinstance(c, dict) and c.get("case_type") == "known"
    }
    now_hits = {r.case_id: any(c.code == "EV101" and c.passed for c in r.checks) for r in results
                if r.case_type == "known"}
    regressed = sorted(
        cid
        for cid, c in base_cases.items()
        if any(ch.get("code") == "EV101" and ch.get("passed") for ch in c.get("checks", []))
        and now_hits.get(cid) is False
    )
    regression = (isinstance(base_top1, (int, float)) and not isinstance(base_top1, bool)
                  and (current is None or current < base_top1))
    return {"known_top1": base_top1, "current_known_top1": current, "regression": bool(regression),
            "regressed_cases": regressed}


MAX_NAMED_CASES = 25


def _why(result: CaseResult) -> str:
    if result.error is not None:
        return result.error.code
    return ",".join(c.code for c in result.checks if c.required and not c.passed)


def failed_cases_message(failed: list[CaseResult]) -> str:
    """Names the failed cases and their failing checks (the first ``MAX_NAMED_CASES``)."""
    named = "; ".join(f"{r.case_id} ({_why(r)})" for r in failed[:MAX_NAMED_CASES])
    more = f"; and {len(failed) - MAX_NAMED_CASES} more" if len(failed) > MAX_NAMED_CASES else ""
    return f"{len(failed)} case(s) failed: {named}{more}"


def build_report(
    cases: list[EvalCase],
    results: list[CaseResult],
    *,
    min_top1: float | None = None,
    baseline: dict[str, Any] | None = None,
) -> EvalReport:
    metrics = aggregate_metrics(results)
    failures: list[Issue] = []
    top1 = metrics["known_top1"]
    if min_top1 is not None and (top1 is None or top1 < min_top1):
        failures.append(Issue(code="EV901", message=f"known_top1 {top1} is below --min-top1 {min_top1}"))
    comparison = compare_baseline(results, metrics, baseline) if baseline is not None else None
    if comparison and comparison["regression"]:
        failures.append(
            Issue(
                code="EV902",
                message=f"known_top1 {comparison['current_known_top1']} regressed below the baseline "
                        f"{comparison['known_top1']}"
                + (f" (cases: {', '.join(comparison['regressed_cases'])})" if comparison["regressed_cases"] else ""),
            )
        )
    if metrics["open_world_groundless_high_confidence"]:
        failures.append(
            Issue(code="EV903",
                  message=f"{metrics['open_world_groundless_high_confidence']} groundless high-confidence open-world "
                          "conclusion(s); must be 0")
        )
    failed = [r for r in results if not r.passed]
    if failed:
        failures.append(Issue(code="EV904", message=failed_cases_message(failed)))
    return EvalReport(
        passed=not failures,
        cases=results,
        metrics=metrics,
        per_case_type=per_case_type(results),
        chance_baseline=chance_baseline(cases),
        baseline=comparison,
        min_top1=min_top1,
        failures=failures,
        benchmarks=benchmark_metrics([r.benchmark for r in results if r.benchmark is not None]),
    )
