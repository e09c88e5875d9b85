"""Rollout stages: each promotion rule refuses on its own and the happy path promotes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from rcaloop.contracts import KnowledgeEvent
from rcaloop.contracts.knowledge import Provenance
from rcaloop.gate.release_gate import check_release_gate
from rcaloop.gate.rollout import PROMOTION_RULES, STAGES, Promotion, RolloutState, decide_promotion, requires_gate_rerun, required_metrics, status
from tests.unit.gate.test_release_gate import PASSING, PROVENANCE

MEASURED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def artifact(**overrides):
    data = {**PASSING, "provenance": {**PROVENANCE, "measured_at": MEASURED.isoformat()}}
    data.update(overrides)
    return json.dumps(data).encode()


def promote(stage, raw=None, **state):
    gate = check_release_gate(raw or artifact(), required=required_metrics(stage))
    measured = gate.provenance.get("measured_at")
    at = datetime.fromisoformat(measured) if measured else None
    return decide_promotion(Promotion(stage, gate, at, RolloutState(**state)))


def codes(decision) -> list[str]:
    return [r.split()[0] for r in decision.reasons]


def test_happy_path_through_every_stage():
    current, used = None, frozenset()
    for i, stage in enumerate(STAGES):
        decision = promote(stage, artifact(known_top1=0.95 + i / 100), current_stage=current, used_artifacts=used)
        assert decision.passed, decision.reasons
        assert decision.kind == "promotion" and decision.stage == stage
        current, used = stage, used | {decision.artifact_hash}


def test_stage_order_is_enforced():
    assert codes(promote("shadow")) == ["ROLL101"]
    assert codes(promote("assist", current_stage="staging")) == ["ROLL101"]
    assert codes(promote("staging", current_stage="authoritative")) == ["ROLL101"]


def test_a_failing_or_synthetic_artifact_is_refused():
    assert codes(promote("staging", artifact(known_top1=0.5))) == ["ROLL102"]
    assert "ROLL102" in codes(promote("staging", artifact(synthetic=True)))


def test_an_artifact_used_before_is_not_fresh():
    first = promote("staging")
    assert codes(promote("shadow", current_stage="staging", used_artifacts=frozenset({first.artifact_hash}))) == ["ROLL103"]


def test_an_artifact_measured_before_the_last_material_knowledge_change_is_not_fresh():
    assert codes(promote("staging", last_material_change=MEASURED + timedelta(minutes=1))) == ["ROLL104"]
    assert promote("staging", last_material_change=MEASURED - timedelta(minutes=1)).passed
    no_time = json.loads(artifact())
    del no_time["provenance"]["measured_at"]
    assert codes(promote("staging", json.dumps(no_time).encode())) == ["ROLL104"]


def test_typedb_outage_check_blocks_only_authoritative():
    raw = artifact(typedb_outage_runtime_activation_success=False)
    assert promote("assist", raw, current_stage="shadow").passed
    assert set(codes(promote("authoritative", raw, current_stage="assist"))) == {"ROLL102", "ROLL105"}


def test_every_promotion_rule_is_exercised():
    assert [r.code for r in PROMOTION_RULES] == ["ROLL101", "ROLL102", "ROLL103", "ROLL104", "ROLL105"]


def _event(kind: str) -> KnowledgeEvent:
    return KnowledgeEvent(event_id=f"ev-{kind}", kind=kind, package_id="p1", analysis_hash="h", evidence_source="ledger",
                          provenance=Provenance(promotion_path="ledger"))


@pytest.mark.parametrize(("kind", "rerun"), [("approved", True), ("activated", True), ("candidate", False), ("shadowed", False), ("rejected", False)])
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
