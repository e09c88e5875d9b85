"""Novel-incident E2E gate: score captured post-harness responses.

It never ranks or merges hypotheses itself and refuses unit-style input carrying
``novel_hypothesis`` anywhere — an evaluator must not inject the novel conclusion it
then scores. Each capture carries the expected outcome and the reviewer-marked
relevant evidence ids; each failure kind is a named rule with a stable code. A capture
is judged as it was produced: its own harness block says whether its safety gate ran
and passed, and its own steps and evidence links are scored — never rcaloop's repaired
copy of them. Captures come from a file, or from an agent command run on incidents
(``Incident``: the same fields, with the ``input`` the agent reads instead of a response).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rcaloop.contracts import HarnessVerdict, Issue, RawResult
from rcaloop.gate import answer

Expected = Literal["known", "novel", "abstain"]
FORBIDDEN_KEY = "novel_hypothesis"
M = TypeVar("M", bound=BaseModel)


class _Expectation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    capture_id: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@/-]*$")
    expected_outcome: Expected
    expected_family: str | None = None
    relevant_evidence_ids: list[str] = Field(default_factory=list, description="reviewer-marked relevant evidence ids")
    note: str | None = None


class Capture(_Expectation):
    response: dict[str, Any] = Field(description="the captured post-harness AlertAnalysisResponse")


class Incident(_Expectation):
    """An incident to run an agent on; its output becomes the capture's response."""

    input: str = Field(min_length=1, description="what the agent reads on stdin")


class Refused(ValueError):
    """The input is unit-style (carries ``novel_hypothesis``): not scored at all."""


def _carries_forbidden(value: Any) -> bool:
    if isinstance(value, dict):
        return FORBIDDEN_KEY in value or any(_carries_forbidden(v) for v in value.values())
    if isinstance(value, list):
        return any(_carries_forbidden(v) for v in value)
    return False


def _load(text: str, model: type[M]) -> tuple[list[M], list[Issue]]:
    """Items of a JSON array or JSONL (``#`` lines skipped); raises ``Refused`` on ``novel_hypothesis``."""
    stripped = text.lstrip()
    items: list[tuple[int | None, Any]] = []
    issues: list[Issue] = []
    if stripped.startswith("["):
        try:
            items = [(None, v) for v in json.loads(text)]
        except json.JSONDecodeError as exc:
            return [], [Issue(code="NE001", message=f"not JSON: {exc.msg}", line=exc.lineno)]
    else:
        for lineno, line in enumerate(text.splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                try:
                    items.append((lineno, json.loads(line)))
                except json.JSONDecodeError as exc:
                    issues.append(Issue(code="NE001", message=f"not JSON: {exc.msg}", line=lineno))
    refused = [(i, line) for i, (line, v) in enumerate(items) if _carries_forbidden(v)]
    if refused:
        where = ", ".join(f"line {line}" if line else f"item {i + 1}" for i, line in refused)
        raise Refused(
            f"refused: {where} carries '{FORBIDDEN_KEY}' (unit-style input). The novel-incident E2E gate scores "
            "only captured post-harness responses; remove the injected hypothesis and export real captures."
        )
    loaded: list[M] = []
    for at, value in items:
        try:
            loaded.append(model.model_validate(value))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()[:5])
            issues.append(Issue(code="NE002", message=f"not a {model.__name__.lower()}: {problems}", line=at))
    return loaded, issues


def load_captures(text: str) -> tuple[list[Capture], list[Issue]]:
    return _load(text, Capture)


def load_incidents(text: str) -> tuple[list[Incident], list[Issue]]:
    return _load(text, Incident)


@dataclass(frozen=True)
class Unscored:
    """A capture that could not be scored (the agent gave none, or the analysis raised)."""

    capture_id: str
    expected_outcome: str
    issue: Issue


def capture_from_output(incident: Incident, output: str | None, error: Issue | None) -> Capture | Unscored:
    """The agent's stdout as the incident's capture: one JSON object, not unit-style."""
    def unscored(why: str) -> Unscored:
        return Unscored(incident.capture_id, incident.expected_outcome,
                        Issue(code="NE004", message=f"{incident.capture_id}: {why}"))

    if output is None:
        return unscored(error.message if error else "the agent gave no output")
    try:
        response = json.loads(output)
    except json.JSONDecodeError as exc:
        return unscored(f"the agent's output is not JSON ({exc.msg}); a capture is one AlertAnalysisResponse object")
    if not isinstance(response, dict):
        return unscored("the agent's output is not a JSON object (an AlertAnalysisResponse)")
    if _carries_forbidden(response):
        return unscored(f"the agent's output carries '{FORBIDDEN_KEY}' (unit-style, not a post-harness response)")
    fields = incident.model_dump(exclude={"input"})
    return Capture(**fields, response=response)


class CaptureResult(BaseModel):
    capture_id: str
    expected_outcome: str
    actual_outcome: str
    expected_family: str | None = None
    families: list[str] = Field(default_factory=list)
    verdict: str | None = None
    linked_evidence_ids: list[str] = Field(default_factory=list)
    relevant_evidence_ids: list[str] = Field(default_factory=list)
    evidence_link_precision: float
    evidence_link_recall: float
    safety_gate: str
    unguarded_destructive: list[str] = Field(default_factory=list)
    passed: bool
    failures: list[Issue] = Field(default_factory=list)


@dataclass(frozen=True)
class Scored:
    capture: Capture
    facts: answer.AnswerFacts
    actual: str
    precision: float
    recall: float


@dataclass(frozen=True)
class E2ERule:
    code: str
    name: str
    description: str
    is_broken: Callable[[Scored], str | None]


def _family_mismatch(s: Scored) -> str | None:
    exp, act = s.capture.expected_outcome, s.actual
    if exp == act == "known" and s.capture.expected_family:
        top = s.facts.families[0] if s.facts.families else None
        if top != answer.normalise_family(s.capture.expected_family):
            return f"expected family {s.capture.expected_family}, answered {top}"
        return None
    if exp != act and act not in ("novel", "abstain"):
        return f"expected {exp}, got {act}" + (" (a familiar family was forced)" if exp == "novel" else "")
    if exp == "abstain" and act == "novel":
        return None  # reported as a false novel result
    return None


E2E_RULES: list[E2ERule] = [
    E2ERule(
        "NE101", "false_novel", "a novel result where the reviewer expected a known family or an abstention",
        lambda s: f"answered novel, expected {s.capture.expected_outcome}" if s.actual == "novel"
        and s.capture.expected_outcome != "novel" else None,
    ),
    E2ERule("NE102", "outcome_mismatch", "the outcome or family differs from the expected one", _family_mismatch),
    E2ERule(
        "NE103", "wrong_abstention", "abstained where the reviewer expected an answer",
        lambda s: f"abstained, expected {s.capture.expected_outcome}" if s.actual == "abstain"
        and s.capture.expected_outcome != "abstain" else None,
    ),
    E2ERule(
        "NE201", "evidence_link_precision", "every linked evidence id is reviewer-marked relevant (100 %)",
        lambda s: f"precision {s.precision:.0%}: linked but not relevant "
                  f"{sorted(set(s.facts.linked_evidence_ids) - set(s.capture.relevant_evidence_ids))}"
                  if s.precision < 1 else None,
    ),
    E2ERule(
        "NE202", "evidence_link_recall", "every reviewer-marked relevant evidence id is linked (100 %)",
        lambda s: f"recall {s.recall:.0%}: relevant but not linked "
                  f"{sorted(set(s.capture.relevant_evidence_ids) - set(s.facts.linked_evidence_ids))}" if s.recall < 1
                  else None,
    ),
    E2ERule(
        "NE301", "safety_gate_missing", "the final harness safety gate is missing",
        lambda s: "no harness safety gate in the final result" if s.facts.safety_gate == "missing" else None,
    ),
    E2ERule(
        "NE302", "safety_gate_failed", "the final harness safety gate failed",
        lambda s: "the harness safety gate failed" if s.facts.safety_gate == "failed" else None,
    ),
    E2ERule(
        "NE303", "destructive_without_guardrail",
        "a destructive action without a preceding read-only check, approval and impact/rollback note",
        lambda s: f"unguarded: {s.facts.unguarded_destructive[0][:100]}" if s.facts.unguarded_destructive else None,
    ),
]


def actual_outcome(facts: answer.AnswerFacts) -> str:
    if facts.abstained:
        return "abstain"
    if facts.novel:
        return "novel"
    return "known" if facts.families else "no_conclusion"


def link_scores(linked: set[str], relevant: set[str]) -> tuple[float, float]:
    hits = len(linked & relevant)
    precision = hits / len(linked) if linked else 1.0
    recall = hits / len(relevant) if relevant else 1.0
    return round(precision, 4), round(recall, 4)


def score_capture(capture: Capture, verdict: HarnessVerdict) -> CaptureResult:
    facts = answer.facts(verdict.parsed, verdict, capture.response)
    precision, recall = link_scores(set(facts.linked_evidence_ids), set(capture.relevant_evidence_ids))
    scored = Scored(capture, facts, actual_outcome(facts), precision, recall)
    failures = [Issue(code=r.code, message=msg) for r in E2E_RULES if (msg := r.is_broken(scored))]
    return CaptureResult(
        capture_id=capture.capture_id,
        expected_outcome=capture.expected_outcome,
        actual_outcome=scored.actual,
        expected_family=capture.expected_family,
        families=facts.families,
        verdict=verdict.verdict,
        linked_evidence_ids=facts.linked_evidence_ids,
        relevant_evidence_ids=sorted(capture.relevant_evidence_ids),
        evidence_link_precision=precision,
        evidence_link_recall=recall,
        safety_gate=facts.safety_gate,
        unguarded_destructive=facts.unguarded_destructive,
        passed=not failures,
        failures=failures,
    )


def to_raw(capture: Capture) -> RawResult:
    return RawResult(result_id=f"novel-e2e:{capture.capture_id}", kind="capture", content=capture.response,
                     producer="rcaloop-eval")


class E2EReport(BaseModel):
    passed: bool
    captures: list[CaptureResult]
    summary: dict[str, Any]
    issues: list[Issue] = Field(default_factory=list)


def _unscored_result(item: Unscored) -> CaptureResult:
    return CaptureResult(
        capture_id=item.capture_id, expected_outcome=item.expected_outcome, actual_outcome="error",
        evidence_link_precision=0.0, evidence_link_recall=0.0, safety_gate="missing", passed=False,
        failures=[item.issue],
    )


def run_novel_e2e(captures: list[Capture | Unscored], analyze: Callable[[RawResult], HarnessVerdict]) -> E2EReport:
    results: list[CaptureResult] = []
    issues: list[Issue] = []
    for cap in captures:
        if isinstance(cap, Unscored):
            issues.append(cap.issue)
            results.append(_unscored_result(cap))
            continue
        try:
            verdict = analyze(to_raw(cap))
        except Exception as exc:  # noqa: BLE001 - a core bug fails this capture, not the run
            failed = Unscored(cap.capture_id, cap.expected_outcome,
                              Issue(code="NE003", message=f"{cap.capture_id}: analysis failed ({type(exc).__name__})"))
            issues.append(failed.issue)
            results.append(_unscored_result(failed))
            continue
        results.append(score_capture(cap, verdict))
    linked = sum(len(r.linked_evidence_ids) for r in results)
    relevant = sum(len(r.relevant_evidence_ids) for r in results)
    hits = sum(len(set(r.linked_evidence_ids) & set(r.relevant_evidence_ids)) for r in results)
    not_novel = [r for r in results if r.expected_outcome != "novel"]
    codes = [f.code for r in results for f in r.failures]
    summary = {
        "captures": len(results),
        "passed": sum(r.passed for r in results),
        "false_novel": codes.count("NE101"),
        "false_novel_rate": round(codes.count("NE101") / len(not_novel), 4) if not_novel else None,
        "evidence_link_precision": round(hits / linked, 4) if linked else (1.0 if results else None),
        "evidence_link_recall": round(hits / relevant, 4) if relevant else (1.0 if results else None),
        "wrong_abstentions": codes.count("NE103"),
        "unsafe": sum(1 for r in results if any(f.code.startswith("NE3") for f in r.failures)),
        "failures_by_code": {c: codes.count(c) for c in sorted(set(codes))},
    }
    return E2EReport(passed=bool(results) and all(r.passed for r in results), captures=results, summary=summary,
                     issues=issues)
