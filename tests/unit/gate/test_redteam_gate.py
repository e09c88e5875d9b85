"""Red team, second round: metrics files and rollouts written to pass the release gate.

Each test is a release owner's shortcut that the gate says yes to; it states the bypass and
fails until the gate refuses it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from rcaloop.gate.measure import StoredFacts, metrics_object
from rcaloop.gate.release_gate import check_release_gate
from rcaloop.gate.rollout import STAGES, Promotion, decide_promotion, state_of
from tests.unit.gate.test_release_gate import PASSING, PROVENANCE

WINDOW = "2026-11-01/2026-11-14"
MEASURED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_redteam_merge_cannot_supply_the_metrics_rcaloop_measures():
    """Bypass: ``gate measure --merge FILE`` fills *every* metric the window could not compute.
    A window with no reviews, no verdicts and no knowledge events leaves every metric but one
    missing, and a hand-written merge file then supplies known_top1, false_novel_rate,
    abstention_rate … — the gate passes on numbers nobody measured. The merge exists for what
    rcaloop cannot record (the agent's tool executions); a metric rcaloop measures from its own
    store must stay missing (and fail closed) when the store has no data for it."""
    empty = StoredFacts(verdicts=[], verdicts_by_hash={}, reviews=[], events=[])
    doc = metrics_object(empty, WINDOW, job_revision="measure@1", artifact="/tmp/m.json", measured_at=MEASURED,
                         merged=dict(PASSING), merged_from="hand-made.json sha256:0")
    assert doc["provenance"]["population"]["harness_verdicts"] == 0
    result = check_release_gate(json.dumps(doc).encode(), now=NOW)
    assert not result.passed, f"every metric came from the merge file: {doc['provenance']['merged']['metrics']}"


def test_redteam_a_measurement_of_nothing_does_not_pass():
    """Bypass: provenance is "complete" when ``population`` is a non-empty object — of zeros.
    A metrics object measured over no harness verdict, no evaluation and no annotation (every
    count 0) passes the gate: a rate over an empty population is no measurement."""
    empty = {"harness_verdicts": 0, "operator_evaluations": 0, "annotations": 0, "knowledge_events": 0, "activations": 0}
    raw = json.dumps({**PASSING, "provenance": {**PROVENANCE, "population": empty}}).encode()
    result = check_release_gate(raw, now=NOW)
    assert not result.passed, "a population of zero incidents measures nothing"


def _artifact(measured_at: datetime, window: str = WINDOW) -> bytes:
    return json.dumps({**PASSING, "provenance": {**PROVENANCE, "incident_window": window,
                                                 "measured_at": measured_at.isoformat()}}).encode()


def test_redteam_one_window_remeasured_cannot_walk_every_stage():
    """Bypass: "each promotion needs a fresh passing artifact", but freshness is only a later
    ``measured_at`` and new bytes. Re-measuring the same staging window (2026-11-01/14) four
    times — no new incident, the agent never run in shadow or assist — promotes staging →
    shadow → assist → authoritative, and ROLL107 compares "the shadow output" with staging when
    both are the same incidents. A stage's artifact must measure incidents after the previous
    promotion (its window starts at or after that decision), or the stage never ran."""
    decisions = []
    for i, stage in enumerate(STAGES):
        gate = check_release_gate(_artifact(MEASURED + timedelta(hours=i)), now=NOW)
        decision = decide_promotion(Promotion(stage, gate, state_of(decisions, None)))
        decisions.append(decision)
    passed = [d.stage for d in decisions if d.passed]
    assert passed == ["staging"], f"promoted on one staging window re-measured: {passed}"


def _codes(raw: dict) -> list[str]:
    return [e.code for e in check_release_gate(json.dumps(raw).encode(), now=NOW).errors]


def test_merge_fills_only_what_rcaloop_keeps_no_record_of():
    """Variant of the merge bypass: a merge file offering measured metrics gets only the tool executions."""
    empty = StoredFacts(verdicts=[], verdicts_by_hash={}, reviews=[], events=[])
    doc = metrics_object(empty, WINDOW, job_revision="measure@1", artifact="/tmp/m.json", measured_at=MEASURED,
                         merged={"destructive_tool_executions": 0, "known_top1": 1.0, "abstention_rate": 1.0}, merged_from="x.json sha256:0")
    assert doc["provenance"]["merged"]["metrics"] == ["destructive_tool_executions"]
    assert doc["known_top1"] is None and doc["abstention_rate"] is None
    assert "not taken from --merge" in doc["missing"]["known_top1"]


@pytest.mark.parametrize(
    "merged",
    [
        {"from": "hand-made.json", "metrics": ["known_top1"]},
        {"from": "hand-made.json", "metrics": ["destructive_tool_executions", "abstention_rate"]},
        {"from": "hand-made.json", "metrics": "known_top1"},  # unreadable: what was merged is unknown
        "known_top1",
    ],
)
def test_gate_check_refuses_an_artifact_that_merged_a_measured_metric(merged):
    raw = {**PASSING, "provenance": {**PROVENANCE, "merged": merged}}
    assert _codes(raw) == ["GATE210"]


def test_control_a_merged_tool_execution_count_passes():
    raw = {**PASSING, "provenance": {**PROVENANCE, "merged": {"from": "audit.json sha256:1", "metrics": ["destructive_tool_executions"]}}}
    assert _codes(raw) == []


@pytest.mark.parametrize(
    ("population", "codes"),
    [
        ({"harness_verdicts": 0, "operator_evaluations": 0}, ["GATE209"]),
        ("0 incidents", ["GATE209"]),
        ("all production incidents", ["GATE209"]),  # states no size
        ({"harness_verdicts": "412"}, ["GATE202"]),  # not counts
        ({"harness_verdicts": True}, ["GATE202"]),
        ({"harness_verdicts": -3, "annotations": 3}, ["GATE202"]),
    ],
)
def test_a_population_that_counts_nothing_fails(population, codes):
    assert _codes({**PASSING, "provenance": {**PROVENANCE, "population": population}}) == codes


@pytest.mark.parametrize("population", ["prod alerts, 412 incidents", {"harness_verdicts": 0, "operator_evaluations": 38}])
def test_control_a_population_that_counts_incidents_passes(population):
    assert _codes({**PASSING, "provenance": {**PROVENANCE, "population": population}}) == []
