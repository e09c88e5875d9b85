"""Rollout stages: each promotion rule refuses on its own and the happy path promotes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from rcaloop.contracts import KnowledgeEvent
from rcaloop.contracts.knowledge import Provenance
from rcaloop.gate.release_gate import check_release_gate
from rcaloop.gate.rollout import (
    PROMOTION_RULES, STAGES, Promotion, RolloutState, decide_promotion, requires_gate_rerun, state_of, status,
)
from tests.unit.gate.test_release_gate import PASSING, PROVENANCE

MEASURED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def artifact(**overrides):
    data = {**PASSING, "provenance": {**PROVENANCE, "measured_at": MEASURED.isoformat()}}
    data.update(overrides)
    return json.dumps(data).encode()


def promote(stage, raw=None, **state):
    gate = check_release_gate(raw or artifact())
    return decide_promotion(Promotion(stage, gate, RolloutState(**state)))


def codes(decision) -> list[str]:
    return [r.split()[0] for r in decision.reasons]


STAGE_WINDOWS = ("2026-11-01/2026-11-14", "2026-11-16/2026-11-18", "2026-11-20/2026-11-22", "2026-11-24/2026-11-26")
"""One window per stage, each after the previous promotion: every stage measures its own output."""
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_happy_path_through_every_stage():
    decisions = []
    for i, (stage, window) in enumerate(zip(STAGES, STAGE_WINDOWS, strict=True)):
        measured = datetime.fromisoformat(window.split("/")[1]).replace(hour=6, tzinfo=UTC) + timedelta(days=1)
        raw = artifact(known_top1=0.95 + i / 100,
                       provenance={**PROVENANCE, "incident_window": window, "measured_at": measured.isoformat()})
        state = state_of(decisions, None)
        decision = decide_promotion(Promotion(stage, check_release_gate(raw, now=NOW), state),
                                    decided_at=measured + timedelta(hours=1))
        assert decision.passed, decision.reasons
        assert decision.kind == "promotion" and decision.stage == stage
        decisions.append(decision)
    assert decisions[2].comparison["regressed"] == []
    assert decisions[2].comparison["deltas"]["known_top1"]["delta"] == 0.02


def test_stage_order_is_enforced():
    assert codes(promote("shadow")) == ["ROLL101"]
    assert codes(promote("assist", current_stage="staging"))[0] == "ROLL101"
    assert codes(promote("staging", current_stage="authoritative")) == ["ROLL101"]


def test_a_failing_or_synthetic_artifact_is_refused():
    assert codes(promote("staging", artifact(known_top1=0.5))) == ["ROLL102"]
    assert "ROLL102" in codes(promote("staging", artifact(synthetic=True)))


def test_an_artifact_used_before_is_not_fresh():
    first = promote("staging")
    assert codes(
        promote("shadow", current_stage="staging", used_artifacts=frozenset({first.artifact_hash}))) == ["ROLL103"]


def test_an_artifact_measured_before_the_last_material_knowledge_change_is_not_fresh():
    assert codes(promote("staging", last_material_change=MEASURED + timedelta(minutes=1))) == ["ROLL104"]
    assert promote("staging", last_material_change=MEASURED - timedelta(minutes=1)).passed
    no_time = json.loads(artifact())
    del no_time["provenance"]["measured_at"]
    assert codes(promote("staging", json.dumps(no_time).encode())) == ["ROLL104"]


def test_typedb_outage_check_is_named_for_authoritative():
    raw = artifact(typedb_outage_runtime_activation_success=False)
    assert set(codes(promote("authoritative", raw, current_stage="assist"))) == {"ROLL102", "ROLL105"}


def test_every_promotion_rule_is_exercised():
    assert [r.code for r in PROMOTION_RULES] == ["ROLL101", "ROLL102", "ROLL103", "ROLL104", "ROLL105", "ROLL106",
                                                 "ROLL107", "ROLL108"]


def _event(kind: str) -> KnowledgeEvent:
    return KnowledgeEvent(event_id=f"ev-{kind}", kind=kind, package_id="p1", analysis_hash="h",
                          evidence_source="ledger",
                          provenance=Provenance(promotion_path="ledger"))


@pytest.mark.parametrize(("kind", "rerun"),
                         [("approved", True), ("activated", True), ("candidate", False), ("shadowed", False),
                          ("rejected", False)])
def test_material_knowledge_changes_require_a_gate_rerun(kind, rerun):
    assert requires_gate_rerun(_event(kind)) is rerun


def test_status_flags_a_rerun_after_a_material_change():
    decision = promote("staging")
    st = status([decision], None, {})
    assert st.current_stage == "staging" and st.next_stage == "shadow" and not st.needs_rerun
    assert status([decision], MEASURED + timedelta(hours=1), {}).needs_rerun
    assert not status([decision], MEASURED - timedelta(hours=1), {}).needs_rerun
    refused = promote("shadow")
    assert status([refused], None, {}).current_stage is None


# -- any failing gate blocks every stage -----------------------------------------------------------
@pytest.mark.parametrize("stage", STAGES)
def test_a_failing_typedb_outage_check_blocks_every_stage(stage):
    previous = STAGES[STAGES.index(stage) - 1] if stage != "staging" else None
    decision = promote(stage, artifact(typedb_outage_runtime_activation_success=False), current_stage=previous)
    assert not decision.passed and "ROLL102" in codes(decision)
    assert any("GATE110" in r for r in decision.reasons)


# -- a new artifact is new content, not a new spelling -----------------------------------------------
def test_a_copy_differing_only_in_whitespace_is_not_a_new_artifact():
    first = promote("staging")
    copy = json.dumps(json.loads(artifact()), indent=3).encode()
    again = promote("shadow", copy, current_stage="staging", used_artifacts=frozenset({first.artifact_hash}))
    assert "ROLL103" in codes(again)


def test_each_stage_needs_a_new_measurement():
    staging = promote("staging")
    edited = artifact(_comment="re-exported")  # new bytes and content, same measurement
    again = promote("shadow", edited, current_stage="staging", used_artifacts=frozenset({staging.artifact_hash}),
                    last_measured_at=MEASURED)
    assert codes(again) == ["ROLL106"]
    later = artifact(provenance={**PROVENANCE, "incident_window": "2026-11-15/2026-11-20",
                                 "measured_at": (MEASURED + timedelta(days=1)).isoformat()})
    assert promote("shadow", later, current_stage="staging", used_artifacts=frozenset({staging.artifact_hash}),
                   last_measured_at=MEASURED).passed


# -- shadow is compared with staging before assist ------------------------------------------------------
def _measured(days: int, **metrics) -> bytes:
    return artifact(provenance={**PROVENANCE, "measured_at": (MEASURED + timedelta(days=days)).isoformat()}, **metrics)


def test_promotion_to_assist_compares_the_shadow_artifact_with_staging():
    staging = promote("staging", _measured(0, known_top1=0.98))
    state = dict(current_stage="shadow", staging=staging, last_measured_at=MEASURED + timedelta(days=1))
    worse = promote("assist", _measured(2, known_top1=0.96), **state)
    assert codes(worse) == ["ROLL107"] and "known_top1" in worse.reasons[0]
    assert worse.comparison["stage"] == "staging" and worse.comparison["regressed"] == ["known_top1"]
    same = promote("assist", _measured(2, known_top1=0.98), **state)
    assert same.passed and same.comparison["regressed"] == []
    tolerated = promote("assist", _measured(2, known_top1=0.96), shadow_max_regression=0.02, **state)
    assert tolerated.passed


def test_the_comparison_needs_the_same_measurement_and_a_staging_artifact():
    staging = promote("staging", _measured(0))
    other_job = _measured(2)
    other_job = json.dumps(
        {**json.loads(other_job),
         "provenance": {**json.loads(other_job)["provenance"], "job_revision": "measure@other"}}).encode()
    refused = promote("assist", other_job, current_stage="shadow", staging=staging)
    assert codes(refused) == ["ROLL107"] and "job_revision" in refused.reasons[0]
    assert codes(promote("assist", _measured(2), current_stage="shadow")) == ["ROLL107"]  # no staging artifact recorded


# -- rejecting an active package changes the runtime knowledge --------------------------------------
def test_rejecting_an_activated_package_requires_a_gate_rerun():
    retired = KnowledgeEvent(event_id="ev-r", kind="rejected", package_id="p1", analysis_hash="h",
                             evidence_source="ledger",
                             provenance=Provenance(promotion_path="ledger"), detail={"from_state": "activated"})
    assert requires_gate_rerun(retired)
    candidate_rejected = retired.model_copy(update={"detail": {"from_state": "candidate"}})
    assert not requires_gate_rerun(candidate_rejected)


def test_a_recorded_future_measurement_never_hides_a_later_knowledge_change():
    decision = promote("staging")
    decision.provenance["measured_at"] = "2999-01-01T00:00:00+00:00"  # recorded before future timestamps were refused
    assert status([decision], decision.created_at + timedelta(minutes=1), {}).needs_rerun


# -- each stage measures its own output --------------------------------------------------------------
def test_the_same_window_measured_again_is_the_same_artifact():
    """Only ``measured_at`` differs: the same figures of the same incidents are not a fresh artifact."""
    staging = promote("staging")
    again = promote("shadow", _measured(1), current_stage="staging", used_artifacts=frozenset({staging.artifact_hash}))
    assert codes(again) == ["ROLL103"]


def test_a_stage_is_measured_on_incidents_after_the_previous_promotion():
    promoted_at = datetime(2026, 11, 15, 9, 0, tzinfo=UTC)
    staging = decide_promotion(Promotion("staging", check_release_gate(artifact(), now=NOW), state_of([], None)),
                               decided_at=promoted_at)
    state = state_of([staging], None)

    def shadow(window: str):
        raw = artifact(provenance={**PROVENANCE, "incident_window": window, "measured_at": "2026-11-29T00:00:00Z"})
        return decide_promotion(Promotion("shadow", check_release_gate(raw, now=NOW), state))

    assert codes(shadow("2026-11-10/2026-11-28")) == ["ROLL108"]  # overlaps the staging incidents
    assert codes(shadow("2026-11-15T08:59:59Z/2026-11-28")) == ["ROLL108"]  # one second before the promotion
    assert shadow("2026-11-15T09:00:00Z/2026-11-28").passed  # control: from the promotion on
    assert shadow("2026-11-16/2026-11-28").passed
    assert set(codes(shadow("last two weeks"))) == {"ROLL102", "ROLL108"}  # unreadable: cannot be shown
