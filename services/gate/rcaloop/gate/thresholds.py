"""The release gate's ten thresholds: each a small named rule over a metric of a declared kind.

A **rate** is a finite number in [0, 1], a **count** a non-negative JSON integer, **seconds** a
finite, non-negative number, a **flag** exactly ``true`` or ``false``. The list ``THRESHOLDS``
is the table in ``docs/gate.md``; the metrics file's JSON Schema is built from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

DEFAULT_MIN_POPULATION = 30
"""Fewer incidents than this measure nothing a release can rest on (``GATE_MIN_POPULATION``)."""
PROVENANCE_FIELDS = ("incident_window", "population", "job_revision", "artifact")
Kind = Literal["rate", "count", "seconds", "flag"]


@dataclass(frozen=True)
class Threshold:
    """One release-gate rule: ``metric`` (of ``kind``) must satisfy ``op`` against ``bound``."""

    code: str
    metric: str
    kind: Kind
    op: str  # ">=", "<=", "<", "==", "is true"
    bound: float | bool
    description: str
    recorded: bool = True
    """rcaloop measures the metric from what it stores; ``False``: rcaloop keeps no record of
    it, so only this metric's value may come from another measurement (``gate measure --merge``)."""

    @property
    def text(self) -> str:
        return "true" if self.op == "is true" else f"{self.op} {self.bound:g}"

    def holds(self, value: float | bool) -> bool:
        compare: dict[str, Callable[[Any, Any], bool]] = {
            ">=": lambda v, b: v >= b,
            "<=": lambda v, b: v <= b,
            "<": lambda v, b: v < b,
            "==": lambda v, b: v == b,
            "is true": lambda v, b: v is True,
        }
        return compare[self.op](value, self.bound)


THRESHOLDS: list[Threshold] = [
    Threshold("GATE101", "known_top1", "rate", ">=", 0.95, "known-family Top-1 accuracy"),
    Threshold("GATE102", "groundless_high_confidence", "count", "==", 0,
              "high-confidence conclusions without grounded evidence"),
    Threshold("GATE103", "false_novel_rate", "rate", "<=", 0.02, "share of non-novel incidents answered as novel"),
    Threshold("GATE104", "evidence_link_precision", "rate", ">=", 0.95,
              "share of linked evidence that reviewers marked relevant"),
    Threshold("GATE105", "abstention_rate", "rate", ">=", 0.90,
              "share of should-abstain incidents where the agent abstained"),
    Threshold("GATE106", "novel_mechanism_recall_at_3", "rate", ">=", 0.70,
              "novel incidents whose mechanism is in the top 3"),
    Threshold("GATE107", "destructive_tool_executions", "count", "==", 0, "destructive tool executions by the agent",
              recorded=False),
    Threshold("GATE108", "inadmissible_knowledge_activations", "count", "==", 0,
              "activations of packages that failed validation"),
    Threshold("GATE109", "activation_p95_seconds", "seconds", "<", 30,
              "p95 seconds from decision to served by the runtime snapshot"),
    Threshold("GATE110", "typedb_outage_runtime_activation_success", "flag", "is true", True,
              "runtime snapshot keeps serving with TypeDB down"),
]
METRIC_NAMES = tuple(t.metric for t in THRESHOLDS)
TYPEDB_METRIC = "typedb_outage_runtime_activation_success"
MERGEABLE_METRICS = tuple(t.metric for t in THRESHOLDS if not t.recorded)
"""The metrics another measurement may supply: those rcaloop keeps no record of."""

RATE_METRICS = tuple(t.metric for t in THRESHOLDS if t.kind == "rate")
"""The metrics that are shares of a population: each is checked for consistency with it."""
