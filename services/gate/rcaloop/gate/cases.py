"""Offline-evaluation fixtures: one JSON object per line (``docs/evaluation.md``).

A case holds the incident input (alert/log text or a job directory), its case type,
the expected family and the expectations of its type. Loading never raises on bad
input: every problem is an ``Issue`` with a stable code and the line it is on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rcaloop.contracts import EvidenceArtifact, Issue
from rcaloop.contracts.common import CaseType
from rcaloop.contracts.parsed import AlreadyAnalyzed
from rcaloop.gate.benchmarks import BenchmarkCase


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CaseContext(_Strict):
    """What goes into the input context block."""

    subjects: list[str] = Field(default_factory=list)
    already_analyzed: list[AlreadyAnalyzed] = Field(default_factory=list, description="[{subject, rca_id}]")
    history_sql: str | None = None


class CaseExpect(_Strict):
    """Expectations per case type; only the ones of the case's type are scored."""

    accept_families: list[str] = Field(default_factory=list, description="known: aliases of the expected family")
    causal_order: list[str] = Field(default_factory=list,
                                    description="compositional: phrases that must appear in this order")
    competing_hypotheses: list[str] = Field(default_factory=list,
                                            description="compositional: rivals that must be named")
    distinguishing_checks: list[str] = Field(default_factory=list,
                                             description="compositional: any one must be proposed")
    forbidden_families: list[str] = Field(default_factory=list,
                                          description="novel: familiar families that must not be forced")
    missing_sources: list[str] = Field(default_factory=list,
                                       description="tool_degraded: sources the answer must say are missing")


class CaseSignals(_Strict):
    """Where the known signal sits in the input (used by ``eval mutate``)."""

    signature: list[str] = Field(default_factory=list, description="text that identifies the known family")
    symptoms: list[str] = Field(default_factory=list,
                                description="text of each symptom, first one dropped by drop_symptom")
    datasources: list[str] = Field(default_factory=list, description="input lines are tagged [<datasource>]")
    conflicting_evidence: str | None = Field(default=None, description="a line that contradicts the known diagnosis")


class EvalCase(_Strict):
    case_id: str = Field(min_length=1, max_length=200)
    case_type: CaseType
    title: str | None = None
    input: str | None = Field(default=None, description="the alert / log text")
    job_dir: str | None = Field(default=None, description="a job directory, relative to the fixture file")
    expected_family: str | None = None
    context: CaseContext = Field(default_factory=CaseContext)
    expect: CaseExpect = Field(default_factory=CaseExpect)
    signals: CaseSignals = Field(default_factory=CaseSignals)
    evidence: list[EvidenceArtifact] = Field(default_factory=list, description="artifacts the run collected")
    mutation: str | None = Field(default=None, description="set on variants made by eval mutate")
    source_case: str | None = None
    window_shift_minutes: int | None = None
    benchmark: BenchmarkCase | None = Field(
        default=None, description="set by eval import: the public benchmark's case, scored by its own metrics")


@dataclass(frozen=True)
class CaseRule:
    """One fixture rule: a case that breaks it is refused with this code."""

    code: str
    message: str
    is_broken: Callable[[EvalCase], bool]


CASE_RULES: list[CaseRule] = [
    CaseRule("FIX201", "exactly one of input and job_dir is required",
             lambda c: (c.input is None) == (c.job_dir is None)),
    CaseRule("FIX202", "a known case needs expected_family",
             lambda c: c.case_type == "known" and not c.expected_family),
    CaseRule(
        "FIX203",
        "a compositional case needs causal_order, competing_hypotheses or distinguishing_checks",
        lambda c: c.case_type == "compositional"
        and not (c.expect.causal_order or c.expect.competing_hypotheses or c.expect.distinguishing_checks),
    ),
    CaseRule(
        "FIX204", "a tool_degraded case needs expect.missing_sources",
        lambda c: c.case_type == "tool_degraded" and not c.expect.missing_sources
    ),
]


def load_cases(text: str) -> tuple[list[EvalCase], list[Issue]]:
    """Cases from JSONL text; blank lines and ``#`` comments are skipped."""
    cases: list[EvalCase] = []
    issues: list[Issue] = []
    seen: set[str] = set()
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            issues.append(Issue(code="FIX101", message=f"not JSON: {exc.msg}", line=lineno))
            continue
        try:
            case = EvalCase.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()[:5])
            issues.append(Issue(code="FIX102", message=f"not a fixture case: {problems}", line=lineno))
            continue
        broken = [r for r in CASE_RULES if r.is_broken(case)]
        for rule in broken:
            issues.append(Issue(code=rule.code, message=f"{case.case_id}: {rule.message}", line=lineno))
        if case.case_id in seen:
            issues.append(Issue(code="FIX103", message=f"duplicate case_id {case.case_id}", line=lineno))
            continue
        if not broken:
            seen.add(case.case_id)
            cases.append(case)
    return cases, issues


def dump_cases(cases: list[EvalCase]) -> str:
    return "".join(c.model_dump_json(exclude_defaults=True) + "\n" for c in cases)
