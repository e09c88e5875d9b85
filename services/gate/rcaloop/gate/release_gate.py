"""Release gate: decide on one externally measured metrics file.

The file is read strictly (``metrics_file``: duplicate and look-alike keys refused, text
normalised, the JSON Schema applied); the ten thresholds (``thresholds``) judge each metric;
the provenance rules (``provenance``) judge the window, the times, the population and the
file's origin. The gate fails closed: every violation is a finding with a stable code, and any
finding fails the gate. Synthetic files — marked so, or whose provenance says so — check
thresholds and schema only and are refused as gate input unless the caller allows them (tests).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from rcaloop.contracts import Issue
from rcaloop.contracts.gate import MetricCheck
from rcaloop.gate import provenance as rules
from rcaloop.gate.metrics_file import read_metrics, schema_findings
from rcaloop.gate.thresholds import (
    DEFAULT_MIN_POPULATION,
    MERGEABLE_METRICS,
    METRIC_NAMES,
    PROVENANCE_FIELDS,
    RATE_METRICS,
    THRESHOLDS,
    TYPEDB_METRIC,
    Threshold,
)

__all__ = [
    "DEFAULT_MIN_POPULATION", "FINDINGS", "MERGEABLE_METRICS", "METRIC_NAMES", "PROVENANCE_FIELDS",
    "THRESHOLDS", "TYPEDB_METRIC", "GateResult", "Threshold", "artifact_hash", "check_release_gate", "content_hash",
    "exit_code",
]

FINDINGS: dict[str, str] = {
    "GATE001": "the file is not UTF-8 text or not JSON (unusable)",
    "GATE002": "the file is not one JSON object (unusable)",
    "GATE003": "the file is marked synthetic and synthetic input is not allowed (unusable)",
    "GATE004": "synthetic is present and not a JSON boolean",
    "GATE005": "a key appears twice in one object (unusable)",
    "GATE006": "a key differs from another key, or from a name the schema gives, only by case, Unicode form or "
               "invisible characters (unusable)",
    "GATE007": "the provenance says the figures are synthetic while synthetic is not true, and synthetic input is not "
               "allowed (unusable)",
    "GATE008": "a top-level key the schema does not know, or a missing note that is not text",
    "GATE201": "provenance is not an object",
    "GATE202": "a provenance field is missing, empty or not text",
    "GATE203": "the incident window is not an ISO-8601 interval START/END",
    "GATE204": "the incident window ends before it starts, or is empty",
    "GATE205": "the incident window ends in the future",
    "GATE206": "measured_at is not an ISO-8601 date-time",
    "GATE207": "measured_at is in the future",
    "GATE208": "measured_at is before the incident window closed",
    "GATE209": "the population is not structured: an object with an integer incident count, integer counts and "
               "denominators",
    "GATE210": "provenance.merged lists a metric rcaloop measures, or cannot be read",
    "GATE211": "the population counts fewer incidents than the minimum",
    "GATE212": "a rate is no share of its population at the precision it is written with",
    "GATE301": "a metric is missing",
    "GATE302": "a metric is not of its kind",
    "GATE303": "a metric is out of its range",
}
"""Every finding besides the thresholds' own codes; ``docs/gate.md`` has a row for each."""

class GateResult(BaseModel):
    """What ``rcaloop gate check`` decides; ``checks`` is the per-metric table."""

    passed: bool
    usable: bool = True
    synthetic: bool = False
    artifact_hash: str
    checks: list[MetricCheck] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    errors: list[Issue] = Field(default_factory=list)
    provenance: dict[str, Any] = Field(default_factory=dict)


def artifact_hash(data: bytes) -> str:
    """``sha256:`` of the file's bytes (what ``--merge`` records)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def content_hash(doc: Any) -> str:
    """``sha256:`` of what the document measured, as canonical JSON: copies differing only in
    whitespace, key order or number spelling (``1`` / ``1.0``) have the same content hash, and
    so do re-measurements differing only in ``provenance.measured_at`` — the same window
    measured again to the same figures is the same artifact, not a fresh one."""
    if isinstance(doc, dict) and isinstance(doc.get("provenance"), dict):
        doc = {**doc, "provenance": {k: v for k, v in doc["provenance"].items() if k != "measured_at"}}
    text = json.dumps(_canonical(doc), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _metric_row(
    rule: Threshold, doc: dict[str, Any], problem: tuple[str, str] | None
) -> tuple[MetricCheck, Issue | None]:
    """The metric's row of the table and, when it fails, its finding."""
    value: Any = doc.get(rule.metric)
    if problem is None and rule.holds(value):
        return MetricCheck(metric=rule.metric, value=value, threshold=rule.text, passed=True), None
    code, reason = problem or (rule.code, f"{json.dumps(value)} is not {rule.text}")
    check = MetricCheck(metric=rule.metric, value=value, threshold=rule.text, passed=False, reason=reason)
    return check, Issue(code=code, message=f"{rule.metric}: {reason}", path=f"$.{rule.metric}")


def _provenance_rules(doc: dict[str, Any], schema_ok: set[str], rates: dict[str, float], now: datetime,
                      min_population: int) -> list[Issue]:
    """The rules beyond the schema, on the provenance fields the schema accepted."""
    provenance = doc.get("provenance")
    if not isinstance(provenance, dict):
        return []
    issues, end = rules.window_issues(provenance, now) if "incident_window" in schema_ok else ([], None)
    if "measured_at" in provenance and "measured_at" in schema_ok:
        issues += rules.measured_at_issues(provenance["measured_at"], end, now)
    if "population" in schema_ok:
        issues += rules.population_issues(provenance["population"], rates, min_population)
    return issues


def check_release_gate(
    data: bytes, *, allow_synthetic: bool = False, now: datetime | None = None,
    min_population: int = DEFAULT_MIN_POPULATION
) -> GateResult:
    """Decide on one metrics file's bytes; ``usable=False`` means exit 2 (unusable input)."""
    now = now or datetime.now(UTC)
    reading = read_metrics(data)
    if reading.doc is None:
        return _unusable(artifact_hash(data), reading.unusable)
    doc = reading.doc
    digest = content_hash(doc)
    marker = doc.get("synthetic", False)
    origin = rules.synthetic_origin(doc)
    synthetic = marker is True or bool(origin)
    if synthetic and not allow_synthetic:
        if marker is True:
            return _unusable(digest, [Issue(code="GATE003", message="refused: the file is marked synthetic; synthetic "
                                            "metrics only test thresholds and schema (pass --allow-synthetic in "
                                            "tests), never a release", path="$.synthetic")], synthetic=True)
        return _unusable(digest, [Issue(code="GATE007", message=f"refused: the provenance says the figures are "
                                        f"synthetic ({', '.join(origin)}) although synthetic is not true; synthetic "
                                        "metrics are never a release (--allow-synthetic in tests)", path=origin[0])],
                         synthetic=True)
    problems, findings = schema_findings(doc)
    checks, errors = [], []
    for rule in THRESHOLDS:
        check, issue = _metric_row(rule, doc, problems.get(rule.metric))
        checks.append(check)
        errors += [issue] if issue else []
    rejected = {str(i.path).split(".")[2] for i in findings if str(i.path).startswith("$.provenance.")}
    schema_ok = set(PROVENANCE_FIELDS) | {"measured_at"}
    schema_ok -= rejected
    rates = {m: doc[m] for m in RATE_METRICS if m not in problems}
    errors = [i for i in findings if i.code == "GATE004"] + errors + [i for i in findings if i.code != "GATE004"]
    errors += _provenance_rules(doc, schema_ok if isinstance(doc.get("provenance"), dict) else set(), rates, now,
                                min_population)
    provenance = doc.get("provenance") if isinstance(doc.get("provenance"), dict) else {}
    return GateResult(
        passed=not errors, synthetic=synthetic, artifact_hash=digest, checks=checks,
        reasons=[f"{e.code} {e.message}" for e in errors], errors=errors, provenance=provenance,
    )


def _unusable(digest: str, issues: list[Issue], *, synthetic: bool = False) -> GateResult:
    return GateResult(passed=False, usable=False, synthetic=synthetic, artifact_hash=digest,
                      reasons=[f"{i.code} {i.message}" for i in issues], errors=issues)


def exit_code(result: GateResult) -> int:
    if not result.usable:
        return 2
    return 0 if result.passed else 1
