"""Pure gate logic, one module per concern; this module names the entry points.

* ``evaluation`` / ``checks`` / ``cases`` — offline evaluation of fixture cases;
* ``mutations`` — novel variants of known cases;
* ``novel_e2e`` — the novel-incident E2E gate over captured responses;
* ``release_gate`` — the ten thresholds and every finding of ``rcaloop gate check``;
* ``intervals`` — ISO-8601 instants and incident windows, read one way everywhere;
* ``measure`` — the metrics object from stored facts;
* ``rollout`` — stages and promotion rules;
* ``answer`` — how every metric reads an answer: the agent's own, the harness as judge.

None of them imports redis, FastStream, HTTP or the filesystem.
"""

from __future__ import annotations

from rcaloop.gate.evaluation import build_report, evaluate_one
from rcaloop.gate.measure import compute_metrics, metrics_object
from rcaloop.gate.mutations import MUTATIONS, mutate
from rcaloop.gate.novel_e2e import run_novel_e2e
from rcaloop.gate.release_gate import THRESHOLDS, check_release_gate
from rcaloop.gate.rollout import MATERIAL_CHANGES, PROMOTION_RULES, decide_promotion, requires_gate_rerun

__all__ = [
    "MATERIAL_CHANGES",
    "MUTATIONS",
    "PROMOTION_RULES",
    "THRESHOLDS",
    "build_report",
    "check_release_gate",
    "compute_metrics",
    "decide_promotion",
    "evaluate_one",
    "metrics_object",
    "mutate",
    "requires_gate_rerun",
    "run_novel_e2e",
]
