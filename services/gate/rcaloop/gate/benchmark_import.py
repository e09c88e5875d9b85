"""Public benchmark cases as eval fixtures (``rcaloop eval import rcaeval|openrca``).

Pure: the CLI reads the files and hands their text here; every problem is an ``Issue`` with
a code (``BENCH1xx`` RCAEval, ``BENCH2xx`` OpenRCA) and nothing is written when there is one.

RCAEval (github.com/phamquiluan/RCAEval, the RE1/RE2/RE3 datasets on Zenodo): one directory
per case, ``<dataset>/<service>_<fault>/<n>/`` holding ``inject_time.txt`` (unix seconds) and
the telemetry — ``metrics.csv`` (or ``data.csv`` in RE1: a ``time`` column and one column per
``<service>_<metric>``), ``logs.csv`` and ``traces.csv`` (RE2, RE3). The label is the
directory name, so a case's id and input never show it.

OpenRCA (github.com/microsoft/OpenRCA): per system, ``query.csv`` (``task_index``,
``instruction``, ``scoring_points``) and ``record.csv`` (``level, component, timestamp,
datetime, reason``, one row per failure, the same order as the queries). The scoring points
say what a query asks and its answer: ``The only predicted root cause component is X``,
``The 2-th predicted root cause reason is Y``, ``The only root cause occurrence time is
within 1 minutes (i.e., <=1min) of 2021-03-04 14:57:00`` (UTC+8 wall clock).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from rcaloop.contracts import Issue
from rcaloop.gate.benchmarks import ELEMENTS, BenchmarkCase, BenchmarkRootCause, Element, family_for
from rcaloop.gate.cases import EvalCase

TELEMETRY_FILES = ("metrics.csv", "data.csv", "simple_data.csv", "logs.csv", "traces.csv")
OPENRCA_UTC_OFFSET_MIN = 8 * 60
OPENRCA_COLUMNS = ("task_index", "instruction", "scoring_points")


# -- RCAEval ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RCAEvalCaseDir:
    """What the CLI read of one case directory."""

    relpath: str = ""
    """the directory relative to SRC, ``/``-separated (``RE2-OB/checkoutservice_cpu/1``)"""
    inject_time: str = ""
    """the text of ``inject_time.txt``"""
    metric_header: str | None = None
    """the first line of ``metrics.csv`` / ``data.csv``"""
    files: tuple[str, ...] = ()
    """the telemetry files present"""


def rcaeval_slug(relpath: str) -> str:
    """A neutral name for a case: its directory names the answer, this does not."""
    return hashlib.sha256(relpath.encode()).hexdigest()[:10]


def _services(header: str | None) -> list[str]:
    columns = next(csv.reader([header])) if header else []
    return sorted({c.split("_", 1)[0].strip() for c in columns if c.strip() and c.strip() not in ("time", "time.1")})


def rcaeval_case(case_dir: RCAEvalCaseDir, telemetry_root: str) -> tuple[EvalCase | None, Issue | None]:
    parts = [p for p in case_dir.relpath.split("/") if p]
    if len(parts) < 2 or "_" not in parts[-2]:
        return None, Issue(code="BENCH101", message=f"{case_dir.relpath or '.'}: not an RCAEval case directory "
                                                    "<service>_<fault>/<n>/")
    service, fault = parts[-2].rsplit("_", 1)
    if not service or not fault:
        return None, Issue(code="BENCH101", message=f"{case_dir.relpath}: not an RCAEval case directory "
                                                    "<service>_<fault>/<n>/")
    try:
        injected = datetime.fromtimestamp(int(float(case_dir.inject_time.strip().splitlines()[0])), UTC)
    except (ValueError, IndexError, OverflowError):
        return None, Issue(code="BENCH102", message=f"{case_dir.relpath}: inject_time.txt is not unix seconds")
    dataset = parts[-3] if len(parts) >= 3 else "RCAEval"
    slug = rcaeval_slug(case_dir.relpath)
    services = _services(case_dir.metric_header)
    lines = [
        f"[rcaeval] {dataset}: a fault was injected into one service of the system; find its root cause.",
        f"anomaly detected at {injected.isoformat().replace('+00:00', 'Z')} (unix {int(injected.timestamp())})",
    ]
    if services:
        lines.append(f"services: {', '.join(services)}")
    lines += [
        f"telemetry: {telemetry_root.rstrip('/')}/{slug}/ ({', '.join(case_dir.files) or 'none'})",
        "answer: rank the candidate root causes, each with its service as component (AC@1, AC@3, AC@5 and Avg@5 "
        "score the first five services)",
    ]
    case = EvalCase(
        case_id=f"rcaeval/{dataset}/{slug}",
        case_type="known",
        title=f"RCAEval {dataset} case {slug}",
        input="\n".join(lines) + "\n",
        expected_family=family_for("rcaeval", fault),
        benchmark=BenchmarkCase(name="rcaeval", dataset=dataset, source=case_dir.relpath,
                                root_causes=[BenchmarkRootCause(component=service, fault=fault, occurred_at=injected)]),
    )
    return case, None


def import_rcaeval(case_dirs: list[RCAEvalCaseDir], telemetry_root: str) -> tuple[list[EvalCase], list[Issue]]:
    cases: list[EvalCase] = []
    issues: list[Issue] = []
    for d in sorted(case_dirs, key=lambda d: d.relpath):
        case, issue = rcaeval_case(d, telemetry_root)
        if case is not None:
            cases.append(case)
        if issue is not None:
            issues.append(issue)
    if not case_dirs:
        issues.append(Issue(code="BENCH100", message="no RCAEval case (a directory holding inject_time.txt) found"))
    return cases, issues


# -- OpenRCA ---------------------------------------------------------------------------------------

_WHICH = r"The (only|\d+-th)"
SCORING_POINTS: list[tuple[Element, re.Pattern[str]]] = [
    ("component", re.compile(_WHICH + r" predicted root cause component is ([^\n]+)")),
    ("reason", re.compile(_WHICH + r" predicted root cause reason is ([^\n]+)")),
    ("time", re.compile(_WHICH + r" root cause occurrence time is within 1 minutes \(i\.e\., <=1min\) of ([^\n]+)")),
]


def _openrca_time(text: str) -> datetime:
    """OpenRCA's ``%Y-%m-%d %H:%M:%S`` on its UTC+8 wall clock."""
    naive = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S")
    return naive.replace(tzinfo=timezone(timedelta(minutes=OPENRCA_UTC_OFFSET_MIN)))


def scoring_points(text: str) -> tuple[list[BenchmarkRootCause], list[Element]]:
    """The failures a query's scoring points describe, in order, and the elements it asks for."""
    found: dict[int, dict[str, object]] = {}
    asks: list[Element] = []
    for element, pattern in SCORING_POINTS:
        for which, value in pattern.findall(text):
            idx = 1 if which == "only" else int(which.split("-", 1)[0])
            value = value.strip()
            found.setdefault(idx, {})
            if element == "time":
                found[idx]["occurred_at"] = _openrca_time(value)
            else:
                found[idx]["component" if element == "component" else "fault"] = value
            if element not in asks:
                asks.append(element)
    causes = [BenchmarkRootCause.model_validate(found[i]) for i in sorted(found)]
    return causes, [e for e in ELEMENTS if e in asks]


def _records(record_csv: str | None) -> list[dict[str, str]]:
    if not record_csv:
        return []
    return list(csv.DictReader(io.StringIO(record_csv)))


def import_openrca(query_csv: str, dataset: str, telemetry: str | None,
                   record_csv: str | None = None) -> tuple[list[EvalCase], list[Issue]]:
    """One case per query. ``record.csv`` (optional) only names the fault of a query that does not ask for the
    reason, so that rcaloop's Top-1 has a family to judge."""
    reader = csv.DictReader(io.StringIO(query_csv))
    missing = [c for c in OPENRCA_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        return [], [Issue(code="BENCH201", message=f"query.csv needs the columns {', '.join(OPENRCA_COLUMNS)} "
                                                   f"(missing {', '.join(missing)})")]
    records = _records(record_csv)
    cases: list[EvalCase] = []
    issues: list[Issue] = []
    for row_id, row in enumerate(reader):
        line = row_id + 2  # the header is line 1 (a quoted field may span lines: then this is the row's ordinal)
        try:
            causes, asks = scoring_points(row.get("scoring_points") or "")
        except ValueError as exc:
            issues.append(Issue(code="BENCH203", message=f"row {row_id}: occurrence time unreadable ({exc})",
                                line=line))
            continue
        if not causes:
            issues.append(Issue(code="BENCH202", message=f"row {row_id}: no scoring point OpenRCA reads", line=line))
            continue
        instruction = (row.get("instruction") or "").strip()
        fault = causes[0].fault or (records[row_id].get("reason") if row_id < len(records) else None)
        lines = [f"[openrca] {dataset}: {instruction}"]
        if telemetry:
            lines.append(f"telemetry: {telemetry}")
        lines.append(
            f"answer: rank the candidate root causes; the first {len(causes)} are the answer, each with component, "
            "reason and occurred_at (ISO-8601 with its zone; the benchmark's clock is UTC+8)")
        cases.append(EvalCase(
            case_id=f"openrca/{dataset}/{row_id}",
            case_type="known",
            title=f"OpenRCA {dataset} query {row_id} ({row.get('task_index') or '?'})",
            input="\n".join(lines) + "\n",
            expected_family=family_for("openrca", fault),
            benchmark=BenchmarkCase(name="openrca", dataset=dataset, source=f"query.csv row {row_id}",
                                    root_causes=causes, asks=asks, task_index=row.get("task_index") or None,
                                    row_id=row_id, instruction=instruction,
                                    utc_offset_minutes=OPENRCA_UTC_OFFSET_MIN),
        ))
    if not cases and not issues:
        issues.append(Issue(code="BENCH200", message="query.csv holds no query"))
    return cases, issues
