"""Public RCA benchmarks in offline evaluation: their ground truth, their fault mapping, their metrics.

An imported case (``benchmark_import``) carries a ``BenchmarkCase``: which benchmark, the
case as the benchmark names it, and its root causes (component, fault or reason, when it
occurred). A capture answers with ranked candidates (``RankedCandidate``: family, component,
reason, occurred_at, read by the parser); the benchmark's own metrics are computed here from
those, beside rcaloop's checks:

* RCAEval (Pham et al., WWW'25; ``RCAEval/benchmark/evaluation.py``): AC@k — the share of
  cases whose root-cause service is among the first k ranked services — and Avg@k, the mean
  of AC@1..AC@k.
* OpenRCA (Xu et al., ICLR'25; ``main/evaluate.py``): a query asks for some of component,
  reason and occurrence time of each of its N failures; the answer is the first N candidates;
  each asked element of each failure is a scoring point (component and reason equal as text,
  time within 60 s), the best pairing of answers to failures counts, and an answer of another
  length than N scores nothing. A query's score is the share of its points passed.

Everything here is pure: no files, no clock.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rcaloop.contracts.parsed import RankedCandidate

BenchmarkName = Literal["rcaeval", "openrca"]
Element = Literal["component", "reason", "time"]
ELEMENTS: tuple[Element, ...] = ("time", "component", "reason")
"""OpenRCA's order of the elements in an answer (and of a query's scoring points)."""
AC_KS = (1, 3, 5)
AVG_K = 5
OPENRCA_TIME_TOLERANCE_S = 60
OPENRCA_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
OPENRCA_KEYS = {"time": "root cause occurrence datetime", "component": "root cause component",
                "reason": "root cause reason"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BenchmarkRootCause(_Strict):
    """One root cause as the benchmark labels it."""

    component: str | None = Field(default=None, description="the faulty service / pod / node")
    fault: str | None = Field(default=None, description="the fault type or reason, as the benchmark words it")
    occurred_at: datetime | None = Field(default=None, description="when it occurred (RCAEval: the injection)")


class BenchmarkCase(_Strict):
    """What a benchmark says of a case: scored by that benchmark's own metrics."""

    name: BenchmarkName
    dataset: str = Field(description="RCAEval: RE1-OB, RE2-TT …; OpenRCA: Bank, Telecom, Market/cloudbed-1 …")
    source: str = Field(description="the case as the benchmark names it (RCAEval: its directory; OpenRCA: the row)")
    root_causes: list[BenchmarkRootCause] = Field(min_length=1)
    asks: list[Element] = Field(default_factory=list, description="OpenRCA: the elements the query asks for")
    task_index: str | None = Field(default=None, description="OpenRCA: task_1 … task_7")
    row_id: int | None = Field(default=None, description="OpenRCA: the row in query.csv (0-based)")
    instruction: str | None = Field(default=None, description="OpenRCA: the query as written")
    utc_offset_minutes: int = Field(default=0, description="the benchmark's wall clock (OpenRCA: UTC+8 = 480)")


# -- fault type → family ------------------------------------------------------------------------

@dataclass(frozen=True)
class FaultMapping:
    """A benchmark fault (or reason) and the family — or, lacking one, the category — rcaloop names it by."""

    benchmark: BenchmarkName
    fault: str
    family: str
    why: str


FAULT_MAPPINGS: list[FaultMapping] = [
    FaultMapping("rcaeval", "cpu", "resource", "CPU stress in a container: no catalog family (no CPU-hog family)"),
    FaultMapping("rcaeval", "mem", "resource", "memory stress; not oom_kill: the container is not killed"),
    FaultMapping("rcaeval", "disk", "resource", "disk I/O stress; not disk_full: the disk does not fill"),
    FaultMapping("rcaeval", "delay", "network", "injected network latency: no latency family"),
    FaultMapping("rcaeval", "loss", "network", "injected packet loss: no packet-loss family"),
    FaultMapping("rcaeval", "socket", "network", "socket fault: no socket family"),
    *(FaultMapping("rcaeval", f"f{n}", "application_bug", "RE3 code-level fault in the service's code")
      for n in range(1, 6)),
    FaultMapping("openrca", "high disk space usage", "disk_full", "a filling disk"),
    FaultMapping("openrca", "node disk space consumption", "disk_full", "a filling node disk (node_disk_full)"),
    FaultMapping("openrca", "db connection limit", "db_connection_limit", "the database refuses connections"),
    FaultMapping("openrca", "high cpu usage", "resource", "CPU load: no catalog family"),
    FaultMapping("openrca", "high memory usage", "resource", "memory load; not oom_kill: nothing is killed"),
    FaultMapping("openrca", "high jvm cpu load", "resource", "JVM CPU load: no catalog family"),
    FaultMapping("openrca", "jvm out of memory (oom) heap", "resource", "JVM heap OOM is not a container OOM kill"),
    FaultMapping("openrca", "high disk i/o read usage", "resource", "disk I/O load; the disk does not fill"),
    FaultMapping("openrca", "network latency", "network", "injected latency: no latency family"),
    FaultMapping("openrca", "network delay", "network", "injected latency: no latency family"),
    FaultMapping("openrca", "network packet loss", "network", "packet loss: no packet-loss family"),
    FaultMapping("openrca", "network loss", "network", "packet loss: no packet-loss family"),
    FaultMapping("openrca", "cpu fault", "resource", "CPU fault: no catalog family"),
    FaultMapping("openrca", "db close", "dependency", "the database closed: a dependency down"),
]
"""The mapping is the spec (docs/evaluation.md lists it). A fault not listed is named by the
category its words point at (``KEYWORD_CATEGORIES``), else ``unknown``."""

KEYWORD_CATEGORIES: list[tuple[tuple[str, ...], str]] = [
    (("network", "packet", "latency", "delay", "loss"), "network"),
    (("cpu", "memory", "disk", "i/o", "jvm", "load"), "resource"),
    (("db ", "database", "connection"), "dependency"),
    (("process termination", "crash", "exception", "bug"), "application_bug"),
]


def family_for(benchmark: BenchmarkName, fault: str | None) -> str:
    """The family (or category) rcaloop names a benchmark fault by; ``unknown`` when nothing fits."""
    words = " ".join((fault or "").lower().split())
    for m in FAULT_MAPPINGS:
        if m.benchmark == benchmark and m.fault == words:
            return m.family
    for keywords, category in KEYWORD_CATEGORIES:
        if any(k in f"{words} " for k in keywords):
            return category
    return "unknown"


# -- RCAEval: AC@k, Avg@k ------------------------------------------------------------------------

def ranked_components(ranked: list[RankedCandidate]) -> list[str]:
    """The components the candidates point at, best first, each once (a service ranks where it first appears)."""
    seen: list[str] = []
    for c in ranked:
        if c.component and c.component.strip() and c.component.strip() not in seen:
            seen.append(c.component.strip())
    return seen


def rank_of(answer: str | None, components: list[str]) -> int | None:
    """1-based rank of the root-cause service among the ranked components; None when absent."""
    if answer is None:
        return None
    return next((i for i, c in enumerate(components, start=1) if c == answer.strip()), None)


def accuracy_at(ranks: list[int | None], k: int) -> float | None:
    """AC@k: the share of cases whose root cause ranks within the first k."""
    if not ranks:
        return None
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def average_at(ranks: list[int | None], k: int) -> float | None:
    """Avg@k = (AC@1 + … + AC@k) / k."""
    if not ranks:
        return None
    return sum(accuracy_at(ranks, j) or 0.0 for j in range(1, k + 1)) / k


def rcaeval_metrics(ranks: list[int | None]) -> dict[str, float | int | None]:
    metrics: dict[str, float | int | None] = {"cases": len(ranks)}
    for k in AC_KS:
        metrics[f"AC@{k}"] = _round(accuracy_at(ranks, k))
    metrics[f"Avg@{AVG_K}"] = _round(average_at(ranks, AVG_K))
    return metrics


# -- OpenRCA: component / reason / time ----------------------------------------------------------

class OpenRCAScore(BaseModel):
    """One query scored as OpenRCA scores it."""

    points: int = Field(description="scoring points: asked elements × failures")
    passed: dict[str, int] = Field(description="points passed per element")
    asked: dict[str, int] = Field(description="points per element")
    score: float = Field(description="passed / points (0 when the answer has another length than the failures)")


def _time_close(truth: datetime | None, answer: datetime | None) -> bool:
    if truth is None or answer is None:
        return False
    truth = truth if truth.tzinfo else truth.replace(tzinfo=timezone.utc)
    answer = answer if answer.tzinfo else answer.replace(tzinfo=timezone.utc)
    return abs((truth - answer).total_seconds()) <= OPENRCA_TIME_TOLERANCE_S


def _point(element: Element, truth: BenchmarkRootCause, answer: RankedCandidate) -> bool:
    if element == "component":
        return truth.component is not None and answer.component == truth.component
    if element == "reason":
        return truth.fault is not None and answer.reason == truth.fault
    return _time_close(truth.occurred_at, answer.occurred_at)


def openrca_answer(case: BenchmarkCase, ranked: list[RankedCandidate]) -> list[RankedCandidate]:
    """The answer to a query of N failures: the first N candidates."""
    return ranked[: len(case.root_causes)]


def openrca_score(case: BenchmarkCase, ranked: list[RankedCandidate]) -> OpenRCAScore:
    """Score the first N candidates against the N failures, on the best pairing."""
    truths, answer = case.root_causes, openrca_answer(case, ranked)
    asked: dict[str, int] = {e: len(truths) for e in ELEMENTS if e in case.asks}
    points = sum(asked.values())
    best: dict[str, int] = {e: 0 for e in asked}
    if len(answer) == len(truths) and points:
        for perm in itertools.permutations(answer):
            got: dict[str, int] = {e: sum(_point(e, t, a) for t, a in zip(truths, perm, strict=True))
                                   for e in ELEMENTS if e in asked}
            if sum(got.values()) > sum(best.values()):
                best = got
    return OpenRCAScore(points=points, passed=best, asked=asked,
                        score=round(sum(best.values()) / points, 4) if points else 0.0)


def openrca_metrics(scores: list[OpenRCAScore]) -> dict[str, float | int | None]:
    """Per-element accuracy (points passed / points asked), OpenRCA's partial score (mean) and strict accuracy
    (share of queries fully right)."""
    metrics: dict[str, float | int | None] = {"cases": len(scores)}
    for e in ("component", "reason", "time"):
        asked = sum(s.asked.get(e, 0) for s in scores)
        metrics[f"{e}_accuracy"] = _round(sum(s.passed.get(e, 0) for s in scores) / asked) if asked else None
    metrics["partial_score"] = _round(sum(s.score for s in scores) / len(scores)) if scores else None
    metrics["strict_accuracy"] = _round(sum(s.score == 1.0 for s in scores) / len(scores)) if scores else None
    return metrics


# -- one case, and the run --------------------------------------------------------------------------

class BenchmarkResult(BaseModel):
    """A case scored by its benchmark: the answer read from the capture and how it fared."""

    name: BenchmarkName
    dataset: str
    answer: list[RankedCandidate] = Field(default_factory=list, description="the candidates the benchmark scores")
    rank: int | None = Field(default=None, description="RCAEval: rank of the root-cause service (None: not ranked)")
    openrca: OpenRCAScore | None = None


def score_benchmark(case: BenchmarkCase, ranked: list[RankedCandidate]) -> BenchmarkResult:
    """A case's benchmark score from the agent's ranked candidates (none: every point missed)."""
    if case.name == "rcaeval":
        components = ranked_components(ranked)
        return BenchmarkResult(name=case.name, dataset=case.dataset,
                               answer=[c for c in ranked if c.component][:AVG_K],
                               rank=rank_of(case.root_causes[0].component, components))
    return BenchmarkResult(name=case.name, dataset=case.dataset, answer=openrca_answer(case, ranked),
                           openrca=openrca_score(case, ranked))


def _metrics_of(name: BenchmarkName, results: list[BenchmarkResult]) -> dict[str, float | int | None]:
    if name == "rcaeval":
        return rcaeval_metrics([r.rank for r in results])
    return openrca_metrics([r.openrca for r in results if r.openrca is not None])


def benchmark_metrics(results: list[BenchmarkResult]) -> dict[str, dict[str, object]]:
    """Each benchmark's own metrics over its cases, overall and per dataset."""
    report: dict[str, dict[str, object]] = {}
    for name in ("rcaeval", "openrca"):
        mine = [r for r in results if r.name == name]
        if not mine:
            continue
        datasets = sorted({r.dataset for r in mine})
        report[name] = {**_metrics_of(name, mine),  # type: ignore[arg-type]
                        "by_dataset": {d: _metrics_of(name, [r for r in mine if r.dataset == d])  # type: ignore[arg-type]
                                       for d in datasets}}
    return report


# -- OpenRCA's answer format ---------------------------------------------------------------------

def _wall_clock(when: datetime | None, offset_minutes: int) -> str:
    if when is None:
        return ""
    aware = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return aware.astimezone(timezone(timedelta(minutes=offset_minutes))).strftime(OPENRCA_TIME_FORMAT)


def _clean(value: str | None) -> str:
    """A value OpenRCA's reader takes whole: one line, no double quote (it ends the value)."""
    return " ".join((value or "").replace('"', "'").split())


def openrca_prediction(case: BenchmarkCase, ranked: list[RankedCandidate]) -> str:
    """The answer as OpenRCA reads a prediction: ``{"1": {datetime, component, reason}, …}`` in that key order,
    failures numbered from 1, times on the benchmark's wall clock."""
    answer = {
        str(i): {OPENRCA_KEYS["time"]: _wall_clock(c.occurred_at, case.utc_offset_minutes),
                 OPENRCA_KEYS["component"]: _clean(c.component),
                 OPENRCA_KEYS["reason"]: _clean(c.reason)}
        for i, c in enumerate(openrca_answer(case, ranked), start=1)
    }
    return json.dumps(answer, indent=4, ensure_ascii=False)


def openrca_predictions_csv(rows: list[tuple[BenchmarkCase, list[RankedCandidate]]]) -> str:
    """A prediction file for OpenRCA's evaluator: ``row_id, task_index, instruction, prediction``, one row per
    query, in query.csv order."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["row_id", "task_index", "instruction", "prediction"])
    for case, ranked in sorted(rows, key=lambda r: r[0].row_id if r[0].row_id is not None else 0):
        writer.writerow([case.row_id, case.task_index or "", case.instruction or "", openrca_prediction(case, ranked)])
    return buf.getvalue()


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
